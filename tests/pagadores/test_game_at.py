"""A game rebuilt from an observation (``observation.game_at``, ``Game.at_decision``): the
observation is sufficient (R7.1), so the rebuilt game must play on exactly as the real one."""

from __future__ import annotations

import numpy as np
import pytest

from pagadores_env.pagadores.engine import Game
from pagadores_env.pagadores.observation import encode, game_at


def _play_to_decisions(rng: np.random.Generator, games: int):
    """Every decision of ``games`` random games, with the game there."""
    for _ in range(games):
        n = int(rng.integers(2, 7))
        game = Game(n, int(rng.integers(1, 11)), int(rng.integers(n)))
        while not game.is_terminal():
            if game.is_chance_node():
                outcomes = game.chance_outcomes()
                pick = rng.choice(len(outcomes), p=[p for _, p in outcomes])
                game.apply_throw(outcomes[pick][0])
            else:
                yield game
                game.apply_action(int(rng.integers(2)))


def test_a_game_rebuilt_from_an_observation_shows_it_and_plays_on_alike() -> None:
    # R7.1: from any decision, the same later inputs give the same observations and winner
    rng = np.random.default_rng(7)
    for k, game in enumerate(_play_to_decisions(rng, 60)):
        seat = game.current_player
        built = game_at(encode(game, seat), seat)
        assert np.array_equal(encode(built, seat), encode(game, seat))
        if k % 5:
            continue
        real, copy = game.clone(), built
        future = np.random.default_rng(k)
        while not real.is_terminal():
            assert copy.current_player == real.current_player
            assert np.array_equal(encode(copy, real.current_player),
                                  encode(real, real.current_player))
            if real.is_chance_node():
                dice = real.chance_outcomes()[int(future.integers(56))][0]
                real.apply_throw(dice)
                copy.apply_throw(dice)
            else:
                action = int(future.integers(2))
                real.apply_action(action)
                copy.apply_action(action)
        assert copy.is_terminal() and copy.returns() == real.returns()


def test_a_rebuilt_game_cannot_be_saved_and_no_decision_is_refused_in_one_line() -> None:
    game = Game(3, 5)
    game.apply_throw((2, 3, 4))
    built = game_at(encode(game, 0), 0)
    with pytest.raises(ValueError, match="started at a decision"):
        built.to_dict()
    assert built != Game(3, 5)  # no history, yet not the game at its start
    with pytest.raises(ValueError, match="no decision") as err:
        game_at(encode(Game(3, 5), 0), 0)  # seat 0 holds no throw yet
    assert "\n" not in str(err.value)
    with pytest.raises(ValueError, match="seat must be 0–2"):
        game_at(encode(game, 0), 3)
    with pytest.raises(ValueError, match="no decision after 3 throws"):
        Game.at_decision([5, 5, 5], 0, 0, [-1, -1, -1], 0, 3, 20)
    with pytest.raises(ValueError, match="Picaro"):
        Game.at_decision([5, 5, 5], 0, 0, [-1, -1, -1], 0, 1, 0)
