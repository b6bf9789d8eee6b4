"""The exact two-player solver, checked three independent ways: a hand derivation of the
one-card game, Monte-Carlo play through the real engine, and the RULES.md game value.

Monte-Carlo tests use seeded dice and accept 4 standard errors (a false alarm about once in
16 000 runs, and every run repeats bit for bit).
"""

from __future__ import annotations

import math
import os
import stat
from functools import cache

import numpy as np
import pytest

from pagadores_env.core.policies import BasePolicy, make_policy
from pagadores_env.pagadores.engine import Action, Game
from pagadores_env.pagadores.observation import OBS_SIZE, encode
from pagadores_env.pagadores.rules import MAX_THROWS, THROWS, Kind
from pagadores_env.pagadores.solver import (
    Decision,
    TablePolicy,
    TwoPlayerSolution,
    best_response,
    cache_path,
    exploitability,
    load_or_solve,
    policy_table,
    solve_two_player,
    win_probabilities,
)
from pagadores_env.pagadores.solver.decisions import GRID
from tests.players import StopAt
from tests.solver.caches import DAMAGES

P = 1 / 216  # R7.2: every ordered outcome of three dice is equally likely


@pytest.fixture(autouse=True)
def _private_cache(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("PAGADORES_CACHE", str(tmp_path / "cache"))


@pytest.fixture(scope="module")
def solution10() -> TwoPlayerSolution:
    return solve_two_player(10)


# --------------------------------------------------------------------- (a) by hand
# With one card each every loss ends the game: a special empties the other (thrower wins,
# R4.1, R6.2), a Picaro empties the thrower (R4.4), the round's loser is out (R3.5, R6.1).
# Sums run over the 216 ordered outcomes, straight from the rules, not the solver's tables.
def _plain(t) -> bool:
    return t.penalty == 0 and t.kind is not Kind.PICARO


def _kampen_one_card() -> float:
    """R5: the insteker throws first; a repeat tie (plain, equal) replays the same kampen,
    so K = known / (1 - P(plain tie))."""
    known = tie = 0.0
    for x in THROWS:
        if x.penalty:
            known += P  # the follower is emptied
        elif _plain(x):
            for y in THROWS:
                if y.kind is Kind.PICARO or (_plain(y) and y.strength < x.strength):
                    known += P * P
                elif _plain(y) and y.strength == x.strength:
                    tie += P * P
    return known / (1.0 - tie)


def _one_card_game() -> tuple[float, float]:
    """(the insteker's optimal win probability, kampen value) for one card each."""
    kampen = _kampen_one_card()

    def follower_stops(s: int, score: int) -> float:  # the follower's win probability
        return 1.0 if s > score else 0.0 if s < score else 1.0 - kampen

    @cache
    def follower_throws(score: int, left: int) -> float:
        """The follower throws with ``left`` throws after this one still allowed."""
        total = 0.0
        for y in THROWS:
            if y.penalty:
                total += P
            elif _plain(y):
                stop = follower_stops(y.strength, score)
                total += P * (max(stop, follower_throws(score, left - 1)) if left else stop)
        return total

    @cache
    def insteker_throws(k: int) -> float:
        """The insteker's ``k``-th throw; stopping after it sets the throw limit to k."""
        total = 0.0
        for x in THROWS:
            if x.penalty:
                total += P
            elif _plain(x):
                stop = 1.0 - follower_throws(x.strength, k - 1)
                total += P * (max(stop, insteker_throws(k + 1)) if k < MAX_THROWS else stop)
        return total

    return insteker_throws(1), kampen


def test_one_card_each_matches_the_hand_derivation() -> None:
    win, kampen = _one_card_game()
    tables = solve_two_player(1).tables
    assert tables.kampen[0, 1, 1] == pytest.approx(kampen, abs=1e-12)
    assert solve_two_player(1).win_probability(1, 1) == pytest.approx(win, abs=1e-12)
    assert 0.5 < win < 0.7


# --------------------------------------------------------------------- (c) RULES.md
def test_two_players_ten_cards_first_insteker_wins_0_5135(solution10) -> None:
    assert round(solution10.value, 4) == 0.5135
    assert solution10.value == solution10.win_probability(10, 10)


def test_seat_halves_of_the_tables_are_mirror_images(solution10) -> None:
    """Seat 1 insteeking is solved separately; with both optimal it must mirror seat 0."""
    win = solution10.tables.win
    assert np.abs(win[0, 1:, 1:] + win[1, 1:, 1:] - 1.0).max() < 1e-12


def test_smaller_solves_agree_with_the_full_solve(solution10) -> None:
    small = solve_two_player(4)
    assert np.abs(small.tables.win - solution10.tables.win[:, :5, :5]).max() < 1e-15


# --------------------------------------------------------------------- (b) Monte Carlo
def _dice(rng: np.random.Generator):
    """An endless stream of random throws (R7.2), drawn in blocks for speed."""
    while True:
        yield from rng.integers(1, 7, size=(4096, 3)).tolist()


def _play(game: Game, seats: list, dice) -> int:
    mask = np.ones(2, dtype=np.int8)
    while not game.is_terminal():
        if game.is_decision_node():
            seat = game.current_player
            game.apply_action(seats[seat].act(encode(game, seat), mask))
        else:
            game.apply_throw(next(dice))
    return game.winner


def _wins(cards: list[int], first: int, seats: list, games: int, seed: int) -> float:
    dice = _dice(np.random.default_rng(seed))
    return sum(_play(Game(2, cards, first), seats, dice) == 0 for _ in range(games)) / games


def _within_4_se(observed: float, exact: float, games: int) -> None:
    se = math.sqrt(exact * (1 - exact) / games)
    assert abs(observed - exact) < 4 * se, f"{observed} vs exact {exact} (se {se:.4f})"


@pytest.mark.slow
def test_monte_carlo_optimal_self_play_matches_the_solved_value() -> None:
    optimal = make_policy("optimal:cards=3")
    games = 3000
    observed = _wins([3, 2], 0, [optimal, optimal], games, seed=7)
    _within_4_se(observed, optimal.solution.win_probability(3, 2), games)


@pytest.mark.slow
@pytest.mark.parametrize("first", [0, 1])
def test_monte_carlo_matches_exact_evaluation_of_scripted_policies(first: int) -> None:
    a, b = StopAt(20), StopAt(34)
    exact = win_probabilities(a, b, cards=2)
    games = 8000
    observed = _wins([2, 2], first, [a, b], games, seed=11 + first)
    _within_4_se(observed, exact.win_first if first == 0 else exact.win_second, games)


@pytest.mark.slow
def test_monte_carlo_best_response_wins_what_it_promises() -> None:
    opponent = StopAt(34)
    response = best_response(opponent, cards=2)
    games = 3000
    observed = _wins([2, 2], 1, [response.policy(), opponent], games, seed=5)
    _within_4_se(observed, response.win_second, games)


# --------------------------------------------------------------------- best response
def test_optimal_play_cannot_be_exploited(solution10) -> None:
    optimal = solution10.policy_table()
    response = best_response(optimal, cards=10)
    assert response.win_first == pytest.approx(solution10.value, abs=1e-12)
    assert response.win_second == pytest.approx(1 - solution10.value, abs=1e-12)
    assert exploitability(optimal, cards=10) == pytest.approx(0.0, abs=1e-12)


def test_optimal_policy_from_observations_plays_the_solution(solution10) -> None:
    match = win_probabilities(make_policy("optimal:cards=10"), solution10.policy_table(), cards=10)
    assert match.win_first == pytest.approx(solution10.value, abs=1e-12)
    assert match.win_mean == pytest.approx(0.5, abs=1e-12)


def test_best_response_beats_every_fixed_reply_to_a_scripted_policy() -> None:
    opponent = StopAt(30)
    response = best_response(opponent, cards=4)
    for level in (1, 10, 20, 30, 36, 42):
        other = win_probabilities(StopAt(level), opponent, cards=4)
        assert response.win_first >= other.win_first - 1e-12
        assert response.win_second >= other.win_second - 1e-12
    assert exploitability(opponent, cards=4) > 0.01


def test_policy_is_asked_once_per_decision_state_in_few_batches() -> None:
    policy = StopAt(25)
    policy_table(policy, cards=10)
    assert policy.rows == 100 * len(GRID)
    assert policy.calls <= 10


def test_policies_with_only_act_are_asked_row_by_row() -> None:
    class ActOnly:  # the bare protocol: no act_batch
        def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
            return int(StopAt(25).act(obs, mask))

    batched, single = policy_table(StopAt(25), cards=2), policy_table(ActOnly(), cards=2)
    assert np.array_equal(batched.insteker, single.insteker)
    assert np.array_equal(batched.follower, single.follower)
    assert batched.follower.any() and not batched.follower.all()


def test_table_policy_takes_a_single_legal_action_and_rejects_an_empty_mask(solution10) -> None:
    policy = TablePolicy(solution10.policy_table())
    obs = np.zeros((3, OBS_SIZE), dtype=np.float32)  # not decisions: only the mask decides
    assert policy.act_batch(obs[:2], np.array([[0, 1], [1, 0]])).tolist() == [1, 0]
    with pytest.raises(ValueError, match="mask must allow"):
        policy.act_batch(obs, np.array([[0, 1], [1, 0], [0, 0]]))


def test_policy_answers_other_than_stop_or_throw_are_rejected() -> None:
    class Bad(BasePolicy):
        def act_batch(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
            return np.full(len(obs), 2)

    with pytest.raises(ValueError, match="0 \\(stop\\) or 1"):
        policy_table(Bad(), cards=1)


# --------------------------------------------------------------------- decisions
def test_action_values_are_the_acting_players_win_probabilities(solution10) -> None:
    """R3.5/R6.1: a one-card follower below the insteker's score loses the game by stopping,
    so it throws again; above the score, stopping wins the round."""
    low = Decision(1, 1, 5, 1, 1, throw_limit=2, insteker_score=30)
    stop, throw = solution10.action_values(low)
    assert stop == pytest.approx(0.0)  # losing the round's last card ends the game (R6.1)
    assert throw > 0.0
    assert solution10.best_action(low) == Action.THROW
    high = low._replace(strength=41 - 3)  # 6-6-6 beats 30: stopping wins the round
    assert solution10.best_action(high) == Action.STOP
    assert solution10.action_values(*high) == pytest.approx(solution10.action_values(high))


@pytest.mark.parametrize("bad", [
    Decision(2, 1, 1, 1, 5),
    Decision(0, 0, 1, 1, 5),
    Decision(0, 1, 11, 1, 5),
    Decision(0, 1, 1, 3, 5),
    Decision(0, 1, 1, 1, 0),
    Decision(1, 1, 1, 1, 5, throw_limit=1, insteker_score=5),
    Decision(1, 1, 1, 1, 5, throw_limit=2, insteker_score=-1),
])
def test_impossible_decisions_are_rejected(solution10, bad: Decision) -> None:
    with pytest.raises(ValueError, match="got Decision"):
        solution10.action_values(bad)


@pytest.mark.parametrize("cards", [(0, 1), (1, 11), (2.5, 1)])
def test_win_probability_rejects_impossible_cards(solution10, cards) -> None:
    with pytest.raises(ValueError, match="must be an integer 1–10"):
        solution10.win_probability(*cards)


@pytest.mark.parametrize("cards", [0, 11, "10"])
def test_solve_rejects_impossible_cards(cards) -> None:
    with pytest.raises(ValueError, match="cards must be an integer 1–10"):
        solve_two_player(cards)


# --------------------------------------------------------------------- cache
def test_cache_round_trip_and_stale_files_are_resolved() -> None:
    path = cache_path(3)
    assert not path.exists()
    first = load_or_solve(3)
    assert path.exists()
    loaded = TwoPlayerSolution.load(path)
    assert np.array_equal(loaded.tables.follower_throw, first.tables.follower_throw)
    path.write_bytes(b"not a solution")
    with pytest.raises(ValueError, match="not a readable solution"):
        TwoPlayerSolution.load(path)
    assert load_or_solve(3).value == first.value
    assert TwoPlayerSolution.load(path).value == first.value


@pytest.fixture(params=sorted(DAMAGES))
def damaged_cache(request) -> int:
    """A 3-card cache file we wrote, then damaged as ``request.param`` says."""
    TwoPlayerSolution.save(solve_two_player(3), cache_path(3))
    DAMAGES[request.param](cache_path(3))
    return 3


def test_an_unreadable_cache_is_solved_again_and_rewritten(damaged_cache) -> None:
    with pytest.raises(ValueError, match="not a"):
        TwoPlayerSolution.load(cache_path(damaged_cache))
    assert load_or_solve(damaged_cache).value == solve_two_player(damaged_cache).value
    assert TwoPlayerSolution.load(cache_path(damaged_cache)).value == \
        solve_two_player(damaged_cache).value


def test_optimal_players_survive_an_unreadable_cache(damaged_cache) -> None:
    import gymnasium as gym

    policy = make_policy(f"optimal:cards={damaged_cache}")
    assert policy.solution.value == solve_two_player(damaged_cache).value
    env = gym.make("Pagadores-v1", cards=damaged_cache,
                   opponents=[f"optimal:cards={damaged_cache}"])
    obs, _ = env.reset(seed=1)
    assert obs.shape == (OBS_SIZE,)


def test_cache_files_get_the_umask_mode_and_leave_no_temporary_files() -> None:
    old = os.umask(0o022)
    try:
        load_or_solve(2)
    finally:
        os.umask(old)
    path = cache_path(2)
    assert stat.S_IMODE(path.stat().st_mode) == 0o644  # not tempfile's 0600
    assert [p.name for p in path.parent.iterdir()] == [path.name]
