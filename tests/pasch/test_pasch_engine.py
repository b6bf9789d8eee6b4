"""The Pasch engine: a scenario test per rule id (X1–X8) driven through chosen dice and
actions (the page's examples among them), properties over random play, saved records, and
one-line errors that change nothing."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pagadores_env.core.errors import IllegalMoveError
from pagadores_env.core.protocol import GameState, SupportsChanceOutcomes
from pagadores_env.pasch.engine import Game, Phase
from pagadores_env.pasch.rules import DEFAULT_HAND, Actions

A = Actions.of(DEFAULT_HAND)  # the default hand's ids: C = 6, dice actions from 6
STOP, PLACE, PLACE_LOW = 6 + 31, 6 + 47, 6 + 48


def reroll(i: int) -> int:
    return 6 + 32 + i


def up(i: int) -> int:
    return 6 + 37 + i


def down(i: int) -> int:
    return 6 + 42 + i


def card(value: int):
    """Play a card of ``value`` in any hand (the ids depend on the hand, X8.1)."""
    return lambda game: game.actions.card(value)


def stop(game: Game) -> int:
    return game.actions.dice + 31


def drive(game: Game, *inputs) -> Game:
    """Apply actions (ints, or functions of the game giving one) and thrown dice (tuples)
    in order."""
    for item in inputs:
        if isinstance(item, tuple):
            game.apply_chance(item)
        else:
            game.apply_action(item(game) if callable(item) else item)
    return game


def kinds(game: Game, kind: str) -> list:
    return [e.value for e in game.log if e.kind == kind]


def random_play(game: Game, rng: random.Random) -> Game:
    while not game.is_terminal():
        if game.is_chance_node():
            outcomes = game.chance_outcomes()
            game.apply_chance(rng.choices([o for o, _ in outcomes],
                                          [p for _, p in outcomes])[0])
        else:
            game.apply_action(rng.choice(game.legal_actions()))
    return game


def assert_refused(game: Game, call, *args, match: str) -> None:
    """The call raises a one-line IllegalMoveError naming ``match`` and changes nothing."""
    before = game.to_dict()
    with pytest.raises(IllegalMoveError, match=match) as err:
        call(*args)
    assert "\n" not in str(err.value)
    assert game.to_dict() == before


# ---------------------------------------------------------------- the page's examples
def test_X3_2_the_pages_throws_keep_4_4_then_keep_6_6_and_take_the_4s_back():
    game = drive(Game(2, blocks=0), A.card(5), (2, 3, 4, 4, 5))
    assert game.dice == (2, 3, 4, 4, 5) and game.phase == Phase.CHOOSE
    drive(game, A.rethrow([0, 1, 4]), (2, 6, 6))  # keep 4-4, throw 2-3-5 again
    assert game.dice == (2, 4, 4, 6, 6) and game.throws == 2
    drive(game, A.rethrow([0, 1, 2]), (6, 5, 4))  # keep 6-6, the 4s go back into the cup
    assert kinds(game, "throw")[-1] == ((4, 5, 6), (4, 5, 6, 6, 6))
    # throws over, no blocks, one placement: applied by the engine (X8.3)
    assert kinds(game, "place") == [("triple", 6)] and game.turn == 1
    assert kinds(game, "forced")[-1] == PLACE


def test_X4_1_the_pages_blocks_3_5_5_6_2_becomes_four_fives():
    game = drive(Game(2, blocks=3), A.card(4), (3, 5, 5, 6, 2), STOP)
    assert game.dice == (2, 3, 5, 5, 6) and game.phase == Phase.BLOCKS
    drive(game, up(1))  # 3 -> 4
    assert game.dice == (2, 4, 5, 5, 6) and game.blocks[0] == 2
    drive(game, up(1), down(4))  # 4 -> 5, 6 -> 5
    assert game.blocks[0] == 0
    assert kinds(game, "place") == [("four", 5)]  # no blocks, no choice: placed (X8.3)
    assert kinds(game, "block") == [("raise", 1), ("raise", 1), ("lower", 4)]


@pytest.mark.parametrize(("dice", "action", "field"), [
    ((2, 2, 2, 5, 5), PLACE, ("full house", 2)),
    ((5, 5, 1, 6, 4), PLACE, ("pair", 5)),
    ((6, 6, 2, 2, 3), PLACE, ("two pairs", 6)),
    ((6, 6, 2, 2, 3), PLACE_LOW, ("two pairs", 2)),
    ((4, 5, 6, 6, 6), PLACE, ("triple", 6)),
])
def test_X6_3_the_pages_placements(dice, action, field):
    game = drive(Game(2, blocks=1), A.card(1), dice, STOP)
    assert (PLACE_LOW in game.legal_actions()) == (field[0] == "two pairs")
    drive(game, action)
    assert kinds(game, "place") == [field]


def test_X7_2_the_pages_share_out_through_the_engine():
    """Four players play 5, 3, -1, 2. Seat 1 (five 6s) ranks first, seat 3 (a pair of 1s on
    top of seat 0's) second, seat 0 third and seat 2 (no Pasch) last: the last takes -1, the
    first 5, the second 3, the third 2."""
    game = Game(4, blocks=0)
    drive(game, A.card(5), (1, 1, 2, 3, 4), STOP)  # pair of 1s
    drive(game, A.card(3), (6, 6, 6, 6, 6), STOP)  # five 6s
    drive(game, A.card(-1), (1, 2, 3, 4, 6), STOP)  # beside the board
    drive(game, A.card(2), (1, 1, 3, 4, 6), STOP)  # pair of 1s on top of seat 0's
    assert kinds(game, "share") == [((2,), (5,), (-1,), (3,))]
    assert game.scores == [2, 5, -1, 3] and game.round == 1 and game.starter == 1


def test_X7_2_two_minus_ones_go_to_the_last_and_the_third_takes_nothing():
    game = Game(4, blocks=0)
    drive(game, A.card(-1), (1, 1, 2, 3, 4), STOP)  # second
    drive(game, A.card(4), (1, 2, 3, 4, 6), STOP)  # last: beside the board
    drive(game, A.card(-1), (5, 5, 5, 2, 3), STOP)  # first
    drive(game, A.card(1), (1, 1, 3, 4, 5), STOP)  # on top of seat 0's pair: second
    # ranks: seat 2, seat 3, seat 0, seat 1: the last takes both -1, first 4, second 1
    assert kinds(game, "share") == [((), (-1, -1), (4,), (1,))]


# ---------------------------------------------------------------- X1, X2 rounds and the end
def test_X2_1_round_r_is_started_by_seat_r_mod_n():
    game = random_play(Game(3, hand=[1, 2, 3, 4]), random.Random(0))
    assert [e.seat for e in game.log if e.kind == "round"] == [0, 1, 2, 0]
    assert kinds(game, "round") == [1, 2, 3, 4]


def test_X2_2_each_seat_plays_its_card_then_its_dice_then_places():
    game = random_play(Game(3, hand=[2, 5]), random.Random(1))
    turns = [(e.kind, e.seat) for e in game.log if e.kind in ("card", "place")]
    assert turns == [("card", 0), ("place", 0), ("card", 1), ("place", 1), ("card", 2),
                     ("place", 2), ("card", 1), ("place", 1), ("card", 2), ("place", 2),
                     ("card", 0), ("place", 0)]


def test_X1_4_as_many_rounds_as_cards_and_the_most_points_win():
    game = random_play(Game(2, hand=[1, 2, 3]), random.Random(2))
    assert kinds(game, "round") == [1, 2, 3] and game.is_terminal()
    best = max(game.scores)
    assert game.winners() == [s for s in (0, 1) if game.scores[s] == best]


@pytest.mark.parametrize(("n", "returns", "places"), [
    (2, [0.0, 0.0], [1, 1]), (3, [-1 / 3, -1 / 3, -1 / 3], [1, 1, 1])])
def test_X1_4_tied_winners_share_the_win(n, returns, places):
    """Every seat's last card is a 0 and every score is 5: all tie, 2/k - 1 each."""
    game = Game(n, hand=[0, 1], blocks=0, hands=[[0]] * n, scores=[5] * n)
    for _ in range(n):
        drive(game, (1, 1, 2, 3, 4), stop)
    assert game.is_terminal() and game.returns() == pytest.approx(returns)
    assert game.placements() == places and game.winners() == list(range(n))


def test_X1_4_two_of_three_tied_share_the_win_and_the_best_place():
    game = Game(3, hand=[0, 1], blocks=0, hands=[[0], [0], [0]], scores=[5, 5, 2])
    for _ in range(3):
        drive(game, (1, 1, 2, 3, 4), stop)
    assert game.returns() == [0.0, 0.0, -1.0] and game.placements() == [1, 1, 3]


def test_X1_3_every_seat_starts_with_the_hand_and_the_blocks():
    game = Game(3, hand=[4, -1, 4], blocks=[2, 0, 5])
    assert game.hands == [(-1, 4, 4)] * 3 and game.blocks == [2, 0, 5]
    assert game.actions.cards == (-1, 4) and game.actions.size == 51


def test_X1_3_spent_blocks_are_gone_for_the_rest_of_the_game():
    place = 2 + 47  # C = 2 with the hand [1, 2]
    game = drive(Game(2, hand=[1, 2], blocks=1), card(1), (1, 1, 2, 3, 4), stop,
                 2 + 37 + 2, place)  # a raise of die 2: 1-1-3-3-4
    assert game.blocks == [0, 1]
    drive(game, card(1), (1, 2, 3, 4, 6), stop, place)  # seat 1 keeps its block
    assert game.round == 1 and game.blocks == [0, 1]


# ---------------------------------------------------------------- X3 throws
def test_X3_1_a_turn_starts_with_a_throw_of_all_five_dice():
    game = drive(Game(2), A.card(2))
    assert game.is_chance_node() and game.to_throw == 5 and game.current_player == -1
    assert len(game.chance_outcomes()) == 252
    assert sum(p for _, p in game.chance_outcomes()) == pytest.approx(1.0)


def test_X3_2_after_throws_1_and_2_stop_or_any_non_empty_subset_all_five_included():
    game = drive(Game(2), A.card(2), (1, 2, 3, 4, 5))
    assert game.legal_actions() == list(range(6, 6 + 32))
    drive(game, A.rethrow(range(5)))
    assert game.to_throw == 5 and game.kept == ()
    drive(game, (6, 6, 6, 1, 1), A.rethrow([0]))
    assert game.to_throw == 1 and len(game.chance_outcomes()) == 6
    drive(game, (5,))
    assert game.throws == 3 and game.phase == Phase.BLOCKS
    assert STOP not in game.legal_actions()


def test_X3_3_the_dice_are_shown_sorted_and_positions_name_the_sorted_dice():
    game = drive(Game(2), A.card(2), (6, 1, 5, 2, 4))
    assert game.dice == (1, 2, 4, 5, 6)
    drive(game, A.rethrow([4]), (3,))  # the 6 goes; the 3 joins and the five are sorted
    assert game.dice == (1, 2, 3, 4, 5)
    assert kinds(game, "throw")[-1] == ((3,), (1, 2, 3, 4, 5))


def test_X2_3_the_card_is_always_played_before_the_dice():
    game = Game(2)
    assert game.phase == Phase.CARD and game.legal_actions() == list(range(6))
    assert_refused(game, game.apply_chance, (1, 2, 3, 4, 5), match="must act .play a card")
    assert_refused(game, game.apply_action, STOP, match="it plays a card first")


# ---------------------------------------------------------------- X4 blocks
def test_X4_1_a_block_throws_one_die_again_as_a_chance_node_of_one_die():
    game = drive(Game(2, blocks=2), A.card(1), (1, 2, 3, 4, 6), STOP, reroll(0))
    assert game.is_chance_node() and game.to_throw == 1 and game.kept == (2, 3, 4, 6)
    drive(game, (4,))
    assert game.dice == (2, 3, 4, 4, 6) and game.phase == Phase.BLOCKS and game.blocks[0] == 1


def test_X4_1_no_6_raised_no_1_lowered_and_no_block_when_none_are_left():
    game = drive(Game(2, blocks=1), A.card(1), (1, 2, 3, 3, 6), STOP)
    assert up(4) not in game.legal_actions() and down(0) not in game.legal_actions()
    assert_refused(game, game.apply_action, up(4), match=r"cannot raise a 6: there is no 7 "
                                                         r"\(X4\.1\); allowed:")
    assert_refused(game, game.apply_action, down(0), match=r"cannot lower a 1: there is no 0")
    drive(game, reroll(0), (6,))  # 2-3-3-6-6: two pairs, so placing is still a choice
    assert game.blocks[0] == 0 and game.legal_actions() == [PLACE, PLACE_LOW]
    assert_refused(game, game.apply_action, up(0), match=r"^seat 0 has no action blocks left "
                                                         r"\(X4\.1\); allowed: place; place in")


def test_X4_2_blocks_only_after_the_last_throw():
    game = drive(Game(2), A.card(1), (1, 2, 3, 3, 6))
    assert_refused(game, game.apply_action, up(0), match=r"after throw 1: the throws go on")


# ---------------------------------------------------------------- X5 cards
def test_X5_1_the_played_card_leaves_the_hand_and_lies_face_up():
    game = drive(Game(2), A.card(3))
    assert game.hands[0] == (-1, 1, 2, 4, 5) and game.played == [3, None]
    assert kinds(game, "card") == [3]


def test_X5_a_second_card_in_one_round_is_refused():
    game = drive(Game(2), A.card(3), (1, 2, 3, 3, 6))
    assert_refused(game, game.apply_action, A.card(4),
                   match=r"^seat 0 has played its card this round \(X2\.2\); allowed:")


def test_X5_a_card_no_longer_held_is_refused():
    game = drive(Game(2, hand=[1, 2, 3], blocks=0), card(1), (1, 1, 2, 3, 4), stop,
                 card(2), (1, 2, 3, 4, 6), stop)
    assert game.round == 1 and game.current_player == 1 and game.hands[1] == (1, 3)
    assert_refused(game, game.apply_action, card(2)(game),
                   match=r"^seat 1 holds no card 2 \(X5\.1\); allowed: play card 1; play card 3")


# ---------------------------------------------------------------- X8 actions
def test_X8_3_the_last_card_is_played_by_the_engine_and_logged():
    game = Game(2, hand=[3, 3], blocks=0)  # one card value: no choice at all
    assert game.phase == Phase.THROW and kinds(game, "forced") == [0]
    assert kinds(game, "card") == [3] and game.history == []


def test_X8_3_a_placement_without_choice_and_without_blocks_is_applied_and_logged():
    game = drive(Game(2, blocks=0), A.card(1), (1, 2, 2, 4, 6), STOP)
    assert kinds(game, "forced") == [PLACE] and kinds(game, "place") == [("pair", 2)]
    assert game.history == [A.card(1), (1, 2, 2, 4, 6), STOP]


def test_X8_3_two_pairs_without_blocks_is_still_a_decision():
    game = drive(Game(2, blocks=0), A.card(1), (1, 1, 2, 2, 6), STOP)
    assert game.current_player == 0 and game.legal_actions() == [PLACE, PLACE_LOW]


def test_X8_1_the_masks_allow_exactly_the_legal_actions():
    game = drive(Game(2), A.card(1), (1, 2, 2, 4, 6), STOP)
    mask = game.legal_mask()
    assert mask.shape == (55,) and mask.dtype == np.int8
    assert np.flatnonzero(mask).tolist() == game.legal_actions()
    assert game.legal_actions() == sorted(
        [reroll(i) for i in range(5)] + [up(i) for i in range(4)] + [down(i) for i in range(1, 5)]
        + [PLACE])


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize(("kwargs", "named"), [
    ({"num_players": 1}, "num_players must be an integer 2–6"),
    ({"num_players": 7}, "num_players must be an integer 2–6"),
    ({"hand": []}, "hand must be 1–10 cards"),
    ({"hand": [12]}, "hand must be 1–10 cards"),
    ({"hand": list(range(11))}, "hand must be 1–10 cards"),
    ({"blocks": 11}, r"blocks must be a whole number 0–10"),
    ({"blocks": -1}, r"blocks must be a whole number 0–10"),
    ({"hands": [[9], [9]]}, "hands must be 2 lists of the same number"),
    ({"hands": [[1], [1, 2]]}, "hands must be 2 lists of the same number"),
    ({"scores": [1]}, "scores must be 2 whole numbers"),
    ({"starter": 2}, "starter must be a seat 0–1"),
])
def test_bad_arguments_raise_one_line(kwargs, named):
    with pytest.raises(ValueError, match=named) as err:
        Game(**({"num_players": 2} | kwargs))
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("dice", [(0, 1, 2, 3, 4), (1, 2, 3, 4, 7), (1, 2, 3, 4), (1,) * 6,
                                  (1, 2, 3, 4, 5.0), "12345"])
def test_a_throw_outside_1_to_6_or_not_five_dice_is_refused(dice):
    game = drive(Game(2), A.card(1))
    assert_refused(game, game.apply_chance, dice,
                   match=r"^seat 0 throws 5 dice: the thrown dice must be 5 faces 1–6, got")


@pytest.mark.parametrize("action", [-1, 55, True, 1.0, None, "6"])
def test_a_value_that_is_no_action_is_refused(action):
    game = Game(2)
    assert_refused(game, game.apply_action, action, match=r"^action must be an integer 0–54")


def test_a_masked_action_is_refused_naming_what_is_allowed():
    game = drive(Game(2), A.card(1), (1, 2, 3, 3, 6))
    assert_refused(game, game.apply_action, PLACE,
                   match=r"^seat 0 cannot place after throw 1: the throws go on \(X4\.2\); "
                         r"allowed: stop, or throw again one to five dice")


def test_a_step_after_the_end_is_refused():
    game = random_play(Game(2, hand=[1]), random.Random(3))
    assert_refused(game, game.apply_action, 0, match=r"^the game is over after 1 rounds")
    assert_refused(game, game.apply_chance, (1, 2, 3, 4, 5), match="the game is over")
    with pytest.raises(IllegalMoveError, match="the game is over"):
        game.chance_outcomes()


def test_an_action_at_a_chance_node_and_dice_at_a_decision_are_refused():
    game = drive(Game(2), A.card(1))
    assert_refused(game, game.apply_action, STOP, match=r"about to throw 5 dice .* apply_chance")
    drive(game, (1, 2, 3, 4, 5))
    assert_refused(game, game.apply_chance, (1, 2, 3, 4, 5), match=r"must act .stop or throw")


# ---------------------------------------------------------------- records
def test_a_record_round_trips_through_json_and_replays_equal():
    game = random_play(Game(3, hand=[-1, 2, 5], blocks=2), random.Random(4))
    record = json.loads(json.dumps(game.to_dict()))
    again = Game.from_dict(record)
    assert again == game and again.scores == game.scores and again.log == game.log
    middle = drive(Game(2, blocks=1), A.card(1), (1, 2, 3, 3, 6))
    assert Game.from_dict(middle.to_dict()) == middle


def test_a_start_position_round_trips():
    game = Game(3, hand=[-1, 2, 5], blocks=[1, 0, 2], hands=[[5], [2], [-1]], scores=[4, -1, 3],
                starter=1)
    assert game.turn == 1 and game.played == [None, 2, None]
    again = Game.from_dict(game.to_dict())
    assert again == game and again.snapshot() == game.snapshot()


@pytest.mark.parametrize("damage", [
    lambda r: r["history"].__setitem__(1, [1, 2, 3, 3, 5]),  # a changed die
    lambda r: r.__setitem__("hand", [1, 2]),
    lambda r: r["state"].__setitem__("scores", [9, 9]),
    lambda r: r.__setitem__("digest", "0" * 64),
    lambda r: r.pop("history"),
    lambda r: r.__setitem__("format", "perudo-game"),
])
def test_a_damaged_record_is_refused_in_one_line(damage):
    record = drive(Game(2, blocks=1), A.card(1), (1, 2, 3, 3, 6), STOP).to_dict()
    damage(record)
    with pytest.raises(ValueError) as err:
        Game.from_dict(record)
    assert "\n" not in str(err.value)


def test_a_resealed_record_with_an_illegal_input_names_it():
    from pagadores_env.core.records import seal

    record = drive(Game(2, blocks=1), A.card(1), (1, 2, 3, 3, 6), STOP).to_dict()
    record.pop("digest")
    record["history"][2] = PLACE  # placing after throw 1 is illegal (X3.2)
    with pytest.raises(ValueError, match=r"^history\[2\] cannot be replayed: seat 0 cannot place"):
        Game.from_dict(seal(record))


# ---------------------------------------------------------------- properties of random play
@settings(max_examples=25)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 6),
       hand=st.lists(st.integers(-1, 10), min_size=1, max_size=4),
       blocks=st.integers(0, 3))
