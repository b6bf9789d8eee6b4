"""Observation rows for every decision of one round role at an n-seat table (R7.1).

A decision inside a round (R3.6) is fixed by the card counts, the round order (alive seats
clockwise from the insteker, R1.2), the acting role ``j`` (0 = insteker), the throw limit
``L`` (0 while the insteker is still setting it, R3.2), the throws used ``k``, the earlier
roles' scores and the current strength ``x``. ``decision_rows`` writes, for a whole grid of
scores and strengths at once, the float32 rows ``observation.encode`` gives for those states
(tested against it on real games), so a policy is asked about a position in a few
``act_batch`` calls. Only the card fields change between positions of one round order, so
the rest of a grid is built once (``_template``) and cached.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

import numpy as np

from ..observation import OBS_SIZE, SLICES
from ..rules import MAX_CARDS, MAX_THROWS, NUM_STRENGTHS, TOP
from ..rules import STRENGTH_KIND as KIND
from .model import PICARO

#: The strengths a decision can show or a score can hold: everything but the Picaro (R4.4).
THROWN = np.arange(PICARO + 1, NUM_STRENGTHS)
#: Grids up to this many rows (three seats in a round) are built once and cached.
CACHED_ROWS = len(THROWN) ** 3


def decision_keys(role: int) -> list[tuple[int, int]]:
    """The (throw limit, throws used) pairs at which ``role`` decides (R3.2, R3.4, R3.6);
    the insteker's limit is written 0 (not yet set)."""
    if role == 0:
        return [(0, k) for k in range(1, MAX_THROWS)]
    return [(limit, k) for limit in range(2, MAX_THROWS + 1) for k in range(1, limit)]


def encode_states(num_players: int, cards: tuple[int, ...], order: tuple[int, ...], role: int,
                  limit: int, used: int, prefix: np.ndarray, strength: np.ndarray
                  ) -> np.ndarray:
    """Rows ``[B, OBS_SIZE]`` for seat ``order[role]`` deciding after ``used`` throws with
    current ``strength[b]``, the earlier roles having scored ``prefix[b, :role]``."""
    n = num_players
    seat = order[role]
    rot = [(seat + t) % n for t in range(n)]
    prefix = np.asarray(prefix, dtype=np.int64).reshape(len(strength), role)
    strength = np.asarray(strength, dtype=np.int64)
    rows = np.zeros((len(strength), OBS_SIZE))

    def col(name: str, slot: int = 0) -> int:
        return SLICES[name].start + slot

    low = prefix.min(axis=1) if role else np.full(len(strength), -1)
    rows[:, SLICES["scores"].start:SLICES["scores"].start + n] = -1.0
    for slot, s in enumerate(rot):
        rows[:, col("cards", slot)] = cards[s] / MAX_CARDS
        rows[:, col("present", slot)] = 1.0
        rows[:, col("insteker", slot)] = s == order[0]
        rows[:, col("to_throw", slot)] = s in order[role + 1:]
        if s in order[:role]:
            score = prefix[:, order.index(s)]
            rows[:, col("scores", slot)] = score / TOP
            rows[:, col("lowest", slot)] = score == low
    top = MAX_THROWS if role == 0 else limit
    rows[:, col("limit_set")] = role > 0
    rows[:, col("throw_limit")] = limit / MAX_THROWS if role else 0.0
    rows[:, col("throws_used")] = used / MAX_THROWS
    rows[:, col("throws_left")] = (top - used) / MAX_THROWS
    rows[:, col("my_strength")] = strength / TOP
    rows[np.arange(len(strength)), col("my_kind") + KIND[strength] - 1] = 1.0
    rows[:, col("to_beat")] = low / TOP if role else -1.0
    rows[:, col("versus")] = np.sign(strength - low) if role else -1.0
    return rows.astype(np.float32)


def grid(role: int) -> np.ndarray:
    """Every (earlier scores, current strength) combination, ``[41**(role+1), role+1]``,
    in C order of an array ``[41] * (role + 1)``."""
    shape = (len(THROWN),) * (role + 1)
    return np.indices(shape).reshape(role + 1, -1).T + THROWN[0]


@lru_cache(maxsize=64)
def _template(num_players: int, order: tuple[int, ...], role: int, limit: int, used: int
              ) -> np.ndarray:
    states = grid(role)
    zero = (0,) * num_players
    rows = encode_states(num_players, zero, order, role, limit, used, states[:, :-1],
                         states[:, -1])
    rows.flags.writeable = False
    return rows


def decision_row_chunks(num_players: int, cards: tuple[int, ...], order: tuple[int, ...],
                        role: int, limit: int, used: int, chunk: int) -> Iterator[np.ndarray]:
    """``decision_rows`` in read-only pieces of at most ``chunk`` rows, in grid order. Grids
    above ``CACHED_ROWS`` (a 4-seat table's last role) are encoded piece by piece instead
    of cached, to bound memory."""
    size = len(THROWN) ** (role + 1)
    if size <= CACHED_ROWS:
        rows = decision_rows(num_players, cards, order, role, limit, used)
        yield from (rows[start:start + chunk] for start in range(0, size, chunk))
        return
    states = grid(role)
    for start in range(0, size, chunk):
        piece = states[start:start + chunk]
        rows = encode_states(num_players, cards, order, role, limit, used, piece[:, :-1],
                             piece[:, -1])
        rows.flags.writeable = False
        yield rows


def decision_rows(num_players: int, cards: tuple[int, ...], order: tuple[int, ...], role: int,
                  limit: int, used: int) -> np.ndarray:
    """Read-only rows for every state of ``grid(role)`` at this position and (limit, used).

    The cached template's card columns are overwritten in place and the array handed out
    read-only, so a policy cannot change what later positions are asked (R7.1)."""
    rows = _template(num_players, order, role, limit, used)
    seat = order[role]
    rows.flags.writeable = True
    for slot in range(num_players):
        rows[:, SLICES["cards"].start + slot] = cards[(seat + slot) % num_players] / MAX_CARDS
    rows.flags.writeable = False
    return rows
