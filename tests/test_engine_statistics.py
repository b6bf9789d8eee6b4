"""RULES.md "Numbers to check": mean game length under two fixed policies, by simulation.

For two players with 10 cards each, RULES.md gives the exact mean number of rounds: 13.20 if
everyone always stops after the first throw, 9.98 if everyone always throws again while
allowed. A seeded Monte Carlo estimate over many games must land within 4 standard errors
(plus the 0.005 rounding of the stated value). Any rule slip that changes how fast cards
leave the game (specials, Picaro, kampen, throw limits) moves these means.
"""

from __future__ import annotations

import math
import random

import pytest

from pagadores_env.engine import Action, Game
from pagadores_env.rules import THROWS

GAMES = 20_000
SEED = 20_260_101


def rounds_per_game(action: Action, games: int, seed: int) -> list[int]:
    """Play ``games`` 2-player, 10-card games where every decision is ``action``; the dice
    are uniform over the 216 ordered outcomes (R7.2), drawn from a seeded generator."""
    rng = random.Random(seed)
    draw = rng.random
    lengths = []
    for _ in range(games):
        game = Game(2, 10)
        while not game.is_terminal():
            if game.is_decision_node():
                game.apply_action(action)
            else:
                game.apply_throw(THROWS[int(draw() * 216)])
        lengths.append(game.round)
    return lengths


@pytest.mark.slow
@pytest.mark.parametrize(("action", "expected"), [(Action.STOP, 13.20), (Action.THROW, 9.98)])
def test_mean_rounds_two_players_ten_cards(action: Action, expected: float) -> None:
    lengths = rounds_per_game(action, GAMES, SEED + int(action))
    mean = sum(lengths) / GAMES
    var = sum((x - mean) ** 2 for x in lengths) / (GAMES - 1)
    se = math.sqrt(var / GAMES)
    assert 4 * se < 0.15, f"too few games to tell: standard error {se:.4f}"
    assert abs(mean - expected) <= 4 * se + 0.005, (
        f"mean rounds {mean:.3f} ± {se:.3f} (1 s.e.) over {GAMES} games; RULES.md: {expected}")


def test_the_driver_is_seeded() -> None:
    assert rounds_per_game(Action.STOP, 20, 7) == rounds_per_game(Action.STOP, 20, 7)
    assert rounds_per_game(Action.STOP, 20, 7) != rounds_per_game(Action.STOP, 20, 8)
