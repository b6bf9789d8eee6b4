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

Shapes (panels, dice, cards, badges) are drawn once at four times their size, shrunk smoothly
and cached, and so is the text of each label, so a frame mostly pastes cached pieces.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache
from typing import NamedTuple

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from ..core.checks import check_int
from ..core.protocol import Event
from ..core.seats import player
from .engine import Game, Phase
from .render import _count
from .rules import Throw, classify

WIDTH, HEIGHT = 640, 480
_SS = 4  # cached shapes are drawn this many times larger, then shrunk for smooth edges

Colour = tuple[int, int, int]
FELT: Colour = (20, 66, 48)
TABLE: Colour = (30, 104, 72)
RIM: Colour = (96, 62, 34)
BAND: Colour = (12, 36, 27)
PAPER: Colour = (249, 245, 234)
INK: Colour = (34, 34, 34)
MUTED: Colour = (112, 112, 108)
WHITE: Colour = (255, 255, 255)
GOLD: Colour = (246, 186, 28)
RED: Colour = (196, 36, 44)
BLUE: Colour = (44, 94, 172)
ORANGE: Colour = (224, 112, 24)
GREY: Colour = (150, 154, 151)
FADED: Colour = (92, 96, 94)
WIN: Colour = (255, 230, 146)
PALE: Colour = (196, 218, 206)


class _Style(NamedTuple):
    """How a seat's panel looks: its paper, its text, its secondary text."""

    paper: Colour
    ink: Colour
    muted: Colour


#: Panel looks by seat state; the player to act also gets a gold frame.
_STYLES = {
    "playing": _Style(PAPER, INK, MUTED),
    "out": _Style(GREY, FADED, FADED),
    "winner": _Style(WIN, INK, (120, 92, 20)),
}

# Layout. Panels are PANEL_W × PANEL_H; SLOTS are their top-left corners around the table and
# SEATING says, per table size, which slot each seat takes (seat 0 at the bottom, then
# clockwise on screen as play goes clockwise, R1.2).
BAND_H = 34
PANEL_W, PANEL_H = 184, 84
_LEFT, _MID, _RIGHT = 14, (WIDTH - PANEL_W) // 2, WIDTH - 14 - PANEL_W
SLOTS = {
    "bottom": (_MID, HEIGHT - 8 - PANEL_H),
    "top": (_MID, BAND_H + 10),
    "left": (_LEFT, 210),
    "right": (_RIGHT, 210),
    "upper_left": (_LEFT, 130),
    "lower_left": (_LEFT, 290),
    "upper_right": (_RIGHT, 130),
    "lower_right": (_RIGHT, 290),
}
SEATING = {
    2: ("bottom", "top"),
    3: ("bottom", "upper_left", "upper_right"),
    4: ("bottom", "left", "top", "right"),
    5: ("bottom", "lower_left", "upper_left", "upper_right", "lower_right"),
    6: ("bottom", "lower_left", "upper_left", "top", "upper_right", "lower_right"),
}
_CENTRE_X, _CENTRE_Y = WIDTH // 2, 262
BIG_DIE, SMALL_DIE = 52, 19
CARD_W, CARD_H, CARD_GAP = 11, 16, 3
PLACES = ("1st", "2nd", "3rd", "4th", "5th", "6th")

#: Pip centres on a die face, as fractions of its side.
_PIPS = {
    1: ((0.5, 0.5),),
    2: ((0.27, 0.27), (0.73, 0.73)),
    3: ((0.27, 0.27), (0.5, 0.5), (0.73, 0.73)),
    4: ((0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)),
    5: ((0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)),
    6: ((0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)),
}


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
    """The key of the seat's look in ``_STYLES``."""
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


def _names(game: Game, names: Sequence[str] | None) -> list[str]:
    n = game.num_players
    if names is None:
        return [player(seat) for seat in range(n)]
    if (isinstance(names, str) or not isinstance(names, Sequence) or len(names) != n
            or not all(isinstance(name, str) for name in names)):
        raise ValueError(f"names must be {n} strings, one per seat, got {names!r}")
    return list(names)


# ---------------------------------------------------------------------- cached shapes
@cache
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)  # Pillow's own font: no system fonts needed


@lru_cache(maxsize=512)
def _fit(text: str, size: int, width: int) -> str:
    """``text`` cut with an ellipsis so it is at most ``width`` pixels wide."""
    font = _font(size)
    if font.getlength(text) <= width:
        return text
    while text and font.getlength(text + "…") > width:
        text = text[:-1]
    return text + "…"


