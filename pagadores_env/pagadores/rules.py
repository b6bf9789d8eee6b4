"""Every rule fact and pure rule helper, in one place: the engines, solvers, observation and
scripted players import them from here.

- Table sizes and card counts (R1.1), throws per turn (R3.2), cards lost (R3.5, R4.1, R4.4).
- Scoring a throw of three dice (R2.1–R2.5): every one of the 216 ordered outcomes is
  classified once at import; ``classify`` is a table lookup. A throw's ``strength`` is a dense
  rank (0 = Picaro … ``TOP`` = 41 = Celebro): higher beats lower and equal strengths tie (R2.3,
  R2.5), so engines compare plain integers. The same facts as numpy tables per strength
  (``STRENGTH_*``) and per ordered outcome (``OUTCOME_*``) for array code.
- Seats (R1.2, R1.3, R6): turn order, who a special hits, who insteeks next (on the circle
  of ``core.seats``), and the check of a table's size and start cards (``check_table``).
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Sequence
from enum import IntEnum
from itertools import combinations_with_replacement
from typing import Any, NamedTuple, cast

import numpy as np

from ..core import checks
from ..core.seats import CLOCKWISE, next_with_cards

MIN_PLAYERS, MAX_PLAYERS = 2, 6  # R1.1
MAX_CARDS = 10  # R1.1: the official game; fewer for experiments
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

#: R4.1 cards every other player loses, by kind: the one penalty table; ``Throw.penalty``,
#: ``STRENGTH_PENALTY`` and ``OUTCOME_PENALTY`` are views of it.
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
        """The throw's name, e.g. ``Celebro``, or ``Flamenco 106`` with its points."""
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
# cast: the stubs type the combinations as tuple[int, ...]; NUM_DICE makes them triples.
UNORDERED = cast("tuple[tuple[int, int, int], ...]", tuple(
    combinations_with_replacement(range(1, FACES + 1), NUM_DICE)
))
_KEYS = sorted({_order_key(d) for d in UNORDERED})
_STRENGTH_OF_KEY = {key: rank for rank, key in enumerate(_KEYS)}
NUM_STRENGTHS = len(_STRENGTH_OF_KEY)


def _make_throw(dice: tuple[int, int, int]) -> Throw:
    kind = _kind_of(dice)
    points = sum(PIP_POINTS[d] for d in dice) if kind is Kind.FLAMENCO else 0
    return Throw(dice, kind, points, _STRENGTH_OF_KEY[_order_key(dice)], PENALTY.get(kind, 0))


# keyed as tuple[int, ...]: that is what sorting the dice of an ordered outcome gives
_BY_SORTED: dict[tuple[int, ...], Throw] = {dice: _make_throw(dice) for dice in UNORDERED}


def ordered_index(a: int, b: int, c: int) -> int:
    """Index 0…215 of an ordered outcome (faces 1…6)."""
    return (a - 1) * 36 + (b - 1) * 6 + (c - 1)


