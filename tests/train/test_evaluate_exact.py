"""Exact columns of 3+-player evaluations (issue 10): the solver's values averaged over the
seat rotation the games play, each seat's best-response gain and the lineup's NashConv; a
note saying why when they are left out (Monte Carlo only)."""

from __future__ import annotations

import math
import re

import pytest

from pagadores_env.pagadores.solver import exact_evaluate, nash_conv
from pagadores_train.evaluation import evaluate as evaluation
from pagadores_train.evaluation import yardstick
from pagadores_train.evaluation.evaluate import evaluate_agents
from pagadores_train.progress import LINES
from tests.lines import TIMES, untimed
from tests.players import SEAT_BOUND, RowByRow, SeatBound

LINEUP = ["sensible", "random", "stop-first"]


@pytest.fixture(scope="module")
def three() -> evaluation.EvalResult:
    return evaluate_agents(LINEUP, num_players=3, num_games=300, seed=1, cards=2)


@pytest.mark.slow
def test_R3_1_exact_win_averages_the_seat_rotation_the_games_play(three) -> None:
    # Game g seats entry e at seat (e + g) % 3, seat 0 insteeking first: the exact value
    # of entry e is the mean over g of its seat's value in that profile.
    measured = [nash_conv([LINEUP[(seat - g) % 3] for seat in range(3)], 3, 2)
                for g in range(3)]
    for entry, row in enumerate(three.rows):
        seats = [(entry + g) % 3 for g in range(3)]
        win = sum(m.values[s] for m, s in zip(measured, seats, strict=True)) / 3
        gain = sum(m.gains[s] for m, s in zip(measured, seats, strict=True)) / 3
        assert row.exact_win_probability == pytest.approx(win, abs=1e-12)
        assert row.exact_gain == pytest.approx(gain, abs=1e-12)
        assert row.exact_nash_conv == pytest.approx(sum(m.total for m in measured) / 3,
                                                    abs=1e-12)
    assert sum(r.exact_win_probability for r in three.rows) == pytest.approx(1, abs=1e-12)


def test_exact_columns_are_in_the_table_with_the_nash_conv_note(three) -> None:
    text = three.table()
    assert "exact win" in text and "BR gain" in text and "% of BR" not in text
    assert f"NashConv of the lineup = the sum of every seat's gain: " \
           f"{three.rows[0].exact_nash_conv:.4f}" in text
    assert three.has_exact and not three.exact_note


def test_a_reused_opponent_gets_the_exact_value_per_seat() -> None:
    result = evaluate_agents(["sensible", "random"], num_players=3, num_games=30, seed=2,
                             cards=1)
    me, them = result.rows
    rotations = [exact_evaluate([["sensible", "random", "random"][(s - g) % 3]
                                 for s in range(3)], 3, 1)[g] for g in range(3)]
    assert me.exact_win_probability == pytest.approx(sum(rotations) / 3, abs=1e-12)
    assert them.exact_win_probability == pytest.approx((1 - me.exact_win_probability) / 2,
                                                       abs=1e-12)  # per seat, as win_rate


@pytest.mark.slow
def test_exact_win_agrees_with_monte_carlo_within_4_se() -> None:
    result = evaluate_agents(["sensible", "random"], num_players=3, num_games=30_000, seed=3,
                             cards=2)
    me = result.rows[0]  # the opponent's per-seat rate is (1 - mine) / 2: nothing new
    p = me.exact_win_probability
    assert abs(me.win_rate - p) <= 4 * math.sqrt(p * (1 - p) / result.num_games)


def test_monte_carlo_numbers_do_not_change_with_the_exact_columns(three) -> None:
    plain = evaluate_agents(LINEUP, num_players=3, num_games=300, seed=1, cards=2, exact=False)
    assert not plain.has_exact and not plain.exact_note
    for with_exact, without in zip(three.rows, plain.rows, strict=True):
        assert evaluation.replace(with_exact, exact_win_probability=None, exact_gain=None,
                                  exact_nash_conv=None) == without


def test_unasked_exact_columns_beyond_the_quick_limit_are_skipped_and_said(monkeypatch
                                                                           ) -> None:
    rows = yardstick.lineup_cost([evaluation.make_policy(a) for a in LINEUP], 3, 2)
    monkeypatch.setattr(evaluation, "QUICK_ROWS", rows - 1)
    skipped = evaluate_agents(LINEUP, num_players=3, num_games=30, seed=1, cards=2)
    assert not skipped.has_exact
    assert skipped.exact_note == (
        f"exact: skipped: its 3 solver passes would ask {rows:.1e} policy rows, more than the "
        f"{rows - 1:.0e} done unasked (exact=True, or --exact at the command line, computes "
        f"them); Monte Carlo only")
    assert skipped.table().endswith(skipped.exact_note)
    forced = evaluate_agents(LINEUP, num_players=3, num_games=30, seed=1, cards=2, exact=True)
    assert forced.has_exact and not forced.exact_note


