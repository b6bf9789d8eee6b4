"""Approximate NashConv (``pagadores_train.approximate``): learned best responses against the
exact ones on a small table, paired games against the exact evaluation, and its refusals."""

from __future__ import annotations

import numpy as np
import pytest

from pagadores_env.core.policies import BasePolicy, make_policy
from pagadores_env.pagadores.solver import exact_evaluate, nash_conv
from pagadores_train.approximate import (
    approximate_nash_conv,
    learn_response,
    paired_gain,
    seated,
)
from pagadores_train.search_learn import LearnSettings

SMALL = LearnSettings(games=40, hidden=(32, 32), fit_steps=100)


@pytest.mark.slow
def test_learned_best_responses_reach_the_exact_gain_and_the_pairs_measure_it() -> None:
    n, cards = 3, (2, 2, 2)
    exact = nash_conv("sensible", n, 2)
    players = seated([make_policy("sensible", seat=s) for s in range(n)], n)
    learned = 0.0
    for seat in range(n):
        response = learn_response(players, seat, cards, 600, SMALL, seed=seat).player()
        lineup = list(players)
        lineup[seat] = response
        gain = exact_evaluate(lineup, n, 2)[seat] - exact.values[seat]
        assert gain <= exact.gains[seat] + 1e-9  # never above the best response
        learned += gain
        measured, half, _, _ = paired_gain(response, players, seat, cards, 600, seed=1)
        assert abs(measured - gain) <= 4 * half + 1e-9
    assert learned >= 0.8 * exact.total


def test_the_result_adds_up_is_seeded_and_counts_its_budget() -> None:
    def run():
        return approximate_nash_conv("sensible", 2, 2, budget=60, games=30, seed=3,
                                     settings=SMALL)
    first, again = run(), run()
    assert first == again
    assert len(first.seats) == 2
    assert first.total == pytest.approx(sum(s.gain for s in first.seats))
    assert all(s.decisions >= 60 and s.games == 30 for s in first.seats)
    assert first.decisions == sum(s.decisions for s in first.seats)
    for s in first.seats:
        assert s.gain == pytest.approx(s.response_win - s.profile_win)
        assert s.half_width >= 0


class ReadsEveryScore(BasePolicy):
    name = "reads-all"
    score_view = "all"

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        return 0


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"budget": 0}, r"budget must be"),
    ({"games": 1}, r"games must be"),
    ({"num_players": 7}, r"num_players must be"),
    ({"profile": ReadsEveryScore()}, r"must read only the score to beat"),
])
def test_bad_arguments_are_refused_in_one_line(kwargs, message) -> None:
    arguments = {"profile": "sensible", "num_players": 2, "cards": 2} | kwargs
    with pytest.raises(ValueError, match=message) as err:
        approximate_nash_conv(**arguments, settings=SMALL)
    assert "\n" not in str(err.value)