#: THROWS[ordered_index(a, b, c)] is the classified throw; the table ``classify`` reads.
THROWS: tuple[Throw, ...] = tuple(
    _BY_SORTED[tuple(sorted((a, b, c)))]
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


def _read_only(values: Iterable[float], dtype: type) -> np.ndarray:
    array: np.ndarray = np.array(list(values), dtype=dtype)
    array.flags.writeable = False  # shared by every importer: nobody may change a rule
    return array


# ---------------------------------------------------------------- tables for array code
#: The strongest strength, Celebro (R2.3); observations scale strengths by it.
TOP = NUM_STRENGTHS - 1
#: Per strength 0…TOP: its Kind (R2.2), Flamenco points (0 for other kinds, R2.1), the cards a
#: special takes from every other player (R4.1) and its chance on one throw (R7.2: ordered
#: outcomes of that strength / 216).
_BY_STRENGTH = {t.strength: t for t in THROWS}



def throw_of_strength(strength: int) -> Throw:
    """A throw of ``strength``: throws of one strength play alike (R2.3), so any stands for
    all of them where only the strength is known (an observation, R7.1)."""
    if not 0 <= strength <= TOP:
        raise ValueError(f"a strength is 0–{TOP}, got {strength}")
    return _BY_STRENGTH[strength]


STRENGTH_KIND = _read_only((_BY_STRENGTH[s].kind for s in range(NUM_STRENGTHS)), np.int64)
STRENGTH_POINTS = _read_only((_BY_STRENGTH[s].points for s in range(NUM_STRENGTHS)), np.int64)
STRENGTH_PENALTY = _read_only((_BY_STRENGTH[s].penalty for s in range(NUM_STRENGTHS)), np.int64)
STRENGTH_PROB = _read_only(
    (sum(t.strength == s for t in THROWS) / FACES**NUM_DICE for s in range(NUM_STRENGTHS)),
    np.float64)
#: The Picaro's strength (the weakest, R2.3), the specials' (R4.1, weakest first) and the
#: plain throws' (Cavar and Flamenco: they move no cards).
PICARO_STRENGTH = int(np.flatnonzero(STRENGTH_KIND == Kind.PICARO)[0])
SPECIAL_STRENGTHS = tuple(int(s) for s in np.flatnonzero(STRENGTH_PENALTY))
PLAIN_STRENGTHS = _read_only(
    np.flatnonzero((STRENGTH_PENALTY == 0) & (STRENGTH_KIND != Kind.PICARO)), np.int64)

#: R7.2: the 216 ordered outcomes (``ordered_index``), each equally likely; their strength,
#: Kind and special penalty.
NUM_OUTCOMES = len(THROWS)
OUTCOME_STRENGTH = _read_only((t.strength for t in THROWS), np.int64)
OUTCOME_KIND = _read_only((t.kind for t in THROWS), np.int64)
OUTCOME_PENALTY = _read_only((t.penalty for t in THROWS), np.int64)


# ---------------------------------------------------------------- seats (R1.2, R1.3, R6)
def check_table(num_players: Any, cards: Any) -> tuple[int, tuple[int, ...]]:
    """A table's size and start cards per seat (``core.checks.check_table``): ``num_players``
    2–6 (R1.1) and ``cards`` either one count 1–10 for everyone or one count 0–10 per seat
    with at least two seats holding cards (a chosen position)."""
    return checks.check_table(num_players, cards, "cards", MAX_CARDS, (MIN_PLAYERS, MAX_PLAYERS))


def throws_allowed(limit: int | None) -> int:
    """The throws a player may use in a turn of a round with throw limit ``limit``: the
    limit (R3.4), or ``MAX_THROWS`` for the insteker, who is still fixing it (R3.2; an unset
    limit is written 0 or None)."""
    return limit or MAX_THROWS


def turn_order(cards: Sequence[int], insteker: int) -> tuple[int, ...]:
    """The seats that play a round, in turn order: clockwise from ``insteker``, skipping the
    seats without cards (R1.2, R3.4). ``cards`` has one count per seat."""
    return tuple(filter(cards.__getitem__, CLOCKWISE[len(cards)][insteker]))


def next_insteker(cards: Sequence[int], losers: Sequence[int]) -> int:
    """Who insteeks after a round that ended with ``losers`` losing cards, ``cards`` being the
    counts after it: a single loser who still has cards (R3.5, R4.4, R5.3); the next seat
    clockwise with cards after a single loser who is out (R6.1, R6.2); the youngest seat
    with cards (the highest, R1.3) when one special emptied several at once (R6.2)."""
    if len(losers) == 1:
        seat = losers[0]
        return seat if cards[seat] else next_with_cards(cards, seat)
    return max(s for s, c in enumerate(cards) if c)


def special_hits(cards: Sequence[int], thrower: int, group: Iterable[int],
                 penalty: int) -> list[tuple[int, int]]:
    """(victim, cards lost) for everyone in ``group`` but the thrower of a special taking
    ``penalty`` cards (R4.1; in kampen the group is the kampen players, R5.2). Nobody goes
    below 0 cards (R1.4)."""
    return [(victim, min(penalty, cards[victim])) for victim in group if victim != thrower]
