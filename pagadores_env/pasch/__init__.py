"""Pasch (five dice thrown up to three times, action blocks, a board of combinations, the
round's cards shared out by rank; 2–6 players): a game on the shared core (rule ids X1–X9 of
the Pasch rules contract).

``rules`` holds the rule facts (``classify``, the ranking, the share-out, the action
encoding); ``engine.Game`` the rules state machine with explicit chance; ``observation`` the
codec (``encode``, ``decode``); ``aec`` the PettingZoo AEC environment
(``pagadores_env.pasch_v1``) and ``gym_env.PaschGymEnv`` the Gymnasium environment
``Pasch-v1``; ``render`` and ``picture`` the table as text and as a picture; ``exact`` the
exact yardstick (the single turn through ``turn``, the last round's equilibrium through
``last_round``). Importing this package registers Pasch's ``random`` player in the policy
registry's ``pasch`` namespace (``policies``, which also declares Pasch's own policy
capability).
"""

from . import policies
from .engine import Game
from .rules import classify

__all__ = ["Game", "classify", "policies"]

from ..core.games import GameSpec, Option, int_sequence, register
from .observation import OBS_SIZE, encode
from .render import SUMMARY, describe_events, render_table
from .rules import DEFAULT_BLOCKS, DEFAULT_HAND, MAX_PLAYERS, MIN_PLAYERS
from .view import view

#: Pasch in the table of games (``core.games``); its action count follows the hand (X8.1).
SPEC = register(GameSpec(
    name="pasch", title="Pasch", min_players=MIN_PLAYERS, max_players=MAX_PLAYERS,
    options=(Option("hand", list(DEFAULT_HAND), "every player's cards, comma-separated: 1–10 "
                    "whole numbers from -1 to 10 (X1.3)", int_sequence),
             Option("blocks", DEFAULT_BLOCKS, "action blocks each, 0–10 (X1.3)")),
    new_game=Game, encode=encode, obs_size=OBS_SIZE, num_actions=lambda game: game.actions.size,
    gym_id="Pasch-v1", aec_id="pasch-v1", opponent="greedy",
    eval_opponents=("random", "greedy", "turn_optimal"),
    render_table=render_table, describe_events=describe_events,
    describe_action=lambda game, action: game.actions.describe(action), summary=SUMMARY,
    view=view))
