"""Argument checks shared by every game's public entry points: each error names the
argument, what it allows and what it got."""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any

import numpy as np


def check_int(name: str, value: Any, low: int, high: int | None = None) -> int:
    """``value`` as an int if it is an integer (not a bool) from ``low`` to ``high``."""
    if (isinstance(value, bool) or not isinstance(value, int | np.integer) or value < low
            or (high is not None and value > high)):
        allowed = f"{low}–{high}" if high is not None else f"≥ {low}"
        raise ValueError(f"{name} must be an integer {allowed}, got {value!r}")
    return int(value)


def check_seed(seed: Any) -> int | None:
    """``seed`` as every env takes it: None (fresh entropy, or the streams run on) or an
    integer ≥ 0 of any kind but a bool, as a Python int, since numpy and Gymnasium seed with
    non-negative Python ints only. The envs call it before they touch any state, so a bad
    seed leaves a game in progress as it was."""
    if seed is None:
        return None
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
        raise ValueError(f"seed must be None or an integer ≥ 0, got {seed!r}")
    return int(seed)


def check_choice(name: str, value: Any, allowed: Sequence[Any]) -> Any:
    """``value`` if it is one of ``allowed`` (compared by identity or, for strings, equality)."""
    if not any(value is a or (isinstance(value, str) and value == a) for a in allowed):
        raise ValueError(f"{name} must be one of {', '.join(map(repr, allowed))}, got {value!r}")
    return value


def as_int(value: Any, name: str) -> int:
    """``value`` as an int if it is an integer of any kind but a bool."""
    if isinstance(value, bool):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    try:
        return operator.index(value)
    except TypeError:
        raise ValueError(f"{name} must be an integer, got {value!r}") from None


def check_action(action: Any, count: int, meaning: str) -> int:
    """The one rule for what counts as an action of a game with ``count`` actions, used by its
    ``Game`` and both its environments alike: an integer 0 … ``count`` - 1 as a Python int, a
    numpy integer or a 0-d integer array (what a policy's ``predict`` returns). Booleans and
    floats are refused even when whole, so a wrong dtype in a driver shows up at once.
    ``ValueError`` in one line naming the range, ``meaning`` (the game's encoding) and what
    it got."""
    try:
        if isinstance(action, bool | np.bool_):
            raise TypeError
        value = operator.index(action)
        if not 0 <= value < count:
            raise TypeError
        return value
    except TypeError:
        raise ValueError(f"action must be an integer 0–{count - 1} ({meaning}), got "
                         f"{action!r} ({type(action).__name__})") from None


def check_flag(name: str, value: Any) -> bool:
    """``value`` if it is exactly True or False (no truthy stand-ins)."""
    return check_choice(name, value, (False, True))


def check_table(num_players: Any, counts: Any, name: str, most: int,
                sizes: tuple[int, int]) -> tuple[int, tuple[int, ...]]:
    """A table's size and start counts per seat (cards, dice: ``name``): ``num_players`` in
    ``sizes`` (fewest, most) and ``counts`` either one count 1–``most`` for everyone or one
    count 0–``most`` per seat with at least two seats above 0 (a chosen position); the
    largest count is the official game. Each game's rules call it with their own facts
    (Pagadores' ``rules.check_table``, Perudo's ``perudo.rules.check_table``)."""
    n = as_int(num_players, "num_players")
    low, high = sizes
    if not low <= n <= high:
        raise ValueError(f"num_players must be {low}–{high}, got {n}")
    if isinstance(counts, Sequence) and not isinstance(counts, str):
        start = tuple(as_int(c, name) for c in counts)
        if (len(start) != n or not all(0 <= c <= most for c in start)
                or sum(c > 0 for c in start) < 2):
            raise ValueError(
                f"{name} per seat must be {n} numbers from 0 to {most} with at "
                f"least two above 0, got {list(counts)}"
            )
        return n, start
    count = as_int(counts, name)
    if not 1 <= count <= most:
        raise ValueError(f"{name} must be 1–{most} ({most} is the official game), got {count}")
    return n, (count,) * n
