"""Plain-English text for a game: one line per engine event, and a table of the position.

``describe_event`` turns one :class:`~pagadores_env.core.protocol.Event` into a sentence;
``describe_events`` does a whole log and names the kind of each special from the throw before
it; ``render_table`` draws the table the AEC env's ``"ansi"`` mode returns and its
``"human"`` mode prints. Seats are named like the env's agents (``player_0`` …).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ..core.protocol import Event
from ..core.seats import player
from .engine import Game, Phase
from .rules import THROWS, Throw, classify

#: A readable name for every strength (equal strengths are equal throws, R2.5).
_STRENGTH_NAME = {t.strength: t.name for t in THROWS}


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _special(event: Event, throw: Throw | None) -> str:
    hits = ", ".join(f"{player(victim)} loses {_count(lost, 'card')}"
                     for victim, lost in event.value)
    if throw is None:  # the kind is only known from the throw that caused it
        return f"Special throw by {player(event.seat)}: {hits}"
    return f"{throw.name}! {hits}"


#: kind → sentence (the Event docstring in engine.py documents each kind's seat and value).
_SENTENCES: dict[str, Callable[[Event, Throw | None], str]] = {
    "round": lambda e, _: f"Round {e.value}: {player(e.seat)} insteeks",
    "throw": lambda e, _: f"{player(e.seat)} throws {classify(e.value)}",
    "special": _special,
    "picaro": lambda e, _: (f"Picaro! {player(e.seat)} loses {_count(e.value, 'card')} "
                            "and the round ends"),
    "again": lambda e, _: f"{player(e.seat)} throws again",
    "stop": lambda e, _: f"{player(e.seat)} stops after {_count(e.value, 'throw')}",
    "limit": lambda e, _: f"Throw limit this round: {e.value}",
    "score": lambda e, _: f"{player(e.seat)} scores {_STRENGTH_NAME[e.value]}",
    "kampen": lambda e, _: (f"Kampen: {', '.join(map(player, e.value))} tie for lowest "
                            "and throw once each"),
    "loses": lambda e, _: f"{player(e.seat)} loses {_count(e.value, 'card')}",
    "out": lambda e, _: f"{player(e.seat)} is out",
    "winner": lambda e, _: f"{player(e.seat)} wins the game",
}


def describe_event(event: Event, throw: Throw | None = None) -> str:
    """One event as a sentence, e.g. ``"player_2 throws 1-1-1 Celebro"``.

    ``throw`` is the throw that caused a ``special`` event (its kind names the special, as in
    ``"Celebro! player_0 loses 3 cards, player_1 loses 3 cards"``); other kinds ignore it.
    """
    try:
        sentence = _SENTENCES[event.kind]
    except KeyError:
        raise ValueError(
            f"unknown event kind {event.kind!r}; known kinds are {sorted(_SENTENCES)}"
        ) from None
    return sentence(event, throw)


def describe_events(events: Iterable[Event]) -> list[str]:
    """Sentences for a run of events, naming each special after the throw just before it."""
    lines = []
    last_throw = None
    for event in events:
        if event.kind == "throw":
            last_throw = classify(event.value)
        lines.append(describe_event(event, last_throw))
    return lines


def seat_status(game: Game, seat: int) -> str:
    """What a seat is doing this round, for the table's last column."""
    if not game.cards[seat]:
        return "out"
    if game.winner is not None:
        return "winner" if game.winner == seat else ""
    if game.phase == Phase.KAMPEN and seat in game.kampen:
        at = game.kampen.index(seat)
        if at < game.kampen_pos:
            return f"kampen: threw {_STRENGTH_NAME[game.kampen_scores[at]]}"
        return "kampen: throws now" if seat == game.current_player else "kampen: to throw"
    if seat == game.current_player:
        if game.current is None:
            return "throws now"
        return f"throwing: {game.current} (throw {game.throws} of {game.max_throws})"
    if game.scores[seat] >= 0:
        lowest = " (lowest)" if game.scores[seat] == game.score_to_beat() else ""
        return f"scored {_STRENGTH_NAME[game.scores[seat]]}{lowest}"
    return "to throw" if seat in game.order[game.pos + 1:] else ""


def _header(game: Game) -> str:
    if game.winner is not None:
        return f"Game over after {_count(game.round, 'round')}: {player(game.winner)} wins"
    limit = "not set yet" if game.throw_limit is None else str(game.throw_limit)
    low = game.score_to_beat()
    to_beat = "none yet" if low < 0 else _STRENGTH_NAME[low]
    phase = ", kampen" if game.phase == Phase.KAMPEN else ""
    assert game.insteker is not None  # only a finished game has none (R1.5), handled above
    return (f"Round {game.round}{phase} | {player(game.insteker)} insteeks | "
            f"throw limit {limit} | score to beat: {to_beat}")


_ROW = "  {} {:<9}{} {:>5}  {}"  # mark, seat, insteker mark, cards, this round


def render_table(game: Game) -> str:
    """The position as text: a header line, then one row per seat.

    ``>`` marks the player to throw or decide and ``*`` the insteker; the last column says
    what the seat did or does this round.
    """
    rows = [_header(game), _ROW.format(" ", "seat", " ", "cards", "this round")]
    for seat in range(game.num_players):
        mark = ">" if seat == game.current_player else " "
        inst = "*" if seat == game.insteker else " "
        rows.append(_ROW.format(mark, player(seat), inst, game.cards[seat],
                                seat_status(game, seat)).rstrip())
    return "\n".join(rows)


#: The rules in short, with their ids, for a player at the table (terminal play's ``?``).
SUMMARY = """\
Dados de Pagadores in short (the rule ids are explained in docs/rules/pagadores.md):
  R1   2-6 players, 10 cards each. Lose all your cards and you are out; the last one
       holding cards wins (R1.4, R1.5).
  R2   Three dice. Points: a 1 counts 100, a 6 counts 60, the others their face (R2.1).
       From high to low: Celebro 1-1-1, Hermana 6-5-4, Puerta 1-2-3, Cavar (three of a
       kind), Flamenco (anything else, by points), and Picaro 2-2-3 at the bottom (R2.2).
  R3   The insteker throws up to 3 times; the number used is the limit for everyone
       else this round, who may stop earlier. Only your LAST throw counts, not your best.
       The lowest score of the round loses 1 card and insteeks next (R3.2-R3.5).
  R4   Celebro / Hermana / Puerta: every other player loses 3 / 2 / 1 cards at once, on
       every throw that shows them (R4.1, R4.2). Picaro ends the round at once and costs
       its thrower 2 cards (R4.4).
  R5   A tie for lowest is settled by kampen: one throw each, lowest loses (R5).
  R6   Whoever empties is out; the next player clockwise insteeks (R6.1, R6.2)."""
