"""Kampen (R5) among any group of players, exactly, for the multi-player solver (``sweep``).

Kampen has no decisions, so its state can be compressed: after the first ``j`` single throws
only the lowest strength so far ``m`` and the set ``T`` of kampen players holding it matter
(a later lower throw replaces them, an equal one joins them, R5.3). Arrays ``[m, T]``
(``m = NS`` meaning "nobody has thrown") are filled from the last thrower back.

A special (R5.2) hits only the other kampen players and moves to smaller card counts; a
Picaro ends the round (R4.4). A shared lowest replays kampen among exactly those players, in
round order (R5.3). The one way back to the very same kampen at the same cards is an
all-plain tie of everyone, which is a fixed point: ``K = known + tie * K``.

Values are arrays of any fixed shape (the solver's per-variant, per-seat win probabilities):
kampen has no decisions, so it only mixes the values at the round's possible ends.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import cast

import numpy as np

from ..rules import PICARO_LOSS, ROUND_LOSS
from .model import (
    NS,
    P_IF_PLAIN,
    P_PLAIN,
    PENALTY,
    PICARO,
    PLAIN_ABOVE,
    PROB,
    SPECIALS,
)

Cards = tuple[int, ...]
#: ``lose(cards, seat, count)``: value once ``seat`` loses ``count`` cards and the round ends.
Lose = Callable[[Cards, int, int], np.ndarray]
#: ``hit(cards, thrower, group, penalty)``: (cards after the special, value if it emptied
#: someone and so ended the round (R6.2), else None).
Hit = Callable[[Cards, int, tuple[int, ...], int], tuple[Cards, np.ndarray | None]]


@cache
def _transitions(size: int, j: int) -> tuple[np.ndarray, np.ndarray]:
    """Where thrower ``j`` of a ``size``-player kampen moves state ``(m, T)`` by throwing
    ``y``: index arrays ``[y, m, T]`` for the new lowest and the new holders."""
    y = np.arange(NS)[:, None, None]
    m = np.arange(NS + 1)[None, :, None]
    holders = np.arange(1 << size)[None, None, :]
    bit = 1 << j
    new_m = np.broadcast_to(np.where(y < m, y, m), (NS, NS + 1, 1 << size))
    new_t = np.where(y < m, bit, np.where(y == m, holders | bit, holders))
    return new_m, np.broadcast_to(new_t, new_m.shape)


def _weigh(weights: np.ndarray, values: np.ndarray) -> np.ndarray:
    """``values`` ``[m, ...]`` times ``weights[m]``."""
    return weights.reshape((-1,) + (1,) * (values.ndim - 1)) * values


class Kampen:
    """Kampen values ``value(cards, group)`` (group = seats in round order), memoised.

    ``lose`` and ``hit`` give the values at the round's end; they may only look at fewer
    cards than the kampen starts with (every end of a round takes a card, R3.5, R4.4).

    ``shifted`` (for searches that must stay at one card position, not the solver): a
    special that leaves everyone in lands on the same kampen at the same cards, shifted by
    what the cards it took are worth (``_shift``), instead of the kampen at fewer cards."""

    def __init__(self, lose: Lose, hit: Hit, shifted: bool = False) -> None:
        self.lose = lose
        self.hit = hit
        self.shifted = shifted
        self.memo: dict[tuple[Cards, tuple[int, ...]], np.ndarray] = {}
        #: ``_terms`` worked out by ``losses``, kept until ``_linear`` uses them
        self._listed: dict[tuple[Cards, tuple[int, ...]], _Terms] = {}

    def value(self, cards: Cards, group: tuple[int, ...]) -> np.ndarray:
        """The value of a kampen of ``group`` (seats in round order) at ``cards``."""
        key = (cards, group)
        if key not in self.memo:
            self.memo[key] = (self._linear(cards, group) if self.shifted
                              else self._solve(cards, group))
        return self.memo[key]

    def _terms(self, cards: Cards, group: tuple[int, ...]) -> _Terms:
        """A shifted kampen's weights and terms (``_weights``), and its specials' ``hit``s
        per role (once per kampen: those ``losses`` listed are taken from it)."""
        listed = self._listed.pop((cards, group), None)
        if listed is not None:
            return listed
        hits = [[self.hit(cards, t, group, int(PENALTY[y])) for y in SPECIALS] for t in group]
        ends = tuple(ended is not None for row in hits for _, ended in row)
        return *_weights(len(group), ends), hits

    def losses(self, cards: Cards, order: tuple[int, ...]) -> list[tuple[Cards, int, int]]:
        """The ``lose`` calls (their arguments) the shifted kampen of every group of two or
        more of ``order`` at ``cards`` make, so that a caller whose values cost a call each
        can work them out together first."""
        asked = []
        for mask in range(1, 1 << len(order)):
            group = tuple(s for b, s in enumerate(order) if mask >> b & 1)
            if len(group) > 1 and (cards, group) not in self.memo:  # else no lose calls
                listed = self._listed[(cards, group)] = self._terms(cards, group)
                _, terms, hits = listed
                asked += [(cards, group[role], a) if kind == "lose"
                          else (hits[role][a][0], group[b], ROUND_LOSS)
                          for kind, role, a, b in terms if kind in ("lose", "hit lose")]
        return asked

    def _solve(self, cards: Cards, group: tuple[int, ...]) -> np.ndarray:
        """``value`` worked out over the kampen's states (see the module docstring)."""
        size = len(group)
        arrays: dict[tuple[Cards, int], np.ndarray] = {}
        known = self._before(cards, group, 0, cards, arrays)[NS, 0]
        tie = float(np.sum(P_PLAIN**size))  # everyone plain and equal: the same kampen
        if self.shifted:  # everyone the same special, none emptying: the same, shifted
            tie += sum(float(PROB[y]) ** size for y in SPECIALS if all(
                self.hit(cards, t, group, int(PENALTY[y]))[1] is None for t in group))
        return known / (1.0 - tie)

    def _linear(self, cards: Cards, group: tuple[int, ...]) -> np.ndarray:
        """A shifted kampen's value as its ``Terms``' weighted sum: the weights depend only
        on the group's size and which of its specials end the round, so they are worked
        out once per such pattern (``_weights``) instead of once per card position (at 6
        players this made a round's search about 3 times faster)."""
        weights, terms, hits = self._terms(cards, group)
        values = []
        for kind, role, a, b in terms:
            if kind == "lose":
                values.append(self.lose(cards, group[role], a))
            elif kind == "ended":  # a term only where the special did end the round
                values.append(cast(np.ndarray, hits[role][a][1]))
            elif kind == "hit lose":
                values.append(self.lose(hits[role][a][0], group[b], ROUND_LOSS))
            else:  # a kampen of the roles in the mask ``role``
                values.append(self.value(cards, tuple(s for b, s in enumerate(group)
                                                      if role >> b & 1)))
        return np.tensordot(weights, np.stack(np.broadcast_arrays(*values)), axes=1)

    def _settle(self, cards: Cards, group: tuple[int, ...], root: Cards) -> np.ndarray:
        """Values per holder set ``T`` once everyone threw (R5.3); the unknown repeat of the
        root kampen counts 0 here and is solved by ``value``."""
        ends = [np.zeros(())] * (1 << len(group))
        for holders in range(1, len(ends)):
            tied = tuple(s for b, s in enumerate(group) if holders >> b & 1)
            if len(tied) == 1:
                ends[holders] = self.lose(cards, tied[0], ROUND_LOSS)
            elif not (tied == group and cards == root):
                ends[holders] = self.value(cards, tied)
        table = np.stack(np.broadcast_arrays(*ends))
        return np.broadcast_to(table, (NS + 1, *table.shape))

    @staticmethod
    def _plain(after: np.ndarray, bit: int) -> np.ndarray:
        """``[m, T, ...]``: the plain throws' part of the value before the thrower with bit
        ``bit``, from the values ``after`` it. A throw ``y`` below the lowest ``m`` makes the
        thrower the only holder, an equal one joins the holders, a higher one changes
        nothing (R5.3); the first part is a running sum over ``y``, so no ``[y, m, T]``
        array is built."""
        holders = np.arange(after.shape[1])
        below = np.cumsum(P_IF_PLAIN[(slice(None),) + (None,) * (after.ndim - 2)]
                          * after[:NS, bit], axis=0)
        value = np.zeros_like(after)
        value[1:] += below[:, None]  # value[m] gets the throws strictly below m
        value[:NS] += _weigh(P_IF_PLAIN, after[:NS, holders | bit])
        value[:NS] += _weigh(PLAIN_ABOVE, after[:NS])
        return value

    def _shift(self, cards: Cards, hit: Cards, group: tuple[int, ...]) -> np.ndarray:
        """What a kampen special's cards are worth: the round's end at ``hit`` less at
        ``cards``, averaged over which kampen player loses the card (one of them does)."""
        return np.mean([self.lose(hit, s, ROUND_LOSS) - self.lose(cards, s, ROUND_LOSS)
                        for s in group], axis=0)

    def _before(self, cards: Cards, group: tuple[int, ...], j: int, root: Cards,
                arrays: dict[tuple[Cards, int], np.ndarray]) -> np.ndarray:
        """Value ``[m, T, ...]`` before thrower ``j`` throws, at ``cards``."""
        key = (cards, j)
        if key in arrays:
            return arrays[key]
        if j == len(group):
            arrays[key] = self._settle(cards, group, root)
            return arrays[key]
        thrower = group[j]
        new_m, new_t = _transitions(len(group), j)
        after = self._before(cards, group, j + 1, root, arrays)
        value = PROB[PICARO] * self.lose(cards, thrower, PICARO_LOSS)  # R5.2 → R4.4
        value = value + self._plain(after, 1 << j)
        for y in SPECIALS:  # R5.2: only the other kampen players are hit
            hit_cards, ended = self.hit(cards, thrower, group, int(PENALTY[y]))
            if ended is not None:
                value = value + PROB[y] * ended
            elif self.shifted:
                shift = self._shift(cards, hit_cards, group)
                value = value + PROB[y] * (after[new_m[y], new_t[y]] + shift)
            else:
                later = self._before(hit_cards, group, j + 1, root, arrays)
                value = value + PROB[y] * later[new_m[y], new_t[y]]
        arrays[key] = value
        return value


