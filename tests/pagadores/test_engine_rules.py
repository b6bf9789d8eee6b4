"""Scenario tests: the engine driven through chosen dice, one or more tests per rule point.

Each test is named after the rule id it checks (RULES.md). Scripts mix dice (a throw at a
chance node) with ``STOP`` / ``AGAIN`` (a decision); ``play`` fails readably when the engine
expects the other kind of input, which is itself a check of R3.6's decision points.
"""

from __future__ import annotations

from itertools import product

import pytest

from pagadores_env.core.protocol import Event
from pagadores_env.pagadores.engine import Game, Phase
from pagadores_env.pagadores.rules import classify
from tests.dice import (
    AGAIN,
    CELEBRO,
    F9,
    F10,
    F11,
    HERMANA,
    LOW,
    PICARO,
    PUERTA,
    SIXES,
    STOP,
    TOP,
    events,
    new_game,
    play,
)

SPECIALS = [(CELEBRO, 3), (HERMANA, 2), (PUERTA, 1)]  # R4.1 penalty per special


def strength(dice: tuple[int, int, int]) -> int:
    return classify(dice).strength


def throwers(game: Game, since: int = 0) -> list[int]:
    return [e.seat for e in events(game, "throw", since)]


def one_throw_round(game: Game, dice_of: dict[int, tuple[int, int, int]]) -> list:
    """Script of a round in which the insteker stops after one throw (limit 1, R3.2), so
    everyone throws once; ``dice_of`` gives each seat's throw."""
    first, *rest = game.order
    return [dice_of[first], STOP, *(dice_of[s] for s in rest)]


def assert_new_round(game: Game, number: int, insteker: int) -> None:
    """A fresh round has started: R3.1/R3.5 bookkeeping reset, insteker to throw."""
    assert game.round == number
    assert game.insteker == insteker == game.current_player
    assert game.phase == Phase.ROUND and game.is_chance_node()
    assert game.throw_limit is None and game.throws == 0
    assert game.log[-1] == Event("round", insteker, number)


# ---------------------------------------------------------------- R1 players and cards
@pytest.mark.parametrize("n", range(2, 7))
def test_R1_1_tables_of_2_to_6_start_with_equal_cards(n: int) -> None:
    assert Game(n).cards == [10] * n
    for count in range(1, 11):
        assert Game(n, count).cards == [count] * n


@pytest.mark.parametrize(("n", "loser"), [(n, s) for n in range(2, 7) for s in range(n)])
def test_R1_1_any_table_size_lowest_loses_one_card(n: int, loser: int) -> None:
    game = Game(n)
    play(game, one_throw_round(game, {s: LOW if s == loser else F10 for s in range(n)}))
    assert game.cards == [9 if s == loser else 10 for s in range(n)]
    assert throwers(game) == list(range(n))  # R1.2: seat 0, 1, ..., n-1
    assert_new_round(game, 2, loser)


def test_R1_2_play_passes_clockwise_skipping_seats_without_cards() -> None:
    game = new_game(5, [4, 0, 4, 0, 4], first_insteker=4)
    assert game.order == [4, 0, 2]
    play(game, [F10, AGAIN, F10, STOP, F11, STOP, F9, STOP])
    assert throwers(game) == [4, 4, 0, 2]
    assert_new_round(game, 2, 2)
    assert game.order == [2, 4, 0]


def test_R1_2_an_eliminated_seat_is_skipped_in_later_rounds() -> None:
    game = new_game(4, [3, 1, 3, 3], first_insteker=3)
    play(game, one_throw_round(game, {3: F10, 0: F10, 1: LOW, 2: F10}))
    assert game.cards == [3, 0, 3, 3]
    mark = len(game.log)
    play(game, one_throw_round(game, {2: F10, 3: LOW, 0: F10}))
    assert throwers(game, mark) == [2, 3, 0]
    assert game.cards == [3, 0, 3, 2]


def test_R1_3_seat_0_is_oldest_and_the_highest_seat_youngest() -> None:
    assert Game(6).insteker == 0  # the oldest starts (R3.1)
    # A multiple elimination hands the next round to the youngest remaining player (R6.2),
    # here the thrower itself in the highest seat, not a neighbour of the emptied seats.
    game = new_game(6, [1, 5, 5, 1, 5, 5], first_insteker=5, script=[CELEBRO])
    assert game.cards == [0, 2, 2, 0, 2, 5]
    assert_new_round(game, 2, 5)


