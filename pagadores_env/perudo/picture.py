"""Pictures of a Perudo game: ``draw(game)`` paints the position as a ``HEIGHT x WIDTH x 3`` RGB
image (the size of every game's pictures, ``core.picture``), for ``render_mode="rgb_array"``.

Perudo hides each player's dice under their cup (P7.2), so a picture is drawn for someone:
``shown`` names the seats whose dice this round are drawn face up (the Gymnasium env shows
its learner's, the AEC env the dice of the seat to act); everyone else's cup shows only how
many dice are under it. At a dudo all dice are shown (P4.1), and so they are here. Drawn are:

- a band at the top: the round (palifico or not, P6), the dice on the table (P3.1) and the
  bid to beat (P3);
- the seats clockwise around the table, seat 0 at the bottom (P1.1), each in a panel with its
  name, its cup (a die for each it still holds, face up if shown, and an outline for each it
  has lost, P2.4), its dice count, a badge for the round's starter (P2.2) and a palifico one
  (P6.1), and under the cup its latest bid this round; right after a dudo, until the next bid,
  that line shows instead the seat's dice of the round just counted, those that counted for
  the called bid (P4.1, P5.1, P6.3) bright and the others dimmed. The player to act (or
  ``highlight``) has a gold frame; a player who is out is greyed with their place (P1.3); the
  winner's panel is gold;
- in the middle, the bid to beat as its quantity and a big die of its face, who made it and
  who acts now; right after a dudo, the bid that was called, the count and who lost a die;
  at the end, the winner.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from typing import Any, NamedTuple

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
    SMALL_DIE,
    STYLES,
    SUPERSAMPLE,
    WHITE,
    WIDTH,
    Colour,
    backdrop,
    badge,
    dice,
    die,
    fit,
    font,
    gap,
    paste,
    seat_names,
    seat_slot,
    shrink,
    text,
)
from ..core.protocol import Event
from .engine import Game
from .rules import BIDS, counts_for

#: ``HEIGHT`` and ``WIDTH`` are the picture's size (``core.picture``'s).
__all__ = ["HEIGHT", "WIDTH", "draw"]

CUP: Colour = (58, 44, 36)  # the colour of a die hidden under its cup


# ---------------------------------------------------------------------- what to show
class _Dudo(NamedTuple):
    """The latest dudo, read from the game's log."""

    caller: int
    bid: tuple[int, int]
    matched: int  # the dice that counted for the called bid
    loser: int
    out: bool  # the loser lost its last die (P1.3)
    palifico: bool  # the called round was a palifico round: no jokers (P6.3)


def _last_dudo(log: Sequence[Event]) -> _Dudo | None:
    """The latest dudo and its outcome, or None before the first."""
    at = next((i for i in range(len(log) - 1, -1, -1) if log[i].kind == "dudo"), None)
    if at is None:
        return None
    start = next(i for i in range(at, -1, -1) if log[i].kind == "round")
    palifico = any(e.kind == "palifico" for e in log[start:at])
    count, loser = log[at + 1].value, log[at + 2].seat  # "count", "loses" follow the dudo
    out = at + 3 < len(log) and log[at + 3].kind == "out"
    return _Dudo(log[at].seat, log[at].value, count, loser, out, palifico)


def _revealing(game: Game) -> _Dudo | None:
    """The dudo to show: the latest, from the moment it is called until the next round's
    first bid (or for good, when it ended the game)."""
    if game.bids and game.winner is None:
        return None
    return _last_dudo(game.log)


def _bid(bid: tuple[int, int] | None) -> str:
    return "no bid yet" if bid is None else f"{bid[0]} x {bid[1]}"


def _dice_count(n: int) -> str:
    return f"{n} {'die' if n == 1 else 'dice'}"


def _header(game: Game, labels: Sequence[str]) -> tuple[str, str, str]:
    """The top band's left, middle and right texts."""
    if game.winner is not None:
        return f"Round {game.round}", "game over", f"{labels[game.winner]} wins"
    kind = "palifico round, no jokers · " if game.palifico else ""
    right = "no bid yet" if game.bid is None else f"to beat: {_bid(game.bid)}"
    return f"Round {game.round}", f"{kind}{_dice_count(game.total_dice)} on the table", right


