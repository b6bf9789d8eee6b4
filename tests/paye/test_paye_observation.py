"""Paye's observation codec: what ``encode`` writes is what the game says, from the observer's
seat, and ``decode`` reads it back; ``decision_rows`` writes the same rows as ``encode``."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pagadores_env.paye.engine import Game
from pagadores_env.paye.observation import (
    FIELDS,
    OBS_SIZE,
    SLICES,
    decision_rows,
    decode,
    encode,
    field_table,
)


def games_along(players: int, variant: str, seed: int, dice=None):
    """Every state of one random game, from its start to its end."""
    pick = random.Random(seed)
    game = Game(players, variant, dice=dice, rounds=pick.randint(1, 4))
    yield game.clone()
    while not game.is_terminal():
        if game.is_chance_node():
            game.apply_chance(pick.choice([v for v, _ in game.chance_outcomes()]))
        else:
            game.apply_action(pick.choice(game.legal_actions()))
        yield game.clone()


def test_the_layout_is_one_table():
    assert OBS_SIZE == sum(size for _, size, _ in FIELDS) == 85
    assert all(name in field_table() for name, _, _ in FIELDS)
    faces = encode(Game(2, dice=[[0, 50, 100, 150, 9_999, 5]] * 6), 0)[SLICES["faces"]]
    assert faces[:6].tolist() == pytest.approx([0, 5 / 55, 50 / 100, 100 / 150, 150 / 200,
                                                9_999 / 10_049], rel=1e-6)
    assert decode(encode(Game(2, dice=[[0, 50, 100, 150, 9_999, 5]] * 6), 1)).dice[0].tolist() \
        == [0, 5, 50, 100, 150, 9_999]


@settings(max_examples=25, deadline=None)
@given(players=st.integers(2, 6), variant=st.sampled_from(["base", "expansion"]),
       seed=st.integers(0, 2**32 - 1))
def test_decode_reads_back_what_the_game_says_from_every_seat(players, variant, seed):
    dice = [sorted(random.Random(seed).choices(range(0, 90), k=6)) for _ in range(6)]
    for game in games_along(players, variant, seed, dice):
        for seat in range(players):
            obs = encode(game, seat)
            assert obs.dtype == np.float32 and obs.shape == (OBS_SIZE,)
            assert (obs >= 0).all() and (obs <= 1).all()
            view = decode(obs)
            order = [(seat + k) % players for k in range(players)]  # slot k: k seats on
            assert view.scores.tolist() == [game.scores[s] for s in order] + [0] * (6 - players)
            assert view.players == players and view.rounds == game.rounds
            assert view.round == game.round and view.target == game.target
            assert view.expansion == (variant == "expansion")
            assert view.dice.tolist() == [sorted(d) for d in dice]
            assert view.first == (-1 if game.first is None else order.index(game.first))
            moving = game.first is not None and not game.is_terminal()
            assert view.mover == (order.index(game.mover) if moving else -1)
            assert view.turn == (game.turn if moving else -1)
            assert view.blue_due == (game.blue_due and not game.is_terminal())
            assert view.blue_choice == (game.phase == "blue")
            assert view.chosen == (-1 if game.red is None else game.red)
            assert np.flatnonzero(view.aside).tolist() == list(game.aside)


def test_decode_takes_rows_and_refuses_another_shape():
    games = list(games_along(3, "base", 1))
    rows = np.stack([encode(g, 0) for g in games])
    view = decode(rows)
    assert view.scores.shape == (len(games), 6) and view.dice.shape == (len(games), 6, 6)
    with pytest.raises(ValueError, match=f"must have {OBS_SIZE} values") as err:
        decode(np.zeros(OBS_SIZE + 1))
    assert "\n" not in str(err.value)


@pytest.mark.parametrize(("players", "round_", "turn"), [(2, 1, 0), (3, 4, 2), (4, 10, 1)])
def test_decision_rows_are_the_rows_encode_gives_the_player_to_move(players, round_, turn):
    rng = np.random.default_rng(players)
    scores = rng.integers(0, 50, size=(20, players))
    template = encode(Game(players, first_player=0, round=round_, turn=turn), turn)
    rows = decision_rows(template, scores, 50)
    for row, rel in zip(rows, scores, strict=True):
        first = int(rng.integers(players))
        mover = (first + turn) % players
        absolute = [0] * players
        for k, score in enumerate(rel):
            absolute[(mover + k) % players] = int(score)
        game = Game(players, first_player=first, scores=absolute, round=round_, turn=turn)
        np.testing.assert_array_equal(row, encode(game, mover))
