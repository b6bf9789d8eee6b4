"""Plain-English text for a Perudo game: one sentence per engine event, and the public table.

Only public facts are shown (P7.2): dice counts, the round's bids, the starter, whether the
round is palifico, and the dice revealed at the last dudo; nobody's hidden dice. Seats are
named like the environment's agents (``render.player``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ..core.protocol import Event
from ..core.seats import player
from .engine import Game
from .rules import BIDS


def _dice(faces: Iterable[int]) -> str:
    return " ".join(map(str, sorted(faces))) or "-"


#: kind → sentence (the event table in ``perudo.engine`` documents each kind's seat and value).
_SENTENCES: dict[str, Callable[[Event], str]] = {
    "round": lambda e: f"Round {e.value}: {player(e.seat)} starts",
    "palifico": lambda e: f"Palifico round: {player(e.seat)} has one die left",
    "roll": lambda e: "Everyone rolls under their cup",
    "bid": lambda e: f"{player(e.seat)} bids {e.value[0]} x {e.value[1]}",
    "dudo": lambda e: f"{player(e.seat)} calls dudo on {e.value[0]} x {e.value[1]}",
    "count": lambda e: f"There are {e.value}",
    "loses": lambda e: f"{player(e.seat)} loses a die",
    "out": lambda e: f"{player(e.seat)} is out",
    "winner": lambda e: f"{player(e.seat)} wins the game",
}


def describe_event(event: Event) -> str:
    """One event as a sentence, e.g. ``"player_1 bids 3 x 5"``."""
    return _SENTENCES[event.kind](event)


def describe_events(events: Iterable[Event]) -> list[str]:
    """Each event as a sentence, in order."""
    return [describe_event(event) for event in events]


def render_table(game: Game) -> str:
    """The public position as text: one row per seat (dice held, latest bid this round,
    dice revealed at the last dudo) under a line naming the round and the bid to beat."""
    if game.winner is not None:
        head = f"Game over after round {game.round}: {player(game.winner)} wins"
    else:
        kind = "palifico round" if game.palifico else "round"
        bid = "no bid yet" if game.bid is None else (
            f"bid {game.bid[0]} x {game.bid[1]} by {player(game.bidder)}")
        head = f"Perudo {kind} {game.round}, {game.total_dice} dice on the table, {bid}"
    rows = [head]
    for seat in range(game.num_players):
        mark = ">" if seat == game.current_player else " "
        last = BIDS[game.last_bids[seat]]
        rows.append(
            f"{mark} {player(seat):<9} dice {game.dice_counts[seat]}"
            f"  last bid {'-' if last is None else f'{last[0]} x {last[1]}':<7}"
            + ("" if game.revealed is None else f"  revealed {_dice(game.revealed[seat])}"))
    return "\n".join(rows)


#: The rules in short, with their ids, for a player at the table (terminal play's ``?``).
SUMMARY = """\
Perudo in short (the rule ids are explained in docs/rules/perudo.md):
  P1   2-6 players, 5 dice each. Lose all your dice and you are out; the last one
       holding dice wins (P1.2, P1.3).
  P2   Every round everyone rolls in secret. The starter bids, then each player in turn
       raises the bid or calls dudo (P2.1-P2.3).
  P3   A bid "3x5" claims at least three 5s on the whole table. Raise with more dice, or
       the same number on a higher face; a bid on 1s (jokers) needs at least half the
       dice, rounded up; from 1s back to a face takes twice the jokers plus one. The
       opening bid may not be on 1s (P3.1-P3.5).
  P4   Dudo: all dice are shown. Fewer than bid: the bidder loses a die; otherwise the
       caller does (ties go against the caller). The loser starts the next round (P4).
  P5   In a normal round 1s are jokers and count for every face (P5.1).
  P6   Palifico: when a player drops to one die, the next round has no jokers and every
       bid keeps the opening face (P6)."""
