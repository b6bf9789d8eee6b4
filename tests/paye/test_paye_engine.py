"""The Paye engine: a scenario test per rule id (Y1–Y7), driven through chosen throws and
choices; properties over random play; records; one-line errors that change nothing."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pagadores_env import IllegalMoveError
from pagadores_env.core.protocol import GameState, SupportsChanceOutcomes
from pagadores_env.paye.engine import Game
from pagadores_env.paye.rules import DEFAULT_DICE, twice

S2, S4, S5 = 2, 4, 5  # the default dice's ordinary die, fast die and gamble (Y1.3)
RED6, BLUE = 6, 7  # Y7.2: the traditional red die; blue S_d is BLUE + d


def play(game: Game, *script: int) -> Game:
    """Apply ``script`` in order: face values at chance nodes, actions at decisions."""
    for item in script:
        if game.is_chance_node():
            game.apply_chance(item)
        else:
            game.apply_action(item)
    return game


def kinds(game: Game, kind: str) -> list:
    return [e.value for e in game.log if e.kind == kind]


def assert_refused(game: Game, call, *args, match: str) -> None:
    """The call raises a one-line IllegalMoveError naming ``match`` and changes nothing."""
    before = game.to_dict()
    with pytest.raises(IllegalMoveError, match=match) as err:
        call(*args)
    assert "\n" not in str(err.value)
    assert game.to_dict() == before


def test_the_game_follows_the_core_protocols():
    game = Game(3)
    assert isinstance(game, GameState) and isinstance(game, SupportsChanceOutcomes)


# ---------------------------------------------------------------- Y1 players and dice
def test_y1_1_two_to_six_players_and_nobody_is_eliminated():
    for n in range(2, 7):
        assert Game(n).alive() == list(range(n))


def test_y1_3_the_default_special_dice_are_the_contracts():
    assert DEFAULT_DICE == ((0, 0, 1, 1, 1, 2), (2, 2, 2, 3, 3, 3), (1, 2, 3, 4, 5, 6),
                            (0, 0, 0, 7, 7, 7), (4, 4, 5, 5, 6, 6), (0, 0, 0, 0, 10, 20))
    assert Game(2).dice == DEFAULT_DICE


def test_y5_1_a_throw_lists_the_dies_distinct_faces_with_their_multiplicities():
    game = Game(2, first_player=0)
    game.apply_action(S5)
    assert game.chance_outcomes() == [(0, 4 / 6), (10, 1 / 6), (20, 1 / 6)]
    with pytest.raises(IllegalMoveError, match=r"must be one of its faces \[0, 10, 20\]"):
        game.apply_chance(5)


# ---------------------------------------------------------------- Y2 who starts
def test_y2_1_the_highest_start_throw_moves_first():
    game = Game(3)
    assert game.is_chance_node() and game.chance_outcomes() == [(f, 1 / 6) for f in range(1, 7)]
    play(game, 2, 5, 3)
    assert game.first == 1 and game.current_player == 1
    assert kinds(game, "start_throw") == [2, 5, 3] and kinds(game, "first") == [0]


def test_y2_1_ties_for_the_highest_throw_again_among_themselves_only():
    game = play(Game(4), 6, 2, 6, 6)
    assert kinds(game, "rethrow") == [(0, 2, 3)] and game.is_chance_node()
    play(game, 4, 4, 1)  # seats 0 and 2 tie again; seat 3 is out of it
    assert kinds(game, "rethrow") == [(0, 2, 3), (0, 2)]
    play(game, 3, 5)
    assert game.first == 2 and game.current_player == 2
    throwers = [e.seat for e in game.log if e.kind == "start_throw"]
    assert throwers == [0, 1, 2, 3, 0, 2, 3, 0, 2]


def test_y2_2_turns_pass_clockwise_and_a_round_is_one_turn_each():
    game = Game(3, first_player=2)
    movers = []
    for _ in range(6):
        movers.append(game.current_player)
        play(game, S2, 1, 1)
    assert movers == [2, 0, 1, 2, 0, 1] and game.round == 3
    assert kinds(game, "round") == [1, 2, 3]


def test_y2_3_a_game_starts_from_a_given_position():
    game = Game(3, scores=[10, 20, 30], round=4, turn=2, first_player=1)
    assert game.current_player == 0 and game.round == 4 and game.scores == [10, 20, 30]
    play(game, S2, 3, 4)
    assert game.scores == [17, 20, 30] and game.round == 5 and game.current_player == 1


# ---------------------------------------------------------------- Y3 a turn
def test_y3_2_the_chosen_die_is_thrown_twice_and_the_sum_counts():
    game = play(Game(2, first_player=0), S4, 4, 6)
    assert game.scores == [10, 0] and kinds(game, "throw") == [(S4, 4), (S4, 6)]
    assert kinds(game, "points") == [10]


@pytest.mark.parametrize(("start", "die", "faces", "after", "halved"), [
    (45, S2, (6, 6), 28, [(57, 28)]),  # Y3.3's first example
    (48, S5, (20, 20), 44, [(88, 44)]),  # the second
])
def test_y3_3_a_score_above_50_is_halved(start, die, faces, after, halved):
    game = play(Game(2, first_player=0, scores=[start, 0]), die, *faces)
    assert game.scores[0] == after and kinds(game, "halve") == halved
    assert kinds(game, "score") == [(start, after)]


def test_y3_3_halving_repeats_while_the_score_is_above_50():
    dice = [list(die) for die in DEFAULT_DICE]
    dice[5] = [0, 0, 0, 0, 40, 40]  # dice whose faces allow 30 + 80
    game = play(Game(2, dice=dice, first_player=0, scores=[30, 0]), S5, 40, 40)
    assert kinds(game, "halve") == [(110, 55), (55, 27)] and game.scores[0] == 27


def test_y3_4_and_y4_2_scores_stay_between_0_and_the_target():
    game = play(Game(2, first_player=0, scores=[49, 0]), S5, 0, 0)
    assert game.scores == [49, 0]
    play(game, S5, 20, 20)
    assert game.scores == [49, 40]


# ---------------------------------------------------------------- Y4 the end
def test_y4_1_exactly_50_wins_at_once_and_the_rest_of_the_round_does_not_play():
    game = play(Game(3, first_player=0, scores=[38, 45, 49]), S2, 6, 6)
    assert game.is_terminal() and game.scores == [50, 45, 49]
    assert game.winners == (0,) and kinds(game, "win") == [1]
    assert game.returns() == [1.0, -1.0, -1.0] and game.placements() == [1, 3, 2]
    assert [e for e in game.log if e.kind == "turn"][-1].seat == 0  # seats 1 and 2 never moved
    assert game.legal_actions() == [] and game.current_player == -1


def test_y4_3_after_the_last_round_the_highest_score_wins():
    game = play(Game(2, rounds=1, first_player=1), S2, 1, 1, S2, 6, 5)
    assert game.is_terminal() and game.scores == [11, 2] and game.winners == (0,)
    assert game.returns() == [1.0, -1.0]


def test_y4_4_players_tied_after_the_last_round_share_the_win():
    game = play(Game(3, rounds=1, first_player=0, scores=[7, 9, 0]), S2, 1, 1, S2, 1, 1,
                S4, 5, 6)
    assert game.scores == [9, 11, 11] and game.winners == (1, 2)
    assert kinds(game, "win") == [2, 2]
    assert game.returns() == [-1.0, 0.0, 0.0]  # 2/k - 1 for each of the k = 2
    assert game.placements() == [3, 1, 1]
    three = play(Game(3, rounds=1, first_player=0, scores=[4, 4, 4]), S2, 1, 1, S2, 1, 1,
                 S2, 1, 1)
    assert three.winners == (0, 1, 2) and three.placements() == [1, 1, 1]
    assert three.returns() == pytest.approx([2 / 3 - 1] * 3)


# ---------------------------------------------------------------- Y6 the expansion
def expansion(players: int = 2, **kwargs) -> Game:
    return Game(players, "expansion", first_player=0, **kwargs)


def test_y6_1_the_expansion_races_to_100():
    assert play(expansion(scores=[30, 0]), S5, 20, 20).scores == [70, 0]
    game = play(expansion(scores=[60, 0]), S5, BLUE, 20, 20, 0, 0)
    assert game.scores == [100, 0] and game.winners == (0,)
    halved = play(expansion(scores=[90, 0]), S5, BLUE, 20, 20, 1, 0)
    assert halved.scores == [64, 0] and kinds(halved, "halve") == [(129, 64)]


def test_y6_3_from_50_at_the_start_of_a_turn_a_blue_die_counts_against_the_red():
    game = expansion(scores=[60, 10])
    play(game, S2)
    assert game.current_player == 0 and game.phase == "blue" and game.blue_due
    assert game.legal_actions() == [BLUE + d for d in (0, 1, 3, 4, 5)]  # not blue S2
    play(game, BLUE + S4, 6, 6, 4, 5)
    assert kinds(game, "throw") == [(S2, 6), (S2, 6), (BLUE + S4, 4), (BLUE + S4, 5)]
    assert game.scores == [63, 10] and kinds(game, "points") == [3]
    assert game.current_player == 1 and game.phase == "choose" and not game.blue_due


def test_y6_3_a_player_back_below_50_throws_no_blue_die():
    game = play(expansion(scores=[55, 0]), 0, BLUE + S5, 0, 0, 10, 0)
    assert game.scores == [45, 0]
    play(game, S2, 1, 1)  # seat 1
    play(game, S2)  # seat 0, round 2: 45 at the start of the turn
    assert game.phase == "throw" and game.blue is None


def test_y3_4_in_the_expansion_a_score_never_goes_below_0():
    dice = [list(die) for die in DEFAULT_DICE]
    dice[5] = [0, 0, 0, 0, 40, 40]
    game = play(expansion(dice=dice, scores=[55, 0]), 0, BLUE + S5, 0, 0, 40, 40)
    assert kinds(game, "points") == [-80] and game.scores == [0, 0]


def test_y6_4_chosen_dice_are_set_aside_until_the_round_ends():
    game = play(expansion(players=3, scores=[60, 0, 0]), S4, BLUE + S2, 4, 4, 1, 1)
    assert game.aside == (S4, BLUE + S2) and kinds(game, "aside") == [(S4, BLUE + S2)]
    assert S4 not in game.legal_actions() and RED6 in game.legal_actions()
    play(game, RED6, 1, 1)
    assert game.aside == (S4, RED6, BLUE + S2)
    assert game.legal_actions() == [0, 1, 2, 3, 5]
    play(game, 0, 0, 0)
    assert game.round == 2 and game.aside == ()  # every die back in the middle
    assert game.legal_actions() == list(range(7))


def test_y6_5_and_y7_3_no_dead_ends_and_a_lone_choice_is_made_by_the_engine():
    # turn 5 of 6: reds S0-S4 and blues S0-S4 are aside, so blue S5 is the only blue left
    game = expansion(players=6, scores=[0, 0, 0, 0, 0, 60], turn=5,
                     aside=[0, 1, 2, 3, 4, 7, 8, 9, 10, 11])
    # red S5 would need a blue of another design (Y6.5): the traditional red die is the only
    # choice, then blue S5: both made by the engine (Y7.3)
    assert game.phase == "throw" and game.red == RED6 and game.blue == BLUE + S5
    assert [e.value for e in game.log if e.kind == "forced"] == [RED6, BLUE + S5]
    assert game.chance_outcomes() == [(f, 1 / 6) for f in range(1, 7)]
    below = expansion(players=6, scores=[0, 0, 0, 0, 0, 10], turn=5,
                      aside=[0, 1, 2, 3, 4, 7, 8, 9, 10, 11])
    assert below.legal_actions() == [S5, RED6]  # no blue due: both reds are choices


# ---------------------------------------------------------------- Y7 actions
def test_y7_1_every_special_die_is_legal_on_every_base_turn():
    game = play(Game(2, first_player=0), S5, 0, 0)
    assert game.legal_actions() == list(range(6))
    assert game.legal_mask().tolist() == [1] * 6 + [0] * 7


# ---------------------------------------------------------------- Y8.2 facts
def test_y8_2_s4_and_s5_thrown_twice():
    def chances(die: int) -> dict[int, Fraction]:
        """The sum of two throws, through the engine's chance nodes."""
        found: dict[int, Fraction] = {}
        first = Game(2, first_player=0)
        first.apply_action(die)
        for a, pa in first.chance_outcomes():
            second = first.clone()
            second.apply_chance(a)
            for b, pb in second.chance_outcomes():
                p = Fraction(pa).limit_denominator(6) * Fraction(pb).limit_denominator(6)
                found[a + b] = found.get(a + b, Fraction(0)) + p
        return found

    assert chances(S4) == {8: Fraction(1, 9), 9: Fraction(2, 9), 10: Fraction(3, 9),
                           11: Fraction(2, 9), 12: Fraction(1, 9)}
    assert chances(S5) == {0: Fraction(16, 36), 10: Fraction(8, 36), 20: Fraction(9, 36),
                           30: Fraction(2, 36), 40: Fraction(1, 36)}
    assert twice(DEFAULT_DICE[S5]) == ((0, 16), (10, 8), (20, 9), (30, 2), (40, 1))


