"""The environments' dice for Pasch: one seeded stream of faces (X8.2, the core's
``dice.FaceStream``), thrown at every chance node up to the next decision.

Both environments throw here, so a seed throws the same dice in each.
"""

from __future__ import annotations

from ..core.dice import FaceStream
from .engine import Game

__all__ = ["FaceStream", "throw_to_decision"]


def throw_to_decision(game: Game, faces: FaceStream) -> None:
    """Throw the dice of every chance node until a decision or the end of the game (a throw
    can lead to a forced placement and the next seat's forced card, X8.3, and so to the next
    throw)."""
    while game.is_chance_node():
        game.apply_chance(faces.faces(game.to_throw))
