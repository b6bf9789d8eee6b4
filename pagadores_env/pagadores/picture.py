"""Pictures of a game: ``draw(game)`` paints the position as a ``HEIGHT × WIDTH × 3`` RGB image.

Every picture is 640 × 480 pixels whatever the table size or state, so the frames of a game go
straight to a video encoder. Drawn are:

- a band at the top: the round, the phase and the throw limit (R3.2), and the score to beat —
  the lowest final score so far this round (R3.5), named by its throw — or, in kampen, the
  lowest kampen throw so far (R5);
- the seats clockwise around a table, seat 0 at the bottom (R1.2), each in a panel with its
  name, its cards left as card icons out of its start count and as a number, a badge for the
  insteker and for kampen players, and its final throw this round (R3.3) — in kampen its kampen
  throw — with the lowest shown in red. The player to act (or ``highlight``) has a gold frame;
  a player who is out is greyed with their place (R1.4); the winner's panel is gold (R1.5);
- in the middle, the latest throw as three dice faces with its thrower, the throws used this
  turn out of those allowed, and the winner when the game is over.

The table, its seats' panels, dice, badges and text are the games' shared pieces
(``core.picture``); the card icons are this game's own, drawn and cached the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import NamedTuple

import numpy as np
from PIL import Image, ImageDraw

from ..core.checks import check_int
from ..core.picture import (
    BAND_H,
    BIG_DIE,
    BLUE,
    CENTRE_X,
    CENTRE_Y,
    GOLD,
    HEIGHT,
    ORANGE,
    PALE,
    PANEL_W,
    PLACES,
    RED,
    SMALL_DIE,
    STYLES,
    SUPERSAMPLE,
    WHITE,
    WIDTH,
    backdrop,
    badge,
    dice,
    fit,
    gap,
    paste,
    seat_names,
    seat_slot,
    shrink,
    text,
)
from ..core.protocol import Event
from .engine import Game, Phase
from .render import _count
from .rules import Throw, classify

#: ``HEIGHT`` and ``WIDTH`` are the picture's size (``core.picture``'s, named here as the env
#: pages name them).
__all__ = ["HEIGHT", "WIDTH", "draw"]

CARD_W, CARD_H, CARD_GAP = 11, 16, 3


# ---------------------------------------------------------------------- what to show
class _RoundView(NamedTuple):
    """The throws of the round being played, read from the game's log."""

    finals: dict[int, Throw]  # seat → its final throw this round (R3.3)
    kampen: dict[int, Throw]  # seat → its throw in the kampen now being played (R5)
    tie: Throw | None  # the throw the kampen players tied with (R5.1, R5.3)
    last: tuple[int, Throw] | None  # the latest throw of the game and its thrower
    fresh: bool  # the latest throw was thrown in this round


def _read_round(log: Sequence[Event]) -> _RoundView:
    """Who threw what this round: a pass over the log from the last ``round`` event."""
    start = next(i for i in range(len(log) - 1, -1, -1) if log[i].kind == "round")
    thrown: dict[int, Throw] = {}
    finals: dict[int, Throw] = {}
    kampen: dict[int, Throw] | None = None
    tie: Throw | None = None
    last: tuple[int, Throw] | None = None
    for event in log[start:]:
        if event.kind == "throw":
            last = (event.seat, classify(event.value))
            thrown[event.seat] = last[1]
            if kampen is not None:
                kampen[event.seat] = last[1]
        elif event.kind == "score":
            finals[event.seat] = thrown[event.seat]
        elif event.kind == "kampen":  # tied on final throws, or again on kampen throws (R5.3)
            tie = (finals if kampen is None else kampen)[event.value[0]]
            kampen = {}
    fresh = last is not None
    if last is None:  # nothing thrown yet this round: the previous round's last throw
        last = next(((log[i].seat, classify(log[i].value)) for i in range(start - 1, -1, -1)
                     if log[i].kind == "throw"), None)
    return _RoundView(finals, kampen or {}, tie, last, fresh)


