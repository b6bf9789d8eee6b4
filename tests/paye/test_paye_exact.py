"""Paye's exact yardstick (Y8) against an independent backward induction written here: plain
Python, recursive with a memo over full positions, reading the rules from the contract (not
from ``paye.rules``); the 3-player equilibrium checked for consistency; the refusals."""

from __future__ import annotations

import functools
from collections import OrderedDict

import numpy as np
import pytest

from pagadores_env.core.policies import BasePolicy
from pagadores_env.paye import exact
from pagadores_env.paye.engine import Game
from pagadores_env.paye.exact import (
    action_values,
    best_response,
    exact_evaluate,
    exploitability,
    nash_conv,
    solve,
    start_values,
)
from pagadores_env.paye.expansion import solve_expansion
from pagadores_env.paye.observation import decode

DEFAULT = ((0, 0, 1, 1, 1, 2), (2, 2, 2, 3, 3, 3), (1, 2, 3, 4, 5, 6),
           (0, 0, 0, 7, 7, 7), (4, 4, 5, 5, 6, 6), (0, 0, 0, 0, 10, 20))  # Y1.3
#: faces that overshoot often and halve twice (40 + 40 from 30: 110 -> 55 -> 27)
BIG = ((0, 0, 0, 0, 0, 1), (3, 3, 3, 3, 3, 3), (0, 5, 10, 15, 20, 25),
       (0, 0, 0, 40, 40, 40), (12, 12, 12, 13, 13, 13), (1, 2, 3, 4, 5, 6))
TIE = 1e-12


def settle(score: int, points: int, target: int) -> int:
    """Y3.3, Y3.4 as the contract words them."""
    total = score + points
    while total > target:
        total //= 2
    return max(total, 0)


def sums(faces) -> dict[int, float]:
    """A die thrown twice: each sum and its probability (Y3.2, Y5.1)."""
    out: dict[int, float] = {}
    for a in faces:
        for b in faces:
            out[a + b] = out.get(a + b, 0.0) + 1 / 36
    return out


def induction(n: int, dice, rounds: int, chooser=None, hero: int | None = None):
    """Each seat's share of the win from the start, seat 0 first (Y2.2), by recursion over
    (scores, round, turn). ``chooser(scores, round, turn) -> die`` plays every seat but
    ``hero``, which maximises (all maximise without a chooser); ties go to the lowest die
    within 1e-12 of the best (Y8.1)."""
    return recursion(n, dice, rounds, chooser, hero)[0]((0,) * n, 1, 0)


def recursion(n: int, dice, rounds: int, chooser=None, hero: int | None = None):
    """``induction``'s memoised ``value(scores, round, turn)`` and ``options(scores, round,
    turn)``, each die's values there, by seat counted from the first player."""
    target = 50
    throws = [sums(f) for f in dice]

    @functools.cache
    def value(scores: tuple[int, ...], rnd: int, turn: int) -> tuple[float, ...]:
        if turn == n:
            if rnd == rounds:  # Y4.3, Y4.4
                best = max(scores)
                k = scores.count(best)
                return tuple((s == best) / k for s in scores)
            return value(scores, rnd + 1, 0)
        choices = options(scores, rnd, turn)
        if chooser is not None and turn != hero:
            return tuple(choices[chooser(scores, rnd, turn)])
        best = max(o[turn] for o in choices)
        return tuple(next(o for o in choices if o[turn] >= best - TIE))

    def options(scores: tuple[int, ...], rnd: int, turn: int) -> list[list[float]]:
        options = []
        for throw in throws:
            total = [0.0] * n
            for points, p in throw.items():
                after = settle(scores[turn], points, target)
                if after == target:  # Y4.1
                    total[turn] += p
                    continue
                nxt = value(scores[:turn] + (after,) + scores[turn + 1:], rnd, turn + 1)
                total = [t + p * v for t, v in zip(total, nxt, strict=True)]
            options.append(total)
        return options

    return value, options


def rotate(values, first: int) -> tuple[float, ...]:
    """Values by seat counted from the first player, as values by seat."""
    n = len(values)
    return tuple(values[(s - first) % n] for s in range(n))


def rule(scores, rnd, turn) -> int:
    """A fixed policy, written on the position: the die (my score + 2 round + turn) mod 6."""
    return (scores[turn] + 2 * rnd + turn) % 6


class RulePolicy(BasePolicy):
    """``rule`` read from the observation (slot 0: the player to move)."""

    name = "rule"

    def act_batch(self, obs, mask):
        view = decode(np.asarray(obs))
        return (view.scores[:, 0] + 2 * view.round + view.turn) % 6

    def act(self, obs, mask):
        return int(self.act_batch(np.reshape(obs, (1, -1)), mask)[0])


