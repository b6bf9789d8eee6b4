"""Dados de Pagadores' part of the web page's view (``GameSpec.view``, ``core.views``): every
fact is public (R7.1), so every seat sees the same table and nobody has private facts."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .engine import Game
from .render import seat_status


def view(game: Game, seats: Sequence[int]) -> dict[str, Any]:
    """The table: round, phase, insteker, throw limit, the throws used and allowed, the last
    throw (who threw which dice, from the log), and per seat its cards and what it does this
    round; ``seats`` changes nothing (no hidden facts)."""
    last = next((event for event in reversed(game.log) if event.kind == "throw"), None)
    table = {
        "round": game.round, "phase": str(game.phase),
        "insteker": game.insteker, "throw_limit": game.throw_limit,
        "throws": game.throws, "max_throws": game.max_throws if game.winner is None else 0,
        "last_throw": None if last is None else {"seat": last.seat, "dice": list(last.value)},
        "winner": game.winner,
        "seats": [{"cards": game.cards[seat], "status": seat_status(game, seat)}
                  for seat in range(game.num_players)],
    }
    return {"table": table, "private": {}}
