"""The multi-player equilibrium solver (issue 10), checked independently.

(a) The oracle (``tests/expectimax.py``, brute force through ``engine.Game``) is first checked
against the two-player solver. (b) ``solve`` at two players equals ``solve_two_player`` at
every card configuration. (c) At 3 and 4 players ``solve`` agrees with the oracle, exactly
on small positions and, one round deep with the solver's own next-round values as leaves,
on bigger ones. (d) ``exact_evaluate`` agrees with a million batch-engine games. (e) NashConv:
zero for the equilibrium, positive for ``random``, twice the exploitability at two players.

Positions are reached by scripted dice (``tests/dice.py``) late in a round, so the rest of the
game is small enough to search by brute force in seconds.
"""

from __future__ import annotations

import math
import random
from functools import cache

import numpy as np
import pytest

from pagadores_env.core.policies import make_policy
from pagadores_env.pagadores.engine import Action, Game
from pagadores_env.pagadores.solver import (
    decision_from_game,
    exact_evaluate,
    exploitability,
    load_or_solve,
    nash_conv,
    solve,
    solve_two_player,
)
from pagadores_env.pagadores.vector.evaluate import EvalGame, play_out
from tests import expectimax as oracle_module
from tests.dice import (
    AGAIN,
    F9,
    F10,
    F11,
    LOW,
    PUERTA,
    SIXES,
    STOP,
    new_game,
    random_step,
)
from tests.expectimax import TIE, Expectimax, expectimax, expectimax_action_values

EXACT = 1e-12
#: Tied plain throws (R2.5: 2-4-4 and 3-3-4 are both 10, like F10 = 2-3-5).
F10_B, F10_C = (2, 4, 4), (3, 3, 4)


@pytest.fixture(scope="module", autouse=True)
def _private_cache(tmp_path_factory):
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PAGADORES_CACHE", str(tmp_path_factory.mktemp("cache")))
        yield


@cache
def solution(num_players: int, cards: int):
    return solve(num_players, cards)


@cache
def oracle(num_players: int) -> Expectimax:
    """One exact oracle per table size, its memo shared by every test of the module."""
    return Expectimax(num_players)


def leaf_oracle(num_players: int, cards: int) -> Expectimax:
    """One round through the engine; the next round is valued by the solver itself."""
    sol = solution(num_players, cards)
    return Expectimax(num_players, leaf=lambda g: sol.win_probabilities(
        cards=tuple(g.cards), insteker=g.insteker))


def _decision_nodes(num_players: int, cards: int, count: int, seed: int) -> list[Game]:
    """``count`` decision nodes met in games of random dice and random decisions."""
    rng = random.Random(seed)
    nodes: list[Game] = []
    game = Game(num_players, cards)
    while len(nodes) < count:
        if game.is_terminal():
            game = Game(num_players, cards, rng.randrange(num_players))
        if game.is_decision_node():
            nodes.append(game.clone())
        random_step(game, rng)
    return nodes


# ===================================================================== (a) the oracle
@pytest.mark.parametrize(("cards", "insteker"), [
    ((1, 1), 0), ((1, 1), 1), ((2, 1), 0), ((2, 1), 1), ((1, 2), 0), ((2, 2), 0), ((2, 2), 1),
])
def test_oracle_equals_the_two_player_solver_between_rounds(cards, insteker) -> None:
    """``Tables.win[i, a, b]``: seat 0's value with seat ``i`` insteeking, ``a`` its cards."""
    tables = solve_two_player(2).tables
    expected = tables.win[insteker, cards[insteker], cards[1 - insteker]]
    values = oracle(2).values(Game(2, cards, insteker))
    assert values[0] == pytest.approx(expected, abs=EXACT)
    assert values.sum() == pytest.approx(1.0, abs=EXACT)


@pytest.mark.parametrize(("cards", "insteker"), [((1, 1), 0), ((2, 1), 1),
                                                 pytest.param((2, 2), 0, marks=pytest.mark.slow)])
