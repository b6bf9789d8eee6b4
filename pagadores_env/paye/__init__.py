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
