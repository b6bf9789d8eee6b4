"""Perudo (Liar's Dice with jokers and palifico, 2–6 players): a second game, with hidden
information, built on the shared core (rule ids P1–P7 of the Perudo rules contract).

``engine.Game`` is the rules core with explicit chance; ``aec`` the PettingZoo AEC environment
(``pagadores_env.perudo_v1``); ``gym_env.PerudoGymEnv`` the Gymnasium environment
``Perudo-v1`` (registered by importing ``pagadores_env``); ``observation`` the codec
(``encode``, ``decode``); ``exact`` the exact yardstick of the one-round game. Importing this
package registers Perudo's ``random`` player in the policy registry's ``perudo`` namespace
(``policies``, which also declares Perudo's own policy capability).
"""

from . import policies
from .engine import Game

__all__ = ["Game", "policies"]

import numpy as np

from ..core.games import GameSpec, Option, int_list, register
from .observation import OBS_SIZE, encode
from .render import SUMMARY, describe_events, render_table
from .rules import FACES, MAX_DICE, NUM_ACTIONS, describe_action
from .view import view


def _roll(game: Game, rng: np.random.Generator) -> None:
    """Roll the round's dice if ``game`` is at a chance node (P2.1)."""
    if game.is_chance_node():
        game.apply_roll(tuple(tuple(rng.integers(1, FACES + 1, count).tolist())
                              for count in game.dice_counts))


#: Perudo in the table of games (``core.games``): a chance node rolls every seat's dice, too
#: many outcomes to list, so its dice come from a stream of faces.
SPEC = register(GameSpec(
    name="perudo", title="Perudo", min_players=2, max_players=6,
    options=(Option("dice", MAX_DICE, "dice each at the start, 1–5, or one count per seat "
                    "(P1.2)", int_list),),
    new_game=Game, encode=encode, obs_size=OBS_SIZE, num_actions=lambda game: NUM_ACTIONS,
    gym_id="Perudo-v1", aec_id="perudo-v1", opponent="probabilistic",
    eval_opponents=("random", "probabilistic", "bluffer"), hidden=True, advance=_roll,
    render_table=render_table, describe_events=describe_events,
    describe_action=lambda game, action: describe_action(action), summary=SUMMARY,
    view=view))