def test_R1_4_a_special_never_takes_cards_below_zero() -> None:
    game = new_game(3, [1, 2, 5], first_insteker=2, script=[CELEBRO])
    assert game.cards == [0, 0, 5]
    assert events(game, "special") == [Event("special", 2, ((0, 1), (1, 2)))]
    assert game.winner == 2


def test_R1_4_a_picaro_never_takes_cards_below_zero() -> None:
    game = new_game(3, [4, 1, 4], script=[F10, STOP, PICARO])
    assert game.cards == [4, 0, 4]
    assert events(game, "picaro") == [Event("picaro", 1, 1)]


def test_R1_5_game_ends_when_one_player_has_cards() -> None:
    game = new_game(2, [1, 1], script=[F9, STOP, F10])
    assert game.cards == [0, 1]
    assert game.is_terminal() and not game.is_chance_node() and not game.is_decision_node()
    assert game.winner == 1 and game.returns() == [-1.0, 1.0]
    assert game.log[-3:] == [Event("loses", 0, 1), Event("out", 0, 0), Event("winner", 1, 0)]


def test_R1_5_game_goes_on_while_two_players_have_cards() -> None:
    game = new_game(3, [5, 1, 5], script=[F10, STOP, LOW, F10])
    assert not game.is_terminal() and game.winner is None
    assert game.returns() == [0.0, 0.0, 0.0]


# ---------------------------------------------------------------- R3 a round
@pytest.mark.parametrize("first", [0, 1, 2])
def test_R3_1_first_round_insteker(first: int) -> None:
    game = Game(3, first_insteker=first)
    assert game.log == [Event("round", first, 1)]
    assert_new_round(game, 1, first)
    assert game.order == [first, (first + 1) % 3, (first + 2) % 3]


def test_R3_1_default_insteker_is_seat_0() -> None:
    assert Game(4).insteker == 0


@pytest.mark.parametrize("limit", [1, 2, 3])
def test_R3_2_insteker_sets_the_throw_limit(limit: int) -> None:
    game = Game(2)
    script = [F10] + [AGAIN, F10] * (limit - 1) + ([STOP] if limit < 3 else [])
    play(game, script)
    assert game.throw_limit == limit
    assert events(game, "limit") == [Event("limit", 0, limit)]
    assert game.current_player == 1 and game.is_chance_node()


@pytest.mark.parametrize("limit", [1, 2, 3])
def test_R3_4_followers_may_throw_up_to_the_limit(limit: int) -> None:
    game = Game(2)
    play(game, [F10] + [AGAIN, F10] * (limit - 1) + ([STOP] if limit < 3 else []))
    for throw_no in range(1, limit + 1):
        play(game, [F11])
        if throw_no < limit:  # R3.6: a decision only while throws are left
            assert game.is_decision_node() and game.current_player == 1
            assert game.max_throws == limit and game.throws == throw_no
            play(game, [AGAIN])
    assert throwers(game) == [0] * limit + [1] * limit
    assert game.cards == [9, 10]  # F10 < F11: the insteker lost the round
    assert_new_round(game, 2, 0)


def test_R3_3_the_last_throw_counts_not_the_best() -> None:
    game = new_game(2, script=[TOP, AGAIN, F9, STOP, F10, STOP])
    assert events(game, "score") == [Event("score", 0, strength(F9)),
                                     Event("score", 1, strength(F10))]
    assert game.cards == [9, 10]


def test_R3_3_a_follower_who_throws_over_a_winner_can_lose() -> None:
    game = new_game(2, script=[F10, AGAIN, F10, STOP, SIXES, AGAIN, F9])
    assert game.cards == [10, 9]
    assert_new_round(game, 2, 1)


