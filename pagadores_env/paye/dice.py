"""The environments' dice for Paye: one seeded stream of throws (Y5.1).

Every die has six faces, each as likely (Y1.3), so a throw is a face drawn by its position
0–5 on the die. Both environments throw here, so a seed throws the same dice in each.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .engine import Game
from .rules import FACES

BLOCK = 1024  # face positions per generator call: one numpy call serves many throws


class ThrowStream:
    """Face positions uniform on 0–5, independent (Y5.1), drawn from ``rng`` ``block`` at a
    time and used in the generator's order, so a seed fixes the whole stream."""

    __slots__ = ("rng", "block", "_positions", "_at")

    def __init__(self, rng: np.random.Generator, block: int = BLOCK) -> None:
        self.rng = rng
        self.block = block
        self._positions: list[int] = []
        self._at = 0

    def throw(self, faces: Sequence[int]) -> int:
        """One throw of the die with ``faces``: the face at the next position."""
        if self._at == len(self._positions):
            self._positions = self.rng.integers(0, FACES, self.block).tolist()
            self._at = 0
        self._at += 1
        return faces[self._positions[self._at - 1]]


def throw_to_decision(game: Game, dice: ThrowStream) -> None:
    """Throw the dice until someone chooses a die or the game is over (Y2.1, Y3.2)."""
    while game.is_chance_node():
        game.apply_chance(dice.throw(game.faces_to_throw()))
