"""What every game's picture shares: a ``HEIGHT × WIDTH`` table seen from above, and the pieces
a game's ``picture.draw`` paints on it.

A frame is 640 × 480 pixels whatever the game, table size or state, so the frames of a game go
straight to a video encoder. This module holds what is not any one game's:

- the canvas and the colours: felt, a round table with a wooden rim and a band at the top for
  the game's headline (``background``; without the table for a game laid out in rows);
- the seats clockwise around the table, seat 0 at the bottom (``SLOTS``, ``SEATING``), each in
  a panel of a look by its state (``STYLES``: playing, out, winner) with a gold frame for the
  player to act (``panel``, ``backdrop``), and the middle of the table (``CENTRE_X``,
  ``CENTRE_Y``) for what is happening now;
- dice faces with pips, in a row (``die``, ``dice``), text in Pillow's own font (``text``,
  ``fit``), badges (``badge``), rounded boxes (``box``: cards, rows, numbered dice), discs
  (``disc``: counters, tokens), and the seat labels (``seat_names``).

Shapes are drawn once at ``SUPERSAMPLE`` times their size, shrunk smoothly and cached, and so
is the text of each label, so a frame mostly pastes cached pieces. Pillow is imported here:
a game's env imports its picture module only for ``render_mode="rgb_array"``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache
from typing import NamedTuple

from PIL import Image, ImageDraw, ImageFont

from .seats import player

WIDTH, HEIGHT = 640, 480
SUPERSAMPLE = 4  # cached shapes are drawn this many times larger, then shrunk for smooth edges
_SS = SUPERSAMPLE

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


class Style(NamedTuple):
    """How a seat's panel looks: its paper, its text, its secondary text."""

    paper: Colour
    ink: Colour
    muted: Colour


#: Panel looks by seat state; the player to act also gets a gold frame.
STYLES = {
    "playing": Style(PAPER, INK, MUTED),
    "out": Style(GREY, FADED, FADED),
    "winner": Style(WIN, INK, (120, 92, 20)),
}

# Layout. Panels are PANEL_W × PANEL_H; SLOTS are their top-left corners around the table and
# SEATING says, per table size, which slot each seat takes (seat 0 at the bottom, then
# clockwise on screen as play goes clockwise).
BAND_H = 34
PANEL_W, PANEL_H = 184, 84
PANEL_PAD = 6  # the panel sprite's margin around the panel, for its shadow
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
CENTRE_X, CENTRE_Y = WIDTH // 2, 262
BIG_DIE, SMALL_DIE = 52, 19
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


def seat_slot(num_players: int, seat: int) -> tuple[int, int]:
    """The top-left corner of ``seat``'s panel at a table of ``num_players``."""
    return SLOTS[SEATING[num_players][seat]]


def seat_names(num_players: int, names: Sequence[str] | None) -> list[str]:
    """One label per seat: ``names`` checked (one string per seat), or ``player_0`` …;
    ``ValueError`` in one line otherwise."""
    if names is None:
        return [player(seat) for seat in range(num_players)]
    if (isinstance(names, str) or not isinstance(names, Sequence)
            or len(names) != num_players or not all(isinstance(name, str) for name in names)):
        raise ValueError(f"names must be {num_players} strings, one per seat, got {names!r}")
    return list(names)


# ---------------------------------------------------------------------- cached shapes
@cache
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's own font at ``size`` pixels: no system fonts needed."""
    return ImageFont.load_default(size=size)


@lru_cache(maxsize=512)
def fit(text: str, size: int, width: int) -> str:
    """``text`` cut with an ellipsis so it is at most ``width`` pixels wide."""
    face = font(size)
    if face.getlength(text) <= width:
        return text
    while text and face.getlength(text + "…") > width:
        text = text[:-1]
    return text + "…"