def test_R3_4_followers_in_clockwise_order_may_stop_early() -> None:
    game = new_game(3, first_insteker=1, script=[F10, AGAIN, F10, AGAIN, F10])
    assert game.throw_limit == 3
    # Seat 2 stops at once on the lowest score so far; seat 0 uses all three throws.
    play(game, [LOW, STOP, F9, AGAIN, F9, AGAIN, TOP])
    assert throwers(game) == [1, 1, 1, 2, 0, 0, 0]
    assert game.round == 2  # the round is settled: its scores are gone
    assert events(game, "score")[1] == Event("score", 2, strength(LOW))
    assert events(game, "stop") == [Event("stop", 2, 1)]
    assert game.cards == [10, 10, 9]
    assert_new_round(game, 2, 2)


def test_R3_5_lowest_score_loses_one_card_and_insteeks() -> None:
    game = new_game(4, script=[F11, STOP, F10])
    assert game.score_to_beat() == strength(F10)  # the lowest final score so far
    play(game, [F9, TOP])
    assert game.cards == [10, 10, 9, 10]
    assert events(game, "loses") == [Event("loses", 2, 1)]
    assert_new_round(game, 2, 2)
    assert game.order == [2, 3, 0, 1]
    assert game.scores == [-1] * 4


def test_R3_5_full_event_log_of_one_round() -> None:
    game = new_game(2, script=[F10, AGAIN, F9, STOP, F11, STOP])
    assert game.log == [
        Event("round", 0, 1),
        Event("throw", 0, F10), Event("again", 0, 1),
        Event("throw", 0, F9), Event("stop", 0, 2), Event("limit", 0, 2),
        Event("score", 0, strength(F9)),
        Event("throw", 1, F11), Event("stop", 1, 1), Event("score", 1, strength(F11)),
        Event("loses", 0, 1),
        Event("round", 0, 2),
    ]


def test_R3_6_first_throw_of_a_turn_is_not_a_decision() -> None:
    game = Game(3)
    assert game.is_chance_node() and not game.is_decision_node()
    assert game.legal_actions() == []


def test_R3_6_insteker_decides_after_throws_1_and_2_but_not_3() -> None:
    game = Game(2)
    for throw_no in (1, 2):
        play(game, [F10])
        assert game.is_decision_node() and game.legal_actions() == [STOP, AGAIN]
        assert game.current_player == 0 and game.throws == throw_no
        play(game, [AGAIN])
    play(game, [F10])
    # No throws left: no decision node, the turn passes on by itself.
    assert not game.is_decision_node() and game.current_player == 1
    assert events(game, "again") == [Event("again", 0, 1), Event("again", 0, 2)]
    assert events(game, "stop") == []
    assert game.throw_limit == 3


def test_R3_6_no_decision_for_followers_when_the_limit_is_one() -> None:
    game = new_game(4, script=[F10, STOP, F11])
    assert game.current_player == 2 and game.is_chance_node()
    play(game, [F9, LOW])
    assert events(game, "stop") == [Event("stop", 0, 1)]  # only the insteker decided
    assert game.cards == [10, 10, 10, 9]


# ---------------------------------------------------------------- R4 specials
@pytest.mark.parametrize(("special", "penalty"), SPECIALS)
def test_R4_1_special_hits_every_other_player_incl_those_who_threw(
        special: tuple[int, int, int], penalty: int) -> None:
    game = new_game(3, script=[F10, STOP, special])
    assert events(game, "special") == [Event("special", 1, ((0, penalty), (2, penalty)))]
    assert game.cards == [10 - penalty, 10, 10 - penalty]
    play(game, [F11])
    assert game.cards == [9 - penalty, 10, 10 - penalty]  # seat 0 still lowest (F10)


def test_R4_1_special_skips_players_already_out() -> None:
    game = new_game(4, [5, 0, 5, 5], first_insteker=2, script=[HERMANA])
    assert events(game, "special") == [Event("special", 2, ((0, 2), (3, 2)))]
    assert game.cards == [3, 0, 5, 3]


def test_R4_2_every_throw_counts_also_thrown_over_ones() -> None:
    game = new_game(2, script=[PUERTA, AGAIN, PUERTA, AGAIN, F9])
    assert game.cards == [10, 8]
    assert events(game, "score") == [Event("score", 0, strength(F9))]  # R3.3: last throw
    play(game, [HERMANA, AGAIN, CELEBRO, AGAIN, TOP])  # the follower fishes too
    assert game.cards == [10 - 2 - 3 - 1, 8]


