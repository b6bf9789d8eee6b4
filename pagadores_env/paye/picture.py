"""Pictures of a game: ``draw(game)`` paints the position as a ``HEIGHT × WIDTH × 3`` image.

Every picture is 640 × 480 RGB pixels whatever the table, so the frames of a game go straight
to a video encoder. Drawn are:

- a band at the top: the variant and target, the round, who is to move, or the winners;
- the dice in the middle: the six special dice as cards with their faces (Y1.3), in the
  expansion a row of red dice with the traditional red die and a row of blue dice (Y6.2);
  the dice chosen this turn have a gold frame, dice set aside this round are greyed (Y6.4);
  beside them this turn's throws as numbered dice;
- the scores as a race track per seat to the target (Y3.3): a token at the score, the
  player to move marked, a winner's token gold.

Everything is public (Y5.1), so every seat's picture is the same.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from ..core.seats import player
from .engine import Game
from .render import headline
from .rules import BLUE, TRADITIONAL, TRADITIONAL_RED

WIDTH, HEIGHT = 640, 480

Colour = tuple[int, int, int]
FELT: Colour = (20, 66, 48)
BAND: Colour = (12, 36, 27)
PAPER: Colour = (249, 245, 234)
INK: Colour = (34, 34, 34)
WHITE: Colour = (255, 255, 255)
GOLD: Colour = (246, 186, 28)
RED: Colour = (196, 36, 44)
BLUE_INK: Colour = (44, 94, 172)
GREY: Colour = (120, 124, 121)
TRACK: Colour = (196, 218, 206)


# ---------------------------------------------------------------------- generic drawing
# Game-neutral helpers (text and boxes on a Pillow image), kept together so that they can
# move to a shared module of the core.
@cache
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's own font at ``size`` pixels: no system fonts needed."""
    return ImageFont.load_default(size=size)


def text(pen: ImageDraw.ImageDraw, xy: tuple[float, float], words: str, size: int,
         colour: Colour, anchor: str = "la", width: int | None = None) -> None:
    """``words`` at ``xy`` (Pillow's ``anchor``), cut with an ellipsis to ``width`` pixels."""
    face = font(size)
    if width is not None and face.getlength(words) > width:
        while words and face.getlength(words + "…") > width:
            words = words[:-1]
        words += "…"
    pen.text(xy, words, font=face, fill=colour, anchor=anchor)


def box(pen: ImageDraw.ImageDraw, corner: tuple[int, int], size: tuple[int, int],
        fill: Colour, outline: Colour | None = None, frame: int = 2) -> None:
    """A rounded box with its top left at ``corner``."""
    x, y = corner
    w, h = size
    pen.rounded_rectangle((x, y, x + w, y + h), radius=min(w, h) // 6, fill=fill,
                          outline=outline, width=frame if outline else 0)


# ---------------------------------------------------------------------- Paye's table
BAND_H = 34
#: Where the tracks start below the dice, by variant; a row is at most ``TRACK_ROW`` high.
TRACK_TOP = {"base": 168, "expansion": 196}
TRACK_ROW = 50
TRACK_LEFT, TRACK_RIGHT = 112, 600
#: Card size and gap by variant (the expansion has two rows of seven and six).
CARD = {"base": (70, 100, 8), "expansion": (56, 70, 6)}


def _cards(game: Game) -> list[tuple[int, str, tuple[int, ...], Colour, int]]:
    """The dice as cards: (action, label, faces, ink, row)."""
    cards = []
    expansion = game.variant == "expansion"
    for d, faces in enumerate(game.dice):
        cards.append((d, f"S{d}", faces, RED if expansion else INK, 0))
    if expansion:
        cards.append((TRADITIONAL_RED, "trad.", TRADITIONAL, RED, 0))
        cards += [(BLUE + d, f"S{d}", faces, BLUE_INK, 1) for d, faces in enumerate(game.dice)]
    return cards


