"""Paye's players in the package's policy registry (``pagadores_env.core.policies``), in the
namespace of the game ``"paye"``: ``make_policy("random", game="paye")``, and the
``opponents`` of ``Paye-v1`` name them as they are. Importing ``pagadores_env`` registers
them; the scripted and exact players live in ``pagadores_agents.paye``. A Paye policy follows
the core's protocol (``core.policies.Policy``): ``act(obs, mask)`` with the Paye observation
row (``paye.observation``) and its 13-entry action mask (Y7). Its exact yardstick reads the
core's ``SupportsActionProbabilities`` (importable from here too).
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

GAME = register_game("paye")  # the registry's namespace of Paye's players


class RandomPolicy(StatedUniformPolicy):
    """Uniform over the legal actions, every legal die alike (a baseline; the core's
    ``StatedUniformPolicy``): its ``action_probabilities`` say so, so the exact yardstick
    measures uniform play itself."""


register_policy(RandomPolicy.name, RandomPolicy, game=GAME)
