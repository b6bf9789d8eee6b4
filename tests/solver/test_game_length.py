"""RULES.md "Numbers to check": the mean number of rounds a game lasts.

For two players with 10 cards each the contract gives 13.20 rounds on average if everyone
always stops after the first throw and 9.98 if everyone always throws again while allowed.
The solver computes such means exactly (``solver.expected_rounds``: the backward induction of
the win probabilities, counting rounds instead), so they are checked to the contract's two
decimals. A small seeded Monte Carlo through ``engine.Game`` then checks the solver's count
against the engine's ``Game.round``. Any rule slip that changes how fast cards leave the game
(specials, Picaro, kampen, throw limits) moves these means.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from pagadores_env.core.policies import Policy, make_policy
from pagadores_env.pagadores.engine import Game
from pagadores_env.pagadores.observation import encode
from pagadores_env.pagadores.solver import backward_rounds, expected_rounds, policy_table


@pytest.mark.parametrize(("policy", "contract"), [("stop-first", "13.20"),
                                                  ("always-throw", "9.98")])
def test_exact_mean_rounds_are_the_rules_contract_numbers(policy: str, contract: str) -> None:
    everyone = make_policy(policy)
    assert f"{expected_rounds(everyone, everyone, cards=10):.2f}" == contract


def test_one_card_games_last_exactly_one_round() -> None:
    # With one card each the first round's loss empties someone (R1.4, R1.5, R6).
    assert expected_rounds(make_policy("random"), make_policy("sensible"), cards=1) == 1.0


def test_expected_rounds_refuses_bad_input() -> None:
    with pytest.raises(ValueError, match="first_insteker must be an integer 0–1, got 2"):
        expected_rounds(make_policy("random"), make_policy("random"), 2, first_insteker=2)
    with pytest.raises(ValueError, match="a fixed policy table for each seat, got 'max'"):
        backward_rounds(2, ("max", policy_table(make_policy("random"), 2)))


def _rounds(players: list[Policy], cards: int, first: int, games: int, seed: int) -> np.ndarray:
    """``Game.round`` at the end of ``games`` seeded games: dice uniform over the 216 ordered
    outcomes (R7.2), each seat deciding by its player on its own observation."""
    rng = np.random.default_rng(seed)
    for s, player in enumerate(players):
        player.reset(seed + 1 + s)
    mask = np.ones(2, dtype=np.int8)  # a decision always allows both actions (R3.6)
    lengths = np.empty(games)
    for g in range(games):
        game = Game(2, cards, first)
        while not game.is_terminal():
            if game.is_decision_node():
                seat = game.current_player
                game.apply_action(players[seat].act(encode(game, seat), mask))
            else:
                game.apply_throw(tuple(rng.integers(1, 7, size=3).tolist()))
        lengths[g] = game.round
    return lengths


@pytest.mark.slow
@pytest.mark.parametrize(("names", "cards", "first"), [
    (("stop-first", "stop-first"), 10, 0),
    (("always-throw", "always-throw"), 10, 0),
    (("random", "sensible"), 4, 1),  # a mixed policy, unlike seats, seat 1 insteeks first
])
def test_monte_carlo_through_the_engine_agrees_with_the_exact_mean(
        names: tuple[str, str], cards: int, first: int) -> None:
    players = [make_policy(name) for name in names]
    exact = expected_rounds(players[0], players[1], cards, first)
    games = 2000
    lengths = _rounds(players, cards, first, games, seed=2026 + cards + first)
    se = lengths.std(ddof=1) / math.sqrt(games)
    assert 5 * se < 0.5, f"too few games to tell: standard error {se:.3f}"
    assert abs(lengths.mean() - exact) < 5 * se, (
        f"mean rounds {lengths.mean():.3f} ± {se:.3f} (1 s.e.) over {games} games; "
        f"exact {exact:.4f}")
