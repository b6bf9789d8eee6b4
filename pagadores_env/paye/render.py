"""Plain-English text for a game of Paye's dobbelspel: one sentence per engine event, and the
table (everything is public, Y5.1). Seats are named like the environments' agents
(``core.seats.player``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ..core.protocol import Event
from ..core.seats import player
from .engine import BLUE_CHOICE, START, Game
from .rules import describe_action


def _die(action: int) -> str:
    """A die in a sentence, whatever the variant: S0 … S5 (red in the expansion), the
    traditional red die, or blue S0 … S5."""
    return describe_action(action, "expansion" if action >= 6 else "base")


#: kind → sentence (the event table in ``paye.engine`` documents each kind's seat and value).
_SENTENCES: dict[str, Callable[[Event], str]] = {
    "start_throw": lambda e: f"{player(e.seat)} throws {e.value} for the start",
    "rethrow": lambda e: f"{', '.join(map(player, e.value))} tie and throw again",
    "first": lambda e: f"{player(e.seat)} moves first",
    "round": lambda e: f"Round {e.value}",
    "turn": lambda e: f"{player(e.seat)}'s turn",
    "choose": lambda e: f"{player(e.seat)} chooses {_die(e.value)}",
    "forced": lambda e: f"{player(e.seat)} has to take {_die(e.value)}, the only choice",
    "throw": lambda e: f"{player(e.seat)} throws {e.value[1]} with {_die(e.value[0])}",
    "points": lambda e: f"{player(e.seat)} scores {e.value:+d} points",
    "halve": lambda e: f"{player(e.seat)} is over the target: {e.value[0]} halves to "
                       f"{e.value[1]}",
    "score": lambda e: f"{player(e.seat)} goes from {e.value[0]} to {e.value[1]}",
    "aside": lambda e: f"{player(e.seat)} sets {' and '.join(map(_die, e.value))} aside",
    "win": lambda e: (f"{player(e.seat)} wins" if e.value == 1
                      else f"{player(e.seat)} shares the win with {e.value - 1} more"),
}


def describe_event(event: Event) -> str:
    """One event as a sentence, e.g. ``"player_1 throws 5 with S2"``."""
    return _SENTENCES[event.kind](event)


def describe_events(events: Iterable[Event]) -> list[str]:
    """Each event as a sentence, in order."""
    return [describe_event(event) for event in events]


def headline(game: Game) -> str:
    """The table's first line: the variant and target, the round and who is to act, or the
    winners."""
    name = f"Paye's dobbelspel ({game.variant}, to {game.target})"
    if game.is_terminal():
        who = " and ".join(map(player, game.winners))
        verb = "wins" if len(game.winners) == 1 else "share the win"
        return f"{name}: game over in round {game.round}, {who} {verb}"
    if game.phase == START:
        return f"{name}: the start throws (highest moves first)"
    what = "the blue die" if game.phase == BLUE_CHOICE else "a die"
    doing = (f"{player(game.mover)} chooses {what}" if game.current_player >= 0
             else f"{player(game.mover)} throws")
    return f"{name}: round {game.round} of {game.rounds}, {doing}"


def render_table(game: Game) -> str:
    """The position as text: a headline, one row per seat (its score, a bar of it up to the
    target, its start throw or a mark for the blue die it must throw), then this turn's dice
    and throws and, in the expansion, the dice set aside this round."""
    rows = [headline(game)]
    width = 25
    for seat, score in enumerate(game.scores):
        mark = ">" if seat == game.mover and not game.is_terminal() else " "
        bar = "#" * round(width * score / game.target)
        note = ""
        if game.phase == START:
            thrown = dict(zip(game.contenders, game.start_throws, strict=False))
            note = f"  start throw {thrown[seat]}" if seat in thrown else ""
        elif seat == game.mover and game.blue_due and not game.is_terminal():
            note = "  throws a blue die too"
        rows.append(f"{mark} {player(seat):<9} {score:>3} |{bar:<{width}}| {game.target}{note}")
    dice = [d for d in (game.red, game.blue) if d is not None]
    if dice:
        named = (describe_action(d, game.variant) for d in dice)
        rows.append(f"  this turn: {' and '.join(named)}, thrown "
                    f"{' '.join(map(str, game.thrown)) or 'nothing yet'}")
    if game.variant == "expansion":
        aside = (describe_action(d, game.variant) for d in game.aside)
        rows.append(f"  aside: {', '.join(aside) or 'none'}")
    rows.append("  special dice: " + " | ".join(
        f"S{d} {' '.join(map(str, sorted(faces)))}" for d, faces in enumerate(game.dice)))
    return "\n".join(rows)


#: The rules in short, with their ids, for a player at the table (terminal play's ``?``).
SUMMARY = """\
Paye's dobbelspel in short (the rule ids are explained in docs/rules/paye.md):
  Y1   2-6 players race to exactly 50 points; nobody is ever out. Six special dice
       S0-S5 (default faces: S0 0 0 1 1 1 2, S1 2 2 2 3 3 3, S2 1-6, S3 0 0 0 7 7 7,
       S4 4 4 5 5 6 6, S5 0 0 0 0 10 20) (Y1.3).
  Y2   The highest start throw of the ordinary die moves first; then clockwise, at
       most 10 rounds of one turn each (Y2.1, Y2.2).
  Y3   On your turn choose a special die and throw it twice: add both to your score;
       while the score is above 50, halve it, rounding down (Y3.1-Y3.3).
  Y4   Exactly 50 after your turn wins at once. After the last round the highest score
       wins; tied players share the win (Y4.1-Y4.4).
  Y6   Expansion: race to 100; from 50 on you also throw a blue die that counts minus;
       each die is used once per round (Y6)."""