# ---------------------------------------------------------------- the optimum at 2 players
@pytest.mark.parametrize(("dice", "rounds"), [
    (DEFAULT, 1), (DEFAULT, 3), (DEFAULT, 10), (BIG, 2), (BIG, 4),
])
def test_y8_1_two_player_values_agree_with_an_independent_induction(dice, rounds):
    expected = induction(2, dice, rounds)
    assert start_values(2, dice, rounds) == pytest.approx(expected, abs=1e-9)
    assert sum(start_values(2, dice, rounds)) == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize(("dice", "rounds"), [(DEFAULT, 2), (BIG, 3)])
def test_a_fixed_policy_is_evaluated_exactly_from_its_observations(dice, rounds):
    for first in (0, 1):
        expected = rotate(induction(2, dice, rounds, chooser=rule, hero=-1), first)
        assert exact_evaluate(RulePolicy(), 2, dice, rounds, first_player=first) == \
            pytest.approx(expected, abs=1e-9)


def test_the_best_response_to_a_fixed_policy_agrees_with_an_independent_induction():
    dice, rounds = BIG, 3
    gains = []
    for seat in (0, 1):
        shares = [rotate(induction(2, dice, rounds, rule, hero=(seat - f) % 2), f)[seat]
                  for f in (0, 1)]
        played = [rotate(induction(2, dice, rounds, rule, hero=-1), f)[seat] for f in (0, 1)]
        response = best_response(RulePolicy(), seat, 2, dice, rounds)
        assert response.value == pytest.approx(np.mean(shares), abs=1e-9)
        assert response.profile_value == pytest.approx(np.mean(played), abs=1e-9)
        gains.append(response.gain)
    conv = nash_conv(RulePolicy(), 2, dice, rounds)
    assert conv.gains == pytest.approx(gains, abs=1e-12) and conv.total > 0.1
    assert exploitability(RulePolicy(), dice, rounds) == pytest.approx(conv.total / 2)


def test_random_play_is_measured_as_its_mixture():
    dice, rounds = DEFAULT, 2
    n = 2
    throws = [sums(f) for f in dice]

    @functools.cache
    def mixed(scores, rnd, turn):  # every die alike at every turn
        if turn == n:
            if rnd == rounds:
                best = max(scores)
                return tuple((s == best) / scores.count(best) for s in scores)
            return mixed(scores, rnd + 1, 0)
        total = [0.0] * n
        for throw in throws:
            for points, p in throw.items():
                after = settle(scores[turn], points, 50)
                if after == 50:
                    total[turn] += p / 6
                    continue
                nxt = mixed(scores[:turn] + (after,) + scores[turn + 1:], rnd, turn + 1)
                total = [t + p / 6 * v for t, v in zip(total, nxt, strict=True)]
        return tuple(total)

    assert exact_evaluate("random", 2, dice, rounds, first_player=0) == \
        pytest.approx(mixed((0, 0), 1, 0), abs=1e-9)


def test_the_optimum_is_unexploitable_and_its_player_plays_it():
    solution = solve(2, DEFAULT, 3)
    assert solution.values == pytest.approx(induction(2, DEFAULT, 3), abs=1e-9)
    assert exploitability(solution.policy(), DEFAULT, 3) == pytest.approx(0.0, abs=1e-12)
    assert exact_evaluate(solution.policy(), 2, DEFAULT, 3, first_player=0) == \
        pytest.approx(solution.values, abs=1e-12)
    assert exploitability("random", DEFAULT, 3) > 0.2


def test_a_kept_best_response_plays_its_value_from_any_seat():
    response = best_response("random", 1, 2, DEFAULT, 2, keep_policy=True)
    player = response.policy()
    assert exact_evaluate(["random", player], 2, DEFAULT, 2)[1] == \
        pytest.approx(response.value, abs=1e-12)
    assert exact_evaluate([player, "random"], 2, DEFAULT, 2)[0] == \
        pytest.approx(response.value, abs=1e-12)


# ---------------------------------------------------------------- 3 players
def test_y8_1_three_player_equilibrium_agrees_and_is_consistent():
    assert start_values(3, DEFAULT, 1) == pytest.approx(induction(3, DEFAULT, 1), abs=1e-9)
    values = start_values(3, BIG, 3)
    assert sum(values) == pytest.approx(1.0, abs=1e-12)
    conv = nash_conv(solve(3, BIG, 3).policy(), 3, BIG, 3)
    assert all(-1e-12 <= g <= 1e-9 for g in conv.gains) and conv.total <= 1e-9
    assert conv.values == pytest.approx((1 / 3,) * 3, abs=1e-12)  # every seat first alike
    assert exact_evaluate(solve(3, BIG, 3).policy(), 3, BIG, 3, first_player=0) == \
        pytest.approx(values, abs=1e-12)


