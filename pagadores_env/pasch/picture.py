"""Pictures of a game of Pasch: ``draw(game)`` paints the position as an RGB image.

The image is ``480 × 640 × 3`` whatever the table, so the frames of a game go straight to a
video encoder. Drawn are:

- a band at the top: the round and its starter, or the winners once the game is over;
- the board (X6.1): six rows, pair at the bottom to five of a kind at the top, by the
  columns 1–6, with this round's discs in the seats' colours, stacked on their field (a
  later disc on top, X6.4), and beside the board the stack of discs without a Pasch;
- the dice of the seat whose turn it is (X3.3): the dice it kept set apart on the left, the
  dice just thrown (or, at a throw, the empty places of the dice in the cup) on the right;
- one row per seat: its colour, name, score (X7.3), blocks left (X4), the cards in its hand
  and the card it played this round (X5.1); the seat to play is marked.

The drawing helpers that know nothing of Pasch (a font, text, a die face, a disc) are the
section "generic drawing" below.
"""

from __future__ import annotations

from collections import Counter
from functools import cache

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from ..core.seats import player
from .engine import Game
from .rules import BESIDE, FACES, ROWS

WIDTH, HEIGHT = 640, 480
Colour = tuple[int, int, int]

FELT: Colour = (24, 70, 52)
BAND: Colour = (12, 36, 27)
BOARD: Colour = (232, 220, 190)
LINE: Colour = (150, 130, 100)
INK: Colour = (34, 34, 34)
WHITE: Colour = (255, 255, 255)
GOLD: Colour = (246, 186, 28)
PALE: Colour = (196, 218, 206)
#: One colour per seat for its discs and its row.
SEAT_COLOURS: tuple[Colour, ...] = ((214, 48, 49), (9, 132, 227), (253, 203, 110),
                                    (0, 184, 148), (162, 155, 254), (225, 112, 85))


# ---------------------------------------------------------------------- generic drawing
# Helpers that know nothing of Pasch, kept together so they can move to a shared module.
@cache
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's own font at ``size`` pixels: no system fonts needed."""
    return ImageFont.load_default(size=size)


def text(pen: ImageDraw.ImageDraw, xy: tuple[float, float], words: str, size: int,
         colour: Colour, anchor: str = "la") -> None:
    """``words`` at ``xy`` (``anchor`` as Pillow takes it)."""
    pen.text(xy, words, font=font(size), fill=colour, anchor=anchor)


#: Pip centres on a die face, as fractions of its side.
PIPS = {
    1: ((0.5, 0.5),),
    2: ((0.27, 0.27), (0.73, 0.73)),
    3: ((0.27, 0.27), (0.5, 0.5), (0.73, 0.73)),
    4: ((0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)),
    5: ((0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)),
    6: ((0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)),
}


