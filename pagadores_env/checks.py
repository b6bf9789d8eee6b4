"""Argument checks shared by the package's public entry points: each error names the
argument, what it allows and what it got."""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

from .rules import MAX_CARDS, MAX_PLAYERS, MIN_PLAYERS


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


def check_table(num_players: Any, cards: Any, name: str = "cards",
                most: int = MAX_CARDS) -> tuple[int, tuple[int, ...]]:
    """A table's size and start cards per seat: ``num_players`` 2–6 (R1.1) and ``cards``
    either one count 1–10 for everyone or one count 0–10 per seat with at least two seats
    holding cards (a chosen position). Perudo checks its start dice with it (``name``
    "dice", ``most`` 5: P1.1, P1.2); the largest count is the official game in both."""
    n = as_int(num_players, "num_players")
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise ValueError(f"num_players must be {MIN_PLAYERS}–{MAX_PLAYERS}, got {n}")
    if isinstance(cards, Sequence) and not isinstance(cards, str):
        start = tuple(as_int(c, name) for c in cards)
        if (len(start) != n or not all(0 <= c <= most for c in start)
                or sum(c > 0 for c in start) < 2):
            raise ValueError(
                f"{name} per seat must be {n} numbers from 0 to {most} with at "
                f"least two above 0, got {list(cards)}"
            )
        return n, start
    count = as_int(cards, name)
    if not 1 <= count <= most:
        raise ValueError(f"{name} must be 1–{most} ({most} is the official game), got {count}")
    return n, (count,) * n
