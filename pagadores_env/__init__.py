"""pagadores-env: Dados de Pagadores, Perudo and Pasch for reinforcement learning.

``Game`` (explicit chance nodes) and ``classify`` are Pagadores' rules core; ``pagadores_v1``
is its PettingZoo AEC environment; importing the package registers the Gymnasium single-agent
environment ``Pagadores-v1`` and, with a PettingZoo that has an environment registry (1.27 and
later), the AEC environment as ``pagadores-v1`` (``pettingzoo.make("aec", "pagadores-v1")``).
The second game, Perudo (``perudo``), registers the same way: ``perudo_v1``, ``Perudo-v1`` and
``perudo-v1``; so do Paye's dobbelspel (``paye``: ``paye_v1``, ``Paye-v1``, ``paye-v1``) and
Pasch (``pasch``: ``pasch_v1``, ``Pasch-v1``, ``pasch-v1``). The v0 names are retired:
importing ``pagadores_v0`` or ``perudo_v0``, or making ``pagadores-v0`` / ``perudo-v0`` from
PettingZoo's registry, raises ``ImportError`` in one line naming v1, and Gymnasium refuses
``Pagadores-v0`` / ``Perudo-v0`` naming v1 itself.
``__version__`` is the version the package was installed as (``0+unknown`` in a copy that
was never installed).

=================  ============================================================================
folder             holds
=================  ============================================================================
``core``           the game-neutral core (game protocol, records, seats, checks, seeding,
                   rewards, policies and their registry, the AEC and Gymnasium env bases);
                   imports no game
``pagadores``      Dados de Pagadores: rules, engine, observation, kernel, envs, solver
``perudo``         Perudo: rules, engine, observation, envs, exact yardstick
``paye``           Paye's dobbelspel: rules, engine, observation, envs, exact yardstick
``pasch``          Pasch: rules, engine, observation, envs, exact yardstick
``integrations``   what needs an extra and is not a game (OpenSpiel)
=================  ============================================================================
"""

import importlib.metadata
from typing import Any, NoReturn

import pettingzoo
from gymnasium.envs.registration import register

from . import pagadores_v1, perudo_v1

# isort: split
# The games in the order they joined: each opens its namespace of players as it is imported,
# and the registry lists the games in that order (core.policies.GAMES).
from . import paye_v1  # isort: skip
from . import pasch_v1  # isort: skip
from .core.errors import IllegalMoveError, retired
from .core.protocol import Event
from .pagadores.engine import Action, Game, Phase
from .pagadores.rules import Kind, Throw, classify


def _installed_version() -> str:
    """The version in the installed distribution's metadata (pyproject.toml's, as pip
    installed it), or ``0+unknown`` where the package was never installed."""
    try:
        return importlib.metadata.version("pagadores-env")
    except importlib.metadata.PackageNotFoundError:
        return "0+unknown"


__version__ = _installed_version()


def _retired_creator(old: str, new: str) -> Any:
    """A registry entry point for the retired id ``old``: making it raises ``retired``."""
    def create(**kwargs: Any) -> NoReturn:
        raise retired(f"pettingzoo.make('aec', {old!r})", f"pettingzoo.make('aec', {new!r})")

    return create


register(id="Pagadores-v1", entry_point="pagadores_env.pagadores.gym_env:PagadoresGymEnv")
register(id="Perudo-v1", entry_point="pagadores_env.perudo.gym_env:PerudoGymEnv")
register(id="Paye-v1", entry_point="pagadores_env.paye.gym_env:PayeGymEnv")
register(id="Pasch-v1", entry_point="pagadores_env.pasch.gym_env:PaschGymEnv")
if hasattr(pettingzoo, "register"):  # older PettingZoo has no registry: nothing to join
    pettingzoo.register("aec", "pagadores-v1", entry_point="pagadores_env.pagadores_v1:env")
    pettingzoo.register("aec", "perudo-v1", entry_point="pagadores_env.perudo_v1:env")
    pettingzoo.register("aec", "paye-v1", entry_point="pagadores_env.paye_v1:env")
    pettingzoo.register("aec", "pasch-v1", entry_point="pagadores_env.pasch_v1:env")
    # Gymnasium refuses a retired version naming the current one by itself; PettingZoo's
    # registry does not, so the v0 ids are entries that say it.
    for _game in ("pagadores", "perudo"):
        pettingzoo.register("aec", f"{_game}-v0",
                            entry_point=_retired_creator(f"{_game}-v0", f"{_game}-v1"))

__all__ = [
    "Action", "Event", "Game", "IllegalMoveError", "Kind", "Phase", "Throw", "classify",
    "pagadores_v1", "pasch_v1", "paye_v1", "perudo_v1",
]