def _middle(game: Game, labels: Sequence[str],
            dudo: _Dudo | None) -> tuple[str, str, tuple[int, int] | None, str, str]:
    """The middle's headline and its line under it, the bid drawn big (None: an empty die),
    and the two lines under the bid."""
    if game.winner is not None:
        rounds = f"after {game.round} round{'' if game.round == 1 else 's'}"
        head: tuple[str, str] = (f"{labels[game.winner]} wins!", rounds)
    elif not game.rolled:
        head = (f"Round {game.round}", "everyone rolls under their cup")
    else:
        acts = "opens the round" if game.bid is None else "raises or calls dudo"
        head = (labels[game.current], acts)
    if dudo is not None:
        loses = f"{labels[dudo.loser]} loses a die" + (" and is out" if dudo.out else "")
        called = f"dudo by {labels[dudo.caller]}: there {'was' if dudo.matched == 1 else 'were'} "
        return (*head, dudo.bid, called + str(dudo.matched), loses)
    if game.bid is None:
        return (*head, None, "no bid yet", "")
    return (*head, game.bid, f"bid by {labels[game.bidder]}", "")


def _seat_state(game: Game, seat: int) -> str:
    """The key of the seat's look in ``core.picture.STYLES``."""
    if not game.dice_counts[seat]:
        return "out"
    return "winner" if game.winner == seat else "playing"


def _seat_note(game: Game, seat: int) -> str:
    """What a seat's panel says under its cup when it shows neither a bid nor a reveal."""
    if not game.dice_counts[seat]:
        return f"out · {PLACES[game.placements()[seat] - 1]} place"
    if game.winner is not None:
        return "winner!"
    if seat == game.current_player:
        return "opens the round" if game.bid is None else "to raise or call dudo"
    return ""


def _badges(game: Game, seat: int) -> tuple[str, ...]:
    """Badges on a seat's panel, right to left."""
    if game.winner is not None or seat != game.starter:
        return ()
    return ("starts", "palifico") if game.palifico else ("starts",)


_BADGE_COLOURS = {"starts": BLUE, "palifico": ORANGE}


def _shown(shown: Any, num_players: int) -> frozenset[int]:
    """``shown`` as a set of seats; ``ValueError`` in one line unless it is seats."""
    try:
        if isinstance(shown, str | bytes):
            raise TypeError
        seats = frozenset(check_int("shown", seat, 0, num_players - 1) for seat in shown)
    except (TypeError, ValueError):
        raise ValueError(f"shown must be seats 0–{num_players - 1}, got {shown!r}") from None
    return seats


