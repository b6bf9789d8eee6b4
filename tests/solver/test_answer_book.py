"""The profile's answers are asked once for every per-seat pass (``solver.answer_book``): the
same numbers as asking in each pass, a fraction of the questions."""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
import pytest

from pagadores_env.core.policies import BasePolicy, make_policy, takes_parameter
from pagadores_env.pagadores.observation import decode
from pagadores_env.pagadores.solver import passes
from pagadores_env.pagadores.solver.answer_book import (
    AnswerBook,
    bookable,
    record,
    shared_by_turning,
    turned,
    write_shard,
)
from pagadores_env.pagadores.solver.cost import SolveCost, solve_cost
from pagadores_env.pagadores.solver.equilibrium import nash_conv_and_evaluate
from pagadores_env.pagadores.solver.sweep import positions


class Counting(BasePolicy):
    """A deterministic player asked about every row (no decision table, no probabilities),
    counting the rows: it throws again on two strengths in three and with fewer throws used."""

    rows = 0

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        return int(self.act_fields(decode(np.reshape(obs, (1, -1))), mask)[0])

    def act_fields(self, fields, mask) -> np.ndarray:
        Counting.rows += len(fields.my_strength)
        strength = np.asarray(fields.my_strength)
        return ((strength % 3 != 0) & (np.asarray(fields.throws_used) < 2)).astype(np.int64)


@pytest.fixture
def per_seat(monkeypatch):
    """Every one-pass plan too big: ``passes.plan`` takes one pass per seat."""
    def without_room(*args, **kwargs) -> SolveCost:
        cost = solve_cost(*args, **kwargs)
        return SolveCost(cost.positions, cost.rows, 10**30)

    monkeypatch.setattr(passes, "solve_cost", without_room)


def asked(monkeypatch, booking: bool, n: int = 3, cards: int = 3):
    """NashConv of ``Counting`` per seat, with or without the book, and the rows asked."""
    if not booking:
        monkeypatch.setattr(passes, "bookable", lambda player: False)
    Counting.rows = 0
    result = nash_conv_and_evaluate(Counting(), [], n, cards, first_insteker=1)[0]
    monkeypatch.setattr(passes, "bookable", bookable)
    return result, Counting.rows


