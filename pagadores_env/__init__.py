"""pagadores-env: Dados de Pagadores for reinforcement learning.

``Game`` (explicit chance nodes) and ``classify`` are the rules core; ``pagadores_v0`` is the
PettingZoo AEC environment; importing the package registers the Gymnasium single-agent
environment ``Pagadores-v0``.
"""

from gymnasium.envs.registration import register

from . import pagadores_v0
from .engine import Action, Event, Game, IllegalMoveError, Phase
from .rules import Kind, Throw, classify

register(id="Pagadores-v0", entry_point="pagadores_env.gym_env:PagadoresGymEnv")

__all__ = [
    "Action", "Event", "Game", "IllegalMoveError", "Kind", "Phase", "Throw", "classify",
    "pagadores_v0",
]
