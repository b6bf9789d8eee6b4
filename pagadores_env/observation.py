"""The observation vector an acting seat sees (R7.1: everything is public).

Seats are rotated so the observer is slot 0 and the next seat clockwise is slot 1 (R1.2);
slots past the table's size are padding (``present`` = 0), so one vector size serves 2–6
players. The vector is sufficient for optimal play: every quantity the rest of the game
depends on from a decision point is in it.

``FIELDS`` is the single source for the layout; ``SLICES`` and ``OBS_SIZE`` derive from it,
and the env's docstring table is printed from it.
"""

from __future__ import annotations

import numpy as np

from .engine import MAX_CARDS, MAX_PLAYERS, Game
from .rules import MAX_THROWS, NUM_STRENGTHS, Kind

_TOP = NUM_STRENGTHS - 1
_KINDS = len(Kind)

#: (name, length, meaning). Per-seat fields are in rotated slot order (slot 0 = me).
FIELDS: tuple[tuple[str, int, str], ...] = (
    ("cards", MAX_PLAYERS, "cards held / 10 (R1.1, R1.4)"),
    ("present", MAX_PLAYERS, "1 if the slot is a seat at this table (else padding)"),
    ("insteker", MAX_PLAYERS, "one-hot: who insteeks this round (R3.1)"),
    ("scores", MAX_PLAYERS, "final score this round, strength / 41; -1 if none yet (R3.3)"),
    ("lowest", MAX_PLAYERS, "1 if the seat holds the score to beat (R3.5)"),
    ("to_throw", MAX_PLAYERS, "1 if the seat still throws after me this round (R3.4)"),
    ("limit_set", 1, "1 once the insteker has fixed the throw limit (R3.2)"),
    ("throw_limit", 1, "throw limit / 3; 0 while unset"),
    ("throws_used", 1, "my throws so far this turn / 3"),
    ("throws_left", 1, "throws I may still use / 3 (R3.2, R3.4)"),
    ("my_strength", 1, "strength of my current throw / 41 (R2.3)"),
    ("my_kind", _KINDS, "one-hot kind of my current throw, Celebro … Picaro (R2.2)"),
    ("to_beat", 1, "score to beat (lowest final score so far) / 41; -1 if none"),
    ("versus", 1, "my throw against the score to beat: 1 above, 0 equal, -1 below or none"),
)

SLICES: dict[str, slice] = {}
_at = 0
for _name, _size, _ in FIELDS:
    SLICES[_name] = slice(_at, _at + _size)
    _at += _size
OBS_SIZE = _at


# Per-table constants, so encoding a step is list concatenation and lookups.
_ROTATIONS = {n: tuple(tuple((s + k) % n for k in range(n)) for s in range(n))
              for n in range(2, MAX_PLAYERS + 1)}
_PADDING = {n: [0.0] * (MAX_PLAYERS - n) for n in range(2, MAX_PLAYERS + 1)}
_PRESENT = {n: [1.0] * n + _PADDING[n] for n in range(2, MAX_PLAYERS + 1)}
_CARDS = [c / MAX_CARDS for c in range(MAX_CARDS + 1)]
_STRENGTH = [s / _TOP for s in range(NUM_STRENGTHS)]
_KIND_HOT = {k: [1.0 if j == k - 1 else 0.0 for j in range(_KINDS)] for k in Kind}
_NO_KIND = [0.0] * _KINDS


def encode(game: Game, seat: int) -> np.ndarray:
    """The float32 observation of ``seat`` (normally the player to act)."""
    n = game.num_players
    rot = _ROTATIONS[n][seat]
    pad = _PADDING[n]
    scored = [game.scores[s] for s in rot]
    low = min([x for x in scored if x >= 0], default=-1)
    if game.phase == "round":
        after = game.order[game.pos + 1:]
        used = game.throws
        left = (game.max_throws - used) / MAX_THROWS
    else:  # kampen and game over have no decisions: nobody throws "after me"
        after = ()
        used = 0
        left = 0.0
    current = game.current
    mine = -1 if current is None else current.strength
    limit = game.throw_limit
    insteker = game.insteker
    values = [_CARDS[game.cards[s]] for s in rot]
    values += pad
    values += _PRESENT[n]
    values += [1.0 if s == insteker else 0.0 for s in rot]
    values += pad
    values += [_STRENGTH[x] if x >= 0 else -1.0 for x in scored]
    values += pad
    values += [1.0 if x == low >= 0 else 0.0 for x in scored]
    values += pad
    values += [1.0 if s in after else 0.0 for s in rot]
    values += pad
    values += (
        0.0 if limit is None else 1.0,
        0.0 if limit is None else limit / MAX_THROWS,
        used / MAX_THROWS,
        left,
        _STRENGTH[mine] if mine >= 0 else 0.0,
    )
    values += _NO_KIND if current is None else _KIND_HOT[current.kind]
    values += (
        _STRENGTH[low] if low >= 0 else -1.0,
        -1.0 if low < 0 or mine < 0 else float((mine > low) - (mine < low)),
    )
    return np.array(values, dtype=np.float32)


def field_table() -> str:
    """The layout as a reStructuredText table, for docs."""
    rows = [(f"{SLICES[name].start}–{SLICES[name].stop - 1}", name, meaning)
            for name, _, meaning in FIELDS]
    widths = [max(len(r[i]) for r in rows + [("index", "field", "meaning")]) for i in range(3)]
    rule = "  ".join("=" * w for w in widths)
    fmt = "  ".join(f"{{:<{w}}}" for w in widths)
    lines = [rule, fmt.format("index", "field", "meaning"), rule]
    lines += [fmt.format(*r) for r in rows] + [rule]
    return "\n".join(line.rstrip() for line in lines)
