"""Perudo's players in the package's policy registry (``pagadores_env.core.policies``), in the
namespace of the game ``"perudo"``: ``make_policy("random", game="perudo")``, and the
``opponents`` of ``Perudo-v1`` name them as they are (``"random"``). Importing
``pagadores_env`` registers them. A Perudo policy follows the same protocol as a Pagadores
one (``core.policies.Policy``, with its capabilities): ``act(obs, mask)`` with the Perudo
observation row and its 181-entry action mask. Perudo's own capability is
``SupportsActionProbabilities``.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np

from ..core.policies import BasePolicy, register_game, register_policy

GAME = register_game("perudo")  # the registry's namespace of Perudo's players


@runtime_checkable
class SupportsActionProbabilities(Protocol):
    """A policy that states the distribution it plays from, so the exact yardstick measures
    that stochastic policy and not one draw of it (``exact.strategy``; the trainer's and the
    evaluator's exact numbers through ``pagadores_train.evaluation.perudo``, which report both).
    Like the other capabilities (``core.policies``), an ``isinstance`` check looks for the method's
    name only."""

    def action_probabilities(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """``(B, 181)``: per row of ``obs`` and ``mask``, the probability of each action,
        zero at the illegal ones and summing to 1."""


class RandomPolicy(BasePolicy):
    """Uniform over the legal actions: dudo and every legal bid alike (a baseline)."""

    name = "random"

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        """One legal action, drawn uniformly."""
        legal = np.flatnonzero(mask)
        return int(legal[self.rng.integers(len(legal))])


register_policy(RandomPolicy.name, RandomPolicy, game=GAME)
