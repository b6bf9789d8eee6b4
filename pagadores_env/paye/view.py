"""Paye's dobbelspel's part of the web page's view (``GameSpec.view``, ``core.views``): every
fact is public (Y5.1), so every seat sees the same table and nobody has private facts."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .engine import Game


def view(game: Game, seats: Sequence[int]) -> dict[str, Any]:
    """The table: the game's snapshot (scores, round, turn, phase, the dice thrown and set
    aside, the red and blue dice, the winners) with the race's target, the rounds and the
    special dice's faces; ``seats`` changes nothing (no hidden facts)."""
    table = game.snapshot() | {"variant": game.variant, "target": game.target,
                               "rounds": game.rounds, "dice": [list(d) for d in game.dice]}
    return {"table": table, "private": {}}
