"""The environments' dice: one seeded stream of throws (R7.2).

The PettingZoo env and the Gymnasium env play their games with dice from here, so they roll
the same way.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .rules import THROWS

DICE_BLOCK = 256  # ordered outcomes per generator call: one numpy call serves many throws


class DiceStream:
    """Throws uniform over the 216 ordered outcomes (``rules.ordered_index``), drawn from
    ``rng`` ``block`` at a time and used in the generator's order, so a seed fixes the whole
    stream. The compiled kernel (``vector.kernel.play``) reads them where they are: the
    current block ``outcomes`` (one byte each) from ``cursor[0]`` on, advancing ``cursor``.
    ``owner`` is the game that throws from the stream now (``vector.one.OneGame``)."""

    __slots__ = ("rng", "block", "outcomes", "cursor", "owner")

    def __init__(self, rng: np.random.Generator, block: int = DICE_BLOCK) -> None:
        self.rng = rng
        self.block = block
        self.outcomes = np.zeros(0, np.uint8)  # none yet: the first use refills
        self.cursor = np.zeros(1, np.int64)
        self.owner: Any = None

    def refill(self) -> None:
        """Replace the used-up block by the next one."""
        # drawn as int64, as they always were, so that seeded streams stay the same
        self.outcomes = self.rng.integers(0, len(THROWS), self.block).astype(np.uint8)
        self.cursor[0] = 0
