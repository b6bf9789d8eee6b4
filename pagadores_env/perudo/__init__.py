"""Perudo (Liar's Dice with jokers and palifico, 2–6 players): a second game, with hidden
information, built on the Pagadores machinery (rule ids P1–P7 of the Perudo rules contract).

``engine.Game`` is the rules core with explicit chance; ``perudo_v0`` the PettingZoo AEC
environment; ``gym_env.PerudoGymEnv`` the Gymnasium environment ``Perudo-v0`` (registered by
importing ``pagadores_env``). Importing this package registers Perudo's ``random`` player in the
policy registry's ``perudo`` namespace (``policies``).
"""

from . import perudo_v0, policies
from .engine import Game

__all__ = ["Game", "perudo_v0", "policies"]
