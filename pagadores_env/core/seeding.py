"""Seed derivation: every seeded part of the package draws its seeds from one run seed here,
so parts that should see the same randomness (the Gymnasium env and the VecEnv, say) do.

Two families, both from numpy's ``SeedSequence``, so the derived streams are independent of
each other and of the run seed's own stream:

- **named parts** ``child_seed(seed, *path)`` / ``child_rng(seed, *path)``: the part is named
  by a path of integers, e.g. ``(1, row)`` for an evaluation's agent row; the entropy is
  ``(seed, *path)``.
- **numbered parts** ``spawned_seeds(seed, count)`` / ``spawned_rng(seed, index)``: part ``k``
  is ``SeedSequence(seed)``'s ``k``-th spawned child (``SeedSequence(seed).spawn(n)[k]`` for
  any ``n > k``), so adding parts after it changes nothing before it. ``seed=None`` draws
  fresh entropy (an unseeded run).

A seed handed to a policy's ``reset(seed)`` or ``make_policy(spec, seed=...)`` is the first
32-bit word of the child's state.
"""

from __future__ import annotations

import numpy as np


def child_seed(seed: int, *path: int) -> int:
    """A 32-bit seed for the part named ``path`` of a run seeded ``seed``."""
    return _first_word(np.random.SeedSequence((seed, *path)))


def child_rng(seed: int, *path: int) -> np.random.Generator:
    """A generator for the part named ``path`` of a run seeded ``seed``."""
    return np.random.default_rng(np.random.SeedSequence((seed, *path)))


def spawned_seeds(seed: int | None, count: int) -> list[int]:
    """32-bit seeds for parts ``0 … count - 1`` of a run seeded ``seed``."""
    return [_first_word(child) for child in np.random.SeedSequence(seed).spawn(count)]


def spawned_rng(seed: int | None, index: int) -> np.random.Generator:
    """A generator for part ``index`` of a run seeded ``seed``."""
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(index,)))


def _first_word(sequence: np.random.SeedSequence) -> int:
    return int(sequence.generate_state(1)[0])
