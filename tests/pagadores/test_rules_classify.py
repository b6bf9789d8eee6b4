"""R2: scoring one throw of three dice.

Expectations are computed here from the rule text (brute force over ``itertools.product``
with a small independent reading of R2.1–R2.3) rather than copied from ``rules.py``.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import pairwise, permutations, product

import numpy as np
import pytest

from pagadores_env.pagadores.rules import (
    CHANCE_OUTCOMES,
    MULTIPLICITY,
    NUM_STRENGTHS,
    THROWS,
    UNORDERED,
    Kind,
    classify,
    ordered_index,
)

ALL_ORDERED = list(product(range(1, 7), repeat=3))
ALL_SORTED = sorted({tuple(sorted(d)) for d in ALL_ORDERED})


def points(dice: tuple[int, ...]) -> int:
    """R2.1, read independently: 1 → 100, 6 → 60, other faces their value."""
    return sum({1: 100, 6: 60}.get(d, d) for d in dice)


def kind(dice: tuple[int, ...]) -> Kind:
    """R2.2, read independently from the table's dice column."""
    s = tuple(sorted(dice))
    named = {(1, 1, 1): Kind.CELEBRO, (4, 5, 6): Kind.HERMANA, (1, 2, 3): Kind.PUERTA,
             (2, 2, 3): Kind.PICARO}
    if s in named:
        return named[s]
    return Kind.CAVAR if len(set(s)) == 1 else Kind.FLAMENCO


def order_key(dice: tuple[int, ...]) -> tuple[int, int]:
    """R2.3: kinds ranked 1 (high) … 6 (low); within Cavar by face, within Flamenco by points."""
    k = kind(dice)
    within = {Kind.CAVAR: dice[0], Kind.FLAMENCO: points(dice)}.get(k, 0)
    return (-int(k), within)


# ---------------------------------------------------------------- R2.1 / R2.2
def test_R2_1_flamenco_points_follow_pip_values() -> None:
    for dice in ALL_ORDERED:
        throw = classify(dice)
        expected = points(dice) if kind(dice) is Kind.FLAMENCO else 0
        assert throw.points == expected, dice


def test_R2_2_every_ordered_throw_has_its_kind_and_penalty() -> None:
    penalty = {Kind.CELEBRO: 3, Kind.HERMANA: 2, Kind.PUERTA: 1}  # R4.1
    for dice in ALL_ORDERED:
        throw = classify(dice)
        assert throw.kind is kind(dice), dice
        assert throw.penalty == penalty.get(kind(dice), 0), dice


@pytest.mark.parametrize(("dice", "expected"), [
    ((1, 1, 1), "Celebro"), ((6, 5, 4), "Hermana"), ((3, 1, 2), "Puerta"),
    ((5, 5, 5), "Cavar"), ((3, 2, 2), "Picaro"), ((1, 6, 3), "Flamenco 163"),
])
def test_R2_2_named_kinds_in_any_order(dice: tuple[int, int, int], expected: str) -> None:
    assert classify(dice).name == expected
    assert str(classify(dice)) == f"{'-'.join(map(str, sorted(dice)))} {expected}"


# ---------------------------------------------------------------- R2.3
def test_R2_3_strength_order_matches_the_rule_order_for_every_pair() -> None:
    for a, b in product(ALL_SORTED, repeat=2):
        ka, kb = order_key(a), order_key(b)
        sa, sb = classify(a).strength, classify(b).strength
        assert (sa > sb) == (ka > kb) and (sa == sb) == (ka == kb), (a, b)


def test_R2_3_every_cavar_beats_every_flamenco() -> None:
    cavars = [classify(d) for d in ALL_SORTED if kind(d) is Kind.CAVAR]
    flamencos = [classify(d) for d in ALL_SORTED if kind(d) is Kind.FLAMENCO]
    assert min(c.strength for c in cavars) > max(f.strength for f in flamencos)
    # The sharpest case the rule names: 1-1-6 = 260 points still loses to 2-2-2.
    assert classify((1, 1, 6)).points == 260
    assert classify((1, 1, 6)).strength < classify((2, 2, 2)).strength


def test_R2_3_kinds_rank_celebro_hermana_puerta_cavar_flamenco_picaro() -> None:
    by_kind: dict[Kind, list[int]] = {}
    for dice in ALL_SORTED:
        by_kind.setdefault(kind(dice), []).append(classify(dice).strength)
    ranked = sorted(by_kind, key=int)  # rank 1 (Celebro) … 6 (Picaro)
    for higher, lower in pairwise(ranked):
        assert min(by_kind[higher]) > max(by_kind[lower]), (higher, lower)
    assert classify((2, 2, 3)).strength == 0
    assert classify((1, 1, 1)).strength == NUM_STRENGTHS - 1


def test_R2_3_cavar_ranks_by_face() -> None:
    strengths = [classify((f, f, f)).strength for f in range(2, 7)]
    assert strengths == sorted(strengths) and len(set(strengths)) == 5


def test_R2_3_order_of_the_dice_does_not_matter() -> None:
    for dice in ALL_ORDERED:
        throws = {classify(p) for p in permutations(dice)}
        assert len(throws) == 1
        assert throws.pop().dice == tuple(sorted(dice))


