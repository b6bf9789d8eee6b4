"""The environments' dice for Perudo: one seeded stream of faces (P7.1).

Both environments roll here, so a seed rolls the same dice in each.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .rules import FACES

FACE_BLOCK = 1024  # faces per generator call: one numpy call serves many rounds


class FaceStream:
    """Faces uniform on 1–6, independent (P7.1), drawn from ``rng`` ``block`` at a time and
    used in the generator's order, so a seed fixes the whole stream."""

    __slots__ = ("rng", "block", "_faces", "_at")

    def __init__(self, rng: np.random.Generator, block: int = FACE_BLOCK) -> None:
        self.rng = rng
        self.block = block
        self._faces: list[int] = []
        self._at = 0

    def roll(self, counts: Sequence[int]) -> tuple[tuple[int, ...], ...]:
        """One round's dice (P2.1): ``counts[seat]`` faces per seat, in seat order."""
        hands = []
        for count in counts:
            if self._at + count > len(self._faces):
                rest = self._faces[self._at:]  # a partly used block's faces come first
                size = max(self.block, count - len(rest))  # a hand may outgrow a block
                self._faces = rest + self.rng.integers(1, FACES + 1, size).tolist()
                self._at = 0
            hands.append(tuple(self._faces[self._at:self._at + count]))
            self._at += count
        return tuple(hands)
