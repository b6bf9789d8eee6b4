"""The numeric kernel of Paye's exact yardstick (Y8): transition matrices, the values at the
end of the game, and one turn of backward induction as matrix products.

A **layer** holds the values of every position at the start of one turn: an array of shape
``(target,) * n + (n,)``, float64. Axis ``k`` is the score of the ``k``-th seat clockwise
from the player to move (0 … target-1: a score at the target has ended the game), the last
axis each seat's share of the win, in the same order. So the player to move is always axis 0
and value 0, as in its observation (slot 0 = me), and a turn changes axis 0 only.

A die's effect on the mover's score is a ``(target, target + 1)`` **transition matrix**
(``transition``): row ``s``, the probability of each score after the turn (Y3.3, Y3.4), the
last column the exact hit that wins at once (Y4.1). The values of a turn, for every die at
once, are one matrix product of the stacked matrices with the next layer turned so that the
mover's axis comes first (``turn_products``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .rules import settle, twice

#: Dice within this much of the best value count as equally good; the lowest index is chosen
#: (Y8.1, the same tie rule as Pagadores' solver).
TIE = 1e-12
_FLOAT = 8


def points_distribution(faces: Sequence[int], minus: Sequence[int] | None = None
                        ) -> dict[int, float]:
    """The turn's points and their probabilities: ``faces`` thrown twice (Y3.2), less
    ``minus`` thrown twice where a blue die is thrown too (Y6.3)."""
    red = twice(faces)
    blue = twice(minus) if minus is not None else ((0, 1),)
    total = 36 * 36 if minus is not None else 36
    points: dict[int, float] = {}
    for r, rc in red:
        for b, bc in blue:
            points[r - b] = points.get(r - b, 0.0) + rc * bc
    return {p: c / total for p, c in sorted(points.items())}


def transition(points: dict[int, float], target: int) -> np.ndarray:
    """``(target, target + 1)``: from each score 0 … target-1, the probability of each score
    after a turn of ``points`` (Y3.3, Y3.4); column ``target`` is an exact hit (Y4.1)."""
    matrix = np.zeros((target, target + 1))
    for score in range(target):
        for p, prob in points.items():
            matrix[score, settle(score, p, target)[0]] += prob
    return matrix


def layer_bytes(num_players: int, target: int) -> int:
    """The bytes of one layer's values."""
    return target ** num_players * num_players * _FLOAT


def final_layer(num_players: int, target: int) -> np.ndarray:
    """The layer after the last turn of the last round (Y4.3, Y4.4): each of the k seats with
    the highest score has 1/k of the win, the others none. The same in every orientation."""
    shape = (target,) * num_players
    scores = [np.arange(target).reshape([-1 if k == axis else 1 for k in range(num_players)])
              for axis in range(num_players)]
    best = np.zeros(shape, dtype=np.int64)
    for s in scores:
        best = np.maximum(best, s)
    top = [np.broadcast_to(s == best, shape) for s in scores]
    count = np.zeros(shape, dtype=np.int64)
    for t in top:
        count += t
    values = np.empty(shape + (num_players,))
    for k, t in enumerate(top):
        values[..., k] = t / count
    return values


def turned(values: np.ndarray) -> np.ndarray:
    """The next layer (its mover on axis 0) seen from the seat before it: that seat's axis,
    the last, moves to the front, and so does its value (C-contiguous, a new array)."""
    n = values.shape[-1]
    moved = np.moveaxis(values, n - 1, 0)
    out = np.empty(moved.shape)
    out[..., 1:] = moved[..., :-1]
    out[..., 0] = moved[..., -1]
    return out


def turn_products(stacked: np.ndarray, following: np.ndarray,
                  out: np.ndarray | None = None) -> np.ndarray:
    """``(dice, target, rest, n)``: each seat's share of the win after the mover throws each
    die, from every position (``rest`` the other seats' scores, flattened), against the
    ``following`` layer (its own mover on axis 0; ``turned`` here). ``stacked`` is the
    dice's transition matrices, ``(dice, target, target + 1)``; an exact hit gives the mover
    the whole win (Y4.1). ``out`` is a buffer of that shape to write into."""
    dice, target, _ = stacked.shape
    n = following.shape[-1]
    flat = turned(following).reshape(target, -1)
    if out is None:
        out = np.empty((dice, target, flat.shape[1] // n, n))
    np.matmul(stacked[:, :, :target].reshape(dice * target, target), flat,
              out=out.reshape(dice * target, -1))
    out[..., 0] += stacked[:, :, target][:, :, None]
    return out


def best_choice(mover_values: np.ndarray, allowed: np.ndarray | None = None) -> np.ndarray:
    """The mover's die at every position: the lowest index whose value is within ``TIE`` of
    the best (Y8.1). ``mover_values`` is ``(dice, ...)``; ``allowed`` (same shape, bool)
    leaves out dice the rules forbid there."""
    if allowed is not None:
        mover_values = np.where(allowed, mover_values, -np.inf)
    best = mover_values.max(axis=0)
    return (mover_values >= best - TIE).argmax(axis=0)


def gather(products: np.ndarray, choice: np.ndarray) -> np.ndarray:
    """The values where every position plays its ``choice`` (``(target, rest)``) of the
    dice of ``products`` (``turn_products``), as a layer ``(target, rest, n)``."""
    index = choice[None, :, :, None].astype(np.intp)
    return np.take_along_axis(products, index, axis=0)[0]


def mix(products: np.ndarray, probabilities: np.ndarray) -> np.ndarray:
    """The values where every position plays the dice with ``probabilities``
    (``(dice, target, rest)``), as a layer ``(target, rest, n)``."""
    return np.einsum("dpr,dprn->prn", probabilities, products, optimize=True)
