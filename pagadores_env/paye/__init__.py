"""Paye's dobbelspel (2–6 players, a race to exactly 50 points, or 100 in the expansion): a
third game on the shared core (rule ids Y1–Y8 of the Paye rules contract).

``engine.Game`` is the rules core with explicit chance; ``rules`` the rule facts;
``observation`` the codec (``encode``, ``decode``); ``exact`` the exact yardstick (the
optimum at 2 players, the subgame-perfect equilibrium at 3–4, exact evaluation, best
responses and NashConv of any players). Importing this package registers Paye's ``random``
player in the policy registry's ``paye`` namespace (``policies``).
"""

from . import policies
from .engine import Game

__all__ = ["Game", "policies"]

import json

from ..core.games import GameSpec, Option, register
from .observation import OBS_SIZE, encode
from .render import SUMMARY, describe_events, render_table
from .rules import MAX_PLAYERS, MIN_PLAYERS, NUM_ACTIONS, ROUNDS, describe_action
from .view import view


def parse_faces(text: str) -> object:
    """The faces option's text as JSON (``Game`` checks what it holds); ``ValueError`` in one
    line saying what is expected where it is no JSON."""
    try:
        return json.loads(text)
    except ValueError:
        raise ValueError(f"expected JSON, six lists of six whole numbers >= 0 such as "
                         f"[[0,0,1,1,1,2],[2,2,2,3,3,3],...], got {text!r}") from None


#: Paye's dobbelspel in the table of games (``core.games``); its special dice are the option
#: ``faces`` (JSON: six lists of six faces), as Perudo's ``dice`` counts its dice.
SPEC = register(GameSpec(
    name="paye", title="Paye's dobbelspel", min_players=MIN_PLAYERS, max_players=MAX_PLAYERS,
    options=(Option("variant", "base", "base (race to 50) or expansion (100, blue dice; Y6)",
                    str),
             Option("faces", None, "the six special dice as JSON, six lists of six whole "
                    "numbers >= 0", parse_faces, keyword="dice"),
             Option("rounds", ROUNDS, "rounds at most (Y2.2)")),
    new_game=Game, encode=encode, obs_size=OBS_SIZE, num_actions=lambda game: NUM_ACTIONS,
    gym_id="Paye-v1", aec_id="paye-v1", opponent="sensible",
    eval_opponents=("random", "sensible", "lookahead"),
    render_table=render_table, describe_events=describe_events,
    describe_action=lambda game, action: describe_action(action, game.variant),
    summary=SUMMARY, view=view))