def die(pen: ImageDraw.ImageDraw, x: float, y: float, size: int, face: int) -> None:
    """A die showing ``face`` with its top-left corner at (x, y); face 0 is an empty place
    (a die in the cup)."""
    box = (x, y, x + size - 1, y + size - 1)
    if face == 0:
        pen.rounded_rectangle(box, size // 6, outline=PALE, width=2)
        return
    pen.rounded_rectangle(box, size // 6, fill=(255, 253, 246), outline=(40, 40, 40), width=2)
    r = size * 0.09
    for fx, fy in PIPS[face]:
        cx, cy = x + fx * size, y + fy * size
        pen.ellipse((cx - r, cy - r, cx + r, cy + r), fill=INK)


def disc(pen: ImageDraw.ImageDraw, cx: float, cy: float, radius: float, colour: Colour) -> None:
    """A round disc centred at (cx, cy), outlined so stacked discs stay apart."""
    pen.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill=colour,
                outline=(30, 30, 30), width=1)


# ---------------------------------------------------------------------- layout
BAND_H = 30
CELL_W, CELL_H = 42, 34
BOARD_X, BOARD_Y = 100, BAND_H + 26  # the top-left of the five-of-a-kind row
BESIDE_X = BOARD_X + FACES * CELL_W + 18
DICE_Y, DIE = BOARD_Y + len(ROWS) * CELL_H + 18, 34
SEATS_X, SEAT_H = 430, 40


def _kept_and_thrown(game: Game) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The dice the seat set apart and the dice of its latest throw (0 for dice in the cup
    while a throw is pending); two empty tuples between turns."""
    if game.is_chance_node():
        return game.kept, (0,) * game.to_throw
    if not game.dice:
        return (), ()
    thrown = next((e.value[0] for e in reversed(game.log) if e.kind == "throw"), game.dice)
    kept = list((Counter(game.dice) - Counter(thrown)).elements())
    return tuple(sorted(kept)), tuple(sorted(thrown))


def _board(pen: ImageDraw.ImageDraw, game: Game) -> None:
    for r, row in enumerate(reversed(ROWS)):
        y = BOARD_Y + r * CELL_H
        text(pen, (BOARD_X - 8, y + CELL_H / 2), row, 13, WHITE, "rm")
        for c in range(FACES):
            pen.rectangle((BOARD_X + c * CELL_W, y, BOARD_X + (c + 1) * CELL_W, y + CELL_H),
                          fill=BOARD, outline=LINE)
    for c in range(FACES):
        text(pen, (BOARD_X + (c + 0.5) * CELL_W, BOARD_Y - 4), str(c + 1), 13, WHITE, "mb")
    text(pen, (BESIDE_X + CELL_W / 2, BOARD_Y - 4), "beside", 12, WHITE, "mb")
    pen.rounded_rectangle((BESIDE_X, BOARD_Y, BESIDE_X + CELL_W, BOARD_Y + len(ROWS) * CELL_H),
                          6, outline=PALE, width=1)
    height: Counter = Counter()
    for seat, cls in game.discs:  # in placing order: each disc lies on the ones before it
        k = height[cls]
        height[cls] += 1
        cx: float
        cy: float
        if cls == BESIDE:
            cx, cy = BESIDE_X + CELL_W / 2, BOARD_Y + len(ROWS) * CELL_H - 12 - 5 * k
        else:
            level, column = divmod(cls - 1, FACES)
            cx = BOARD_X + (column + 0.5) * CELL_W + 4 * k
            cy = BOARD_Y + (len(ROWS) - 1 - level + 0.5) * CELL_H - 4 * k
        disc(pen, cx, cy, 11, SEAT_COLOURS[seat])


def _dice(pen: ImageDraw.ImageDraw, game: Game) -> None:
    kept, thrown = _kept_and_thrown(game)
    if not kept and not thrown:
        return
    text(pen, (BOARD_X - 8, DICE_Y + DIE / 2), f"{player(game.turn)}", 13, WHITE, "rm")
    x = BOARD_X
    for face in kept:
        die(pen, x, DICE_Y, DIE, face)
        x += DIE + 6
    if kept:
        text(pen, (BOARD_X, DICE_Y + DIE + 4), "kept", 12, PALE)
        x += 22  # the kept dice stand apart
    start = x
    for face in thrown:
        die(pen, x, DICE_Y, DIE, face)
        x += DIE + 6
    label = "in the cup" if game.is_chance_node() else f"throw {game.throws}"
    text(pen, (start, DICE_Y + DIE + 4), label, 12, PALE)


def _seats(pen: ImageDraw.ImageDraw, game: Game) -> None:
    for seat in range(game.num_players):
        y = BOARD_Y + seat * (SEAT_H + 8)
        turn = seat == game.turn
        pen.rounded_rectangle((SEATS_X, y, WIDTH - 10, y + SEAT_H), 6, fill=BAND,
                              outline=GOLD if turn else PALE, width=2 if turn else 1)
        disc(pen, SEATS_X + 14, y + 12, 7, SEAT_COLOURS[seat])
        text(pen, (SEATS_X + 28, y + 5), player(seat), 13, WHITE)
        text(pen, (WIDTH - 16, y + 5), f"{game.scores[seat]} pts", 13, GOLD, "ra")
        for b in range(game.blocks[seat]):
            pen.rectangle((SEATS_X + 100 + 8 * b, y + 8, SEATS_X + 105 + 8 * b, y + 13),
                          fill=PALE)
        cards = " ".join(map(str, game.hands[seat])) or "-"
        played = game.played[seat]
        note = f"hand {cards}" + ("" if played is None else f"   played {played}")
        text(pen, (SEATS_X + 10, y + 23), note, 12, PALE)


def draw(game: Game) -> np.ndarray:
    """The position as an RGB picture, ``(480, 640, 3)`` uint8 (module docstring)."""
    image = Image.new("RGB", (WIDTH, HEIGHT), FELT)
    pen = ImageDraw.Draw(image)
    pen.rectangle((0, 0, WIDTH, BAND_H), fill=BAND)
    if game.is_terminal():
        won = ", ".join(map(player, game.winners()))
        head = f"Game over: {won} with {max(game.scores)} points"
    else:
        head = f"Pasch  round {game.round + 1}/{game.rounds}, started by {player(game.starter)}"
    text(pen, (12, BAND_H / 2), head, 15, WHITE, "lm")
    _board(pen, game)
    _dice(pen, game)
    _seats(pen, game)
    return np.asarray(image, dtype=np.uint8)
