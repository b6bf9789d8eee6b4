"""Pasch (five dice thrown up to three times, action blocks, a board of combinations, the
round's cards shared out by rank; 2–6 players): a game on the shared core (rule ids X1–X9 of
the Pasch rules contract).

``rules`` holds the rule facts (``classify``, the ranking, the share-out, the action
encoding); ``engine.Game`` the rules state machine with explicit chance; ``observation`` the
codec (``encode``, ``decode``); ``exact`` the exact yardstick (the single turn, the last
round's equilibrium).
"""

from .engine import Game
from .rules import classify

__all__ = ["Game", "classify"]