@pytest.mark.parametrize(("special", "penalty"), SPECIALS)
def test_R4_3_round_and_turn_go_on_after_a_special(
        special: tuple[int, int, int], penalty: int) -> None:
    game = new_game(2, script=[special])
    assert game.is_decision_node() and game.current_player == 0 and game.round == 1
    play(game, [AGAIN, F9, STOP, F10, AGAIN, F11])
    assert game.cards == [9, 10 - penalty]  # the round's loser still loses 1
    assert_new_round(game, 2, 0)


def test_R4_3_special_on_the_last_allowed_throw_ends_the_turn_normally() -> None:
    game = new_game(2, script=[F10, STOP, CELEBRO])
    assert game.cards == [6, 10]  # 3 for the Celebro, 1 as the round's loser
    assert events(game, "score")[-1] == Event("score", 1, strength(CELEBRO))
    assert_new_round(game, 2, 0)


def test_R4_4_picaro_on_the_insteker_first_throw_ends_the_round() -> None:
    game = new_game(3, script=[PICARO])
    assert game.cards == [8, 10, 10]
    assert events(game, "picaro") == [Event("picaro", 0, 2)]
    assert events(game, "loses") == [] and events(game, "limit") == []
    assert_new_round(game, 2, 0)


def test_R4_4_picaro_ends_the_round_for_a_follower_with_throws_left() -> None:
    game = new_game(3, script=[F10, AGAIN, F10, AGAIN, F10, PICARO])
    assert game.cards == [10, 8, 10]
    assert throwers(game) == [0, 0, 0, 1]  # seat 2 never throws
    assert events(game, "loses") == []  # no one else loses a card for that round
    assert_new_round(game, 2, 1)


def test_R4_4_picaro_after_a_special_keeps_the_special() -> None:
    game = new_game(3, script=[HERMANA, AGAIN, PICARO])
    assert game.cards == [8, 8, 8]
    assert_new_round(game, 2, 0)


@pytest.mark.parametrize(("cards", "lost"), [([5, 1, 5], 1), ([5, 2, 5], 2)])
def test_R4_4_picaro_emptying_its_thrower_uses_R6_1(cards: list[int], lost: int) -> None:
    game = new_game(3, cards, script=[F10, STOP, PICARO])
    assert game.cards == [5, 0, 5]
    assert events(game, "picaro") == [Event("picaro", 1, lost)]
    assert events(game, "out") == [Event("out", 1, 0)]
    assert_new_round(game, 2, 2)  # next clockwise after seat 1
    assert game.order == [2, 0]


def test_R4_4_picaro_emptying_the_second_last_player_ends_the_game() -> None:
    game = new_game(2, [2, 5], script=[PICARO])
    assert game.cards == [0, 5] and game.winner == 1 and game.is_terminal()


# ---------------------------------------------------------------- R5 kampen
def test_R5_1_kampen_in_round_order_one_throw_each() -> None:
    game = new_game(3, first_insteker=1, script=[F10, STOP, TOP, (3, 3, 4)])
    assert events(game, "kampen") == [Event("kampen", -1, (1, 0))]  # round order, not seats
    assert game.phase == Phase.KAMPEN and game.max_throws == 1
    assert game.current_player == 1 and game.is_chance_node()
    play(game, [F11])  # a single throw: no decision although it is the first
    assert game.current_player == 0 and game.is_chance_node()
    play(game, [F9])
    assert throwers(game)[-2:] == [1, 0]
    assert game.cards == [9, 10, 10]
    assert_new_round(game, 2, 0)


def test_R5_1_kampen_after_a_three_throw_limit_still_one_throw_each() -> None:
    game = new_game(2, script=[F9, AGAIN, F9, AGAIN, F10, F11, AGAIN, F11, AGAIN, (2, 4, 4)])
    assert events(game, "kampen") == [Event("kampen", -1, (0, 1))]
    play(game, [F9, LOW])
    assert game.cards == [10, 9]


