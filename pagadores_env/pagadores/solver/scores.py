"""What a round remembers of the scores already set: the index of a round state.

Inside a round of ``m`` players (R3.4) the state before role ``j`` throws holds the earlier
roles' scores. Two ways to index them:

- **full**: every earlier score, ``42 ** j`` states (C order over the roles' strengths). A
  fixed policy may read each score in its observation, so evaluating it needs these.
- **lowest**: only what decides the round's loser — the lowest score so far and which roles
  hold it (R3.5, R5.1): ``42 * 2 ** j`` states, ``q = lowest * 2 ** j + holders``. The game
  from a state on depends on nothing else, so a seat that maximises its own value, and any
  policy that reads observations (they show no other score, ``core.policies.reads_lowest_only``),
  are exact on it. It is what makes 4 players solvable.

``ScoreStates(m, full)`` holds, per role, the number of states, the state after each throw
(``next``), which states can occur (``reachable``) and scores that represent them (to ask a
policy); after the last role, which roles hold the lowest score (``holders``).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np

from ..rules import NUM_STRENGTHS, PICARO_STRENGTH, TOP

NS = NUM_STRENGTHS


class ScoreStates:
    """The state index of a round of ``m`` roles (see the module docstring)."""

    def __init__(self, m: int, full: bool) -> None:
        self.m = m
        self.full = full
        self.size = [NS**j if full else (NS << j if j else 1) for j in range(m + 1)]
        self.next: list[np.ndarray] = []
        self.reachable: list[np.ndarray] = []
        self.scores: list[np.ndarray] = []
        for j in range(m + 1):
            scores, reachable = self._scores(j)
            self.scores.append(scores)
            self.reachable.append(reachable)
            if j < m:
                self.next.append(self._next(j))
        self.holders = self._holders()
        for array in (*self.next, *self.reachable, *self.scores, self.holders):
            array.flags.writeable = False

    def _scores(self, j: int) -> tuple[np.ndarray, np.ndarray]:
        """Scores ``[Q_j, j]`` of the earlier roles that represent each state, and whether
        the state can occur (no score is a Picaro, R4.4; in ``lowest``, someone holds the
        lowest and the others can be above it)."""
        if self.full:
            scores = np.indices((NS,) * j).reshape(j, -1).T if j else np.zeros((1, 0), np.int64)
            return scores, np.asarray((scores > PICARO_STRENGTH).all(axis=1))
        if j == 0:
            return np.zeros((1, 0), np.int64), np.ones(1, bool)
        q = np.arange(self.size[j])
        low, holders = q >> j, q & ((1 << j) - 1)
        held = (holders[:, None] >> np.arange(j)) & 1 == 1
        scores = np.where(held, low[:, None], TOP)  # the others: any score above the lowest
        everyone = holders == (1 << j) - 1
        reachable = (low > PICARO_STRENGTH) & (holders > 0) & (everyone | (low < TOP))
        return np.asarray(scores), np.asarray(reachable)

    def _next(self, j: int) -> np.ndarray:
        """``next[q, s]``: the state once role ``j`` scores ``s`` from state ``q``."""
        s = np.arange(NS)[None, :]
        q = np.arange(self.size[j])[:, None]
        if self.full:
            return q * NS + s
        bit = 1 << j
        if j == 0:
            return np.broadcast_to(s * 2 + 1, (1, NS)).copy()
        low, holders = q >> j, q & (bit - 1)
        new_low = np.minimum(low, s)
        new_holders = np.where(s < low, bit, np.where(s == low, holders | bit, holders))
        return new_low << (j + 1) | new_holders

    def _holders(self) -> np.ndarray:
        """Per final state, the bit mask of the roles holding the lowest score (R3.5)."""
        if not self.full:
            return np.arange(self.size[self.m]) & ((1 << self.m) - 1)
        scores = self.scores[self.m]
        low = scores.min(axis=1, keepdims=True)
        return ((scores == low) << np.arange(self.m)).sum(axis=1)

    def index(self, scores: Sequence[int] | np.ndarray) -> np.ndarray:
        """The states of earlier scores ``scores`` ``[..., j]`` (the roles before the acting
        one, in round order): an int array of the leading shape. In the lowest view a score
        may be -1, meaning "above the lowest" (an observation shows no more)."""
        scores = np.asarray(scores, dtype=np.int64)
        j = scores.shape[-1]
        if j == 0:
            return np.zeros(scores.shape[:-1], np.int64)
        if self.full:
            return np.ravel_multi_index(tuple(np.moveaxis(scores, -1, 0)), (NS,) * j)
        # -1: a score above the lowest, as an observation shows it (``observation``)
        known = np.where(scores < 0, NS, scores)
        low = known.min(axis=-1)
        held = (known == low[..., None]) << np.arange(j)
        return low << j | held.sum(axis=-1)


@cache
def score_states(m: int, full: bool) -> ScoreStates:
    """The (shared, read-only) :class:`ScoreStates` of an ``m``-role round."""
    return ScoreStates(m, full)
