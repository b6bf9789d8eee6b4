"""Observation rows for every decision of one round role at an n-seat table (R7.1).

A decision inside a round (R3.6) is fixed by the card counts, the round order (alive seats
clockwise from the insteker, R1.2), the acting role ``j`` (0 = insteker), the throw limit
``L`` (0 while the insteker is still setting it, R3.2), the throws used ``k``, the earlier
roles' scores and the current strength ``x``. ``decision_rows`` writes, for a whole grid of
scores and strengths at once, the observation rows of those states through the observation
codec (``observation.encode_batch``), so a policy is asked about a position in a few
``act_batch`` calls. Only the card fields change between positions of one round order, so
the rest of a grid is built once (``_template``) and cached.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

import numpy as np

from ...core.seats import CLOCKWISE
from ..observation import SLICES, ObsFields, encode_batch
from ..rules import MAX_THROWS, NUM_STRENGTHS, throws_allowed
from .model import PICARO
from .scores import ScoreStates

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


def lowest_rows(states: ScoreStates, role: int) -> tuple[np.ndarray, np.ndarray]:
    """The rows a pass asks about at a decision of ``role`` in the lowest-score view (``full``
    False): one per reachable round state and thrown strength, as (state index, strength)
    arrays."""
    reachable = np.repeat(np.flatnonzero(states.reachable[role]), len(THROWN))
    return reachable, np.tile(THROWN, len(reachable) // len(THROWN))


def decision_fields(num_players: int, cards: tuple[int, ...], order: tuple[int, ...],
                    role: int, limit: int, used: int, prefix: np.ndarray, strength: np.ndarray
                    ) -> ObsFields:
    """What seat ``order[role]`` observes deciding after ``used`` throws with current
    ``strength[b]``, the earlier roles having scored ``prefix[b, :role]``: the observation's
    integers, every field with a leading axis of rows (``encode_batch`` writes the rows)."""
    slots = CLOCKWISE[num_players][order[role]]  # the seat in each slot, mine first (R1.2)
    limit = limit if role else 0  # the insteker is still fixing it (R3.2)
    strength = np.asarray(strength, dtype=np.int64)
    rows = len(strength)
    prefix = np.asarray(prefix, dtype=np.int64).reshape(rows, role)
    scores = np.full((rows, num_players), -1)
    for slot, seat in enumerate(slots):
        if seat in order[:role]:
            scores[:, slot] = prefix[:, order.index(seat)]

    def each(value: object) -> np.ndarray:
        return np.broadcast_to(np.asarray(value), (rows,))

    return ObsFields(
        players=each(num_players),
        cards=np.broadcast_to([cards[seat] for seat in slots], scores.shape),
        insteker=each(slots.index(order[0])),
        scores=scores,
        to_throw=np.broadcast_to([seat in order[role + 1:] for seat in slots], scores.shape),
        throw_limit=each(limit),
        throws_used=each(used),
        throws_left=each(throws_allowed(limit) - used),
        my_strength=strength,
    )


def encode_states(num_players: int, cards: tuple[int, ...], order: tuple[int, ...], role: int,
                  limit: int, used: int, prefix: np.ndarray, strength: np.ndarray
                  ) -> np.ndarray:
    """Rows ``[B, OBS_SIZE]`` of ``decision_fields``."""
    return encode_batch(decision_fields(num_players, cards, order, role, limit, used, prefix,
                                        strength))


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

    The cached template's card columns are overwritten in place (with those of one row
    encoded at these cards) and the array handed out read-only, so a policy cannot change
    what later positions are asked (R7.1)."""
    rows = _template(num_players, order, role, limit, used)
    first = grid(role)[:1]
    mine = encode_states(num_players, cards, order, role, limit, used, first[:, :-1],
                         first[:, -1])
    rows.flags.writeable = True
    rows[:, SLICES["cards"]] = mine[0, SLICES["cards"]]
    rows.flags.writeable = False
    return rows