# ---------------------------------------------------------------- the expansion
#: few distinct faces, so the independent induction stays small; S2 twice reaches 50 and
#: 100 in one turn, and 50 + 50 from 10 halves (110 -> 55)
SMALL = ((0, 0, 0, 0, 0, 30), (10, 10, 10, 25, 25, 25), (0, 0, 0, 50, 50, 50),
         (5, 5, 5, 5, 5, 5), (0, 0, 0, 0, 20, 20), (0, 0, 0, 40, 40, 40))


def expansion_induction(dice, rounds: int, chooser=None, hero: int | None = None
                        ) -> tuple[float, ...]:
    """The expansion at 2 players by recursion over (scores, round, turn, dice aside), the
    rules of Y6 written out here: reds 0-5 and the traditional red 6, blues 7-12.
    ``chooser(scores, round, turn, legal, red)`` plays every seat but ``hero`` (which
    maximises; all maximise without a chooser): ``(die, probability)`` pairs among the
    ``legal`` dice, for the red die (``red`` None) and then the blue one."""
    return expansion_recursion(dice, rounds, chooser, hero)[0]((0, 0), 1, 0, frozenset())


def expansion_recursion(dice, rounds: int, chooser=None, hero: int | None = None):
    """``expansion_induction``'s memoised ``value(scores, round, turn, aside)`` and
    ``choices(...)`` there: per legal red die, per blue die (-1: none due) its values."""
    n, target = 2, 100
    faces = {**{r: dice[r] for r in range(6)}, 6: (1, 2, 3, 4, 5, 6),
             **{7 + d: dice[d] for d in range(6)}}

    def design(die: int) -> int:
        return -1 if die == 6 else die % 7

    @functools.cache
    def points(red: int, blue: int) -> dict[int, float]:
        out: dict[int, float] = {}
        for r, pr in sums(faces[red]).items():
            for b, pb in (sums(faces[blue]).items() if blue >= 0 else ((0, 1.0),)):
                out[r - b] = out.get(r - b, 0.0) + pr * pb
        return out

    def mixed(pairs, values):
        return [sum(p * v[k] for (_, p), v in zip(pairs, values, strict=True))
                for k in range(n)]

    @functools.cache
    def value(scores, rnd, turn, aside):
        if turn == n:
            if rnd == rounds:
                best = max(scores)
                return tuple((s == best) / scores.count(best) for s in scores)
            return value(scores, rnd + 1, 0, frozenset())
        by_red = choices(scores, rnd, turn, aside)
        if chooser is not None and turn != hero:
            due = scores[turn] >= 50  # Y6.3
            after_red = []
            red_pairs = chooser(scores, rnd, turn, list(by_red), None)
            for red, _ in red_pairs:
                by_blue = by_red[red]
                blue_pairs = chooser(scores, rnd, turn, list(by_blue), red) if due \
                    else [(-1, 1.0)]
                after_red.append(mixed(blue_pairs, [by_blue[b] for b, _ in blue_pairs]))
            return tuple(mixed(red_pairs, after_red))
        best_red = None
        for by_blue in by_red.values():
            best_blue = None
            for total in by_blue.values():
                if best_blue is None or total[turn] > best_blue[turn] + TIE:
                    best_blue = total
            if best_red is None or best_blue[turn] > best_red[turn] + TIE:
                best_red = best_blue
        return tuple(best_red)

    def choices(scores, rnd, turn, aside) -> dict[int, dict[int, list[float]]]:
        due = scores[turn] >= 50  # Y6.3
        blues = [b for b in range(7, 13) if b not in aside]
        out: dict[int, dict[int, list[float]]] = {}
        for red in (r for r in range(7) if r not in aside):
            options = [b for b in blues if design(b) != design(red)] if due else [-1]
            if not options:  # Y6.5: no dead ends
                continue
            out[red] = {}
            for blue in options:
                total = [0.0] * n
                for pts, p in points(red, blue).items():
                    after = settle(scores[turn], pts, target)
                    if after == target:
                        total[turn] += p
                        continue
                    nxt = value(scores[:turn] + (after,) + scores[turn + 1:], rnd, turn + 1,
                                aside | {red, blue} - {-1})
                    total = [t + p * v for t, v in zip(total, nxt, strict=True)]
                out[red][blue] = total
        return out

    return value, choices