def _draw_dice(pen: ImageDraw.ImageDraw, game: Game) -> None:
    cards = _cards(game)
    w, h, gap = CARD[game.variant]
    chosen = {game.red, game.blue} - {None}
    for action, label, faces, ink, row in cards:
        column = action - BLUE if action >= BLUE else action
        x, y = 14 + column * (w + gap), BAND_H + 10 + row * (h + 6)
        aside = action in game.aside
        box(pen, (x, y), (w, h), GREY if aside else PAPER,
            GOLD if action in chosen else ink, 3 if action in chosen else 2)
        size = 15 if game.variant == "base" else 12
        text(pen, (x + w / 2, y + 6), label, size, ink, "ma")
        shown = sorted(faces)
        for line, part in enumerate((shown[:3], shown[3:])):
            text(pen, (x + w / 2, y + h * (0.45 + 0.25 * line)), " ".join(map(str, part)),
                 size - 1, INK, "mm", width=w - 4)
    if game.red is None:
        return
    w, _, gap = CARD[game.variant]
    left = 14 + (7 if game.variant == "expansion" else 6) * (w + gap) + 8
    text(pen, (left, BAND_H + 10), f"{player(game.mover)} throws", 13, WHITE)
    for i, face in enumerate(game.thrown):
        colour = BLUE_INK if i >= 2 else (RED if game.variant == "expansion" else INK)
        bx, by = left + (i % 2) * 44, BAND_H + 32 + (i // 2) * 46
        box(pen, (bx, by), (38, 38), PAPER, colour, 3)
        text(pen, (bx + 19, by + 19), str(face), 18, colour, "mm")


def _draw_tracks(pen: ImageDraw.ImageDraw, game: Game, names: Sequence[str]) -> None:
    target = game.target
    span = TRACK_RIGHT - TRACK_LEFT
    top = TRACK_TOP[game.variant]
    row = min(TRACK_ROW, (HEIGHT - 14 - top) // game.num_players)
    for seat, score in enumerate(game.scores):
        y = top + seat * row + (row - 24) // 2
        moving = seat == game.mover and not game.is_terminal()
        if moving:
            pen.polygon(((4, y + 6), (4, y + 18), (11, y + 12)), fill=GOLD)
        text(pen, (14, y + 12), names[seat], 13, GOLD if moving else WHITE, "lm",
             width=TRACK_LEFT - 20)
        pen.rounded_rectangle((TRACK_LEFT, y + 8, TRACK_RIGHT, y + 16), radius=4, fill=TRACK)
        for mark in range(0, target + 1, 10):
            x = TRACK_LEFT + span * mark / target
            pen.line((x, y + 4, x, y + 20), fill=BAND, width=1)
        pen.rectangle((TRACK_RIGHT - 3, y, TRACK_RIGHT + 3, y + 24), fill=GOLD)
        x = TRACK_LEFT + span * score / target
        won = seat in game.winners
        pen.ellipse((x - 9, y + 3, x + 9, y + 21), fill=GOLD if won else PAPER,
                    outline=INK, width=2)
        text(pen, (x, y + 12), str(score), 10, INK, "mm")
    text(pen, (TRACK_RIGHT, top - 6), str(target), 12, GOLD, "ma")


def draw(game: Game, names: Sequence[str] | None = None) -> np.ndarray:
    """The position as an RGB array ``(HEIGHT, WIDTH, 3)`` of uint8 (module docstring);
    ``names`` labels the seats (default ``player_0`` …)."""
    labels = list(names) if names is not None else [player(s) for s in range(game.num_players)]
    if len(labels) != game.num_players:
        raise ValueError(f"names must name {game.num_players} seats, got {len(labels)}")
    image = Image.new("RGB", (WIDTH, HEIGHT), FELT)
    pen = ImageDraw.Draw(image)
    pen.rectangle((0, 0, WIDTH, BAND_H), fill=BAND)
    text(pen, (12, BAND_H / 2), headline(game), 14, WHITE, "lm", width=WIDTH - 24)
    _draw_dice(pen, game)
    _draw_tracks(pen, game, labels)
    return np.asarray(image, dtype=np.uint8)
