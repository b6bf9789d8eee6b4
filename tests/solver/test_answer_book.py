"""The profile's answers are asked once for every per-seat pass (``solver.answer_book``): the
same numbers as asking in each pass, a fraction of the questions."""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
import pytest

from pagadores_env.core.policies import BasePolicy, make_policy
from pagadores_env.pagadores.observation import decode
from pagadores_env.pagadores.solver import passes
from pagadores_env.pagadores.solver.answer_book import AnswerBook, bookable, record, write_shard
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


def test_the_profile_is_asked_once_for_all_the_per_seat_passes(per_seat, monkeypatch) -> None:
    booked, once = asked(monkeypatch, True)
    apart, every_pass = asked(monkeypatch, False)
    assert once > 0
    assert every_pass == 3 * once  # three seats with cards: three passes
    for field in ("gains", "values", "best_responses"):
        np.testing.assert_array_equal(getattr(booked, field), getattr(apart, field))


def test_at_four_players_with_uneven_cards_the_book_gives_the_same_numbers(
        per_seat, monkeypatch) -> None:
    booked, once = asked(monkeypatch, True, 4, [2, 1, 0, 2])
    apart, every_pass = asked(monkeypatch, False, 4, [2, 1, 0, 2])
    assert every_pass == 3 * once  # the seat without cards has no pass
    np.testing.assert_array_equal(booked.gains, apart.gains)
    np.testing.assert_array_equal(booked.values, apart.values)


def test_shards_written_apart_read_back_what_one_record_holds(tmp_path: Path) -> None:
    start = (2, 3, 2)
    players = [make_policy("lookahead")] * 3
    whole = AnswerBook().bind(start)
    whole.add_shard(*record(players, start))
    for part in range(3):
        write_shard(tmp_path, part, record(players, start, part, 3))
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        f"shard{k}.{kind}.npy" for k in range(3) for kind in ("data", "index"))
    loaded = AnswerBook.load(tmp_path, start)
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
