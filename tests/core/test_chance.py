"""Chance through the core (``core.protocol``): every engine takes its dice by
``apply_chance(outcome)``; where the outcomes can be listed, ``chance_outcomes()`` gives them
with probabilities that sum to 1, so one generic loop plays any such game to its end."""

from __future__ import annotations

import random

import pytest

from pagadores_env.core.errors import IllegalMoveError
from pagadores_env.core.protocol import GameState, SupportsChanceOutcomes
from pagadores_env.pagadores.engine import Game as PagadoresGame
from pagadores_env.perudo.engine import Game as PerudoGame


def test_every_engine_is_a_game_state_with_apply_chance() -> None:
    for game in (PagadoresGame(3), PerudoGame(2, 2)):
        assert isinstance(game, GameState)
    assert isinstance(PagadoresGame(3), SupportsChanceOutcomes)


def test_apply_chance_is_the_engines_own_dice_call() -> None:
    thrown, chanced = PagadoresGame(2), PagadoresGame(2)
    thrown.apply_throw((2, 3, 4))
    chanced.apply_chance((2, 3, 4))
    assert thrown == chanced
    rolled, chanced_roll = PerudoGame(2, 1), PerudoGame(2, 1)
    rolled.apply_roll(((3,), (5,)))
    chanced_roll.apply_chance(((3,), (5,)))
    assert rolled.to_dict() == chanced_roll.to_dict()


@pytest.mark.parametrize("seed", range(5))
def test_a_generic_loop_over_chance_outcomes_plays_pagadores_to_its_end(seed: int) -> None:
    rng = random.Random(seed)
    game = PagadoresGame(3, cards=2)
    while not game.is_terminal():
        if game.is_chance_node():
            outcomes = game.chance_outcomes()
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            dice = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
            game.apply_chance(dice)
        else:
            game.apply_action(rng.choice(game.legal_actions()))
    assert sorted(game.returns()) == [-1.0, -1.0, 1.0]


def test_apply_chance_at_a_decision_node_is_refused_and_changes_nothing() -> None:
    game = PagadoresGame(2)
    game.apply_chance((2, 3, 4))
    before = game.to_dict()
    with pytest.raises(IllegalMoveError):
        game.apply_chance((1, 1, 1))
    assert game.to_dict() == before
