"""The error every game and env raises for a move its rules do not allow."""

from __future__ import annotations


class IllegalMoveError(ValueError):
    """A call the game does not allow in its current state; the state is unchanged."""


def retired(old: str, new: str) -> ImportError:
    """The one-line error of a retired env name ``old`` (a v0 module or registry id), pointing
    at ``new``, whose module docstring's Version History says what changed."""
    return ImportError(f"{old} is retired: use {new} (pagadores-env 0.2.0 renamed the v0 envs "
                       "to v1; its Version History lists what changed since v0)")
