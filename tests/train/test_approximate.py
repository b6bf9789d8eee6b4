"""Approximate NashConv (``pagadores_train.learners.approximate``): learned best responses against
the exact ones on a small table, paired games against the exact evaluation, and its refusals."""

from __future__ import annotations

import random

import numpy as np
import pytest

from pagadores_agents.search.player import searcher
from pagadores_agents.search.value_net import ValueNet
from pagadores_env.core.policies import BasePolicy, make_policy
from pagadores_env.pagadores.engine import Game, Phase
from pagadores_env.pagadores.solver import exact_evaluate, nash_conv
from pagadores_env.pagadores.solver.model import PROB
from pagadores_env.pagadores.solver.scores import score_states
from pagadores_train.learners import approximate
from pagadores_train.learners.approximate import (
    approximate_nash_conv,
    learn_response,
    paired_gain,
    seated,
    throw_values,
)
from pagadores_train.learners.search.learn import LearnSettings
from tests.dice import random_step

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


@pytest.mark.slow
def test_removing_the_luck_keeps_the_gain_and_narrows_its_interval(monkeypatch) -> None:
    """The luck terms average 0 (the corrected gain still measures the exact one) and take
    most of the dice's noise out of the pairs: a narrower interval on the same games."""
    n, cards = 3, (3, 3, 3)
    exact = nash_conv("sensible", n, 3)
    players = seated([make_policy("sensible", seat=s) for s in range(n)], n)
    response = learn_response(players, 0, cards, 300, SMALL, seed=0).player()
    lineup = [response, *players[1:]]
    gain = exact_evaluate(lineup, n, 3)[0] - exact.values[0]
    corrected, narrow, won, base = paired_gain(response, players, 0, cards, 800, seed=2)
    assert abs(corrected - gain) <= 4 * narrow
    monkeypatch.setattr(approximate, "round_luck", lambda search, seat: lambda game, y: 0.0)
    played, wide, won_again, base_again = paired_gain(response, players, 0, cards, 800, seed=2)
    assert (won, base) == (won_again, base_again)  # the same games
    assert played == pytest.approx(won - base)  # without the luck terms: the wins as played
    assert narrow < wide / 2


@pytest.mark.parametrize("specials", [None, 0])
def test_a_throws_values_average_to_the_searched_value_before_it(specials) -> None:
    """Where every seat maximises in the search, the values after a throw weighted by the
    dice's odds are the searched value before it (a special landing as the search lands it,
    followed or shifted), for every seat: so along the search's own play each luck term is a
    throw's surprise and nothing else."""
    net = ValueNet.new(3, seed=2)  # its last layer starts at 0 (every seat alike): not here
    w, b = net.layers[-1]
    net.layers[-1] = (np.random.default_rng(2).normal(0, 1, w.shape), b)
    search = searcher(net, 1, specials=specials)
    rng = random.Random(4)
    checked = 0
    for _ in range(6):
        game = Game(3, 4)
        while not game.is_terminal():
            if game.is_chance_node() and game.phase == Phase.ROUND:
                order, role = game.order, game.pos
                position = search.position(tuple(game.cards), game.insteker)
                q = score_states(len(order), False).index([game.scores[s] for s in order[:role]])
                before = position.before[(role, game.throw_limit or 0, game.throws + 1)][q][0]
                for seat in range(3):
                    assert PROB @ throw_values(search, seat, game) == pytest.approx(
                        before[seat], abs=1e-12)
                checked += 1
            random_step(game, rng)
    assert checked > 50


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
        assert s.half_width >= 0 and 0 <= s.response_win <= 1 and 0 <= s.profile_win <= 1


def test_scored_exactly_each_learned_response_sits_beside_the_best_one() -> None:
    result = approximate_nash_conv("sensible", 3, 2, budget=60, games=20, seed=1,
                                   settings=SMALL, score_exactly=True)
    exact = nash_conv("sensible", 3, 2)
    for s in result.seats:
        assert s.best_gain == exact.gains[s.seat]
        assert s.exact_gain is not None and s.exact_gain <= s.best_gain + 1e-9
    learned = sum(s.exact_gain or 0.0 for s in result.seats)
    assert result.exact_share == pytest.approx(learned / exact.total, abs=1e-12)
    assert 0 < result.exact_share <= 1 + 1e-9
    plain = approximate_nash_conv("sensible", 3, 2, budget=60, games=20, seed=1,
                                  settings=SMALL)
    assert plain.exact_share is None and plain.seats[0].exact_gain is None
    # the same learning and games: only the exact columns are added
    assert [s.gain for s in plain.seats] == [s.gain for s in result.seats]


def test_scoring_exactly_where_the_solver_cannot_go_is_refused_before_learning(
        monkeypatch) -> None:
    monkeypatch.setattr(approximate, "learn_response", lambda *a, **k: pytest.fail("learned"))
    with pytest.raises(ValueError, match="too big to compute NashConv of exactly") as err:
        approximate_nash_conv("sensible", 6, 10, settings=SMALL, score_exactly=True)
    assert "\n" not in str(err.value)


@pytest.mark.slow
def test_seats_computed_side_by_side_give_the_same_result() -> None:
    alone = approximate_nash_conv("sensible", 2, 2, budget=60, games=30, seed=3,
                                  settings=SMALL)
    assert approximate_nash_conv("sensible", 2, 2, budget=60, games=30, seed=3,
                                 settings=SMALL, workers=2) == alone


def test_side_by_side_seats_need_agent_specs() -> None:
    class Local(BasePolicy):  # a class of a function's own cannot go to another process
        name = "local"

        def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
            return 0

    with pytest.raises(ValueError, match=r"workers=2: the profile must be agent specs") as err:
        approximate_nash_conv(Local(), 2, 2, budget=10, games=2, settings=SMALL, workers=2)
    assert "\n" not in str(err.value)


class ReadsEveryScore(BasePolicy):
    name = "reads-all"
    score_view = "all"

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        return 0


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"budget": 0}, r"budget must be"),
    ({"games": 1}, r"games must be"),
    ({"num_players": 7}, r"num_players must be"),
    ({"workers": 0}, r"workers must be"),
    ({"profile": ReadsEveryScore()}, r"must read only the score to beat"),
])
def test_bad_arguments_are_refused_in_one_line(kwargs, message) -> None:
    arguments = {"profile": "sensible", "num_players": 2, "cards": 2} | kwargs
    with pytest.raises(ValueError, match=message) as err:
        approximate_nash_conv(**arguments, settings=SMALL)
    assert "\n" not in str(err.value)
