"""Pasch's players in the package's policy registry (``pagadores_env.core.policies``), in the
namespace of the game ``"pasch"``: ``make_policy("random", game="pasch")``; the ``opponents``
of ``Pasch-v1`` name them as they are. Importing ``pagadores_env`` registers ``random``; the
scripted players (``greedy``, ``turn_optimal``, ``round_player``) come with
``pagadores_agents``. A Pasch policy follows the common protocol (``core.policies.Policy``):
``act(obs, mask)`` with the Pasch observation row (``pasch.observation``) and its action mask
(X8.1). Its exact yardstick reads the core's ``SupportsActionProbabilities`` (importable
from here too).
"""

from __future__ import annotations

from ..core.policies import (
    StatedUniformPolicy,
    SupportsActionProbabilities,
    register_game,
    register_policy,
)

#: ``SupportsActionProbabilities`` is the core's capability, importable from here as before.
__all__ = ["GAME", "RandomPolicy", "SupportsActionProbabilities"]

GAME = register_game("pasch")  # the registry's namespace of Pasch's players


class RandomPolicy(StatedUniformPolicy):
    """Uniform over the legal actions, every legal action alike (a baseline; the core's
    ``StatedUniformPolicy``): its ``action_probabilities`` say so, so the exact yardstick
    measures uniform play itself."""


register_policy(RandomPolicy.name, RandomPolicy, game=GAME)