#: One term a shifted kampen's value is a weighted sum of (``Kampen._linear``), by roles in
#: the group's round order: ``("lose", r, count, 0)`` role ``r`` loses ``count`` cards at
#: the kampen's cards; ``("ended", r, i, 0)`` the ``i``-th special of role ``r`` emptied someone;
#: ``("hit lose", r, i, s)`` role ``s`` loses a card at the cards that special left (its
#: shift); ``("kampen", mask, 0, 0)`` the kampen of the roles in ``mask`` replays (unused
#: places hold 0).
Term = tuple[str, int, int, int]


#: A shifted kampen's weights, their terms, and its specials' ``hit``s per role.
_Terms = tuple[np.ndarray, list[Term], list[list[tuple[Cards, "np.ndarray | None"]]]]


class _Symbolic(Kampen):
    """A shifted kampen of roles ``0 … size-1`` whose values are unit vectors, one per
    ``Term``: run through ``Kampen``'s own recursion, its value is the terms' weights."""

    ROOT: Cards = (-1,)

    def __init__(self, size: int, ends: tuple[bool, ...]) -> None:
        super().__init__(self._lose, self._hit, shifted=True)
        self.size = size
        self.ends = ends
        roles = range(size)
        specials = range(len(SPECIALS))
        self.terms: list[Term] = (
            [("lose", r, c, 0) for r in roles for c in (ROUND_LOSS, PICARO_LOSS)]
            + [("ended", r, i, 0) for r in roles for i in specials]
            + [("hit lose", r, i, s) for r in roles for i in specials for s in roles]
            + [("kampen", mask, 0, 0) for mask in range(1, (1 << size) - 1) if mask & (mask - 1)])
        self.index = {term: at for at, term in enumerate(self.terms)}

    def unit(self, term: Term) -> np.ndarray:
        vector = np.zeros(len(self.terms))
        vector[self.index[term]] = 1.0
        return vector

    def _lose(self, cards: Cards, seat: int, count: int) -> np.ndarray:
        if cards == self.ROOT:
            return self.unit(("lose", seat, count, 0))
        _, thrower, special = cards  # the cards a special left (``_hit``)
        return self.unit(("hit lose", thrower, special, seat))

    def _hit(self, cards: Cards, thrower: int, group: tuple[int, ...], penalty: int
             ) -> tuple[Cards, np.ndarray | None]:
        special = int(np.flatnonzero(PENALTY[list(SPECIALS)] == penalty)[0])
        left = (-2, thrower, special)
        if self.ends[thrower * len(SPECIALS) + special]:
            return left, self.unit(("ended", thrower, special, 0))
        return left, None

    def value(self, cards: Cards, group: tuple[int, ...]) -> np.ndarray:
        if len(group) == self.size:
            return self._solve(cards, group)
        return self.unit(("kampen", sum(1 << r for r in group), 0, 0))


@cache
def _weights(size: int, ends: tuple[bool, ...]) -> tuple[np.ndarray, list[Term]]:
    """The nonzero weights of a shifted kampen of ``size`` players whose specials end the
    round where ``ends`` says (per role, per special), and their terms (``Term``)."""
    symbolic = _Symbolic(size, ends)
    weights = symbolic.value(symbolic.ROOT, tuple(range(size)))
    kept = np.flatnonzero(weights)
    return weights[kept], [symbolic.terms[i] for i in kept]