def test_a_table_beyond_the_solver_is_monte_carlo_only_with_the_limit_named() -> None:
    result = evaluate_agents(["sensible", "random"], num_players=5, num_games=10, cards=4)
    assert not result.has_exact
    assert result.exact_note.startswith(
        "exact: not covered: 5 players with 4 cards each is too big to compute NashConv of "
        "exactly: ")
    assert "GB of arrays (limit" in result.exact_note  # the limit it is over, named
    assert "within the limits: " in result.exact_note
    assert result.exact_note.endswith("; Monte Carlo only") and "\n" not in result.exact_note


def test_exact_true_beyond_the_solver_is_refused_before_any_game() -> None:
    class Counting(RowByRow):
        calls = 0

        def act(self, obs, mask):
            Counting.calls += 1
            return super().act(obs, mask)

    with pytest.raises(ValueError, match="5 players with 4 cards each is too big"):
        evaluate_agents([Counting("sensible"), "random"], num_players=5, num_games=10,
                        cards=4, exact=True)
    assert Counting.calls == 0


def test_a_learner_is_measured_against_each_opponent_and_in_every_seat() -> None:
    player = evaluation.make_policy("sensible")
    measured = yardstick.learner_exact(player, ["random", "stop-first"], 3, 1)
    for opponent in ("random", "stop-first"):
        rotations = [exact_evaluate([player if seat == g else opponent for seat in range(3)],
                                    3, 1)[g] for g in range(3)]
        assert measured.win_probability[opponent] == pytest.approx(sum(rotations) / 3,
                                                                   abs=1e-12)
    assert measured.nash_conv == pytest.approx(nash_conv("sensible", 3, 1).total, abs=1e-12)
    one_pass = yardstick.pass_cost([player], 3, 1)
    # one pass: the learner everywhere, each opponent at the two seats beside it
    assert yardstick.learner_cost(player, ["random", "stop-first"], 3, 1) == (
        one_pass + 2 * (one_pass * 2 // 3))


@pytest.mark.slow
def test_a_player_that_must_know_its_seat_is_measured_as_its_copy_at_each_seat() -> None:
    """The exact columns seat a player as the games do (``SeatBound``: its copy for each
    seat; the player itself refuses to decide)."""
    result = evaluate_agents([SeatBound(), "sensible"], 3, 3, cards=2, exact=True)
    rotations = [exact_evaluate([SEAT_BOUND[g > 0] if seat == g else "sensible"
                                 for seat in range(3)], 3, 2)[g] for g in range(3)]
    assert result.rows[0].exact_win_probability == pytest.approx(sum(rotations) / 3,
                                                                 abs=1e-12)


def _phase(lines: list[str], label: str, unit: str) -> list[str]:
    """``label``'s step lines, checking that its first line starts it and its last ends it."""
    mine = [line for line in lines if line.startswith(f"{label}: ")]
    assert re.fullmatch(rf"{re.escape(label)}: [\d,]+ {unit}", mine[0])
    assert re.fullmatch(rf"{re.escape(label)}: done {TIMES}", mine[-1])
    return [untimed(line) for line in mine[1:-1]]


def test_the_exact_columns_report_one_status_line_per_solver_pass(capsys) -> None:
    evaluate_agents(LINEUP, 3, 3, cards=1, exact=True, progress=LINES)
    lines = capsys.readouterr().err.splitlines()
    assert "evaluate (exact): 3 passes" in lines
    assert _phase(lines, "evaluate (exact)", "passes") == [
        f"evaluate (exact): {g + 1}/3 passes (rotation {g})" for g in range(3)]


def test_a_learners_one_solver_pass_reports_its_positions_by_tenths(capsys) -> None:
    yardstick.learner_exact(evaluation.make_policy("sensible"), ["random"], 3, 2,
                            progress=LINES, label="exact at step 100")
    lines = capsys.readouterr().err.splitlines()
    total = int(lines[0].removeprefix("exact at step 100: ").removesuffix(" positions"))
    steps = _phase(lines, "exact at step 100", "positions")
    done = [int(re.fullmatch(rf"exact at step 100: (\d+)/{total} positions", line)[1])
            for line in steps]
    assert 1 <= len(done) <= 10 and done[-1] == total
    assert len(lines) == len(steps) + 2