@pytest.mark.parametrize(("special", "penalty"), SPECIALS)
def test_R5_2_special_in_kampen_hits_only_kampen_players(
        special: tuple[int, int, int], penalty: int) -> None:
    game = new_game(3, script=[F10, STOP, F10, TOP])
    assert game.phase == Phase.KAMPEN
    play(game, [special])
    assert events(game, "special") == [Event("special", 0, ((1, penalty),))]
    assert game.cards == [10, 10 - penalty, 10]
    play(game, [F9])
    assert game.cards == [10, 9 - penalty, 10]  # then the kampen's lowest loses 1
    assert_new_round(game, 2, 1)


@pytest.mark.parametrize(("cards", "after", "next_insteker"), [
    ([10, 10, 10], [10, 10, 8], 2),  # the thrower insteeks
    ([10, 10, 2], [10, 10, 0], 0),  # emptied by its own Picaro: R6.1, next clockwise
])
def test_R5_2_picaro_in_kampen_ends_the_round(
        cards: list[int], after: list[int], next_insteker: int) -> None:
    game = new_game(3, cards, script=[F10, STOP, TOP, F10, F11, PICARO])
    assert game.cards == after
    assert events(game, "loses") == []
    assert_new_round(game, 2, next_insteker)


def test_R5_2_picaro_first_in_kampen_stops_the_kampen() -> None:
    game = new_game(3, script=[F10, STOP, TOP, F10, PICARO])
    assert throwers(game)[-1] == 0 and game.cards == [8, 10, 10]
    assert_new_round(game, 2, 0)


def test_R5_3_repeated_kampen_only_among_the_tied() -> None:
    game = new_game(4, script=[F10, STOP, (2, 4, 4), (3, 3, 4), TOP])
    assert events(game, "kampen") == [Event("kampen", -1, (0, 1, 2))]
    play(game, [TOP, F9, F9])
    assert events(game, "kampen")[-1] == Event("kampen", -1, (1, 2))
    mark = len(game.log)
    play(game, [LOW, F9])
    assert throwers(game, mark) == [1, 2]
    assert game.cards == [10, 9, 10, 10]
    assert_new_round(game, 2, 1)


def test_R5_3_kampen_repeats_until_one_loser() -> None:
    game = new_game(2, script=[F10, STOP, F10, F9, F9, SIXES, SIXES, F11, F10])
    assert [e.value for e in events(game, "kampen")] == [(0, 1)] * 3
    assert game.cards == [10, 9]
    assert_new_round(game, 2, 1)


def test_R5_4_kampen_does_not_start_a_round() -> None:
    game = new_game(3, script=[F10, STOP, F10, TOP, F9, F9])
    assert game.round == 1 and len(events(game, "round")) == 1
    assert game.insteker == 0 and game.phase == Phase.KAMPEN
    play(game, [F10, F9])
    assert game.round == 2 and len(events(game, "round")) == 2


# ---------------------------------------------------------------- R6 running out of cards
@pytest.mark.parametrize(("cards", "loser", "next_insteker"), [
    ([5, 1, 5], 1, 2),
    ([5, 5, 1], 2, 0),  # wraps around the circle
    ([5, 5, 1, 0], 2, 0),  # skips a seat already out
    ([1, 0, 0, 5, 5, 5], 0, 3),
])
def test_R6_1_eliminated_round_loser_next_clockwise_insteeks(
        cards: list[int], loser: int, next_insteker: int) -> None:
    game = Game(len(cards), cards)
    play(game, one_throw_round(game, {s: LOW if s == loser else F10 for s in game.order}))
    assert game.cards[loser] == 0
    assert events(game, "out") == [Event("out", loser, 0)]
    assert_new_round(game, 2, next_insteker)


@pytest.mark.parametrize(("cards", "first", "script", "emptied", "next_insteker"), [
    ([5, 1, 5], 0, [PUERTA], 1, 2),
    ([5, 5, 1], 0, [F10, STOP, HERMANA], 2, 0),
    ([1, 5, 5, 5], 1, [F10, AGAIN, CELEBRO], 0, 1),
])
def test_R6_2_special_emptying_one_player_stops_the_round(
        cards: list[int], first: int, script: list, emptied: int, next_insteker: int) -> None:
    game = new_game(len(cards), cards, first, script)
    assert game.cards[emptied] == 0
    assert events(game, "out") == [Event("out", emptied, 0)]
    assert events(game, "loses") == []  # nobody else loses a card for that round
    assert_new_round(game, 2, next_insteker)


