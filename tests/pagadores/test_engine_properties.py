"""Property tests: invariants of the rules over random play (Hypothesis).

Each example is a random table (2–6 seats, equal or per-seat cards, any first insteker) played
to the end with random dice and random decisions. Invariants are checked three ways: live, at
every step (node types, legal actions, card counts); afterwards by walking the event log with
independent bookkeeping (throw limits, turn order, kampen, eliminations); and by feeding the
engine's inputs to a small procedural reference implementation of RULES.md, which must agree
on every node type, every card and every round's insteker.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pagadores_env.core.protocol import Event
from pagadores_env.pagadores.engine import Game, Phase
from pagadores_env.pagadores.rules import UNORDERED, Kind, classify
from tests.dice import AGAIN, STOP, random_step

MAX_STEPS = 50_000  # far above any real game; only an engine that never ends reaches it


@st.composite
def tables(draw: st.DrawFn) -> Game:
    """A start position: equal cards 1–10, or per-seat 0–10 with two seats holding cards."""
    n = draw(st.integers(2, 6))
    if draw(st.booleans()):
        cards: int | list[int] = draw(st.integers(1, 10))
        holders = list(range(n))
    else:
        cards = draw(st.lists(st.integers(0, 10), min_size=n, max_size=n))
        for seat in draw(st.permutations(range(n)))[:2]:  # at least two seats hold cards
            cards[seat] = cards[seat] or draw(st.integers(1, 10))
        holders = [s for s, c in enumerate(cards) if c]
    return Game(n, cards, draw(st.sampled_from(holders)))


def check_node(game: Game) -> None:
    """Invariants of the node the game is at, before it moves."""
    seat = game.current_player
    assert game.cards[seat] > 0, f"seat {seat} acts without cards"
    if game.is_decision_node():
        assert not game.is_chance_node()
        assert game.legal_actions() == [STOP, AGAIN]
        assert game.phase == Phase.ROUND  # R5.1: no decisions in kampen
        assert 1 <= game.throws < game.max_throws  # R3.6: only with throws left
    else:
        assert game.is_chance_node() and game.legal_actions() == []
        outcomes = game.chance_outcomes()
        assert len(outcomes) == 56
        assert math.isclose(sum(p for _, p in outcomes), 1.0)
    if game.phase == Phase.ROUND:  # R3.2 / R3.4: the insteker may use 3, others the limit
        is_insteker = game.pos == 0
        assert game.max_throws == (3 if is_insteker else game.throw_limit)
        assert (game.throw_limit is None) == is_insteker


def play_out(game: Game, rng: random.Random, p_again: float,
             palette: Sequence[tuple[int, int, int]] = ()) -> Game:
    """Play to the end with random inputs, checking node and card invariants at every step."""
    round_start_total = sum(game.cards)
    for _ in range(MAX_STEPS):
        if game.is_terminal():
            break
        check_node(game)
        before, round_before = list(game.cards), game.round
        random_step(game, rng, p_again, palette)
        assert all(0 <= c <= b for c, b in zip(game.cards, before, strict=True)), (
            f"cards went from {before} to {game.cards}")
        if game.round != round_before or game.is_terminal():  # a round was settled
            assert sum(game.cards) < round_start_total, "a round ended with no card lost"
            round_start_total = sum(game.cards)
    else:
        raise AssertionError(f"game not over after {MAX_STEPS} steps: {game!r}")
    return game


def clockwise(start: int, cards: list[int]) -> list[int]:
    n = len(cards)
    return [s for s in ((start + k) % n for k in range(n)) if cards[s]]


def check_log(game: Game) -> None:
    """Walk the event log with independent bookkeeping and check R1–R6 on it."""
    cards = list(game.start_cards)
    out = {s for s, c in enumerate(cards) if c == 0}
    rounds = 0
    turns: list[int] = []  # round phase: seats in the order they threw (with repeats)
    limit = None
    kampen: tuple[int, ...] = ()
    kampen_throws: list[int] = []
    phase = "round"

    def close_kampen(settled: bool) -> None:
        # R5.1: each kampen player throws exactly once, in order; a special or Picaro may
        # stop the kampen early (R5.2, R6.2), so an unsettled kampen is a prefix.
        expected = list(kampen) if settled else list(kampen[:len(kampen_throws)])
        assert kampen_throws == expected, (kampen, kampen_throws)

    for e in game.log:
        if e.kind in ("throw", "again", "stop"):
            assert e.seat not in out, f"seat {e.seat} acted after elimination: {e}"
        if e.kind == "round":
            if phase == "kampen":
                close_kampen(settled=False)
            rounds += 1
            assert e.value == rounds
            order = clockwise(e.seat, cards)  # R1.2
            turns, limit, phase = [], None, "round"
        elif e.kind == "throw" and phase == "round":
            turns.append(e.seat)
            runs = [s for i, s in enumerate(turns) if i == 0 or turns[i - 1] != s]
            assert runs == order[:len(runs)], f"turn order {runs} is not clockwise {order}"
            count = Counter(turns)[e.seat]
            assert count <= (3 if e.seat == order[0] else limit), (e, limit)  # R3.2, R3.4
        elif e.kind == "throw":
            kampen_throws.append(e.seat)
        elif e.kind == "limit":
            assert e.seat == order[0] and 1 <= e.value <= 3
            assert Counter(turns)[e.seat] == e.value
            limit = e.value
        elif e.kind == "kampen":
            if phase == "kampen":
                close_kampen(settled=True)
                assert set(e.value) <= set(kampen)  # R5.3: only the tied play again
            kampen, kampen_throws, phase = e.value, [], "kampen"
        elif e.kind == "special":
            group = kampen if phase == "kampen" else order
            assert {v for v, _ in e.value} == {s for s in group if s != e.seat and s not in out}
            for victim, lost in e.value:
                cards[victim] -= lost
        elif e.kind in ("loses", "picaro"):
            if e.kind == "loses" and phase == "kampen":
                close_kampen(settled=True)
                assert e.seat in kampen
            cards[e.seat] -= e.value
        elif e.kind == "out":
            assert cards[e.seat] == 0
            out.add(e.seat)
        assert min(cards) >= 0  # R1.4
    assert cards == game.cards, "card changes in the log do not add up to the cards"
    assert rounds == game.round


# ---------------------------------------------------------------- an independent reference
class RoundOver(Exception):
    """A Picaro or an emptying special stopped the round; ``insteker`` starts the next."""

    def __init__(self, insteker: int) -> None:
        self.insteker = insteker


def reference_game(start: tuple[int, ...], first: int, inputs: Iterator[Event]
                   ) -> tuple[list[int], list[int]]:
    """The rules written as plain procedural code, straight from RULES.md, fed with the
    engine's own inputs (its throw/again/stop events). Returns the final cards and each
    round's insteker. Fails if it wants a throw where the engine had a decision, or the
    other way round, or a different seat."""
    cards = list(start)

    def next_clockwise(seat: int) -> int:
        return clockwise(seat + 1, cards)[0]

    def throw(seat: int, group: list[int]) -> int:
        e = next(inputs)
        assert (e.kind, e.seat) == ("throw", seat), f"reference expects {seat} to throw: {e}"
        t = classify(e.value)
        if t.kind is Kind.PICARO:  # R4.4, R5.2
            cards[seat] -= min(2, cards[seat])
            raise RoundOver(seat if cards[seat] else next_clockwise(seat))
        hit = [v for v in group if v != seat] if t.penalty else []  # R4.1, R5.2
        for victim in hit:  # everyone in the group still has cards: emptying ends it (R6.2)
            cards[victim] = max(0, cards[victim] - t.penalty)
        emptied = [v for v in hit if cards[v] == 0]
        if emptied:  # R6.2
            raise RoundOver(next_clockwise(emptied[0]) if len(emptied) == 1
                            else max(s for s, c in enumerate(cards) if c))
        return t.strength

    def again(seat: int) -> bool:
        e = next(inputs)
        assert e.kind in ("again", "stop") and e.seat == seat, (
            f"reference expects {seat} to decide: {e}")
        return e.kind == "again"

    def play_round(order: list[int]) -> int:
        scores, limit = {}, 3
        for i, seat in enumerate(order):  # R3.2, R3.4: up to 3, then up to the limit
            used = 0
            while True:
                scores[seat] = throw(seat, order)  # R3.3: the last throw is the score
                used += 1
                if used == limit or not again(seat):
                    break
            limit = used if i == 0 else limit
        group = order
        while True:  # R3.5, R5.1, R5.3
            low = min(scores[s] for s in group)
            group = [s for s in group if scores[s] == low]
            if len(group) == 1:
                break
            scores = {s: throw(s, group) for s in group}
        loser = group[0]
        cards[loser] -= 1
        return loser if cards[loser] else next_clockwise(loser)  # R3.5, R6.1

    instekers = []
    insteker = first
    while sum(c > 0 for c in cards) > 1:
        instekers.append(insteker)
        try:
            insteker = play_round(clockwise(insteker, cards))
        except RoundOver as over:
            insteker = over.insteker
    return cards, instekers


def check_against_reference(game: Game) -> None:
    inputs = iter([e for e in game.log if e.kind in ("throw", "again", "stop")])
    cards, instekers = reference_game(game.start_cards, game.first_insteker, inputs)
    assert next(inputs, None) is None, "the reference game ended before the engine's"
    assert cards == game.cards
    assert instekers == [e.seat for e in game.log if e.kind == "round"]


@settings(max_examples=400)
@given(tables(), st.randoms(use_true_random=True), st.sampled_from([0.0, 0.2, 0.5, 0.8, 1.0]))
def test_random_play_keeps_the_rules(game: Game, rng: random.Random, p_again: float) -> None:
    play_out(game, rng, p_again)
    # R1.5: exactly one winner, the only seat with cards; the log ends with it.
    assert game.alive() == [game.winner]
    assert game.log[-1].kind == "winner" and game.log[-1].seat == game.winner
    assert [e.kind for e in game.log].count("winner") == 1
    assert game.returns().count(1.0) == 1 and game.returns()[game.winner] == 1.0
    assert game.placements()[game.winner] == 1 and game.placements().count(1) == 1
    assert game.insteker is None and game.current_player == -1  # R6.3
    check_log(game)
    check_against_reference(game)


#: A few throws of distinct strengths (so every kampen can end): ties, repeated kampen and
#: specials in kampen, rare under fair dice, become common.
palettes = st.lists(st.sampled_from(UNORDERED), min_size=2, max_size=5,
                    unique_by=lambda d: classify(d).strength)


@settings(max_examples=300)
@given(tables(), st.randoms(use_true_random=True), st.sampled_from([0.0, 0.5, 1.0]), palettes)
def test_play_with_few_distinct_throws_keeps_the_rules(
        game: Game, rng: random.Random, p_again: float, palette: list[tuple[int, int, int]]
) -> None:
    play_out(game, rng, p_again, palette)
    assert game.alive() == [game.winner]
    check_log(game)
    check_against_reference(game)


@settings(max_examples=100)
@given(st.integers(2, 6), st.integers(1, 10), st.randoms(use_true_random=True))
def test_every_player_who_loses_their_cards_leaves_at_once(
        n: int, cards: int, rng: random.Random) -> None:
    """Elimination is logged exactly once per seat and the placements agree with it."""
    game = play_out(Game(n, cards), rng, 0.5)
    outs = [e.seat for e in game.log if e.kind == "out"]
    assert sorted(outs) == sorted(set(range(n)) - {game.winner})
    place = game.placements()
    # A seat knocked out later places better (smaller number) than one knocked out earlier.
    for earlier, later in pairwise(outs):
        assert place[later] <= place[earlier]


@pytest.mark.parametrize("n", range(2, 7))
def test_official_tables_match_the_reference(n: int) -> None:
    """Full 10-card games (longer than most Hypothesis examples) against the reference."""
    for seed in range(150):
        rng = random.Random(seed)
        game = play_out(Game(n, 10, first_insteker=rng.randrange(n)), rng, rng.random())
        check_log(game)
        check_against_reference(game)
