"""The environments' dice for Paye: one seeded stream of throws (Y5.1).

Every die has six faces, each as likely (Y1.3), so a throw is the face of a special die at
the position an ordinary die shows (face 1 the first position … face 6 the sixth), drawn
from the core's ``dice.FaceStream``. Both environments throw here, so a seed throws the same
dice in each.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core.dice import FaceStream
from .engine import Game

__all__ = ["ThrowStream", "throw_to_decision"]


class ThrowStream(FaceStream):
    """Face positions uniform on 0–5, independent (Y5.1): an ordinary die's faces 1–6 from the
    core's seeded ``FaceStream``, one position per throw."""

    __slots__ = ()

    def throw(self, faces: Sequence[int]) -> int:
        """One throw of the die with ``faces``: the face at the next position."""
        return faces[self.faces(1)[0] - 1]


def throw_to_decision(game: Game, dice: ThrowStream) -> None:
    """Throw the dice until someone chooses a die or the game is over (Y2.1, Y3.2)."""
    while game.is_chance_node():
        game.apply_chance(dice.throw(game.faces_to_throw()))
