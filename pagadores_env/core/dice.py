"""Seeded dice for the environments: ``FaceStream``, faces of ordinary six-sided dice drawn
uniformly and independently from one generator, a block at a time.

A game's environments throw their dice from a stream made with the env's generator, so a
seed throws the same dice in each of them (the AEC env and the Gymnasium env). Drawing a
block of faces per numpy call serves many throws at once, and the faces are used in the
generator's order, so a seed fixes the whole stream whatever the block size. What a game does
with the faces is its own (Perudo's rolls under the cups, Pasch's throws to the next decision,
Paye's faces read as positions on its special dice).
"""

from __future__ import annotations

import numpy as np

FACES = 6  # an ordinary die
BLOCK = 1024  # faces per generator call: one numpy call serves many throws


class FaceStream:
    """Faces uniform on 1–6, independent, drawn from ``rng`` ``block`` at a time and used in
    the generator's order, so a seed fixes the whole stream."""

    __slots__ = ("rng", "block", "_faces", "_at")

    def __init__(self, rng: np.random.Generator, block: int = BLOCK) -> None:
        self.rng = rng
        self.block = block
        self._faces: list[int] = []
        self._at = 0

    def faces(self, count: int) -> tuple[int, ...]:
        """The next ``count`` faces."""
        if self._at + count > len(self._faces):
            rest = self._faces[self._at:]  # a partly used block's faces come first
            size = max(self.block, count - len(rest))  # one request may outgrow a block
            self._faces = rest + self.rng.integers(1, FACES + 1, size).tolist()
            self._at = 0
        faces = tuple(self._faces[self._at:self._at + count])
        self._at += count
        return faces
