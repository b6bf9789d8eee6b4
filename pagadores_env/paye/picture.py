"""Pictures of a game: ``draw(game)`` paints the position as a ``HEIGHT × WIDTH × 3`` image.

Every picture is 640 × 480 RGB pixels whatever the table (``core.picture``'s size, drawn with
its pieces), so the frames of a game go straight to a video encoder. Drawn are:

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

import numpy as np
from PIL import Image, ImageDraw

from ..core.picture import (
    BAND,
    BAND_H,
    BLUE,
    GOLD,
    GREY,
    HEIGHT,
    INK,
    PALE,
    PAPER,
    RED,
    WHITE,
    WIDTH,
    Colour,
    background,
    box,
    centred,
    disc,
    fit,
    paste,
    seat_names,
    text,
)
from ..core.seats import player
from .engine import Game
from .render import headline
from .rules import BLUE as BLUE_ACTION
from .rules import TRADITIONAL, TRADITIONAL_RED

#: ``HEIGHT`` and ``WIDTH`` are the picture's size (``core.picture``'s).
__all__ = ["HEIGHT", "WIDTH", "draw"]

#: Where the tracks start below the dice, by variant; a row is at most ``TRACK_ROW`` high.
TRACK_TOP = {"base": 168, "expansion": 196}
TRACK_ROW = 50
TRACK_LEFT, TRACK_RIGHT = 112, 600
#: Card size and gap by variant (the expansion has two rows of seven and six).
CARD = {"base": (70, 100, 8), "expansion": (56, 70, 6)}
THROWN = 38  # the side of a numbered die of this turn's throws


def _cards(game: Game) -> list[tuple[int, str, tuple[int, ...], Colour, int]]:
    """The dice as cards: (action, label, faces, ink, row)."""
    cards = []
    expansion = game.variant == "expansion"
    for d, faces in enumerate(game.dice):
        cards.append((d, f"S{d}", faces, RED if expansion else INK, 0))
    if expansion:
        cards.append((TRADITIONAL_RED, "trad.", TRADITIONAL, RED, 0))
        cards += [(BLUE_ACTION + d, f"S{d}", faces, BLUE, 1)
                  for d, faces in enumerate(game.dice)]
    return cards


def _draw_dice(image: Image.Image, game: Game) -> None:
    w, h, gap = CARD[game.variant]
    size = 15 if game.variant == "base" else 12
    chosen = {game.red, game.blue} - {None}
    for action, label, faces, ink, row in _cards(game):
        column = action - BLUE_ACTION if action >= BLUE_ACTION else action
        x, y = 14 + column * (w + gap), BAND_H + 10 + row * (h + 6)
        picked = action in chosen
        paste(image, box(w, h, GREY if action in game.aside else PAPER,
                         GOLD if picked else ink, 3 if picked else 2), x, y)
        text(image, (x + w / 2, y + 6), label, size, ink, "ma")
        shown = sorted(faces)
        for line, part in enumerate((shown[:3], shown[3:])):
            words = fit(" ".join(map(str, part)), size - 1, w - 4)
            text(image, (x + w / 2, y + h * (0.45 + 0.25 * line)), words, size - 1, INK, "mm")
    if game.red is None:
        return
    left = 14 + (7 if game.variant == "expansion" else 6) * (w + gap) + 8
    text(image, (left, BAND_H + 10), f"{player(game.mover)} throws", 13, WHITE, "la")
    for i, face in enumerate(game.thrown):
        colour = BLUE if i >= 2 else (RED if game.variant == "expansion" else INK)
        x, y = left + (i % 2) * (THROWN + 6), BAND_H + 32 + (i // 2) * (THROWN + 8)
        paste(image, box(THROWN, THROWN, PAPER, colour, 3), x, y)
        text(image, (x + THROWN / 2, y + THROWN / 2), str(face), 18, colour, "mm")


def _draw_tracks(image: Image.Image, game: Game, names: Sequence[str]) -> None:
    pen = ImageDraw.Draw(image)
    target = game.target
    span = TRACK_RIGHT - TRACK_LEFT
    top = TRACK_TOP[game.variant]
    row = min(TRACK_ROW, (HEIGHT - 14 - top) // game.num_players)
    for seat, score in enumerate(game.scores):
        y = top + seat * row + (row - 24) // 2
        moving = seat == game.mover and not game.is_terminal()
        if moving:
            pen.polygon(((4, y + 6), (4, y + 18), (11, y + 12)), fill=GOLD)
        text(image, (14, y + 12), fit(names[seat], 13, TRACK_LEFT - 20), 13,
             GOLD if moving else WHITE)
        paste(image, box(span, 8, PALE, radius=4), TRACK_LEFT, y + 8)
        for mark in range(0, target + 1, 10):
            x = TRACK_LEFT + span * mark / target
            pen.line((x, y + 4, x, y + 20), fill=BAND, width=1)
        pen.rectangle((TRACK_RIGHT - 3, y, TRACK_RIGHT + 3, y + 24), fill=GOLD)
        x = TRACK_LEFT + span * score / target
        centred(image, disc(9, GOLD if seat in game.winners else PAPER, INK, 2), x, y + 12)
        text(image, (x, y + 12), str(score), 10, INK, "mm")
    text(image, (TRACK_RIGHT, top - 6), str(target), 12, GOLD, "ma")


def draw(game: Game, names: Sequence[str] | None = None) -> np.ndarray:
    """The position as an RGB array ``(HEIGHT, WIDTH, 3)`` of uint8 (module docstring);
    ``names`` labels the seats (default ``player_0`` …; ``ValueError`` in one line unless
    one string per seat)."""
    labels = seat_names(game.num_players, names)
    image = background(table=False).copy()
    text(image, (12, BAND_H / 2), fit(headline(game), 14, WIDTH - 24), 14, WHITE)
    _draw_dice(image, game)
    _draw_tracks(image, game, labels)
    return np.array(image)  # a writable copy: callers may mark up their frames
