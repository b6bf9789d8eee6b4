"""The environments' dice for Pasch: one seeded stream of faces (X8.2).

Both environments throw here, so a seed throws the same dice in each.
"""

from __future__ import annotations

import numpy as np

from .engine import Game
from .rules import FACES

FACE_BLOCK = 1024  # faces per generator call: one numpy call serves many throws


class FaceStream:
    """Faces uniform on 1–6, independent (X8.2), drawn from ``rng`` ``block`` at a time and
    used in the generator's order, so a seed fixes the whole stream."""

    __slots__ = ("rng", "block", "_faces", "_at")

    def __init__(self, rng: np.random.Generator, block: int = FACE_BLOCK) -> None:
        self.rng = rng
        self.block = block
        self._faces: list[int] = []
        self._at = 0

    def throw(self, count: int) -> tuple[int, ...]:
        """The next ``count`` faces (at most five)."""
        if self._at + count > len(self._faces):
            self._faces = self._faces[self._at:] + self.rng.integers(
                1, FACES + 1, self.block).tolist()
            self._at = 0
        faces = tuple(self._faces[self._at:self._at + count])
        self._at += count
        return faces


def throw_to_decision(game: Game, faces: FaceStream) -> None:
    """Throw the dice of every chance node until a decision or the end of the game (a throw
    can lead to a forced placement and the next seat's forced card, X8.3, and so to the next
    throw)."""
    while game.is_chance_node():
        game.apply_chance(faces.throw(game.to_throw))