def shrink(big: Image.Image) -> Image.Image:
    """A shape drawn ``SUPERSAMPLE`` times too large, at its size, with smooth edges."""
    return big.resize((big.width // _SS, big.height // _SS), Image.Resampling.LANCZOS)


@cache
def background(table: bool = True) -> Image.Image:
    """Felt, the table with its wooden rim (unless ``table`` is False), and the top band.
    Copy it before drawing on it."""
    big = Image.new("RGB", (WIDTH * _SS, HEIGHT * _SS), FELT)
    pen = ImageDraw.Draw(big)
    if table:
        oval = (70 * _SS, 78 * _SS, (WIDTH - 70) * _SS, (HEIGHT - 34) * _SS)
        pen.ellipse(oval, fill=RIM)
        rim = 9 * _SS
        pen.ellipse((oval[0] + rim, oval[1] + rim, oval[2] - rim, oval[3] - rim), fill=TABLE)
    pen.rectangle((0, 0, WIDTH * _SS, BAND_H * _SS), fill=BAND)
    return shrink(big)


@cache
def panel(state: str, turn: bool) -> Image.Image:
    """A seat's panel (its look ``STYLES[state]``) with a soft shadow, ``PANEL_PAD`` pixels
    of margin round it; gold-framed for the player to act."""
    pad = PANEL_PAD
    w, h = (PANEL_W + 2 * pad) * _SS, (PANEL_H + 2 * pad) * _SS
    big = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    pen = ImageDraw.Draw(big)
    radius = 10 * _SS
    body = (pad * _SS, pad * _SS, w - pad * _SS - 1, h - pad * _SS - 1)
    shadow = tuple(c + 3 * _SS for c in body)
    pen.rounded_rectangle(shadow, radius, fill=(0, 0, 0, 70))
    frame = (GOLD, 4) if turn else ((60, 60, 56), 1)
    pen.rounded_rectangle(body, radius, fill=STYLES[state].paper, outline=frame[0],
                          width=frame[1] * _SS)
    return shrink(big)


@lru_cache(maxsize=64)
def backdrop(num_players: int, states: tuple[str, ...], turn: int) -> Image.Image:
    """The background with every seat's empty panel (``turn``: the seat framed in gold, -1
    for none): the same for many frames in a row. Copy it before drawing on it."""
    image = background().copy()
    for seat, state in enumerate(states):
        x, y = seat_slot(num_players, seat)
        paste(image, panel(state, seat == turn), x - PANEL_PAD, y - PANEL_PAD)
    return image


@cache
def die(face: int, size: int, dim: bool) -> Image.Image:
    """A die showing ``face`` 1–6 as pips (0: an empty outline, a die not shown); ``dim``
    for one greyed out (a throw of an earlier round, a die no longer in play)."""
    s = size * _SS
    drop = max(1, size // 18) * _SS  # the shadow's offset
    big = Image.new("RGBA", (s + drop, s + drop), (0, 0, 0, 0))
    pen = ImageDraw.Draw(big)
    paper, pip, one = ((215, 212, 202), (120, 120, 116), (170, 100, 100)) if dim else (
        (255, 253, 246), (28, 28, 28), RED)
    if face == 0:
        pen.rounded_rectangle((0, 0, s - 1, s - 1), s // 6, outline=(255, 255, 255, 90),
                              width=max(_SS, s // 28))
        return shrink(big)
    pen.rounded_rectangle((drop, drop, s + drop - 1, s + drop - 1), s // 6, fill=(0, 0, 0, 80))
    pen.rounded_rectangle((0, 0, s - 1, s - 1), s // 6, fill=paper, outline=(40, 40, 40),
                          width=max(_SS, s // 28))
    r = s * (0.12 if face == 1 else 0.085)
    for fx, fy in _PIPS[face]:
        pen.ellipse((fx * s - r, fy * s - r, fx * s + r, fy * s + r),
                    fill=one if face == 1 else pip)
    return shrink(big)


@lru_cache(maxsize=4096)
def _glyphs(text: str, size: int, anchor: str) -> tuple[Image.Image, int, int]:
    """``text`` as an antialiased mask, with the offset of its corner from the anchor point.
    Rendering text is the slow part of a frame, and a game repeats the same few strings."""
    face = font(size)
    left, top, right, bottom = map(int, face.getbbox(text, anchor=anchor))
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=face, fill=255, anchor=anchor)
    return mask, left, top


@cache
def badge(text: str, colour: Colour) -> Image.Image:
    """A pill of ``colour`` with white ``text``."""
    size = 11
    face = font(size * _SS)
    w = int(face.getlength(text)) + 12 * _SS
    h = 17 * _SS
    big = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    pen = ImageDraw.Draw(big)
    pen.rounded_rectangle((0, 0, w - 1, h - 1), h // 2, fill=colour)
    pen.text((w / 2, h / 2), text, font=face, fill=WHITE, anchor="mm")
    return shrink(big)


@lru_cache(maxsize=256)
def box(width: int, height: int, fill: Colour | None, outline: Colour | None = None,
        frame: int = 1, radius: int | None = None) -> Image.Image:
    """A ``width × height`` box with rounded corners (``radius``, default a sixth of its
    shorter side) of ``fill`` (None: empty), framed ``frame`` pixels wide in ``outline`` if
    it has one."""
    w, h = width * _SS, height * _SS
    big = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    corner = (min(width, height) // 6 if radius is None else radius) * _SS
    ImageDraw.Draw(big).rounded_rectangle((0, 0, w - 1, h - 1), corner, fill=fill,
                                          outline=outline,
                                          width=frame * _SS if outline is not None else 0)
    return shrink(big)


@lru_cache(maxsize=256)
def disc(radius: int, colour: Colour, outline: Colour = (30, 30, 30),
         frame: int = 1) -> Image.Image:
    """A round disc ``2 × radius`` pixels across of ``colour``, framed ``frame`` pixels wide
    in ``outline`` so that discs stacked on each other stay apart (``centred`` places it)."""
    s = 2 * radius * _SS
    big = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    ImageDraw.Draw(big).ellipse((0, 0, s - 1, s - 1), fill=colour, outline=outline,
                                width=frame * _SS)
    return shrink(big)


# ---------------------------------------------------------------------- drawing
def paste(image: Image.Image, sprite: Image.Image, x: float, y: float) -> None:
    """Paste ``sprite`` (with its transparency) with its top-left corner at (x, y)."""
    image.paste(sprite, (round(x), round(y)), sprite)


def centred(image: Image.Image, sprite: Image.Image, x: float, y: float) -> None:
    """Paste ``sprite`` with its centre at (x, y)."""
    paste(image, sprite, x - sprite.width / 2, y - sprite.height / 2)


def text(image: Image.Image, xy: tuple[float, float], words: str, size: int, colour: Colour,
         anchor: str = "lm") -> None:
    """Write ``words`` at ``xy`` (placed by its ``anchor``, as in Pillow's ``ImageDraw.text``)."""
    mask, left, top = _glyphs(words, size, anchor)
    image.paste(colour, (round(xy[0]) + left, round(xy[1]) + top), mask)


def gap(size: int) -> int:
    """Space between dice of a given size."""
    return max(3, size // 5)


def dice(image: Image.Image, faces: Sequence[int], x: float, y: float, size: int,
         dim: bool = False) -> float:
    """A row of dice (``die``) from (x, y); returns the x just after them."""
    for face in faces:
        paste(image, die(face, size, dim), x, y)
        x += size + gap(size)
    return x