class Parity(BasePolicy):
    """A fixed expansion player written for the tests: of the legal dice, the one at index
    (own score + round) mod their number, from its observation alone."""

    def act_batch(self, obs, mask):
        view = decode(np.asarray(obs))
        legal = np.asarray(mask) > 0
        index = (view.scores[:, 0] + view.round) % legal.sum(axis=1)
        return (np.cumsum(legal, axis=1) == index[:, None] + 1).argmax(axis=1)

    def act(self, obs, mask):
        return int(self.act_batch(np.asarray(obs)[None], np.asarray(mask)[None])[0])


def parity_chooser(scores, rnd, turn, legal, red):
    return [(legal[(scores[turn] + rnd) % len(legal)], 1.0)]


def uniform_chooser(scores, rnd, turn, legal, red):
    return [(die, 1 / len(legal)) for die in legal]


@pytest.mark.parametrize("rounds", [1, 2])
def test_y8_expansion_values_agree_with_an_independent_induction(rounds):
    expected = expansion_induction(SMALL, rounds)
    solution = solve_expansion(2, SMALL, rounds)
    assert solution.values == pytest.approx(expected, abs=1e-9)
    assert start_values(2, SMALL, rounds, variant="expansion") == \
        pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize("rounds", [1, 2])
def test_y8_expansion_players_are_evaluated_exactly_from_their_observations(rounds):
    expected = expansion_induction(SMALL, rounds, parity_chooser)
    assert exact_evaluate(Parity(), 2, SMALL, rounds, first_player=0,
                          variant="expansion") == pytest.approx(expected, abs=1e-9)
    mixture = expansion_induction(SMALL, rounds, uniform_chooser)  # random as its mixture
    assert exact_evaluate("random", 2, SMALL, rounds, first_player=0,
                          variant="expansion") == pytest.approx(mixture, abs=1e-9)


@pytest.mark.parametrize("seat", [0, 1])
def test_y8_expansion_best_responses_agree_with_an_independent_induction(seat):
    expected = expansion_induction(SMALL, 2, parity_chooser, hero=seat)[seat]
    found = best_response(Parity(), seat, 2, SMALL, 2, first_player=0, variant="expansion")
    assert found.value == pytest.approx(expected, abs=1e-9)
    played = expansion_induction(SMALL, 2, parity_chooser)[seat]
    assert found.gain == pytest.approx(expected - played, abs=1e-9)


def test_y8_the_expansion_optimum_is_unexploitable_and_others_are_not():
    assert nash_conv("optimal", 2, SMALL, 2, variant="expansion").total == \
        pytest.approx(0, abs=1e-9)
    assert exploitability("random", SMALL, 2, variant="expansion") > 0.1


# ---------------------------------------------------------------- a game in progress
@pytest.mark.parametrize(("n", "dice", "rounds", "first", "scores", "rnd", "turn"), [
    (2, BIG, 4, 0, [30, 41], 3, 1),  # seat 1 to move, late in the game
    (2, BIG, 4, 1, [30, 41], 3, 0),  # the same table, seat 1 first
    (2, DEFAULT, 2, 0, [44, 47], 2, 1),  # the last turn: every die's hit counts
    (3, DEFAULT, 1, 2, [10, 20, 5], 1, 1),  # 3 players: seat 0 moves second
])
def test_y8_1_each_choices_value_agrees_with_an_independent_induction(n, dice, rounds, first,
                                                                       scores, rnd, turn):
    game = Game(n, "base", dice, rounds, first_player=first, scores=scores, round=rnd,
                turn=turn)
    ordered = tuple(scores[(first + k) % n] for k in range(n))  # from the first player
    expected = recursion(n, dice, rounds)[1](ordered, rnd, turn)
    values = action_values(game)
    assert sorted(values) == list(range(6))
    for die, value in values.items():
        assert value == pytest.approx(rotate(expected[die], first), abs=1e-9)
        assert sum(value) == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize("n", [2, 3])
def test_y8_1_the_best_choice_at_the_start_is_the_equilibriums(n):
    values = action_values(Game(n, first_player=0))
    solution = solve(n)
    best = max(v[0] for v in values.values())
    assert best == pytest.approx(solution.values[0], abs=1e-12)
    chosen = min(d for d, v in values.items() if v[0] >= best - TIE)
    assert chosen == solution.choice(1, 0, (0,) * n)


