"""Perudo's players in the package's policy registry (``pagadores_env.core.policies``), in the
namespace of the game ``"perudo"``: ``make_policy("random", game="perudo")``, and the
``opponents`` of ``Perudo-v1`` name them as they are (``"random"``). Importing
``pagadores_env`` registers them. A Perudo policy follows the same protocol as a Pagadores
one (``core.policies.Policy``, with its capabilities): ``act(obs, mask)`` with the Perudo
observation row and its 181-entry action mask. Its exact yardstick reads the core's
``SupportsActionProbabilities`` (importable from here too).
"""

from __future__ import annotations

from ..core.policies import (
    SupportsActionProbabilities,
    UniformPolicy,
    register_game,
    register_policy,
)

#: ``SupportsActionProbabilities`` is the core's capability, importable from here as before.
__all__ = ["GAME", "RandomPolicy", "SupportsActionProbabilities"]

GAME = register_game("perudo")  # the registry's namespace of Perudo's players


class RandomPolicy(UniformPolicy):
    """Uniform over the legal actions: dudo and every legal bid alike (a baseline; the core's
    ``UniformPolicy``). It states no mixture, so the exact yardstick plays it as it draws."""


register_policy(RandomPolicy.name, RandomPolicy, game=GAME)
