"""An evaluation or NashConv too big for one pass takes one pass per seat, that seat's value
alone (``passes.plan``, ``Sweep``'s ``tracked``): the numbers are the one pass's."""

from __future__ import annotations

import numpy as np
import pytest

from pagadores_env.core.policies import BasePolicy
from pagadores_env.pagadores.solver import exact_evaluate_starts, passes
from pagadores_env.pagadores.solver.cost import SolveCost, solve_cost
from pagadores_env.pagadores.solver.equilibrium import nash_conv_and_evaluate
from pagadores_env.pagadores.solver.sweep import Sweep

PROFILES = [(3, 3, ["sensible", "lookahead", "random"]),
            (4, [2, 1, 0, 2], ["lookahead", "sensible", "threshold", "random"])]


@pytest.fixture
def one_pass_too_big(monkeypatch):
    """Makes every one-pass plan too big, so ``passes.plan`` takes the per-seat passes."""
    def without_room(*args, **kwargs) -> SolveCost:
        cost = solve_cost(*args, **kwargs)
        return SolveCost(cost.positions, cost.rows, 10**30)

    def run(call):
        monkeypatch.setattr(passes, "solve_cost", without_room)
        try:
            return call()
        finally:
            monkeypatch.setattr(passes, "solve_cost", solve_cost)
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

    monkeypatch.setattr(passes, "Sweep", Recorded)
    one_pass_too_big(lambda: nash_conv_and_evaluate("sensible", [], 3, 2))
    assert shapes == [((seat,), (2, 1)) for seat in range(3)]  # the profile, the response


def test_a_pass_that_fits_but_is_above_the_one_pass_size_is_split_per_seat(
        monkeypatch) -> None:
    whole = passes.plan(["sensible"], 3, 2, True, "test")
    assert [p.tracked for p in whole.passes] == [(0, 1, 2)]
    monkeypatch.setattr(passes, "ONE_PASS_BYTES", whole.passes[0].bytes - 1)
    split = passes.plan(["sensible"], 3, 2, True, "test")
    assert [p.tracked for p in split.passes] == [(0,), (1,), (2,)]
    assert all(p.bytes < whole.passes[0].bytes for p in split.passes)


def test_a_maximising_seat_must_be_tracked() -> None:
    with pytest.raises(ValueError, match=r"including every seat that maximises \(\[1\]\)"):
        Sweep((2, 2), [(False, True)], {0: object()}, full=False, tracked=(0,))


@pytest.mark.slow
def test_passes_side_by_side_in_processes_give_the_same_numbers(one_pass_too_big) -> None:
    told: list[tuple[int, int]] = []
    alone = one_pass_too_big(lambda: nash_conv_and_evaluate("lookahead", [], 3, 2))[0]
    apart = one_pass_too_big(lambda: nash_conv_and_evaluate(
        "lookahead", [], 3, 2, workers=2, progress=lambda d, t: told.append((d, t))))[0]
    assert apart == alone  # each pass computes the same numbers wherever it runs
    assert told and told[-1][0] == told[-1][1]  # the passes' progress, told as one
    assert all(t == told[0][1] for _, t in told)


def test_passes_elsewhere_need_agent_specs(one_pass_too_big) -> None:
    class Local(BasePolicy):  # a class of a function's own cannot go to another process
        name = "local"

        def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
            return 0

    with pytest.raises(ValueError, match="must be agent specs") as err:
        one_pass_too_big(lambda: nash_conv_and_evaluate(Local(), [], 3, 2, workers=2))
    assert "\n" not in str(err.value)


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"backend": "slurm"}, "backend must be one of local, ray, got 'slurm'"),
    ({"workers": 0}, "workers must be"),
    ({"address": "head:6379"}, "address is for backend='ray'"),
])
def test_bad_pass_options_are_refused_in_one_line(kwargs, message) -> None:
    with pytest.raises(ValueError, match=message):
        nash_conv_and_evaluate("sensible", [], 3, 2, **kwargs)


@pytest.mark.slow
def test_passes_as_ray_tasks_give_the_same_numbers(one_pass_too_big) -> None:
    told: list[tuple[int, int]] = []
    alone = one_pass_too_big(lambda: nash_conv_and_evaluate("lookahead", [], 3, 2))[0]
    apart = one_pass_too_big(lambda: nash_conv_and_evaluate(
        "lookahead", [], 3, 2, workers=2, backend="ray",
        progress=lambda d, t: told.append((d, t))))[0]
    assert apart == alone
    assert [d * 3 // t for d, t in told] == [1, 2, 3]  # one line a finished pass of three
