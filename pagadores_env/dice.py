"""The environments' dice: one seeded stream of throws (R7.2).

Every driver that plays the engine with its own dice (the PettingZoo env, the Gymnasium env,
the scalar evaluator) draws them here, so they all roll the same way.
"""

from __future__ import annotations

import numpy as np

from .rules import THROWS, Throw

DICE_BLOCK = 256  # ordered outcomes per generator call: one numpy call serves many throws


class DiceStream:
    """Throws uniform over the 216 ordered outcomes, drawn from ``rng`` ``block`` at a time and
    used in the generator's order, so a seed fixes the whole stream. They come as classified
    ``Throw``s, which ``Game.apply_throw`` takes without classifying again."""

    __slots__ = ("rng", "block", "_coming")

    def __init__(self, rng: np.random.Generator, block: int = DICE_BLOCK) -> None:
        self.rng = rng
        self.block = block
        self._coming: list[Throw] = []  # the next throw last, so taking one is a pop

    def draw(self) -> Throw:
        """The next throw of the stream."""
        if not self._coming:
            outcomes = self.rng.integers(0, len(THROWS), self.block).tolist()
            outcomes.reverse()
            self._coming = list(map(THROWS.__getitem__, outcomes))
        return self._coming.pop()
