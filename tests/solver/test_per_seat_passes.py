"""An evaluation or NashConv too big for one pass takes one pass per seat, that seat's value
alone (``equilibrium._plan``, ``Sweep``'s ``tracked``): the numbers are the one pass's."""

from __future__ import annotations

import numpy as np
import pytest

from pagadores_env.pagadores.solver import equilibrium, exact_evaluate_starts
from pagadores_env.pagadores.solver.cost import SolveCost, solve_cost
from pagadores_env.pagadores.solver.equilibrium import nash_conv_and_evaluate
from pagadores_env.pagadores.solver.sweep import Sweep

PROFILES = [(3, 3, ["sensible", "lookahead", "random"]),
            (4, [2, 1, 0, 2], ["lookahead", "sensible", "threshold", "random"])]


@pytest.fixture
def one_pass_too_big(monkeypatch):
    """Makes every one-pass plan too big, so ``_plan`` takes the per-seat passes."""
    def without_room(*args, **kwargs) -> SolveCost:
        cost = solve_cost(*args, **kwargs)
        return SolveCost(cost.positions, cost.rows, 10**30)

    def run(call):
        monkeypatch.setattr(equilibrium, "solve_cost", without_room)
        try:
            return call()
        finally:
            monkeypatch.setattr(equilibrium, "solve_cost", solve_cost)
    return run


@pytest.mark.parametrize(("n", "cards", "profile"), PROFILES)
def test_per_seat_passes_give_the_one_passs_nashconv_and_lineups(n, cards, profile,
                                                                 one_pass_too_big) -> None:
    lineups = [["stop-first"] * n, ["sensible"] * n]

    def measure():
        return nash_conv_and_evaluate(profile, lineups, n, cards, first_insteker=1)

    (one, one_lineups), (apart, apart_lineups) = measure(), one_pass_too_big(measure)
    for field in ("gains", "values", "best_responses"):
        np.testing.assert_allclose(getattr(apart, field), getattr(one, field), rtol=0,
                                   atol=1e-12, err_msg=field)
    assert apart.total == pytest.approx(one.total, abs=1e-12)
    assert apart_lineups == one_lineups  # the other profiles: one pass of their own


@pytest.mark.parametrize(("n", "cards", "profile"), PROFILES)
def test_per_seat_passes_give_the_one_passs_evaluation(n, cards, profile,
                                                       one_pass_too_big) -> None:
    one = exact_evaluate_starts(profile, n, cards)
    apart = one_pass_too_big(lambda: exact_evaluate_starts(profile, n, cards))
    assert one.keys() == apart.keys()
    for first in one:
        np.testing.assert_allclose(apart[first], one[first], rtol=0, atol=1e-12)


def test_a_seat_pass_carries_that_seats_values_alone(one_pass_too_big, monkeypatch) -> None:
    shapes = []

    class Recorded(Sweep):
        def run(self, progress=None) -> None:
            super().run(progress)
            shapes.append((self.tracked, self.win[(self.start, 0)].shape))

    monkeypatch.setattr(equilibrium, "Sweep", Recorded)
    one_pass_too_big(lambda: nash_conv_and_evaluate("sensible", [], 3, 2))
    assert shapes == [((seat,), (2, 1)) for seat in range(3)]  # the profile, the response


def test_a_maximising_seat_must_be_tracked() -> None:
    with pytest.raises(ValueError, match=r"including every seat that maximises \(\[1\]\)"):
        Sweep((2, 2), [(False, True)], {0: object()}, full=False, tracked=(0,))