def test_oracle_solves_the_R5_3_kampen_loop_exactly(cards, insteker) -> None:
    """A plain tie replays the same kampen (R5.3): the oracle's fixed point equals the
    two-player solver's kampen value (``Tables.kampen``, the insteker throwing first)."""
    game = new_game(2, cards, insteker, [F10, STOP, F10_B])  # limit 1: tie at 10, kampen
    assert game.phase == "kampen"
    expected = solve_two_player(2).tables.kampen[insteker, cards[insteker], cards[1 - insteker]]
    assert expectimax(game)[0] == pytest.approx(expected, abs=EXACT)


def test_oracle_action_values_equal_the_two_player_solver() -> None:
    """At every decision met in random 2-card games, the acting seat's [STOP, THROW] values."""
    reference = solve_two_player(2)
    for game in _decision_nodes(2, 2, count=60, seed=1):
        seat = game.current_player
        mine = oracle(2).action_values(game)[:, seat]
        assert mine == pytest.approx(reference.action_values(decision_from_game(game)),
                                     abs=EXACT), game


@pytest.mark.slow
def test_oracle_key_keeps_of_the_scores_only_the_lowest_and_who_holds_it(monkeypatch) -> None:
    """R3.5, R5.3: a score above the lowest can never lose the round or the kampen, so the
    oracle's key forgets it; a search that keeps every score gives the same values (here
    seat 2's turn follows scores 11 and seat 1's, and kampen follow)."""
    game = new_game(3, 1, 0, [F10, AGAIN, F11, STOP, LOW])
    merged = oracle(3).action_values(game)
    monkeypatch.setattr(oracle_module, "lowest_only", tuple)
    assert expectimax_action_values(game) == pytest.approx(merged, abs=1e-15)


# ===================================================================== (b) two players
def test_two_player_equilibrium_equals_solve_two_player_at_every_card_count() -> None:
    tables = load_or_solve(10).tables
    sol = solution(2, 10)
    assert sol.num_players == 2 and sol.start_cards == (10, 10)
    assert sol.win_probabilities() == pytest.approx((tables.win[0, 10, 10],
                                                     1 - tables.win[0, 10, 10]), abs=EXACT)
    for a in range(1, 11):
        for b in range(1, 11):
            first = sol.win_probabilities(cards=(a, b), insteker=0)
            second = sol.win_probabilities(cards=(a, b), insteker=1)
            assert first == pytest.approx((tables.win[0, a, b], 1 - tables.win[0, a, b]),
                                          abs=EXACT), (a, b, 0)
            assert second == pytest.approx((tables.win[1, b, a], 1 - tables.win[1, b, a]),
                                           abs=EXACT), (a, b, 1)


def test_two_player_equilibrium_decides_as_the_two_player_solver() -> None:
    reference = load_or_solve(10)
    sol = solution(2, 10)
    for game in _decision_nodes(2, 10, count=300, seed=2):
        expected = reference.action_values(decision_from_game(game))
        assert sol.action_values(game) == pytest.approx(expected, abs=EXACT), game
        assert sol.best_action(game) == reference.best_action(decision_from_game(game)), game


# ===================================================================== (c) 3 and 4 players
def _assert_decision_matches(sol, game: Game, expected: np.ndarray) -> None:
    """Every seat's values of [STOP, THROW], the acting seat's column and the action the
    equilibrium rule takes (THROW only when better by more than the tie tolerance)."""
    seat = game.current_player
    assert sol.action_values(game, every_seat=True) == pytest.approx(expected, abs=EXACT)
    assert sol.action_values(game) == pytest.approx(expected[:, seat], abs=EXACT)
    stop, throw = expected[:, seat]
    assert sol.best_action(game) == (Action.THROW if throw > stop + TIE else Action.STOP)