# ---------------------------------------------------------------- random play
def random_game(players: int, variant: str, rounds: int, seed: int) -> Game:
    """A game played to its end with random throws and choices."""
    pick = random.Random(seed)
    game = Game(players, variant, rounds=rounds)
    while not game.is_terminal():
        if game.is_chance_node():
            outcomes = game.chance_outcomes()
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            assert [v for v, _ in outcomes] == sorted({v for v, _ in outcomes})
            game.apply_chance(pick.choice([v for v, _ in outcomes]))
        else:
            legal = game.legal_actions()
            assert len(legal) >= 2 and game.current_player == game.mover  # Y7.3
            game.apply_action(pick.choice(legal))
        assert all(0 <= s <= game.target for s in game.scores)
    return game


@settings(max_examples=40, deadline=None)
@given(players=st.integers(2, 6), variant=st.sampled_from(["base", "expansion"]),
       rounds=st.integers(1, 12), seed=st.integers(0, 2**32 - 1))
def test_random_play_keeps_the_invariants(players, variant, rounds, seed):
    game = random_game(players, variant, rounds, seed)
    turns = sum(e.kind == "turn" for e in game.log)
    assert 1 <= turns <= rounds * players
    assert game.winners and all(game.scores[w] == max(game.scores) for w in game.winners)
    hit = [s for s in game.winners if game.scores[s] == game.target]
    assert len(hit) <= 1 and (hit or turns == rounds * players)
    k = len(game.winners)
    assert sorted(game.returns()) == sorted([2 / k - 1] * k + [-1.0] * (players - k))
    record = json.loads(json.dumps(game.to_dict()))
    again = Game.from_dict(record)
    assert again == game and again.to_dict() == record and again.log == game.log


