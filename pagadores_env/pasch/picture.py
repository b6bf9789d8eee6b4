"""Pictures of a game of Pasch: ``draw(game)`` paints the position as an RGB image.

The image is ``HEIGHT × WIDTH × 3`` = 480 × 640 × 3 whatever the table (``core.picture``'s
size, drawn with its pieces), so the frames of a game go straight to a video encoder. Drawn
are:

- a band at the top: the round and its starter, or the winners once the game is over;
- the board (X6.1): six rows, pair at the bottom to five of a kind at the top, by the
  columns 1–6, with this round's discs in the seats' colours, stacked on their field (a
  later disc on top, X6.4), and beside the board the stack of discs without a Pasch;
- the dice of the seat whose turn it is (X3.3): the dice it kept set apart on the left, the
  dice just thrown (or, at a throw, the empty places of the dice in the cup) on the right;
- one row per seat: its colour, name, score (X7.3), blocks left (X4), the cards in its hand
  and the card it played this round (X5.1); the seat to play is marked.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import numpy as np
from PIL import Image, ImageDraw

from ..core.picture import (
    BAND,
    BAND_H,
    GOLD,
    HEIGHT,
    PALE,
    WHITE,
    WIDTH,
    Colour,
    background,
    box,
    centred,
    dice,
    disc,
    fit,
    paste,
    seat_names,
    text,
)
from .engine import Game
from .rules import BESIDE, FACES, ROWS

#: ``HEIGHT`` and ``WIDTH`` are the picture's size (``core.picture``'s).
__all__ = ["HEIGHT", "WIDTH", "draw"]

BOARD: Colour = (232, 220, 190)
LINE: Colour = (150, 130, 100)
#: One colour per seat for its discs and its row.
SEAT_COLOURS: tuple[Colour, ...] = ((214, 48, 49), (9, 132, 227), (253, 203, 110),
                                    (0, 184, 148), (162, 155, 254), (225, 112, 85))

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


def _board(image: Image.Image, game: Game) -> None:
    pen = ImageDraw.Draw(image)
    for r, row in enumerate(reversed(ROWS)):
        y = BOARD_Y + r * CELL_H
        text(image, (BOARD_X - 8, y + CELL_H / 2), row, 13, WHITE, "rm")
        for c in range(FACES):
            pen.rectangle((BOARD_X + c * CELL_W, y, BOARD_X + (c + 1) * CELL_W, y + CELL_H),
                          fill=BOARD, outline=LINE)
    for c in range(FACES):
        text(image, (BOARD_X + (c + 0.5) * CELL_W, BOARD_Y - 4), str(c + 1), 13, WHITE, "mb")
    text(image, (BESIDE_X + CELL_W / 2, BOARD_Y - 4), "beside", 12, WHITE, "mb")
    paste(image, box(CELL_W, len(ROWS) * CELL_H, None, PALE, radius=6), BESIDE_X, BOARD_Y)
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
        centred(image, disc(11, SEAT_COLOURS[seat]), cx, cy)


def _dice(image: Image.Image, game: Game, labels: Sequence[str]) -> None:
    kept, thrown = _kept_and_thrown(game)
    if not kept and not thrown:
        return
    text(image, (BOARD_X - 8, DICE_Y + DIE / 2), fit(labels[game.turn], 13, BOARD_X - 12), 13,
         WHITE, "rm")
    x = dice(image, kept, BOARD_X, DICE_Y, DIE)
    if kept:
        text(image, (BOARD_X, DICE_Y + DIE + 4), "kept", 12, PALE, "la")
        x += 22  # the kept dice stand apart
    dice(image, thrown, x, DICE_Y, DIE)
    label = "in the cup" if game.is_chance_node() else f"throw {game.throws}"
    text(image, (x, DICE_Y + DIE + 4), label, 12, PALE, "la")


def _seats(image: Image.Image, game: Game, labels: Sequence[str]) -> None:
    pen = ImageDraw.Draw(image)
    width = WIDTH - 10 - SEATS_X
    for seat in range(game.num_players):
        y = BOARD_Y + seat * (SEAT_H + 8)
        turn = seat == game.turn
        paste(image, box(width, SEAT_H, BAND, GOLD if turn else PALE, 2 if turn else 1, 6),
              SEATS_X, y)
        centred(image, disc(7, SEAT_COLOURS[seat]), SEATS_X + 14, y + 12)
        text(image, (SEATS_X + 28, y + 5), fit(labels[seat], 13, 66), 13, WHITE, "la")
        text(image, (WIDTH - 16, y + 5), f"{game.scores[seat]} pts", 13, GOLD, "ra")
        for b in range(game.blocks[seat]):
            pen.rectangle((SEATS_X + 100 + 8 * b, y + 8, SEATS_X + 105 + 8 * b, y + 13),
                          fill=PALE)
        cards = " ".join(map(str, game.hands[seat])) or "-"
        played = game.played[seat]
        note = f"hand {cards}" + ("" if played is None else f"   played {played}")
        text(image, (SEATS_X + 10, y + 23), fit(note, 12, width - 16), 12, PALE, "la")


def draw(game: Game, names: Sequence[str] | None = None) -> np.ndarray:
    """The position as an RGB picture, ``(HEIGHT, WIDTH, 3)`` uint8 (module docstring);
    ``names`` labels the seats (default ``player_0`` …; ``ValueError`` in one line unless
    one string per seat)."""
    labels = seat_names(game.num_players, names)
    image = background(table=False).copy()
    if game.is_terminal():
        won = ", ".join(labels[seat] for seat in game.winners())
        head = f"Game over: {won} with {max(game.scores)} points"
    else:
        head = f"Pasch  round {game.round + 1}/{game.rounds}, started by {labels[game.starter]}"
    text(image, (12, BAND_H / 2), fit(head, 15, WIDTH - 24), 15, WHITE)
    _board(image, game)
    _dice(image, game, labels)
    _seats(image, game, labels)
    return np.array(image)  # a writable copy: callers may mark up their frames
