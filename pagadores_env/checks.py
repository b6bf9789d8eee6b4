"""Argument checks shared by the package's public entry points: each error names the
argument, what it allows and what it got."""

from __future__ import annotations

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


def check_choice(name: str, value: Any, allowed: Sequence[Any]) -> Any:
    """``value`` if it is one of ``allowed`` (compared by identity or, for strings, equality)."""
    if not any(value is a or (isinstance(value, str) and value == a) for a in allowed):
        raise ValueError(f"{name} must be one of {', '.join(map(repr, allowed))}, got {value!r}")
    return value