def test_random_play_keeps_the_rules_invariants(seed, n, hand, blocks):
    rng = random.Random(seed)
    game = Game(n, hand=hand, blocks=blocks)
    assert isinstance(game, GameState) and isinstance(game, SupportsChanceOutcomes)
    copy = game.clone()
    while not game.is_terminal():
        assert sorted(game.dice) == list(game.dice)
        assert all(0 <= b <= blocks for b in game.blocks)
        if game.is_chance_node():
            outcomes = game.chance_outcomes()
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            assert all(len(o) == game.to_throw for o, _ in outcomes)
            game.apply_chance(rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])
            continue
        legal = game.legal_actions()
        assert len(legal) >= 2  # a single legal action is applied by the engine (X8.3)
        assert np.flatnonzero(game.legal_mask()).tolist() == legal
        game.apply_action(rng.choice(legal))
    # every card played was taken by someone (X7.2): the scores add up to n hands
    assert sum(game.scores) == n * sum(hand)
    assert len(kinds(game, "place")) == n * len(hand)
    assert sorted(game.returns(), reverse=True)[0] > -1 and sum(
        r > -1 for r in game.returns()) == len(game.winners())
    assert Game.from_dict(game.to_dict()) == game
    assert copy.history == [] and copy != game  # the clone did not move
