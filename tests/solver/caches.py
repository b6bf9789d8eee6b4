"""Damaged solver caches, as the solver's and the ``pagadores solve`` command's tests make them."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np


def wrong_arrays(path: Path) -> None:
    """A well-formed file of the right version whose value tables have the wrong shape."""
    with np.load(path) as data:
        stored = {key: data[key] for key in data.files}
    stored["win"] = stored["win"][:, :2]
    np.savez_compressed(path, **stored)


#: Ways to damage a cache file, by name.
DAMAGES: dict[str, Callable[[Path], object]] = {
    "truncated": lambda path: path.write_bytes(path.read_bytes()[:300]),
    "empty": lambda path: path.write_bytes(b""),
    "garbage": lambda path: path.write_bytes(bytes(range(256)) * 40),
    "wrong arrays": wrong_arrays,
}