@settings(max_examples=20, deadline=None)
@given(players=st.integers(2, 6), variant=st.sampled_from(["base", "expansion"]),
       seed=st.integers(0, 2**32 - 1), cut=st.integers(0, 40))
def test_a_game_in_progress_round_trips_and_clones_independently(players, variant, seed, cut):
    full = random_game(players, variant, 3, seed)
    start = Game(players, variant, rounds=3)
    for item in full.history[:cut]:
        (start.apply_chance if start.is_chance_node() else start.apply_action)(item)
    assert Game.from_dict(start.to_dict()) == start
    copy = start.clone()
    assert copy == start
    if not copy.is_terminal():
        item = full.history[min(cut, len(full.history) - 1)]
        (copy.apply_chance if copy.is_chance_node() else copy.apply_action)(item)
        assert copy != start and len(start.history) == min(cut, len(full.history))


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize(("kwargs", "named"), [
    ({"num_players": 1}, "num_players must be an integer 2–6"),
    ({"num_players": 7}, "num_players must be an integer 2–6"),
    ({"variant": "deluxe"}, "variant must be one of 'base', 'expansion'"),
    ({"rounds": 0}, "rounds must be an integer ≥ 1"),
    ({"rounds": 2.0}, "rounds must be an integer ≥ 1"),
    ({"dice": [[1] * 6] * 5}, "dice must be six lists of six whole numbers ≥ 0"),
    ({"dice": [[1] * 6] * 5 + [[1] * 5]}, "S5 is"),
    ({"dice": [[1] * 6] * 5 + [[1, 2, 3, 4, 5, -1]]}, "S5 has the face -1"),
    ({"dice": [[1] * 6] * 5 + [[1, 2, 3, 4, 5, 2.0]]}, "S5 has the face 2.0"),
    ({"dice": [[1] * 6] * 5 + [[1, 2, 3, 4, 5, True]]}, "S5 has the face True"),
    ({"dice": "dice"}, "dice must be six lists"),
    ({"first_player": 3}, "first_player must be an integer 0–2"),
    ({"first_player": 0, "scores": [0, 50, 0]}, r"scores must be 3 whole numbers 0–49"),
    ({"first_player": 0, "scores": [0, 0]}, r"scores must be 3 whole numbers 0–49"),
    ({"first_player": 0, "round": 0}, "round must be an integer 1–10"),
    ({"first_player": 0, "round": 11}, "round must be an integer 1–10"),
    ({"first_player": 0, "turn": 3}, "turn must be an integer 0–2"),
    ({"first_player": 0, "turn": 1, "aside": [2]}, "aside is for the expansion only"),
    ({"variant": "expansion", "turn": 1, "aside": []}, "exactly 1 red"),
    ({"variant": "expansion", "turn": 1, "aside": [7]}, "exactly 1 red"),
    ({"variant": "expansion", "turn": 1, "aside": [2, 7, 8]}, "at most 1 blue"),
    ({"variant": "expansion", "turn": 2, "aside": [2, 2]}, "all different"),
    ({"variant": "expansion", "turn": 1, "aside": [13]}, "by action id"),
    ({"variant": "expansion", "scores": [0, 100, 0]}, "scores must be 3 whole numbers 0–99"),
])
def test_bad_arguments_raise_one_line_naming_what_is_allowed(kwargs, named):
    args = {"num_players": 3} | kwargs
    with pytest.raises(ValueError, match=named) as err:
        Game(**args)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("action", [6, 7, 12, 13, -1, True, 1.0, None, "2"])