def _lowest(game: Game, view: _RoundView) -> dict[int, Throw]:
    """The throws to beat, by seat: the lowest kampen throws so far in kampen (R5), else the
    lowest final throws so far this round (R3.5); several when tied, none before any."""
    throws = view.kampen if game.phase == Phase.KAMPEN else view.finals
    low = min((t.strength for t in throws.values()), default=-1)
    return {seat: t for seat, t in throws.items() if t.strength == low}


def _header(game: Game, view: _RoundView, labels: Sequence[str]) -> tuple[str, str, str]:
    """The top band's left, middle and right texts."""
    if game.winner is not None:
        return f"Round {game.round}", "game over", f"{labels[game.winner]} wins"
    low = next(iter(_lowest(game, view).values()), None)  # the first thrown of equal throws
    if game.phase == Phase.KAMPEN:
        middle = "kampen: one throw each"
        right = f"lowest: {low}" if low is not None else f"tied at {view.tie}"
    else:
        limit = game.throw_limit
        middle = "throw limit: insteker sets it" if limit is None else f"throw limit {limit}"
        right = f"to beat: {low}" if low is not None else "to beat: nobody yet"
    return f"Round {game.round}", middle, right


def _caption(game: Game, labels: Sequence[str]) -> tuple[str, str]:
    """The two lines above the middle dice: who acts, and which throw of how many it is."""
    if game.winner is not None:
        return f"{labels[game.winner]} wins!", f"after {_count(game.round, 'round')}"
    who = labels[game.current_player]
    if game.phase == Phase.KAMPEN:
        return who, "throws once in the kampen"
    if game.decision:
        return who, f"threw {game.throws} of {game.max_throws}: stop or throw again?"
    return who, f"about to throw ({game.throws + 1} of {game.max_throws})"


def _seat_state(game: Game, seat: int) -> str:
    """The key of the seat's look in ``core.picture.STYLES``."""
    if not game.cards[seat]:
        return "out"
    return "winner" if game.winner == seat else "playing"


def _seat_throw(game: Game, view: _RoundView, seat: int) -> Throw | None:
    """The throw a seat's panel shows: its kampen throw in kampen, else its final throw;
    none once the seat is out."""
    if not game.cards[seat]:
        return None
    if game.phase == Phase.KAMPEN and seat in game.kampen:
        return view.kampen.get(seat)
    return view.finals.get(seat)


def _seat_note(game: Game, seat: int) -> str:
    """What a seat's panel says when it shows no throw."""
    if not game.cards[seat]:
        return f"out · {PLACES[game.placements()[seat] - 1]} place"
    if game.winner is not None:
        return "winner!" if seat == game.winner else ""
    if seat == game.current_player:
        return "throwing now" if game.phase == Phase.KAMPEN or not game.decision else "deciding"
    if game.phase == Phase.KAMPEN:
        return "to throw" if seat in game.kampen else ""
    return "to throw" if seat in game.order[game.pos:] else ""


def _badges(game: Game, seat: int) -> tuple[str, ...]:
    """Badges on a seat's panel, right to left."""
    kampen = game.phase == Phase.KAMPEN and seat in game.kampen
    return (("insteeks",) if seat == game.insteker else ()) + (("kampen",) if kampen else ())


_BADGE_COLOURS = {"insteeks": BLUE, "kampen": ORANGE}


@cache
def _cards(start: int, held: int) -> Image.Image:
    """A row of ``start`` card icons: red cards for the ``held`` ones, outlines for the lost."""
    ss = SUPERSAMPLE
    w, h, step = CARD_W * ss, CARD_H * ss, (CARD_W + CARD_GAP) * ss
    big = Image.new("RGBA", (start * step, h), (0, 0, 0, 0))
    pen = ImageDraw.Draw(big)
    for k in range(start):
        box = (k * step, 0, k * step + w - 1, h - 1)
        if k < held:
            pen.rounded_rectangle(box, 2 * ss, fill=RED, outline=(110, 20, 26), width=ss)
            inner = (box[0] + 2 * ss, 2 * ss, box[2] - 2 * ss, h - 1 - 2 * ss)
            pen.rounded_rectangle(inner, ss, outline=(255, 255, 255, 170), width=ss)
        else:
            pen.rounded_rectangle(box, 2 * ss, outline=(0, 0, 0, 60), width=ss)
    return shrink(big)


