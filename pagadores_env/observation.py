"""The observation vector an acting seat sees (R7.1: everything is public).

Seats are rotated so the observer is slot 0 and the next seat clockwise is slot 1 (R1.2);
slots past the table's size are padding (``present`` = 0), so one vector size serves 2–6
players. The vector is sufficient for optimal play: every quantity the rest of the game
depends on from a decision point is in it.

``FIELDS`` is the single source for the layout; ``SLICES`` and ``OBS_SIZE`` derive from it,
and the env's docstring table is printed from it.
"""

from __future__ import annotations

import functools
import operator
import struct

import numpy as np

from .engine import Game
from .rules import CLOCKWISE, MAX_CARDS, MAX_PLAYERS, MAX_THROWS, NUM_STRENGTHS, THROWS, TOP, Kind

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

#: Table sizes whose turn-independent parts of observations are cached for reuse, and how
#: many are kept per size (least recently used go first; about 0.8 kB each, so at most some
#: 13 MB per size). See ``_CACHED``.
CACHED_SIZES = (2, 3)
TABLE_CACHE = 1 << 14


# Per-table constants, so that building a table (``_table``) is lookups.
#: _ROTATE[n][seat](per_seat) gives ``per_seat`` in rotated slot order (R1.2).
_ROTATE = {n: tuple(operator.itemgetter(*rot) for rot in rots) for n, rots in CLOCKWISE.items()}
_PADDING = {n: (0.0,) * (MAX_PLAYERS - n) for n in CLOCKWISE}
#: _AFTER_CARDS[n][seat][insteker]: what follows the cards: their padding, ``present``, and
#: the rotated, padded ``insteker`` one-hot (all zeros once the game is over).
_AFTER_CARDS = {n: tuple({i: _PADDING[n] + (1.0,) * n + _PADDING[n]
                          + tuple(1.0 if s == i else 0.0 for s in rot) + _PADDING[n]
                          for i in (None, *range(n))} for rot in rots)
                for n, rots in CLOCKWISE.items()}
_CARDS = [c / MAX_CARDS for c in range(MAX_CARDS + 1)]
_STRENGTH = [s / TOP for s in range(NUM_STRENGTHS)]
_SCORE = {-1: -1.0, **dict(enumerate(_STRENGTH))}  # a final score, or -1 for none yet
_NO_SCORE = frozenset((-1,))
#: _IS_LOW[low][score]: 1.0 if the score is the score to beat ``low`` (-1: nobody has one).
_IS_LOW = {low: {x: 1.0 if x == low >= 0 else 0.0 for x in _SCORE}
           for low in _SCORE}
_PACK = struct.Struct(f"{OBS_SIZE}f").pack_into  # rounds to float32 as np.array does

_USED, _LEFT, _MINE, _VERSUS = (SLICES[f].start for f in
                                ("throws_used", "throws_left", "my_strength", "versus"))
#: The my_kind slot of a throw, by strength (the strength determines the kind, R2.3).
_KIND_SLOT = [0] * NUM_STRENGTHS
for _throw in THROWS:
    _KIND_SLOT[_throw.strength] = SLICES["my_kind"].start + _throw.kind - 1
#: _LIMIT[throw_limit]: limit_set and throw_limit, then the acting turn's fields
#: (throws_used … my_kind) at their values with no throw yet.
_LIMIT = {limit: (0.0 if limit is None else 1.0, 0.0 if limit is None else limit / MAX_THROWS)
          + (0.0,) * (SLICES["to_beat"].start - _USED)
          for limit in (None, *range(1, MAX_THROWS + 1))}


@functools.lru_cache(maxsize=1 << 12)  # they recur: through a turn, and no scores at first
def _score_rows(n: int, seat: int, scores: tuple[int, ...]) -> tuple[tuple[float, ...], int]:
    """The rotated, padded ``scores`` and ``lowest`` fields, and the score to beat (-1 if
    none yet, R3.5)."""
    scored = _ROTATE[n][seat](scores)
    low = min(set(scored) - _NO_SCORE, default=-1)
    pad = _PADDING[n]
    return (*map(_SCORE.__getitem__, scored), *pad, *map(_IS_LOW[low].__getitem__, scored),
            *pad), low


@functools.lru_cache(maxsize=1024)  # all fit: there are 882 (n, seat, after)
def _to_throw(n: int, seat: int, after: tuple[int, ...]) -> tuple[float, ...]:
    """The rotated, padded ``to_throw`` field: who throws after ``seat`` this round."""
    return tuple(1.0 if s in after else 0.0 for s in CLOCKWISE[n][seat]) + _PADDING[n]


def _table(n: int, seat: int, phase: str, pos: int, insteker: int | None, limit: int | None,
           cards: tuple[int, ...], scores: tuple[int, ...], order: tuple[int, ...],
           ) -> tuple[np.ndarray, int]:
    """The vector with the acting turn's fields (throws used and left, my throw, versus) at
    their no-throw values, and the score to beat (-1 if none), from the game fields they
    depend on. These change only between turns or when a special takes cards (R4.1), so one
    table serves a whole turn and, for small tables, recurs over turns and games.
    Built from lookups, small cached parts and C-level maps, packed straight into the
    array: per-element Python code would dominate at 49 values."""
    score_rows, low = _score_rows(n, seat, scores)
    # kampen and game over have no decisions: nobody throws "after me"
    after = tuple(order[pos + 1:]) if phase == "round" else ()
    table = np.empty(OBS_SIZE, dtype=np.float32)
    _PACK(table, 0,
          *map(_CARDS.__getitem__, _ROTATE[n][seat](cards)), *_AFTER_CARDS[n][seat][insteker],
          *score_rows,
          *_to_throw(n, seat, after),
          *_LIMIT[limit],
          _STRENGTH[low] if low >= 0 else -1.0, -1.0)
    return table, low


#: Cached tables per table size, one cache each so that sizes do not push out each other's.
#: Only small tables, as measured: with two or three players tables recur (with two, some
#: 26,000 cover 90% of the steps of random play), from four on most are new, and caching
#: them costs more than it saves.
_CACHED = {n: functools.lru_cache(maxsize=TABLE_CACHE)(_table) for n in CACHED_SIZES}


def encode(game: Game, seat: int) -> np.ndarray:
    """The float32 observation of ``seat`` (normally the player to act)."""
    n = game.num_players
    phase = game.phase
    limit = game.throw_limit
    build = _CACHED.get(n, _table)
    # The lists go in as tuples: hashable for the cache, and immune to the engine's in-place
    # edits of cards and scores.
    table, low = build(n, seat, phase, game.pos, game.insteker, limit,
                       tuple(game.cards), tuple(game.scores), tuple(game.order))
    values = table if build is _table else table.copy()  # a cached table is shared
    if phase == "round":  # kampen and game over have no decisions: nothing used or left
        used = game.throws
        values[_USED] = used / MAX_THROWS
        max_throws = MAX_THROWS if limit is None else limit  # game.max_throws, inlined
        values[_LEFT] = (max_throws - used) / MAX_THROWS
    current = game.current  # None between turns, but kept when a throw ends the game
    if current is not None:
        mine = current.strength
        values[_MINE] = _STRENGTH[mine]
        values[_KIND_SLOT[mine]] = 1.0
        if low >= 0:
            values[_VERSUS] = float((mine > low) - (mine < low))
    return values


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