#: Decisions at 3 players: (cards, first insteker, script). Seat 0 sets the limit to 2.
THREE_PLAYER_DECISIONS = {
    "R3.4 the middle seat at one card each": ((1, 1, 1), 0, [F10, AGAIN, F11, STOP, LOW]),
    "R3.4 the last seat at one card each":
        ((1, 1, 1), 0, [F10, AGAIN, F11, STOP, LOW, AGAIN, (3, 4, 6), F9]),
    "R5.1 stopping makes a three-way kampen":
        ((1, 1, 1), 0, [F10, AGAIN, F10, STOP, F10_B, STOP, F10_C]),
    "R4.1 after the insteker's Puerta": ((2, 2, 2), 0, [PUERTA, AGAIN, F11, STOP, LOW]),
    "R4.1 after the middle seat's Puerta": ((2, 2, 2), 0, [F10, AGAIN, F11, STOP, PUERTA]),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", THREE_PLAYER_DECISIONS)
def test_three_player_action_values_equal_the_expectimax(name) -> None:
    cards, first, script = THREE_PLAYER_DECISIONS[name]
    game = new_game(3, cards, first, script)
    assert game.is_decision_node()
    _assert_decision_matches(solution(3, 2), game, oracle(3).action_values(game))


@pytest.mark.parametrize(("cards", "insteker"), [
    ((1, 1, 1), 0), pytest.param((1, 1, 1), 2, marks=pytest.mark.slow), ((1, 1, 0), 1),
    ((0, 1, 1), 2)])
def test_three_player_win_probabilities_equal_the_expectimax(cards, insteker) -> None:
    values = solution(3, 2).win_probabilities(cards=cards, insteker=insteker)
    assert values == pytest.approx(oracle(3).values(Game(3, cards, insteker)), abs=EXACT)
    assert [v for v, c in zip(values, cards, strict=True) if c == 0] == [0.0] * cards.count(0)


def test_three_player_start_position_is_the_expectimax() -> None:
    sol = solution(3, 1)
    assert sol.start_cards == (1, 1, 1)
    assert sol.win_probabilities() == pytest.approx(oracle(3).values(Game(3, 1)), abs=EXACT)


@pytest.mark.slow
@pytest.mark.parametrize(("cards", "insteker"), [((3, 2, 1), 1), ((3, 0, 2), 2)])
def test_three_player_round_is_consistent_with_the_next_round_values(cards, insteker) -> None:
    """One round through the engine with ``solve``'s values where the next round starts
    gives ``solve``'s value where this round starts (Bellman consistency, R3–R6)."""
    sol = solution(3, 3)
    expected = leaf_oracle(3, 3).values(Game(3, cards, insteker))
    assert sol.win_probabilities(cards=cards, insteker=insteker) == pytest.approx(expected,
                                                                                  abs=EXACT)


#: Decisions by the last seat at 4 players, one card each: seat 0 and seat 2 hold 6-6-6, so
#: only seat 1 (9) or seat 3 can lose the round.
_LATE_FOUR = [SIXES, AGAIN, SIXES, STOP, F9, STOP, SIXES, STOP]
FOUR_PLAYER_DECISIONS = {
    "R3.5 the last seat above the lowest": ((1, 1, 1, 1), 0, [*_LATE_FOUR, F10]),
    "R5.1 the last seat ties the lowest": ((1, 1, 1, 1), 0, [*_LATE_FOUR, F9]),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", FOUR_PLAYER_DECISIONS)
def test_four_player_action_values_equal_the_expectimax(name) -> None:
    cards, first, script = FOUR_PLAYER_DECISIONS[name]
    game = new_game(4, cards, first, script)
    assert game.is_decision_node() and game.current_player == 3
    _assert_decision_matches(solution(4, 1), game, oracle(4).action_values(game))


@pytest.mark.slow
def test_four_player_R6_2_after_a_special_empties_a_seat_equals_the_expectimax() -> None:
    """Seat 0's Puerta empties seat 1 (R4.1): the round stops and seat 2 insteeks (R6.2)."""
    game = new_game(4, (1, 1, 2, 2), 0, [PUERTA])
    assert game.cards == [1, 0, 1, 1] and game.insteker == 2
    values = solution(4, 1).win_probabilities(cards=(1, 0, 1, 1), insteker=2)
    assert values == pytest.approx(oracle(4).values(game), abs=EXACT)
    assert values[1] == 0.0


@pytest.mark.slow
@pytest.mark.parametrize("script", [
    [F10, AGAIN, F11, STOP, PUERTA],  # seat 1's Puerta: cards (1, 2, 1, 1) mid-round (R4.3)
    [PUERTA, AGAIN, F11, STOP, LOW, STOP, F10_B],  # the insteker's Puerta, then seat 2 decides
])
def test_four_player_round_after_a_special_is_consistent_with_the_next_round(script) -> None:
    game = new_game(4, 2, 0, script)
    assert game.is_decision_node() and len(set(game.cards)) > 1
    _assert_decision_matches(solution(4, 2), game, leaf_oracle(4, 2).action_values(game))


# ===================================================================== (d) exact evaluation
PROFILE = ["sensible", "threshold", "random"]


@pytest.mark.slow
def test_exact_evaluation_equals_a_million_batch_games_within_4_standard_errors() -> None:
    """Fixed seats, seat 0 insteeking first (the exact side's convention); ``random`` is
    evaluated exactly as its 50/50 mixture and plays it in the batch games."""
    cards, games, chunk = 3, 1_000_000, 250_000
    exact = exact_evaluate(PROFILE, num_players=3, cards=cards, first_insteker=0)
    assert sum(exact) == pytest.approx(1.0, abs=EXACT)
    players = [make_policy(spec, seed=seed) for seed, spec in enumerate(PROFILE)]
    seats = np.broadcast_to(np.arange(3), (chunk, 3))
    rng = np.random.default_rng(10)
    wins = np.zeros(3, np.int64)
    for _ in range(games // chunk):
        batch = EvalGame(chunk, 3, cards, rng)
        play_out(batch, players, seats)
        wins += np.bincount(batch.winner, minlength=3)
    for seat in range(3):
        se = math.sqrt(exact[seat] * (1 - exact[seat]) / games)
        assert abs(wins[seat] / games - exact[seat]) < 4 * se, (seat, wins / games, exact)


class _EveryScore:
    """A player that declares it reads every score (``score_view = "all"``): the solver must
    ask it on every combination of the round's scores. It plays as the spec it wraps."""

    score_view = "all"

    def __init__(self, spec: str) -> None:
        self._inner = make_policy(spec)

    def __getattr__(self, name: str):
        return getattr(self._inner, name)


def test_exact_evaluation_asking_every_score_equals_asking_the_lowest_only() -> None:
    """The wrapped players read only the lowest score, so both ways of asking them agree."""
    every = exact_evaluate([_EveryScore(spec) for spec in PROFILE], num_players=3, cards=1)
    assert every == pytest.approx(exact_evaluate(PROFILE, num_players=3, cards=1), abs=EXACT)


def test_exact_evaluation_of_the_equilibrium_profile_is_the_solution() -> None:
    assert exact_evaluate("equilibrium", num_players=3, cards=1) == pytest.approx(
        solution(3, 1).win_probabilities(), abs=EXACT)


# ===================================================================== (e) NashConv
def _assert_consistent(result, num_players: int) -> None:
    assert len(result.gains) == len(result.values) == num_players
    assert min(result.gains) >= -EXACT
    assert sum(result.values) == pytest.approx(1.0, abs=EXACT)
    assert result.total == pytest.approx(sum(result.gains), abs=EXACT)


@pytest.mark.parametrize(("num_players", "cards"), [
    (2, 3), pytest.param(2, 10, marks=pytest.mark.slow), (3, 1),
    pytest.param(3, 2, marks=pytest.mark.slow), pytest.param(4, 1, marks=pytest.mark.slow)])
def test_nash_conv_of_the_equilibrium_is_zero(num_players, cards) -> None:
    result = nash_conv("equilibrium", num_players=num_players, cards=cards)
    _assert_consistent(result, num_players)
    assert result.total <= 1e-9
    assert result.values == pytest.approx(solution(num_players, cards).win_probabilities(),
                                          abs=EXACT)


@pytest.mark.slow
def test_nash_conv_of_random_play_is_positive() -> None:
    result = nash_conv("random", num_players=3, cards=3)
    _assert_consistent(result, 3)
    assert result.total > 0.01


@pytest.mark.parametrize("spec", ["sensible", "threshold", "random"])
def test_two_player_nash_conv_is_twice_the_exploitability(spec) -> None:
    result = nash_conv(spec, num_players=2, cards=4)
    _assert_consistent(result, 2)
    assert result.total == pytest.approx(2 * exploitability(make_policy(spec), 4), abs=1e-9)
    assert result.total > 0
