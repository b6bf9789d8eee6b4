"""Progress status lines (``pagadores_train.progress``) as the tests read them: the bracket
that ends a line holds the time so far and, while steps remain, the time left."""

from __future__ import annotations

import re

#: The bracket a status line ends with (``[12 s]``, ``[3.5 min, about 40 s left]``).
TIMES = r"\[[\d.]+ (?:s|min)(?:, about [\d.]+ (?:s|min) left)?\]"


def untimed(line: str) -> str:
    """``line`` without the times it ends with."""
    return re.sub(rf" {TIMES}$", "", line)
