"""Observation layouts as field tables: where each field sits in the vector, and the table the
env docs print. A game's observation module declares its ``FIELDS`` as ``(name, length,
meaning)`` rows and derives its ``SLICES`` and ``OBS_SIZE`` here."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np

Fields = Sequence[tuple[str, int, str]]


def field_slices(fields: Fields) -> tuple[dict[str, slice], int]:
    """Where each field of the layout ``fields`` sits in the vector, and the vector's length
    (the fields laid end to end in order)."""
    starts = list(itertools.accumulate((size for _, size, _ in fields), initial=0))
    slices = {name: slice(start, start + size)
              for start, (name, size, _) in zip(starts, fields, strict=False)}
    return slices, starts[-1]


def field_table(fields: Fields) -> str:
    """The layout ``fields`` as a reStructuredText table, for docs."""
    slices, _ = field_slices(fields)
    rows = [(f"{slices[name].start}–{slices[name].stop - 1}", name, meaning)
            for name, _, meaning in fields]
    widths = [max(len(r[i]) for r in rows + [("index", "field", "meaning")]) for i in range(3)]
    rule = "  ".join("=" * w for w in widths)
    fmt = "  ".join(f"{{:<{w}}}" for w in widths)
    lines = [rule, fmt.format("index", "field", "meaning"), rule]
    lines += [fmt.format(*r) for r in rows] + [rule]
    return "\n".join(line.rstrip() for line in lines)


def observation_rows(obs: Any, size: int, dtype: type) -> np.ndarray:
    """``obs`` as an array of ``dtype``, one observation of ``size`` values or rows of them
    (``(..., size)``), for a game's ``decode``; ``ValueError`` for another shape."""
    obs = np.asarray(obs, dtype=dtype)
    if obs.ndim == 0 or obs.shape[-1] != size:
        raise ValueError(f"an observation must have {size} values (rows: shape "
                         f"(B, {size})), got shape {obs.shape}")
    return obs
