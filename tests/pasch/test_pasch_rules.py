"""Pasch's rule facts (``pasch.rules``): the board's placements (X6), the ranking and the
share-out (X7), the checks of a hand and of blocks (X1.3), the dice outcomes (X8.2) and the
action encoding (X8.1), each checked against the page's examples or a count of its own."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from pagadores_env.pasch.rules import (
    BESIDE,
    DEFAULT_HAND,
    HANDS,
    OUTCOMES,
    ROWS,
    Actions,
    check_blocks,
    check_hand,
    classify,
    field_class,
    multinomial,
    ranking,
    share_out,
)


# ---------------------------------------------------------------- X6 the board
@pytest.mark.parametrize(("dice", "placements"), [
    ((2, 2, 2, 5, 5), [("full house", 2)]),  # the page's examples (X6.3)
    ((5, 5, 1, 6, 4), [("pair", 5)]),
    ((6, 6, 2, 2, 3), [("two pairs", 6), ("two pairs", 2)]),
    ((4, 5, 6, 6, 6), [("triple", 6)]),
])
def test_X6_3_the_pages_examples(dice, placements):
    assert classify(dice) == placements


def test_X6_1_X6_2_every_hand_takes_the_highest_row_it_makes():
    """Rows by the counts of equal dice, checked over all 7,776 ordered throws."""
    rows_seen = Counter()
    for dice in itertools.product(range(1, 7), repeat=5):
        counts = sorted(Counter(dice).values(), reverse=True)
        row = {(5,): "five", (4, 1): "four", (3, 2): "full house", (3, 1, 1): "triple",
               (2, 2, 1): "two pairs", (2, 1, 1, 1): "pair"}.get(tuple(counts))
        placed = classify(list(dice))
        rows_seen[row] += 1
        if row is None:
            assert placed == []  # five distinct values: beside the board
            continue
        assert {r for r, _ in placed} == {row}
        big = [v for v, c in Counter(dice).items() if c == counts[0]]
        assert sorted(c for _, c in placed) == sorted(big)  # the column: the group's value
    assert rows_seen[None] == 6 * 120  # five of the six values, in any order
    assert rows_seen["five"] == 6


def test_X7_1_classes_order_the_fields_as_the_board_ranks_them():
    order = [field_class(row, column) for row in ROWS for column in range(1, 7)]
    assert order == sorted(order) and len(set(order)) == 36 and min(order) > BESIDE


# ---------------------------------------------------------------- X7 ranking and share-out
def test_X7_1_a_later_disc_on_the_same_field_lies_on_top_and_ranks_higher():
    pair6, triple2 = field_class("pair", 6), field_class("triple", 2)
    assert ranking([(0, pair6), (1, triple2), (2, pair6)]) == [1, 2, 0]
    assert ranking([(3, BESIDE), (1, BESIDE), (0, field_class("pair", 1))]) == [0, 1, 3]


def test_X7_2_the_pages_first_example():
    taken = share_out([0, 1, 2, 3], [5, 3, 2, -1])  # ranked best first, cards in rank order
    assert taken == {0: [5], 1: [3], 2: [2], 3: [-1]}


def test_X7_2_the_pages_second_example():
    taken = share_out([2, 0, 3, 1], [-1, 4, -1, 1])
    assert taken == {2: [4], 0: [1], 3: [], 1: [-1, -1]}


def test_X7_2_without_minus_one_the_last_takes_the_lowest_card():
    assert share_out([1, 0], [2, 7]) == {1: [7], 0: [2]}


# ---------------------------------------------------------------- X1.3 hand and blocks
def test_X1_3_hands_and_blocks_within_the_limits_are_taken():
    assert check_hand([5, -1, 3, 3]) == (-1, 3, 3, 5)
    assert check_hand(list(range(1, 11))) == tuple(range(1, 11))
    assert check_blocks(0, 3) == (0, 0, 0) and check_blocks([10, 0], 2) == (10, 0)


@pytest.mark.parametrize("hand", [[], list(range(11)), [11], [-2], [1.0], [True], "123", 5])
def test_X1_3_a_hand_outside_the_limits_is_refused_in_one_line(hand):
    with pytest.raises(ValueError, match=r"^hand must be 1–10 cards, each a whole number from "
                                         r"-1 to 10 \(X1\.3\), got") as err:
        check_hand(hand)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("blocks", [-1, 11, 2.0, True, [1], [1, 2, 3]])
def test_X1_3_blocks_outside_the_limits_are_refused_in_one_line(blocks):
    with pytest.raises(ValueError, match=r"^blocks must be a whole number 0–10 \(X1\.3\)"):
        check_blocks(blocks, 2)


# ---------------------------------------------------------------- X3 dice
def test_X8_2_the_outcomes_of_k_dice_are_the_sorted_throws_with_their_probabilities():
    for k in range(1, 6):
        counted = Counter(tuple(sorted(t)) for t in itertools.product(range(1, 7), repeat=k))
        assert {t: Fraction(c, 6 ** k) for t, c in counted.items()} == {
            t: Fraction(p).limit_denominator(6 ** k) for t, p in OUTCOMES[k]}
    assert len(HANDS) == 252 and len(OUTCOMES[5]) == 252
    assert multinomial((6, 6, 6, 6, 6)) == 1 / 6 ** 5
    assert multinomial((1, 2, 3, 4, 5)) == 120 / 6 ** 5


@pytest.mark.parametrize("dice", [[0, 1, 2, 3, 4], [1, 2, 3, 4, 7], [1, 2, 3], [1, 2, 3, 4, 5, 6],
                                  [1, 2, 3, 4, 5.0], "12345", None])
def test_X1_2_dice_outside_1_to_6_or_not_five_are_refused_in_one_line(dice):
    with pytest.raises(ValueError, match=r"^dice must be 5 faces 1–6, got") as err:
        classify(dice)
    assert "\n" not in str(err.value)


# ---------------------------------------------------------------- X8.1 actions
def test_X8_1_the_action_encoding_of_the_default_hand():
    actions = Actions.of(DEFAULT_HAND)
    assert actions.size == 55 and actions.dice == 6
    assert [actions.card(v) for v in (-1, 1, 2, 3, 4, 5)] == [0, 1, 2, 3, 4, 5]
    assert actions.rethrow([0]) == 6 and actions.rethrow([0, 1, 2, 3, 4]) == 6 + 30
    assert actions.rethrow([4, 1]) == 6 + (1 << 4 | 1 << 1) - 1
    assert actions.describe(6 + 31) == "stop" and actions.describe(6 + 47) == "place"
    assert actions.describe(6 + 32 + 3) == "throw again with a block die 3"
    assert actions.describe(6 + 37) == "raise with a block die 0"
    assert actions.describe(6 + 42 + 4) == "lower with a block die 4"
    assert actions.describe(6 + 48) == "place in the lower pair's column"


def test_X8_1_C_counts_distinct_card_values():
    assert Actions.of([3, 3, 3]).size == 1 + 49
    assert Actions.of(range(1, 11)).size == 10 + 49


@pytest.mark.parametrize("positions", [[], [5], [-1], [1, 1], [True]])
def test_X3_2_an_empty_or_wrong_subset_to_throw_again_is_refused_in_one_line(positions):
    with pytest.raises(ValueError, match=r"^name one or more different dice to throw again by "
                                         r"their sorted positions 0–4 \(X3\.2\), got"):
        Actions.of(DEFAULT_HAND).rethrow(positions)
