"""Perudo's players in the package's policy registry (``pagadores_env.core.policies``), in the
namespace of the game ``"perudo"``: ``make_policy("random", game="perudo")``, and the
``opponents`` of ``Perudo-v1`` name them as they are (``"random"``). Importing
``pagadores_env`` registers them. A Perudo policy follows the same protocol as a Pagadores
one (``core.policies.Policy``): ``act(obs, mask)`` with the Perudo observation row and its
181-entry action mask.
"""

from __future__ import annotations

import numpy as np

from ..core.policies import BasePolicy, register_policy

GAME = "perudo"  # the registry's namespace of Perudo's players


class RandomPolicy(BasePolicy):
    """Uniform over the legal actions: dudo and every legal bid alike (a baseline)."""

    name = "random"

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        """One legal action, drawn uniformly."""
        legal = np.flatnonzero(mask)
        return int(legal[self.rng.integers(len(legal))])


register_policy(RandomPolicy.name, RandomPolicy, game=GAME)
