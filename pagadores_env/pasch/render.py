"""Plain-English text for a game of Pasch: one sentence per engine event, and the table.

Everything is public in Pasch (X8.2), so the table shows all of it: the round and its
starter, each seat's cards left, blocks, score, card played and disc this round (with its
rank so far, X7.1), and the dice of the seat whose turn it is. Seats are named like the
environments' agents (``core.seats.player``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ..core.protocol import Event
from ..core.seats import player
from .engine import Game, Phase
from .rules import Field, class_field, ranking


def field_name(field: Field | None) -> str:
    """``"triple 6"``, or ``"beside the board"`` for no Pasch."""
    return "beside the board" if field is None else f"{field[0]} {field[1]}"


def _dice(faces: Iterable[int]) -> str:
    return "-".join(map(str, faces)) or "-"


def _block(event: Event) -> str:
    kind, position = event.value
    verb = {"throw": "throws again", "raise": "raises", "lower": "lowers"}[kind]
    return f"{player(event.seat)} spends a block and {verb} die {position}"


#: kind → sentence (the event table in ``pasch.engine`` documents each kind's seat and value).
_SENTENCES: dict[str, Callable[[Event], str]] = {
    "round": lambda e: f"Round {e.value}: {player(e.seat)} starts",
    "forced": lambda e: f"{player(e.seat)} has one choice only",
    "card": lambda e: f"{player(e.seat)} plays card {e.value}",
    "throw": lambda e: f"{player(e.seat)} throws {_dice(e.value[0])}: {_dice(e.value[1])}",
    "again": lambda e: f"{player(e.seat)} throws dice {list(e.value)} again",
    "stop": lambda e: f"{player(e.seat)} stops after {e.value} throws",
    "block": _block,
    "place": lambda e: f"{player(e.seat)} places its disc: {field_name(e.value)}",
    "share": lambda e: "Cards shared out: " + ", ".join(
        f"{player(s)} takes {list(cards)}" for s, cards in enumerate(e.value) if cards),
    "winner": lambda e: f"{player(e.seat)} wins the game with {e.value} points",
}


def describe_event(event: Event) -> str:
    """One event as a sentence, e.g. ``"player_1 places its disc: triple 6"``."""
    return _SENTENCES[event.kind](event)


def describe_events(events: Iterable[Event]) -> list[str]:
    """Each event as a sentence, in order."""
    return [describe_event(event) for event in events]


def render_table(game: Game) -> str:
    """The position as text: a line naming the round (or the winners), then one row per
    seat, then the dice of the turn being played."""
    if game.is_terminal():
        won = ", ".join(map(player, game.winners()))
        head = f"Game over after {game.rounds} rounds: {won} with {max(game.scores)} points"
    else:
        head = (f"Pasch round {game.round + 1}/{game.rounds}, started by "
                f"{player(game.starter)}")
    ranks = {seat: k + 1 for k, seat in enumerate(ranking(game.discs))}
    discs = dict(game.discs)
    rows = [head]
    for seat in range(game.num_players):
        mark = ">" if seat == game.turn else " "
        played = game.played[seat] if not game.is_terminal() else None
        disc = (f"  disc {field_name(class_field(discs[seat]))} (rank {ranks[seat]})"
                if seat in discs else "")
        rows.append(f"{mark} {player(seat):<9} score {game.scores[seat]:>3}  blocks "
                    f"{game.blocks[seat]}  hand {list(game.hands[seat])}"
                    + ("" if played is None else f"  played {played}") + disc)
    if game.dice and game.phase != Phase.OVER:
        rows.append(f"  dice {_dice(game.dice)} after {game.throws} "
                    f"throw{'s' if game.throws != 1 else ''}")
    return "\n".join(rows)



#: The rules in short, with their ids, for a player at the table (terminal play's ``?``).
SUMMARY = """\
Pasch in short (the rule ids are explained in docs/rules/pasch.md):
  X1   2-6 players; everyone holds the same hand of cards (default -1 1 2 3 4 5) and
       3 action blocks; as many rounds as cards (X1.3, X1.4).
  X2   Each round every player plays a card face up, then takes a dice turn (X2.2).
  X3   Throw five dice; after the first and second throw stop, or throw again any of
       them (kept dice may be thrown again). At most three throws (X3.1, X3.2).
  X4   Then spend blocks, one at a time: throw one die again, or move one die up or
       down by one (no 6 to 1, no 1 to 6) (X4.1).
  X6   Place your disc on the board: pair < two pairs < triple < full house < four <
       five, by the value of the dice; five different values go beside the board (X6).
  X7   The lowest result takes every -1 card played; the other cards go by rank, the
       best result taking the highest card (X7.2). Most points after the last round wins."""
