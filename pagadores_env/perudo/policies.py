"""Perudo's players in the package's one policy registry (``pagadores_env.policies``).

The registry is flat and shared by both games, so Perudo's players are registered under
names that start with ``perudo-``: a Pagadores spec such as ``"random"`` keeps its meaning,
and a Perudo spec names its game (``"perudo-random"``). Importing ``pagadores_env``
registers them. A Perudo policy follows the same protocol as a Pagadores one
(``policies.Policy``): ``act(obs, mask)`` with the Perudo observation row and its
181-entry action mask.
"""

from __future__ import annotations

import numpy as np

from ..policies import BasePolicy, register_policy

PREFIX = "perudo-"


class PerudoRandomPolicy(BasePolicy):
    """Uniform over the legal actions: dudo and every legal bid alike (a baseline)."""

    name = PREFIX + "random"

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        """One legal action, drawn uniformly."""
        legal = np.flatnonzero(mask)
        return int(legal[self.rng.integers(len(legal))])


register_policy(PerudoRandomPolicy.name, PerudoRandomPolicy)
