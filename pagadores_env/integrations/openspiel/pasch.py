"""Pasch as an OpenSpiel Python game, ``python_pasch`` (the adapter of ``spec_game`` over
``pasch.SPEC``), so OpenSpiel's MCTS and evaluation tools run on it. Importing
``pagadores_env.integrations.openspiel`` registers it.

Parameters: ``players`` (2–6, default 2, X1.1), ``hand`` (every player's cards as text,
comma-separated: 1–10 whole numbers from -1 to 10, default ``"-1,1,2,3,4,5"``, X1.3; one
card per round, X1.4) and ``blocks`` (action blocks each, 0–10, default 3, X1.3).

- **Chance.** A throw is a chance node: chance action ``i`` is the ``i``-th sorted throw of
  the dice thrown (five at a turn's first throw, those named again later, one for a block's
  rethrow) with its multinomial probability (``pasch.engine.Game.chance_outcomes``, X8.2);
  ``max_chance_outcomes`` is 252, the sorted throws of five dice.
- **Actions**: the engine's ids of X8.1: the hand's distinct card values first, then the 49
  dice actions, so ``num_distinct_actions`` follows the hand (55 for the default one); a
  decision with one legal action is the engine's (X8.3), no decision here.
- **Returns**: 2/k − 1 for each of k seats sharing the most points (X1.4), −1 for the others.

**Game length.** A turn is at most a card, three throws, two decisions between them and a
placement (X2.3, X3.2, X6), and every action block spent adds at most a decision and a throw
(X4.1), so ``max_game_length`` is ``rounds * players * 7 + 2 * blocks * players``, no cap:
the longest play (two throws again every turn, every block a rethrow) takes exactly that many
inputs but for the decisions the engine takes itself (X8.3).
"""

from __future__ import annotations

from ...pasch import SPEC
from ...pasch.engine import Game
from ...pasch.render import describe_events, render_table
from ...pasch.rules import DEFAULT_BLOCKS, DEFAULT_HAND, HANDS, MAX_THROWS
from .spec_game import SpecGame, SpielSpec, register

SHORT_NAME = "python_pasch"
DEFAULTS: dict[str, int | str] = {
    "players": 2,
    "hand": ",".join(map(str, DEFAULT_HAND)),
    "blocks": DEFAULT_BLOCKS,
}
#: X2.3, X3.2, X6: a card, the throws, the decisions between them, the placement.
TURN_ACTIONS = 1 + MAX_THROWS + (MAX_THROWS - 1) + 1
#: X4.1: a block spent is a decision and, for a rethrow, a throw.
BLOCK_ACTIONS = 2


def max_game_length(game: Game) -> int:
    """The most inputs ``game`` can take from its start (module docstring)."""
    return (game.rounds * game.num_players * TURN_ACTIONS
            + BLOCK_ACTIONS * sum(game.start_blocks))


SPIEL = SpielSpec(
    spec=SPEC, short_name=SHORT_NAME, long_name="Python Pasch", parameters=DEFAULTS,
    max_chance_outcomes=len(HANDS), max_game_length=max_game_length,
    describe_action=lambda game, action: game.actions.describe(action),
    describe_outcome=lambda game, thrown: f"throw {'-'.join(map(str, thrown))}",
    observation_string=render_table,
    history_string=lambda game: "\n".join(describe_events(game.log)))


@register
class PaschGame(SpecGame):
    """``python_pasch`` (module docstring)."""

    SPIEL = SPIEL


__all__ = ["SHORT_NAME", "PaschGame", "max_game_length"]
