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