def test_an_illegal_action_raises_one_line_and_changes_nothing(action):
    game = Game(3, first_player=0)
    assert_refused(game, game.apply_action, action, match="action must be|cannot choose")


def test_a_masked_expansion_die_is_refused_naming_the_legal_ones():
    game = play(expansion(scores=[60, 0]), S2)
    assert_refused(game, game.apply_action, BLUE + S2,
                   match=r"cannot choose blue S2 as its blue die; allowed: 7, 8, 10, 11, 12")
    assert_refused(game, game.apply_chance, 3, match="blue die first")


def test_a_throw_at_a_decision_and_a_choice_at_a_throw_are_refused():
    game = Game(2, first_player=0)
    assert_refused(game, game.apply_chance, 3, match="chooses a die first")
    assert_refused(game, game.chance_outcomes, match="chooses a die first")
    game.apply_action(S2)
    assert_refused(game, game.apply_action, S2, match="a die is thrown next")
    assert_refused(game, game.apply_chance, 7, match=r"one of its faces \[1, 2, 3, 4, 5, 6\]")
    assert_refused(game, game.apply_chance, True, match="one of its faces")


def test_after_the_end_nothing_more_is_accepted():
    game = play(Game(2, first_player=0, scores=[38, 0]), S2, 6, 6)
    assert_refused(game, game.apply_action, S2, match="the game is over")
    assert_refused(game, game.apply_chance, 1, match="the game is over")
    assert_refused(game, game.chance_outcomes, match="the game is over")


def test_a_damaged_record_is_refused_in_one_line():
    game = play(Game(2, "expansion", rounds=2), 3, 5, S2, 1, 1, RED6, 2, 2)
    record = game.to_dict()
    edited = json.loads(json.dumps(record))
    edited["history"][-1] = 3  # another face: the same kind of record, but not this game
    resealed = {k: v for k, v in record.items() if k != "digest"}
    from pagadores_env.core.records import seal

    for bad, named in [
        (edited, "digest does not match"),
        ({**record, "format": "perudo-game"}, "format 'paye-game'"),
        ({k: v for k, v in record.items() if k != "start"}, "missing"),
        (seal({**resealed, "history": [*record["history"][:-1], 9]}),
         r"history\[7\] cannot be replayed"),
        (seal({**resealed, "state": {**record["state"], "round": 1}}), "state.round"),
        (seal({**resealed, "start": {**record["start"], "turn": 5}}), "turn must be"),
        ("not a record", "must be a dict"),
    ]:
        with pytest.raises(ValueError, match=named) as err:
            Game.from_dict(bad)
        assert "\n" not in str(err.value)
