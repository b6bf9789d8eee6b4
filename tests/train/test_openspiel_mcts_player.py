"""OpenSpiel's MCTS bot as a player (``pagadores_agents.openspiel_mcts``): it searches
``python_pagadores`` from the game an observation rebuilds (R7.1), plays whole games in the
evaluators and tournaments, and is refused by the exact passes it would ask millions of times."""

from __future__ import annotations

import numpy as np
import pytest

from pagadores_env.core.policies import make_policy
from pagadores_env.pagadores.engine import Game
from pagadores_env.pagadores.observation import encode
from pagadores_env.pagadores.solver import nash_conv
from pagadores_train.evaluation.evaluate import evaluate_agents
from pagadores_train.evaluation.tournament import tournament

MCTS = "openspiel-mcts:simulations=20"


def test_it_plays_whole_three_player_games_reproducibly_with_the_exact_columns_left_out() -> None:
    runs = [evaluate_agents([MCTS, "sensible"], 3, 12, seed=5, cards=3) for _ in range(2)]
    first = runs[0].rows[0]
    assert first.trials == 12 and first.seat_counts == (4, 4, 4)
    assert runs[1].rows[0].wins == first.wins  # seeded: the same games, bit for bit
    assert not runs[0].has_exact and "Monte Carlo only" in runs[0].exact_note


def test_at_four_players_the_rotation_seats_each_copy_and_an_unseated_one_is_refused() -> None:
    result = evaluate_agents([MCTS, "sensible"], 4, 4, seed=1, cards=2)
    assert result.rows[0].seat_counts == (1, 1, 1, 1)  # each seat's copy played once
    game = Game(4, 3)
    game.apply_throw((2, 3, 4))
    obs, mask = encode(game, 0), np.array([1, 1], np.int8)
    with pytest.raises(ValueError, match="needs its seat") as err:
        make_policy(MCTS).act(obs, mask)
    assert "\n" not in str(err.value)
    assert make_policy(MCTS + ",seat=0").act(obs, mask) in (0, 1)


def test_its_search_stops_on_a_celebro_and_throws_again_when_stopping_loses() -> None:
    player = make_policy("openspiel-mcts:simulations=200,seed=3")
    both = np.array([1, 1], np.int8)
    game = Game(2, 10)
    game.apply_throw((1, 1, 1))  # R4.1: a Celebro, the best score there is (R2.3)
    assert player.act(encode(game, 0), both) == 0
    game = Game(2, 10)
    game.apply_throw((2, 3, 4))
    game.apply_action(1)
    game.apply_throw((2, 3, 5))
    game.apply_action(0)  # seat 0 scores 10 points with two throws: the limit is 2 (R3.2)
    game.apply_throw((2, 2, 4))  # 8 points, the worst: stopping loses the round (R3.5)
    assert player.act(encode(game, 1), both) == 1


def test_the_exact_passes_and_exact_columns_refuse_it_in_one_line() -> None:
    with pytest.raises(ValueError, match="plays Monte Carlo only") as err:
        nash_conv([MCTS, "sensible", "sensible"], 3, 2)
    assert "\n" not in str(err.value)
    with pytest.raises(ValueError, match="no exact columns"):
        evaluate_agents([MCTS, "sensible"], 2, 2, cards=2, exact=True)


def test_a_tournament_seats_it_and_bad_settings_are_refused() -> None:
    result = tournament([MCTS, "sensible", "random"], num_games=6, seed=0, cards=2)
    assert len(result.labels) == 3 and result.num_games == 6
    for bad in ("simulations=0", "rollouts=-1", "uct_c=0"):
        with pytest.raises(ValueError) as err:
            make_policy(f"openspiel-mcts:{bad}")
        assert "\n" not in str(err.value)
