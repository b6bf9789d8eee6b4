"""The inner step of the round recursion (``sweep.Sweep.solve_position``), compiled.

At one round state — a role about to throw, its throw limit and throws used — every score
state ``q`` and every strength ``s`` of the throw lead somewhere: stopping goes to the state
``nxt[q, s]`` of the next role (or the round's end), throwing again to the same role's next
throw. The step picks per variant (a maximising seat throws again only when that gains it
more than the tie tolerance; a fixed policy throws with its probability), and sums the
plain strengths' values with their odds. Written as one loop, it builds none of numpy's
``[Q, 42, V, n]`` temporaries: at 6 players this was most of a round's search.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .model import NS, P_PLAIN, PLAIN, SPECIALS
from .two_player import TIE_TOLERANCE, throws_again

#: Each strength's odds if plain, 0 for the Picaro and the specials (their values are added
#: by the caller: a Picaro ends the round, a special lands elsewhere, R4.1, R4.4).
PLAIN_ODDS = np.zeros(NS)
PLAIN_ODDS[PLAIN] = P_PLAIN
#: Each strength's place among the specials, -1 for the others.
SPECIAL_AT = np.full(NS, -1, np.int64)
SPECIAL_AT[list(SPECIALS)] = np.arange(len(SPECIALS))


#: ``two_player.throws_again``, the one tie-break rule, compiled into the step; the tolerance
#: is an argument, as numba's disk cache of ``_step`` is keyed on this file only.
_throws_again = njit(cache=True, inline="always")(throws_again)


@njit(cache=True, error_model="numpy")
def _step(stop_from: np.ndarray, nxt: np.ndarray, again: np.ndarray, seat: int,
          maximise: np.ndarray, fixed: np.ndarray, tolerance: float, odds: np.ndarray,
          special_at: np.ndarray, value: np.ndarray, kept: np.ndarray) -> None:
    rows, variants, n = value.shape
    last = again.shape[0] == 0
    for q in range(rows):
        value[q] = 0.0
        for s in range(nxt.shape[1]):
            r = nxt[q, s]
            w = odds[s]
            at = special_at[s]
            for v in range(variants):
                if last:
                    t = 0.0
                elif maximise[v]:
                    t = 1.0 if _throws_again(again[q, v, seat], stop_from[r, v, seat],
                                             tolerance) else 0.0
                else:
                    t = fixed[q, s, v]
                for i in range(n):
                    stop = stop_from[r, v, i]
                    after = stop + t * (again[q, v, i] - stop) if t != 0.0 else stop
                    value[q, v, i] += w * after
                    if at >= 0:
                        kept[q, at, v, i] = after


def throw_step(stop_from: np.ndarray, nxt: np.ndarray, again: np.ndarray | None, seat: int,
               maximise: np.ndarray, fixed: np.ndarray | float
               ) -> tuple[np.ndarray, np.ndarray]:
    """One round state's values before the throw from its plain strengths ``[Q, V, n]``,
    and its after-throw values at the special strengths ``[Q, 3, V, n]``.

    ``stop_from[nxt[q, s]]`` (``[R, V, n]``, ``nxt`` ``[Q, 42]``) is what stopping leads to,
    ``again`` (``[Q, V, n]``; ``None`` with no throws left, R3.6) what throwing again does;
    the thrower (whose value is ``seat`` on the last axis: its column among the tracked
    seats, ``sweep.Sweep``) throws again where it maximises (``maximise`` ``[V]``) and that
    gains it more than the tie tolerance (``two_player.throws_again``), else with
    probability ``fixed`` (``[Q, 42, V]``, broadcast)."""
    rows, variants, n = len(nxt), stop_from.shape[1], stop_from.shape[2]
    value = np.empty((rows, variants, n))
    kept = np.empty((rows, len(SPECIALS), variants, n))
    _step(np.ascontiguousarray(stop_from), nxt,
          np.empty((0, variants, n)) if again is None else np.ascontiguousarray(again),
          seat, np.ascontiguousarray(maximise),
          np.ascontiguousarray(np.broadcast_to(fixed, (rows, NS, variants)), np.float64),
          TIE_TOLERANCE, PLAIN_ODDS, SPECIAL_AT, value, kept)
    return value, kept
