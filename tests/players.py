"""Test players that cannot answer a batch in one call, to show that evaluation serves them
too (``policies.batch_actions``): a shipped player behind ``act`` alone, or behind
``BasePolicy``'s looping ``act_batch``."""

from __future__ import annotations

import numpy as np

from pagadores_env.policies import BasePolicy, make_policy


class RowByRow:
    """The player ``spec`` names, with ``act`` only (no ``act_batch``)."""

    def __init__(self, spec: str) -> None:
        self.inner = make_policy(spec)
        self.name = spec

    def reset(self, seed: int | None = None) -> None:
        self.inner.reset(seed)

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        return int(self.inner.act(obs, mask))


class Looping(RowByRow, BasePolicy):
    """The player ``spec`` names, behind ``BasePolicy``'s ``act_batch`` (a loop over ``act``)."""