# ---------------------------------------------------------------------- drawing
def _draw_seat(image: Image.Image, game: Game, view: _RoundView, seat: int, label: str,
               state: str, lowest: bool) -> None:
    """Fill in a seat's panel (drawn by ``core.picture.backdrop``)."""
    x, y = seat_slot(game.num_players, seat)
    style = STYLES[state]
    right = x + PANEL_W - 10
    for name in _badges(game, seat):  # tabs on the top edge, so names keep the full width
        sprite = badge(name, _BADGE_COLOURS[name])
        right -= sprite.width
        paste(image, sprite, right, y - sprite.height // 2)
        right -= 4
    text(image, (x + 10, y + 17), fit(label, 16, PANEL_W - 20), 16, style.ink)
    if game.start_cards[seat]:  # a seat may start out of the game (per-seat cards)
        paste(image, _cards(game.start_cards[seat], game.cards[seat]), x + 10, y + 31)
    text(image, (x + PANEL_W - 10, y + 39), str(game.cards[seat]), 18, style.ink, "rm")
    throw = _seat_throw(game, view, seat)
    if throw is None:
        text(image, (x + 10, y + 66), _seat_note(game, seat), 14, style.muted)
        return
    after = dice(image, throw.dice, x + 10, y + 57, SMALL_DIE)
    text(image, (after + 3, y + 66), throw.name, 15, RED if lowest else style.ink)


def _draw_middle(image: Image.Image, game: Game, view: _RoundView,
                 labels: Sequence[str]) -> None:
    title, subtitle = _caption(game, labels)
    text(image, (CENTRE_X, CENTRE_Y - 70), fit(title, 20, 230), 20,
         WHITE if game.winner is None else GOLD, "mm")
    text(image, (CENTRE_X, CENTRE_Y - 48), fit(subtitle, 14, 230), 14, PALE, "mm")
    span = 3 * BIG_DIE + 2 * gap(BIG_DIE)
    top = CENTRE_Y - 30
    if view.last is None:
        dice(image, (0, 0, 0), CENTRE_X - span / 2, top, BIG_DIE)
        return
    seat, throw = view.last
    dice(image, throw.dice, CENTRE_X - span / 2, top, BIG_DIE, dim=not view.fresh)
    text(image, (CENTRE_X, top + BIG_DIE + 16), str(throw), 17, WHITE, "mm")
    by = f"thrown by {labels[seat]}" if view.fresh else f"last throw, by {labels[seat]}"
    text(image, (CENTRE_X, top + BIG_DIE + 36), fit(by, 13, 220), 13, PALE, "mm")


def draw(game: Game, names: Sequence[str] | None = None,
         highlight: int | None = None) -> np.ndarray:
    """The position of ``game`` as a ``(HEIGHT, WIDTH, 3)`` ``uint8`` RGB image.

    ``names`` gives one label per seat (default ``player_0`` …); ``highlight`` is the seat to
    frame in gold (default: the player to throw or decide; nobody once the game is over).
    Raises ``ValueError`` for names that are not one string per seat or a seat out of range.
    """
    labels = seat_names(game.num_players, names)
    turn = (game.current_player if highlight is None
            else check_int("highlight", highlight, 0, game.num_players - 1))
    view = _read_round(game.log)
    lowest = _lowest(game, view)
    states = tuple(_seat_state(game, seat) for seat in range(game.num_players))
    image = backdrop(game.num_players, states, turn).copy()
    left, middle, right = _header(game, view, labels)
    band = BAND_H // 2
    text(image, (14, band), left, 18, WHITE)
    text(image, (150, band), middle, 15, PALE)
    text(image, (WIDTH - 14, band), fit(right, 15, 250), 15, GOLD, "rm")
    for seat in range(game.num_players):
        _draw_seat(image, game, view, seat, labels[seat], states[seat], seat in lowest)
    _draw_middle(image, game, view, labels)
    return np.array(image)  # a writable copy: callers may mark up their frames