def test_y8_expansion_each_red_and_blue_choices_value_agrees_with_an_independent_induction():
    value, choices = expansion_recursion(SMALL, 2)
    game = Game(2, "expansion", SMALL, 2, first_player=0, scores=[60, 40],
                round=2)  # Y6.3: blue due; the last round keeps the induction short
    expected = choices((60, 40), 2, 0, frozenset())
    reds = action_values(game)
    assert sorted(reds) == sorted(expected)
    for red, by_blue in expected.items():
        best = max(v[0] for v in by_blue.values())
        assert reds[red] == pytest.approx(next(v for v in by_blue.values()
                                               if v[0] >= best - TIE), abs=1e-9)
    red = max(expected)  # the traditional red die: every blue die is legal with it
    game.apply_action(red)
    blues = action_values(game)
    assert blues == {b: pytest.approx(v, abs=1e-9) for b, v in expected[red].items()}
    later = Game(2, "expansion", SMALL, 2, first_player=0, scores=[60, 70], round=2, turn=1,
                 aside=[2, 10])  # seat 1, blue due, S2 red and S3 blue aside
    expected = choices((60, 70), 2, 1, frozenset({2, 10}))
    for red, values in action_values(later).items():
        assert values[1] == pytest.approx(max(v[1] for v in expected[red].values()), abs=1e-9)


def test_action_values_need_a_die_choice_and_fit_in_memory(monkeypatch):
    game = Game(2, first_player=0)
    game.apply_action(0)
    with pytest.raises(ValueError, match=r"needs a die choice \(Y7\)") as err:
        action_values(game)
    assert "\n" not in str(err.value)
    monkeypatch.setattr(exact, "_SOLVED", OrderedDict())
    without_values = exact.pass_bytes(3, kept_layers=30)
    monkeypatch.setattr(exact, "memory_limit", lambda: without_values)
    monkeypatch.setattr(exact, "sweep", lambda *a, **k: pytest.fail("it started"))
    with pytest.raises(ValueError, match=r"cannot solve at 3 players: it needs about"):
        action_values(Game(3, first_player=0))


# ---------------------------------------------------------------- refusals
@pytest.mark.parametrize(("call", "named"), [
    (lambda: start_values(5), "covers 2–4 players"),
    (lambda: start_values(1), "num_players must be an integer 2–6"),
    (lambda: start_values(3, variant="expansion"), "expansion's exact yardstick covers 2"),
    (lambda: nash_conv("random", 3, variant="expansion"),
     "expansion's exact yardstick covers 2"),
    (lambda: best_response("random", 0, 2, variant="expansion", keep_policy=True),
     "keep_policy needs the base game"),
    (lambda: start_values(2, rounds=0), "rounds must be"),
    (lambda: start_values(2, dice=[[1] * 6] * 5), "dice must be six lists"),
    (lambda: start_values(2, variant="deluxe"), "variant must be one of"),
    (lambda: exact_evaluate(["random"] * 3, 2), "one agent for every seat or 2 agents"),
    (lambda: exact_evaluate("nobody", 2), "unknown policy of paye 'nobody'"),
    (lambda: best_response("random", 2, 2), "seat must be an integer 0–1"),
    (lambda: exact_evaluate("random", 2, first_player=2), "first_player must be"),
])
def test_bad_arguments_are_refused_in_one_line(call, named):
    with pytest.raises(ValueError, match=named) as err:
        call()
    assert "\n" not in str(err.value)


def test_a_policy_answering_no_die_is_refused_in_one_line():
    class Broken(BasePolicy):
        def act(self, obs, mask):
            return 7

    with pytest.raises(ValueError, match=r"must answer each of \d+ rows with a die 0–5") as err:
        exact_evaluate(Broken(), 2, DEFAULT, 1)
    assert "\n" not in str(err.value)


def test_a_table_beyond_the_memory_limit_is_refused_before_any_work(monkeypatch):
    three = exact.pass_bytes(3, kept_layers=30)
    monkeypatch.setattr(exact, "memory_limit", lambda: three)
    monkeypatch.setattr(exact, "sweep", lambda *a, **k: pytest.fail("it started"))
    with pytest.raises(ValueError, match=r"cannot solve at 4 players: it needs about .* GiB, "
                                         r"more than the .* GiB this process may use "
                                         r"\(core.memory.memory_limit\); up to 3 players fit"):
        solve(4, DEFAULT, 10)
    monkeypatch.setattr(exact, "memory_limit", lambda: 1000)
    with pytest.raises(ValueError, match="no table fits") as err:
        nash_conv("random", 2, DEFAULT, 1)
    assert "\n" not in str(err.value)
