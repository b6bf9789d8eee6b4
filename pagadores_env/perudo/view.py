"""Perudo's part of the web page's view (``GameSpec.view``, ``core.views``). The dice under
each cup are private (P7.2): a seat's own dice go to that seat only, and only while they are
rolled; what everyone sees is the dice counts, the round's bids, and the dice revealed at the
last dudo (public once called)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .engine import Game
from .rules import BIDS


def view(game: Game, seats: Sequence[int]) -> dict[str, Any]:
    """The public table and, under ``private``, the dice of each of ``seats`` that holds
    rolled dice this round (keyed by the seat as text, as JSON keys are)."""
    last_bids = [BIDS[game.last_bids[seat]] for seat in range(game.num_players)]
    table = {
        "round": game.round, "palifico": game.palifico, "starter": game.starter,
        "bid": None if game.bid is None else list(game.bid), "bidder": game.bidder,
        "total_dice": game.total_dice, "winner": game.winner,
        "revealed": None if game.revealed is None else [list(h) for h in game.revealed],
        "seats": [{"dice": count, "last_bid": None if bid is None else list(bid)}
                  for count, bid in zip(game.dice_counts, last_bids, strict=True)],
    }
    rolled = game.rolled and game.winner is None
    private = {str(seat): sorted(game.hands[seat]) for seat in seats
               if rolled and game.dice_counts[seat]}
    return {"table": table, "private": private}