def _shrink(big: Image.Image) -> Image.Image:
    return big.resize((big.width // _SS, big.height // _SS), Image.Resampling.LANCZOS)


@cache
def _background() -> Image.Image:
    """Felt, the table with its wooden rim, and the top band."""
    big = Image.new("RGB", (WIDTH * _SS, HEIGHT * _SS), FELT)
    pen = ImageDraw.Draw(big)
    box = (70 * _SS, 78 * _SS, (WIDTH - 70) * _SS, (HEIGHT - 34) * _SS)
    pen.ellipse(box, fill=RIM)
    rim = 9 * _SS
    pen.ellipse((box[0] + rim, box[1] + rim, box[2] - rim, box[3] - rim), fill=TABLE)
    pen.rectangle((0, 0, WIDTH * _SS, BAND_H * _SS), fill=BAND)
    return _shrink(big)


@cache
def _panel(state: str, turn: bool) -> Image.Image:
    """A seat's panel with a soft shadow; gold-framed for the player to act."""
    pad = 6
    w, h = (PANEL_W + 2 * pad) * _SS, (PANEL_H + 2 * pad) * _SS
    big = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    pen = ImageDraw.Draw(big)
    radius = 10 * _SS
    body = (pad * _SS, pad * _SS, w - pad * _SS - 1, h - pad * _SS - 1)
    shadow = tuple(c + 3 * _SS for c in body)
    pen.rounded_rectangle(shadow, radius, fill=(0, 0, 0, 70))
    frame = (GOLD, 4) if turn else ((60, 60, 56), 1)
    pen.rounded_rectangle(body, radius, fill=_STYLES[state].paper, outline=frame[0],
                          width=frame[1] * _SS)
    return _shrink(big)


@lru_cache(maxsize=64)
def _backdrop(num_players: int, states: tuple[str, ...], turn: int) -> Image.Image:
    """The background with every seat's empty panel: the same for many frames in a row."""
    image = _background().copy()
    for seat, state in enumerate(states):
        x, y = SLOTS[SEATING[num_players][seat]]
        _paste(image, _panel(state, seat == turn), x - 6, y - 6)
    return image


@cache
def _die(face: int, size: int, dim: bool) -> Image.Image:
    """A die showing ``face`` (0: an empty outline); ``dim`` for a throw of an earlier round."""
    s = size * _SS
    drop = max(1, size // 18) * _SS  # the shadow's offset
    big = Image.new("RGBA", (s + drop, s + drop), (0, 0, 0, 0))
    pen = ImageDraw.Draw(big)
    paper, pip, one = ((215, 212, 202), (120, 120, 116), (170, 100, 100)) if dim else (
        (255, 253, 246), (28, 28, 28), RED)
    if face == 0:
        pen.rounded_rectangle((0, 0, s - 1, s - 1), s // 6, outline=(255, 255, 255, 90),
                              width=max(_SS, s // 28))
        return _shrink(big)
    pen.rounded_rectangle((drop, drop, s + drop - 1, s + drop - 1), s // 6, fill=(0, 0, 0, 80))
    pen.rounded_rectangle((0, 0, s - 1, s - 1), s // 6, fill=paper, outline=(40, 40, 40),
                          width=max(_SS, s // 28))
    r = s * (0.12 if face == 1 else 0.085)
    for fx, fy in _PIPS[face]:
        pen.ellipse((fx * s - r, fy * s - r, fx * s + r, fy * s + r),
                    fill=one if face == 1 else pip)
    return _shrink(big)


@cache
def _cards(start: int, held: int) -> Image.Image:
    """A row of ``start`` card icons: red cards for the ``held`` ones, outlines for the lost."""
    w, h, step = CARD_W * _SS, CARD_H * _SS, (CARD_W + CARD_GAP) * _SS
    big = Image.new("RGBA", (start * step, h), (0, 0, 0, 0))
    pen = ImageDraw.Draw(big)
    for k in range(start):
        box = (k * step, 0, k * step + w - 1, h - 1)
        if k < held:
            pen.rounded_rectangle(box, 2 * _SS, fill=RED, outline=(110, 20, 26), width=_SS)
            inner = (box[0] + 2 * _SS, 2 * _SS, box[2] - 2 * _SS, h - 1 - 2 * _SS)
            pen.rounded_rectangle(inner, _SS, outline=(255, 255, 255, 170), width=_SS)
        else:
            pen.rounded_rectangle(box, 2 * _SS, outline=(0, 0, 0, 60), width=_SS)
    return _shrink(big)


@lru_cache(maxsize=4096)
def _glyphs(text: str, size: int, anchor: str) -> tuple[Image.Image, int, int]:
    """``text`` as an antialiased mask, with the offset of its corner from the anchor point.
    Rendering text is the slow part of a frame, and a game repeats the same few strings."""
    font = _font(size)
    left, top, right, bottom = map(int, font.getbbox(text, anchor=anchor))
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=font, fill=255, anchor=anchor)
    return mask, left, top


@cache
def _badge(text: str) -> Image.Image:
    """A coloured pill with white text."""
    size = 11
    font = _font(size * _SS)
    w = int(font.getlength(text)) + 12 * _SS
    h = 17 * _SS
    big = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    pen = ImageDraw.Draw(big)
    pen.rounded_rectangle((0, 0, w - 1, h - 1), h // 2, fill=_BADGE_COLOURS[text])
    pen.text((w / 2, h / 2), text, font=font, fill=WHITE, anchor="mm")
    return _shrink(big)


# ---------------------------------------------------------------------- drawing
def _paste(image: Image.Image, sprite: Image.Image, x: float, y: float) -> None:
    image.paste(sprite, (round(x), round(y)), sprite)


def _text(image: Image.Image, xy: tuple[float, float], text: str, size: int, colour: Colour,
          anchor: str = "lm") -> None:
    """Write ``text`` at ``xy`` (placed by its ``anchor``, as in Pillow's ``ImageDraw.text``)."""
    mask, left, top = _glyphs(text, size, anchor)
    image.paste(colour, (round(xy[0]) + left, round(xy[1]) + top), mask)


def _gap(size: int) -> int:
    """Space between dice of a given size."""
    return max(3, size // 5)


def _dice(image: Image.Image, dice: Sequence[int], x: float, y: float, size: int,
          dim: bool = False) -> float:
    """Three dice from (x, y); returns the x just after them."""
    for face in dice:
        _paste(image, _die(face, size, dim), x, y)
        x += size + _gap(size)
    return x


def _draw_seat(image: Image.Image, game: Game, view: _RoundView, seat: int, label: str,
               state: str, lowest: bool) -> None:
    """Fill in a seat's panel (drawn by ``_backdrop``)."""
    x, y = SLOTS[SEATING[game.num_players][seat]]
    style = _STYLES[state]
    right = x + PANEL_W - 10
    for text in _badges(game, seat):  # tabs on the top edge, so names keep the full width
        sprite = _badge(text)
        right -= sprite.width
        _paste(image, sprite, right, y - sprite.height // 2)
        right -= 4
    _text(image, (x + 10, y + 17), _fit(label, 16, PANEL_W - 20), 16, style.ink)
    if game.start_cards[seat]:  # a seat may start out of the game (per-seat cards)
        _paste(image, _cards(game.start_cards[seat], game.cards[seat]), x + 10, y + 31)
    _text(image, (x + PANEL_W - 10, y + 39), str(game.cards[seat]), 18, style.ink, "rm")
    throw = _seat_throw(game, view, seat)
    if throw is None:
        _text(image, (x + 10, y + 66), _seat_note(game, seat), 14, style.muted)
        return
    after = _dice(image, throw.dice, x + 10, y + 57, SMALL_DIE)
    _text(image, (after + 3, y + 66), throw.name, 15, RED if lowest else style.ink)


def _draw_middle(image: Image.Image, game: Game, view: _RoundView,
                 labels: Sequence[str]) -> None:
    title, subtitle = _caption(game, labels)
    _text(image, (_CENTRE_X, _CENTRE_Y - 70), _fit(title, 20, 230), 20,
          WHITE if game.winner is None else GOLD, "mm")
    _text(image, (_CENTRE_X, _CENTRE_Y - 48), _fit(subtitle, 14, 230), 14, PALE, "mm")
    span = 3 * BIG_DIE + 2 * _gap(BIG_DIE)
    top = _CENTRE_Y - 30
    if view.last is None:
        _dice(image, (0, 0, 0), _CENTRE_X - span / 2, top, BIG_DIE)
        return
    seat, throw = view.last
    _dice(image, throw.dice, _CENTRE_X - span / 2, top, BIG_DIE, dim=not view.fresh)
    _text(image, (_CENTRE_X, top + BIG_DIE + 16), str(throw), 17, WHITE, "mm")
    by = f"thrown by {labels[seat]}" if view.fresh else f"last throw, by {labels[seat]}"
    _text(image, (_CENTRE_X, top + BIG_DIE + 36), _fit(by, 13, 220), 13, PALE, "mm")


def draw(game: Game, names: Sequence[str] | None = None,
         highlight: int | None = None) -> np.ndarray:
    """The position of ``game`` as a ``(HEIGHT, WIDTH, 3)`` ``uint8`` RGB image.

    ``names`` gives one label per seat (default ``player_0`` …); ``highlight`` is the seat to
    frame in gold (default: the player to throw or decide; nobody once the game is over).
    Raises ``ValueError`` for names that are not one string per seat or a seat out of range.
    """
    labels = _names(game, names)
    turn = (game.current_player if highlight is None
            else check_int("highlight", highlight, 0, game.num_players - 1))
    view = _read_round(game.log)
    lowest = _lowest(game, view)
    states = tuple(_seat_state(game, seat) for seat in range(game.num_players))
    image = _backdrop(game.num_players, states, turn).copy()
    left, middle, right = _header(game, view, labels)
    band = BAND_H // 2
    _text(image, (14, band), left, 18, WHITE)
    _text(image, (150, band), middle, 15, PALE)
    _text(image, (WIDTH - 14, band), _fit(right, 15, 250), 15, GOLD, "rm")
    for seat in range(game.num_players):
        _draw_seat(image, game, view, seat, labels[seat], states[seat], seat in lowest)
    _draw_middle(image, game, view, labels)
    return np.array(image)  # a writable copy: callers may mark up their frames
