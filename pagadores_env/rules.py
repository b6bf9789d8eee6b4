"""Scoring a throw of three dice (rules R2.1–R2.5) as precomputed lookup tables.

Every one of the 216 ordered outcomes is classified once at import; ``classify`` is a
table lookup. A throw's ``strength`` is a dense rank (0 = Picaro … 41 = Celebro): higher
beats lower and equal strengths tie (R2.3, R2.5), so engines compare plain integers.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from enum import IntEnum
from itertools import combinations_with_replacement
from typing import NamedTuple

NUM_DICE = 3
FACES = 6
MAX_THROWS = 3  # R3.2: the insteker throws at most three times
PICARO_LOSS = 2  # R4.4: a Picaro costs its thrower two cards
ROUND_LOSS = 1  # R3.5 / R5.3: the round's loser hands in one card


class Kind(IntEnum):
    """Kinds of throw, valued by their rank in R2.2 (1 = highest)."""

    CELEBRO = 1
    HERMANA = 2
    PUERTA = 3
    CAVAR = 4
    FLAMENCO = 5
    PICARO = 6


#: R2.1 points per face (index 0 unused).
PIP_POINTS = (0, 100, 2, 3, 4, 5, 60)

#: R2.2 fixed combinations, by sorted dice.
_NAMED = {
    (1, 1, 1): Kind.CELEBRO,
    (4, 5, 6): Kind.HERMANA,
    (1, 2, 3): Kind.PUERTA,
    (2, 2, 3): Kind.PICARO,
}

#: R4.1 cards every other player loses, by kind.
PENALTY = {Kind.CELEBRO: 3, Kind.HERMANA: 2, Kind.PUERTA: 1}


class Throw(NamedTuple):
    """One classified throw. ``dice`` is sorted ascending; ``points`` is 0 unless Flamenco."""

    dice: tuple[int, int, int]
    kind: Kind
    points: int
    strength: int
    penalty: int

    @property
    def name(self) -> str:
        label = self.kind.name.capitalize()
        if self.kind is Kind.FLAMENCO:
            return f"{label} {self.points}"
        return label

    def __str__(self) -> str:
        return f"{'-'.join(map(str, self.dice))} {self.name}"


def _kind_of(dice: tuple[int, int, int]) -> Kind:
    if dice in _NAMED:
        return _NAMED[dice]
    if dice[0] == dice[2]:
        return Kind.CAVAR
    return Kind.FLAMENCO


def _order_key(dice: tuple[int, int, int]) -> tuple[int, int]:
    """R2.3: kind first (lower rank number is stronger), then face (Cavar) or points (Flamenco)."""
    kind = _kind_of(dice)
    if kind is Kind.CAVAR:
        within = dice[0]
    elif kind is Kind.FLAMENCO:
        within = sum(PIP_POINTS[d] for d in dice)
    else:
        within = 0
    return (-int(kind), within)


#: The 56 unordered throws, sorted dice, ascending lexicographically.
UNORDERED: tuple[tuple[int, int, int], ...] = tuple(
    combinations_with_replacement(range(1, FACES + 1), NUM_DICE)
)
_KEYS = sorted({_order_key(d) for d in UNORDERED})
_STRENGTH_OF_KEY = {key: rank for rank, key in enumerate(_KEYS)}
NUM_STRENGTHS = len(_STRENGTH_OF_KEY)


def _make_throw(dice: tuple[int, int, int]) -> Throw:
    kind = _kind_of(dice)
    points = sum(PIP_POINTS[d] for d in dice) if kind is Kind.FLAMENCO else 0
    return Throw(dice, kind, points, _STRENGTH_OF_KEY[_order_key(dice)], PENALTY.get(kind, 0))


_BY_SORTED = {dice: _make_throw(dice) for dice in UNORDERED}


def ordered_index(a: int, b: int, c: int) -> int:
    """Index 0…215 of an ordered outcome (faces 1…6)."""
    return (a - 1) * 36 + (b - 1) * 6 + (c - 1)


#: THROWS[ordered_index(a, b, c)] is the classified throw; the table ``classify`` reads.
THROWS: tuple[Throw, ...] = tuple(
    _BY_SORTED[tuple(sorted((a, b, c)))]  # type: ignore[index]
    for a in range(1, FACES + 1)
    for b in range(1, FACES + 1)
    for c in range(1, FACES + 1)
)

#: R7.2 chance outcomes of one throw: (sorted dice, probability), the 56 unordered throws.
_MULTIPLICITY = {dice: 0 for dice in UNORDERED}
for _t in THROWS:
    _MULTIPLICITY[_t.dice] += 1
CHANCE_OUTCOMES: tuple[tuple[tuple[int, int, int], float], ...] = tuple(
    (dice, _MULTIPLICITY[dice] / FACES**NUM_DICE) for dice in UNORDERED
)
#: Ordered-outcome counts of each unordered throw, aligned with ``UNORDERED``.
MULTIPLICITY: tuple[int, ...] = tuple(_MULTIPLICITY[d] for d in UNORDERED)


def classify(dice: Sequence[int]) -> Throw:
    """Classify three dice (any order) — R2.2. Raises ``ValueError`` on anything else."""
    try:
        a, b, c = (operator.index(d) for d in dice)
    except (TypeError, ValueError):
        a = b = c = 0
    if not (1 <= a <= FACES and 1 <= b <= FACES and 1 <= c <= FACES):
        raise ValueError(f"dice must be three integers from 1 to 6 (any order), got {dice!r}")
    return THROWS[ordered_index(a, b, c)]