# ---------------------------------------------------------------- R2.4
@pytest.mark.parametrize(("dice", "pts"), [
    ((1, 6, 3), 163), ((6, 3, 2), 65), ((2, 3, 4), 9), ((1, 6, 4), 164), ((1, 6, 2), 162),
    ((6, 2, 3), 65), ((3, 3, 2), 8), ((1, 1, 6), 260),
])
def test_R2_4_worked_example_points(dice: tuple[int, int, int], pts: int) -> None:
    throw = classify(dice)
    assert throw.kind is Kind.FLAMENCO
    assert throw.points == pts


def test_R2_4_worked_example_order() -> None:
    # 1-6-2 = 162 beats 6-2-3 = 65 beats 2-3-4 = 9.
    assert classify((1, 6, 2)).strength > classify((6, 2, 3)).strength > classify(
        (2, 3, 4)).strength


def test_R2_4_lowest_and_highest_flamenco() -> None:
    flamenco = [classify(d) for d in ALL_SORTED if kind(d) is Kind.FLAMENCO]
    weakest = min(t.strength for t in flamenco)
    strongest = max(t.strength for t in flamenco)
    # 3-3-2 = 8 is a lowest Flamenco (2-2-4 = 8 ties with it); 1-1-6 = 260 is the only highest.
    assert classify((3, 3, 2)).strength == weakest
    assert {t.dice for t in flamenco if t.strength == weakest} == {(2, 2, 4), (2, 3, 3)}
    assert [t.dice for t in flamenco if t.strength == strongest] == [(1, 1, 6)]


# ---------------------------------------------------------------- R2.5
def test_R2_5_216_ordered_and_56_unordered_outcomes() -> None:
    assert len(THROWS) == len(ALL_ORDERED) == 216
    assert list(UNORDERED) == ALL_SORTED and len(UNORDERED) == 56


def test_R2_5_42_distinct_strengths_dense_from_zero() -> None:
    independent = {order_key(d) for d in ALL_SORTED}
    strengths = {classify(d).strength for d in ALL_SORTED}
    assert len(independent) == 42
    assert strengths == set(range(42)) and NUM_STRENGTHS == 42


def test_R2_5_ordered_counts_per_kind() -> None:
    counts = Counter(classify(d).kind for d in ALL_ORDERED)
    assert counts == {Kind.CELEBRO: 1, Kind.HERMANA: 6, Kind.PUERTA: 6, Kind.CAVAR: 5,
                      Kind.PICARO: 3, Kind.FLAMENCO: 195}
    assert counts == Counter(kind(d) for d in ALL_ORDERED)


def test_R2_5_distinct_flamencos_can_tie() -> None:
    tied = [classify(d) for d in ((2, 3, 5), (2, 4, 4), (3, 3, 4))]
    assert {t.points for t in tied} == {10}
    assert len({t.strength for t in tied}) == 1
    assert len({t.dice for t in tied}) == 3


def test_R2_5_equal_strength_exactly_when_equal_points_among_flamencos() -> None:
    flamenco = [d for d in ALL_SORTED if kind(d) is Kind.FLAMENCO]
    for a, b in product(flamenco, repeat=2):
        assert (classify(a).strength == classify(b).strength) == (points(a) == points(b))


# ---------------------------------------------------------------- tables (R7.2)
def test_ordered_index_is_the_throws_table_index() -> None:
    indices = [ordered_index(*d) for d in ALL_ORDERED]
    assert indices == list(range(216))
    for d in ALL_ORDERED:
        assert THROWS[ordered_index(*d)] == classify(d)


def test_R7_2_chance_outcomes_are_the_56_throws_with_exact_probabilities() -> None:
    counts = Counter(tuple(sorted(d)) for d in ALL_ORDERED)
    assert [dice for dice, _ in CHANCE_OUTCOMES] == ALL_SORTED
    for (dice, p), m in zip(CHANCE_OUTCOMES, MULTIPLICITY, strict=True):
        assert m == counts[dice]
        assert p == pytest.approx(counts[dice] / 216, abs=1e-15)
    assert sum(Fraction(m, 216) for m in MULTIPLICITY) == 1
    assert sum(p for _, p in CHANCE_OUTCOMES) == pytest.approx(1.0, abs=1e-12)


# ---------------------------------------------------------------- inputs
def test_classify_accepts_numpy_integers_and_lists() -> None:
    assert classify(np.array([6, 5, 4])).kind is Kind.HERMANA
    assert classify([np.int64(1), 1, np.int8(1)]).kind is Kind.CELEBRO


@pytest.mark.parametrize("dice", [
    (0, 1, 2), (1, 2, 7), (-1, 2, 3), (1, 2), (1, 2, 3, 4), (), "123", (1.5, 2, 3),
    (1, "2", 3), None, 5,
])
def test_classify_rejects_bad_dice_naming_the_input(dice: object) -> None:
    with pytest.raises(ValueError, match=r"three integers from 1 to 6") as info:
        classify(dice)  # type: ignore[arg-type]
    assert repr(dice) in str(info.value)
