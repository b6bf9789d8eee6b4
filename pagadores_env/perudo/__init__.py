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
