"""The rules' tables for array code and their seat helpers, checked against ``classify`` and
against the rule text (R1.2, R1.3, R2, R4.1, R6, R7.2)."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import numpy as np
import pytest

from pagadores_env.core.seats import next_with_cards
from pagadores_env.pagadores.rules import (
    NUM_OUTCOMES,
    NUM_STRENGTHS,
    OUTCOME_KIND,
    OUTCOME_PENALTY,
    OUTCOME_STRENGTH,
    PICARO_STRENGTH,
    PLAIN_STRENGTHS,
    SPECIAL_STRENGTHS,
    STRENGTH_KIND,
    STRENGTH_PENALTY,
    STRENGTH_POINTS,
    STRENGTH_PROB,
    TOP,
    Kind,
    classify,
    next_insteker,
    ordered_index,
    special_hits,
    throws_allowed,
    turn_order,
)


def test_R2_R7_2_tables_agree_with_classify_on_every_outcome() -> None:
    count = [0] * NUM_STRENGTHS
    for dice in product(range(1, 7), repeat=3):
        throw, k = classify(dice), ordered_index(*dice)
        assert (OUTCOME_STRENGTH[k], OUTCOME_KIND[k], OUTCOME_PENALTY[k]) == (
            throw.strength, throw.kind, throw.penalty)
        s = throw.strength
        assert (STRENGTH_KIND[s], STRENGTH_POINTS[s], STRENGTH_PENALTY[s]) == (
            throw.kind, throw.points, throw.penalty)
        count[s] += 1
    assert NUM_OUTCOMES == 216 and TOP == NUM_STRENGTHS - 1 == 41
    assert [Fraction(p).limit_denominator(216) for p in STRENGTH_PROB] == [
        Fraction(c, 216) for c in count]
    assert STRENGTH_KIND[PICARO_STRENGTH] == Kind.PICARO and PICARO_STRENGTH == 0
    assert [STRENGTH_KIND[s] for s in SPECIAL_STRENGTHS] == [Kind.PUERTA, Kind.HERMANA,
                                                              Kind.CELEBRO]
    assert set(PLAIN_STRENGTHS) == {s for s in range(NUM_STRENGTHS)
                                    if STRENGTH_KIND[s] in (Kind.CAVAR, Kind.FLAMENCO)}


def test_tables_are_read_only() -> None:
    with pytest.raises(ValueError, match="read-only"):
        STRENGTH_PROB[0] = 1.0


def test_R3_2_R3_4_the_insteker_may_throw_three_times_the_others_up_to_the_limit() -> None:
    assert [throws_allowed(limit) for limit in (None, 0, 1, 2, 3)] == [3, 3, 1, 2, 3]


def test_R1_2_turn_order_runs_clockwise_from_the_insteker_skipping_seats_without_cards() -> None:
    assert turn_order((3, 0, 2, 1, 0), 2) == (2, 3, 0)
    assert turn_order([1, 1], 1) == (1, 0)


@pytest.mark.parametrize(("cards", "losers", "insteker"), [
    ((2, 0, 3, 1), [2], 2),  # R3.5, R4.4: a loser with cards insteeks
    ((2, 0, 0, 1), [2], 3),  # R6.1: out, the next seat clockwise with cards
    ((0, 4, 0, 0), [3], 1),  # ... round the table
    ((3, 0, 0, 2, 0), [1, 2], 3),  # R6.2, R1.3: several out at once, the youngest remaining
    ((3, 0, 1, 0, 0), [4, 3, 1], 2),
])
def test_R6_next_insteker(cards: tuple[int, ...], losers: list[int], insteker: int) -> None:
    assert next_insteker(cards, losers) == insteker


def test_R6_1_next_with_cards_skips_empty_seats() -> None:
    assert next_with_cards((1, 0, 0, 2), 0) == 3
    assert next_with_cards((1, 0, 0, 2), 3) == 0


def test_R4_1_R1_4_a_special_hits_the_others_of_the_group_never_below_zero() -> None:
    assert special_hits((5, 1, 0, 2), 0, (0, 1, 3), 2) == [(1, 1), (3, 2)]
    assert np.array(special_hits((5, 5), 1, (0, 1), 3)).tolist() == [[0, 3]]
