"""Pasch's part of the web page's view (``GameSpec.view``, ``core.views``): every fact is
public (the hands of cards too, X8.2), so every seat sees the same table and nobody has
private facts."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .engine import Game


def view(game: Game, seats: Sequence[int]) -> dict[str, Any]:
    """The table: the game's snapshot (round, phase, turn, hands, blocks, scores, the cards
    played, the discs, the dice and throws) with the dice kept and the starter;
    ``seats`` changes nothing (no hidden facts)."""
    table = game.snapshot() | {"kept": list(game.kept), "starter": game.starter,
                               "num_rounds": len(game.hand)}
    return {"table": table, "private": {}}
