"""pagadores-env: Dados de Pagadores for reinforcement learning.

``Game`` (explicit chance nodes) and ``classify`` are the rules core; ``pagadores_v0`` is the
PettingZoo AEC environment; importing the package registers the Gymnasium single-agent
environment ``Pagadores-v0`` and, with a PettingZoo that has an environment registry (1.27 and
later), the AEC environment as ``pagadores-v0`` (``pettingzoo.make("aec", "pagadores-v0")``).
The second game, Perudo (``perudo``), registers the same way: ``perudo_v0``, ``Perudo-v0`` and
``perudo-v0``.
"""

import pettingzoo
from gymnasium.envs.registration import register

from . import pagadores_v0
from .engine import Action, Event, Game, IllegalMoveError, Phase
from .perudo import perudo_v0
from .rules import Kind, Throw, classify

register(id="Pagadores-v0", entry_point="pagadores_env.gym_env:PagadoresGymEnv")
register(id="Perudo-v0", entry_point="pagadores_env.perudo.gym_env:PerudoGymEnv")
if hasattr(pettingzoo, "register"):  # older PettingZoo has no registry: nothing to join
    pettingzoo.register("aec", "pagadores-v0", entry_point="pagadores_env.pagadores_v0:env")
    pettingzoo.register("aec", "perudo-v0", entry_point="pagadores_env.perudo.perudo_v0:env")

__all__ = [
    "Action", "Event", "Game", "IllegalMoveError", "Kind", "Phase", "Throw", "classify",
    "pagadores_v0", "perudo_v0",
]
