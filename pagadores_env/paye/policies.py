"""Paye's players in the package's policy registry (``pagadores_env.core.policies``), in the
namespace of the game ``"paye"``: ``make_policy("random", game="paye")``, and the
``opponents`` of ``Paye-v1`` name them as they are. Importing ``pagadores_env`` registers
them; the scripted and exact players live in ``pagadores_agents.paye``. A Paye policy follows
the core's protocol (``core.policies.Policy``): ``act(obs, mask)`` with the Paye observation
row (``paye.observation``) and its 13-entry action mask (Y7). Its exact yardstick reads the
core's ``SupportsActionProbabilities`` (importable from here too).
"""

from __future__ import annotations

import numpy as np

from ..core.policies import (
    BasePolicy,
    SupportsActionProbabilities,
    register_game,
    register_policy,
)

#: ``SupportsActionProbabilities`` is the core's capability, importable from here as before.
__all__ = ["GAME", "RandomPolicy", "SupportsActionProbabilities"]

GAME = register_game("paye")  # the registry's namespace of Paye's players


class RandomPolicy(BasePolicy):
    """Uniform over the legal actions (a baseline)."""

    name = "random"

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        """One legal action, drawn uniformly."""
        legal = np.flatnonzero(mask)
        return int(legal[self.rng.integers(len(legal))])

    def action_probabilities(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """``(B, 13)``: every legal action of a row alike."""
        legal = np.asarray(mask, dtype=np.float64).reshape(len(np.atleast_2d(mask)), -1)
        return legal / legal.sum(axis=1, keepdims=True)


register_policy(RandomPolicy.name, RandomPolicy, game=GAME)