class Hashing(BasePolicy):
    """A deterministic player whose answer depends on every number of the observation row
    (a hash of it), so that any difference between the rows of a seat and those of seat 0
    at the turned position (``answer_book.turned``) would change what it plays."""

    weights = np.random.default_rng(7).integers(1, 2**20, 64)

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        return int(self.act_batch(np.reshape(obs, (1, -1)), np.reshape(mask, (1, -1)))[0])

    def act_batch(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        rows = np.rint(np.asarray(obs, np.float64) * 997).astype(np.int64)
        return ((rows @ self.weights[:rows.shape[1]]) >> 3) % 2


def test_the_profile_is_asked_once_for_all_the_per_seat_passes(per_seat, monkeypatch) -> None:
    booked, once = asked(monkeypatch, True)
    apart, every_pass = asked(monkeypatch, False)
    assert once > 0
    # three passes, and the book asks seat 0 alone: the others' rows are its own turned
    assert every_pass == 3 * 3 * once
    for field in ("gains", "values", "best_responses"):
        np.testing.assert_array_equal(getattr(booked, field), getattr(apart, field))


def test_at_four_players_with_uneven_cards_the_book_gives_the_same_numbers(
        per_seat, monkeypatch) -> None:
    booked, once = asked(monkeypatch, True, 4, [2, 1, 0, 2])
    apart, every_pass = asked(monkeypatch, False, 4, [2, 1, 0, 2])
    assert every_pass == 3 * once  # the seat without cards has no pass
    np.testing.assert_array_equal(booked.gains, apart.gains)
    np.testing.assert_array_equal(booked.values, apart.values)


@pytest.mark.parametrize("n", [3, 4])
def test_one_player_at_every_seat_is_asked_as_seat_0_and_every_seat_reads_it(
        per_seat, monkeypatch, n: int) -> None:
    # the rows of seat s are those of seat 0 at the position turned by s (R7.1), checked
    # with a player that reads every number of its rows
    booked = nash_conv_and_evaluate(Hashing(), [], n, 2, first_insteker=1)[0]
    monkeypatch.setattr(passes, "bookable", lambda player: False)
    apart = nash_conv_and_evaluate(Hashing(), [], n, 2, first_insteker=1)[0]
    assert booked == apart
    assert booked.total > 0.01  # a player far from the equilibrium: its answers matter


def test_seat_0_answers_for_all_only_for_one_player_at_equal_cards() -> None:
    one = Hashing()
    assert shared_by_turning([one] * 4, (3, 3, 3, 3))
    assert not shared_by_turning([one] * 4, (3, 3, 2, 3))  # turned, a seat would hold 3
    assert not shared_by_turning([one, Hashing(), one, one], (3, 3, 3, 3))  # per-seat copies
    assert not shared_by_turning([make_policy("sensible")] * 3, (3, 3, 3))  # looked up
    assert turned((1, 2, 0, 3), 2, 1) == ((2, 0, 3, 1), 1)
    start = (2, 2, 2)
    players = [Hashing()] * 3
    data, index = record(players, start)
    assert set(index[:, 2].tolist()) == {0}  # seat 0's questions alone
    book = AnswerBook().bind(start, players)
    book.add_shard(data, index)
    separate = [Hashing() for _ in range(3)]  # three objects: each seat asked for itself
    every = AnswerBook().bind(start, separate)
    every.add_shard(*record(separate, start))
    for cards in positions(start):
        for insteker in (s for s in range(3) if cards[s]):
            for seat in (s for s in range(3) if cards[s]):
                np.testing.assert_array_equal(book.answers(cards, insteker, seat),
                                              every.answers(cards, insteker, seat))


def test_shards_written_apart_read_back_what_one_record_holds(tmp_path: Path) -> None:
    start = (2, 3, 2)
    players = [make_policy("lookahead")] * 3
    whole = AnswerBook().bind(start, players)
    whole.add_shard(*record(players, start))
    for part in range(3):
        write_shard(tmp_path, part, record(players, start, part, 3))
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        f"shard{k}.{kind}.npy" for k in range(3) for kind in ("data", "index"))
    loaded = AnswerBook.load(tmp_path, start, players)
    assert loaded.entries.keys() == whole.entries.keys()
    for cards in positions(start):
        for insteker in (s for s in range(3) if cards[s]):
            for seat in (s for s in range(3) if cards[s]):
                expected = whole.answers(cards, insteker, seat)
                assert expected is not None and expected.any() and not expected.all()
                np.testing.assert_array_equal(loaded.answers(cards, insteker, seat), expected)
    assert whole.answers((9, 9, 9), 0, 0) is None  # not at this table


@pytest.mark.parametrize(("spec", "kept"), [("lookahead", True), ("random", False),
                                            ("sensible", False)])
def test_only_players_that_are_asked_and_answer_one_way_are_booked(spec, kept) -> None:
    # random declares its probabilities (no single answer); sensible has a decision table
    assert bookable(make_policy(spec)) is kept
    assert not bookable(True)  # a seat that maximises is never asked


@pytest.mark.slow
def test_a_book_shared_out_among_workers_gives_the_same_numbers_and_is_removed(
        per_seat, monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    alone = nash_conv_and_evaluate("lookahead", [], 3, 3)[0]
    seen: list[list[str]] = []
    measure = passes._measure

    def looked(chosen, wins, keys, todo, book, *rest):
        seen.append(sorted(p.name for p in Path(book).iterdir()))
        return measure(chosen, wins, keys, todo, book, *rest)

    monkeypatch.setattr(passes, "_measure", looked)
    apart = nash_conv_and_evaluate("lookahead", [], 3, 3, workers=2)[0]
    assert apart == alone
    assert seen == [[f"shard{k}.{kind}.npy" for k in range(2) for kind in ("data", "index")]]
    assert list(tmp_path.iterdir()) == []  # the book's folder went with the run


def test_a_pass_seats_one_object_for_a_spec_given_for_every_seat() -> None:
    # a pass asks rows only, so one object answers for every seat (and its book turns);
    # a player that takes its seat (R6.2 tells seats apart at 4+) keeps one per seat
    played, _ = passes.seat_profiles(["lookahead"], (3, 3, 3, 3), True)
    assert len({id(p) for p in played[("profile", 0)]}) == 1
    assert shared_by_turning(played[("profile", 0)], (3, 3, 3, 3))
    own = passes.profile_players("lookahead", 4, 3, check=False)
    assert len({id(p) for p in own}) == 4  # outside a pass: each seat its own, as before
    assert takes_parameter("equilibrium", "seat") and not takes_parameter("lookahead", "seat")
    apart = passes.profile_players(["lookahead", "lookahead"], 2, 3, check=False, share=True)
    assert apart[0] is not apart[1]  # one per seat, as listed