def test_R6_2_special_emptying_several_players_youngest_remaining_insteeks() -> None:
    game = new_game(5, [1, 5, 1, 5, 5], first_insteker=3, script=[CELEBRO])
    assert game.cards == [0, 2, 0, 5, 2]
    assert events(game, "out") == [Event("out", 0, 0), Event("out", 2, 0)]
    assert_new_round(game, 2, 4)  # highest seat with cards, not a neighbour of 0 or 2
    assert game.placements() == [4, 1, 4, 1, 1]


def test_R6_2_special_in_kampen_emptying_one_player() -> None:
    game = new_game(3, [10, 1, 10], script=[F10, STOP, F10, TOP, PUERTA])
    assert game.cards == [10, 0, 10]  # seat 2 is not in the kampen and keeps its cards
    assert events(game, "loses") == []
    assert_new_round(game, 2, 2)


def test_R6_2_special_in_kampen_emptying_several_players() -> None:
    game = new_game(4, [5, 1, 1, 5], script=[F10, STOP, F10, F10, TOP, PUERTA])
    assert game.cards == [5, 0, 0, 5]
    assert_new_round(game, 2, 3)


def test_R6_3_no_insteker_once_the_game_is_over() -> None:
    game = new_game(3, [4, 3, 1], script=[CELEBRO])
    assert game.cards == [4, 0, 0] and game.winner == 0
    assert game.insteker is None and game.current_player == -1
    assert game.phase == Phase.OVER and game.round == 1
    assert game.legal_actions() == []
    assert events(game, "round") == [Event("round", 0, 1)]
    assert game.log[-1] == Event("winner", 0, 0)


# ---------------------------------------------------------------- R7 observation and chance
def test_R7_1_every_throw_score_and_card_change_is_logged() -> None:
    script = [(6, 1, 3), AGAIN, (3, 2, 4), STOP, (5, 4, 6), AGAIN, (2, 4, 5), (5, 2, 4), STOP]
    game = new_game(3, script=script, first_insteker=2)
    assert [(e.seat, e.value) for e in events(game, "throw")] == [
        (2, (1, 3, 6)), (2, (2, 3, 4)), (0, (4, 5, 6)), (0, (2, 4, 5)), (1, (2, 4, 5))]
    assert [(e.seat, e.value) for e in events(game, "score")] == [
        (2, strength(F9)), (0, strength(F11)), (1, strength(F11))]
    assert game.cards == [10, 8, 7]
    # The special's victims and the round's loss are all in the log, so every card count
    # can be followed from it.
    cards = [10, 10, 10]
    for e in game.log:
        if e.kind == "special":
            for victim, lost in e.value:
                cards[victim] -= lost
        elif e.kind in ("loses", "picaro"):
            cards[e.seat] -= e.value
    assert cards == game.cards


def test_R7_2_chance_outcomes_are_uniform_over_ordered_dice() -> None:
    outcomes = Game(2).chance_outcomes()
    assert len(outcomes) == 56
    counts: dict[tuple[int, ...], int] = {}
    for dice in product(range(1, 7), repeat=3):
        key = tuple(sorted(dice))
        counts[key] = counts.get(key, 0) + 1
    assert {dice: p * 216 for dice, p in outcomes} == pytest.approx(counts)


def test_R7_2_the_engine_has_no_randomness_of_its_own() -> None:
    script = [F10, AGAIN, HERMANA, STOP, F10, AGAIN, F10, F9, STOP, TOP, AGAIN, LOW]
    assert new_game(3, script=script).to_dict() == new_game(3, script=script).to_dict()


def test_play_names_a_script_item_that_does_not_fit() -> None:
    with pytest.raises(AssertionError, match=r"script\[1\] = \(2, 3, 4\) does not fit: the game "
                                             r"expects a decision \(STOP/AGAIN\) by seat 0"):
        new_game(2, script=[F10, F9])
    with pytest.raises(AssertionError, match=r"script\[2\] = <Action.STOP: 0> .* a throw by "
                                             r"seat 1"):
        new_game(2, script=[F10, STOP, STOP])
