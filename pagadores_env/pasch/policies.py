"""Pasch's players in the package's policy registry (``pagadores_env.core.policies``), in the
namespace of the game ``"pasch"``: ``make_policy("random", game="pasch")``; the ``opponents``
of ``Pasch-v1`` name them as they are. Importing ``pagadores_env`` registers ``random``; the
scripted players (``greedy``, ``turn_optimal``, ``round_player``) come with
``pagadores_agents``. A Pasch policy follows the common protocol (``core.policies.Policy``):
``act(obs, mask)`` with the Pasch observation row (``pasch.observation``) and its action mask
(X8.1). Pasch's own capability is ``SupportsActionProbabilities``.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np

from ..core.policies import BasePolicy, register_game, register_policy

GAME = register_game("pasch")  # the registry's namespace of Pasch's players


@runtime_checkable
class SupportsActionProbabilities(Protocol):
    """A policy that states the distribution it plays from, so the exact yardstick
    (``pasch.last_round``) measures that mixture and not one draw of it. Like the other
    capabilities (``core.policies``), an ``isinstance`` check looks for the method's name
    only."""

    def action_probabilities(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """``(B, actions)``: per row of ``obs`` and ``mask``, the probability of each action,
        zero at the illegal ones and summing to 1."""


class RandomPolicy(BasePolicy):
    """Uniform over the legal actions (a baseline); its ``action_probabilities`` say so,
    so the exact yardstick measures uniform play itself."""

    name = "random"

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        """One legal action, drawn uniformly."""
        legal = np.flatnonzero(mask)
        return int(legal[self.rng.integers(len(legal))])

    def action_probabilities(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Every legal action of each row alike."""
        mask = np.atleast_2d(np.asarray(mask, dtype=np.float64))
        return mask / mask.sum(axis=1, keepdims=True)


register_policy(RandomPolicy.name, RandomPolicy, game=GAME)