# ---------------------------------------------------------------------- cached shapes
@cache
def _cupped(size: int) -> Image.Image:
    """A die under a cup: its back, no face."""
    ss = SUPERSAMPLE
    s = size * ss
    big = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    ImageDraw.Draw(big).rounded_rectangle((0, 0, s - 1, s - 1), s // 6, fill=CUP,
                                          outline=(20, 14, 10), width=max(ss, s // 28))
    return shrink(big)


@cache
def _lost(size: int) -> Image.Image:
    """Where a die was that the seat has lost: a faint outline."""
    ss = SUPERSAMPLE
    s = size * ss
    big = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    ImageDraw.Draw(big).rounded_rectangle((0, 0, s - 1, s - 1), s // 6,
                                          outline=(0, 0, 0, 60), width=ss)
    return shrink(big)


# ---------------------------------------------------------------------- drawing
def _cup(image: Image.Image, game: Game, seat: int, face_up: bool, x: int, y: int) -> None:
    """The seat's dice this round (face up, or their backs) and outlines for those lost."""
    held = game.dice_counts[seat]
    if face_up and game.rolled and held:
        after = dice(image, sorted(game.hands[seat]), x, y, SMALL_DIE)
    else:
        after = x
        for _ in range(held):
            paste(image, _cupped(SMALL_DIE), after, y)
            after += SMALL_DIE + gap(SMALL_DIE)
    for _ in range(game.start_dice[seat] - held):
        paste(image, _lost(SMALL_DIE), after, y)
        after += SMALL_DIE + gap(SMALL_DIE)


def _bid_line(image: Image.Image, bid: tuple[int, int], x: float, y: float,
              colour: Colour) -> None:
    """``bid q x`` and a die of the face."""
    words = f"bid {bid[0]} x"
    text(image, (x, y + SMALL_DIE / 2), words, 15, colour)
    paste(image, die(bid[1], SMALL_DIE, False), x + font(15).getlength(words) + 5, y)


def _revealed(image: Image.Image, faces: Iterable[int], dudo: _Dudo, x: float,
              y: float) -> None:
    """The seat's dice of the counted round, those that counted for the called bid bright."""
    face = dudo.bid[1]
    for value in sorted(faces, key=lambda v: (not counts_for(v, face, dudo.palifico), v)):
        paste(image, die(value, SMALL_DIE, not counts_for(value, face, dudo.palifico)), x, y)
        x += SMALL_DIE + gap(SMALL_DIE)


def _draw_seat(image: Image.Image, game: Game, seat: int, label: str, state: str,
               face_up: bool, dudo: _Dudo | None) -> None:
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
    _cup(image, game, seat, face_up, x + 10, y + 29)
    text(image, (x + PANEL_W - 10, y + 39), str(game.dice_counts[seat]), 18, style.ink, "rm")
    if dudo is not None and game.revealed is not None and game.revealed[seat]:
        _revealed(image, game.revealed[seat], dudo, x + 10, y + 56)
        if seat == dudo.loser:
            text(image, (x + PANEL_W - 10, y + 66), "-1", 15, (196, 36, 44), "rm")
        return
    last = BIDS[game.last_bids[seat]]
    if last is not None and game.winner is None:
        _bid_line(image, last, x + 10, y + 56, style.ink)
        return
    text(image, (x + 10, y + 66), _seat_note(game, seat), 14, style.muted)


def _draw_middle(image: Image.Image, game: Game, labels: Sequence[str],
                 dudo: _Dudo | None) -> None:
    title, subtitle, bid, under, last = _middle(game, labels, dudo)
    text(image, (CENTRE_X, CENTRE_Y - 70), fit(title, 20, 230), 20,
         WHITE if game.winner is None else GOLD, "mm")
    text(image, (CENTRE_X, CENTRE_Y - 48), fit(subtitle, 14, 230), 14, PALE, "mm")
    top = CENTRE_Y - 30
    if bid is None:
        paste(image, die(0, BIG_DIE, False), CENTRE_X - BIG_DIE / 2, top)
    else:
        quantity = f"{bid[0]} x"
        width = font(36).getlength(quantity) + 10 + BIG_DIE
        left = CENTRE_X - width / 2
        text(image, (left, top + BIG_DIE / 2), quantity, 36, WHITE)
        paste(image, die(bid[1], BIG_DIE, dudo is not None), left + width - BIG_DIE, top)
    text(image, (CENTRE_X, top + BIG_DIE + 16), fit(under, 15, 230), 15, WHITE, "mm")
    text(image, (CENTRE_X, top + BIG_DIE + 36), fit(last, 13, 230), 13, PALE, "mm")


def draw(game: Game, names: Sequence[str] | None = None, highlight: int | None = None,
         shown: Iterable[int] = ()) -> np.ndarray:
    """The position of ``game`` as a ``(HEIGHT, WIDTH, 3)`` ``uint8`` RGB image.

    ``shown``: the seats whose dice this round are drawn face up (default none: the public
    view); ``names`` gives one label per seat (default ``player_0`` …); ``highlight`` is the
    seat to frame in gold (default: the player to act; nobody at a chance node or once the
    game is over). Raises ``ValueError`` in one line for names that are not one string per
    seat, or a seat out of range.
    """
    n = game.num_players
    labels = seat_names(n, names)
    face_up = _shown(shown, n)
    turn = (game.current_player if highlight is None
            else check_int("highlight", highlight, 0, n - 1))
    dudo = _revealing(game)
    states = tuple(_seat_state(game, seat) for seat in range(n))
    image = backdrop(n, states, turn).copy()
    left, middle, right = _header(game, labels)
    band = BAND_H // 2
    text(image, (14, band), left, 18, WHITE)
    text(image, (130, band), fit(middle, 15, 300), 15, PALE)
    text(image, (WIDTH - 14, band), fit(right, 15, 180), 15, GOLD, "rm")
    for seat in range(n):
        _draw_seat(image, game, seat, labels[seat], states[seat], seat in face_up, dudo)
    _draw_middle(image, game, labels, dudo)
    return np.array(image)  # a writable copy: callers may mark up their frames
