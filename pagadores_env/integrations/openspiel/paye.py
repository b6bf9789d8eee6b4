"""Paye's dobbelspel as an OpenSpiel Python game, ``python_paye`` (the adapter of
``spec_game`` over ``paye.SPEC``), so OpenSpiel's MCTS, evaluation tools and, on tiny
tables, its tabular algorithms run on it. Importing ``pagadores_env.integrations.openspiel``
registers it.

Parameters: ``players`` (2–6, default 6, Y1.1), ``faces`` (the special dice S0 … S5 as JSON,
six lists of six whole numbers ≥ 0; default Y1.3's), ``variant`` (``"base"``, race to 50, or
``"expansion"``, to 100, Y6), ``rounds`` (≥ 1, default 10, Y2.2) and ``first_player`` (-1,
the default: the start throws decide, Y2.1; or a seat 0 … players − 1 that moves first,
Y2.3, which skips them).

- **Chance.** Every throw of a die is a chance node (Y2.1, Y3.2, Y6.6): chance action ``i``
  is the ``i``-th distinct face of the die thrown, ascending, with probability multiplicity
  / 6 (``paye.engine.Game.chance_outcomes``, Y5.1), so ``max_chance_outcomes`` is 6.
- **Actions**: the 13 die ids of Y7 (0–5 the special dice, 6 the traditional red die, 7–12
  the blue ones); a choice with one legal die is the engine's (Y7.3), no decision here.
- **Returns**: 2/k − 1 for each of k seats sharing the win (Y4.4), −1 for the others.

**Game length.** A game has at most ``rounds * players`` turns of one die choice and two
throws (Y3.2; the expansion: two choices and four throws, Y6.3). The start throws have no
bound: a tie for the highest throw is thrown again among the tied (Y2.1). A pass of ``c``
start throws ties with probability ``start_tie(c)``, highest at the table's size, so the
passes of a game exceed ``R`` with probability at most ``start_tie(players) ** R``;
``max_game_length`` allows the fewest ``R`` passes for which that is at most ``CAP_RISK``
(1e-12), ``players`` throws each. With ``first_player`` set there are no start throws and the
bound is exact.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any

from ...core.checks import check_int
from ...paye import SPEC
from ...paye.engine import START, Game
from ...paye.render import describe_events, render_table
from ...paye.rules import (
    DEFAULT_DICE,
    DEFAULT_PLAYERS,
    ROUNDS,
    THROWS,
    TRADITIONAL,
    describe_action,
    outcomes,
)
from .common import CAP_RISK
from .spec_game import SpecGame, SpielSpec, register

SHORT_NAME = "python_paye"
DEFAULTS: dict[str, int | str] = {
    "players": DEFAULT_PLAYERS,
    "variant": "base",
    "faces": json.dumps([list(die) for die in DEFAULT_DICE]),
    "rounds": ROUNDS,
    "first_player": -1,
}
#: A die has at most six distinct faces (Y1.2).
MAX_OUTCOMES = len(TRADITIONAL)


def start_tie(contenders: int) -> float:
    """The probability that ``contenders`` start throws of the traditional die tie for the
    highest (Y2.1): one minus the chance that exactly one throw shows the highest face."""
    below = unique = 0.0
    for _, p in outcomes(TRADITIONAL):  # faces ascending: ``below`` is P(a lower throw)
        unique += contenders * p * below ** (contenders - 1)
        below += p
    return 1.0 - unique


def start_passes(players: int) -> int:
    """The start-throw passes ``max_game_length`` allows: the fewest ``R`` with
    ``start_tie(players) ** R <= CAP_RISK`` (module docstring)."""
    return math.ceil(math.log(CAP_RISK) / math.log(start_tie(players)))


def max_game_length(game: Game) -> int:
    """A bound on the inputs of ``game`` from its start (module docstring)."""
    per_turn = (1 + THROWS) * (2 if game.variant == "expansion" else 1)
    start = 0 if game.first is not None else start_passes(game.num_players) * game.num_players
    return start + game.rounds * game.num_players * per_turn


def first_player(params: Mapping[str, Any]) -> dict[str, Any]:
    """``Game``'s ``first_player`` from the parameter: -1 (None, the start throws) or a
    seat."""
    seat = check_int("first_player", params["first_player"], -1, params["players"] - 1)
    return {"first_player": None if seat == -1 else seat}


def describe_throw(game: Game, face: int) -> str:
    """A chance outcome in words: the die thrown and its face."""
    if game.phase == START:
        return f"start throw {face}"
    return f"{describe_action(game.throw_die(), game.variant)} shows {face}"


SPIEL = SpielSpec(
    spec=SPEC, short_name=SHORT_NAME, long_name="Python Paye's dobbelspel",
    parameters=DEFAULTS, max_chance_outcomes=MAX_OUTCOMES, max_game_length=max_game_length,
    describe_action=lambda game, action: describe_action(action, game.variant),
    describe_outcome=describe_throw, observation_string=render_table,
    history_string=lambda game: "\n".join(describe_events(game.log)), extra=first_player)


@register
class PayeGame(SpecGame):
    """``python_paye`` (module docstring)."""

    SPIEL = SPIEL

__all__ = ["SHORT_NAME", "PayeGame", "max_game_length", "start_passes", "start_tie"]
