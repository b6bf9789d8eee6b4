"""Evaluation and tournaments (pagadores_train.evaluation.evaluate: ``evaluate_agents``,
``tournament``)."""

from __future__ import annotations

import csv
import json
import math
import re

import numpy as np
import pytest

from pagadores_agents.heuristics import SensiblePolicy
from pagadores_env.core import atomic
from pagadores_train.evaluation.evaluate import (
    AgentStats,
    EvalResult,
    evaluate_agents,
    wilson_interval,
)
from pagadores_train.evaluation.tournament import (
    ELO,
    bradley_terry,
    bradley_terry_covariance,
    rank_ranges,
    tournament,
)
from pagadores_train.progress import LINES, Reporter
from tests.lines import TIMES
from tests.players import RowByRow

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


# ---------------------------------------------------------------- arithmetic
@pytest.mark.parametrize(("wins", "trials", "low", "high"), [
    # Hand-computed: centre = (p + z²/2n)/(1 + z²/n), half = z/(1 + z²/n)·√(p(1-p)/n + z²/4n²)
    (8, 10, 0.4901625, 0.9433178),
    (0, 10, 0.0, 0.2775328),
    (50, 100, 0.4038315, 0.5961685),
    (10, 10, 0.7224672, 1.0),
])
def test_wilson_interval_by_hand(wins, trials, low, high):
    assert wilson_interval(wins, trials) == pytest.approx((low, high), abs=1e-6)


def test_wilson_interval_without_trials_is_everything():
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_bradley_terry_recovers_the_odds_of_two_players():
    # 30 wins to 10: strengths 3:1, i.e. 400·log10(3) Elo points apart, centred on 0.
    rating = bradley_terry(np.array([[0, 30], [10, 0]]), prior=0.0)
    assert rating[0] - rating[1] == pytest.approx(400 * math.log10(3), abs=1e-6)
    assert rating.sum() == pytest.approx(0.0, abs=1e-9)


def test_bradley_terry_covariance_is_the_binomial_variance_for_two_players():
    # p = 3/4 from 40 games: Var(logit p) = 1 / (n p (1 - p)) = 1 / 7.5, split evenly
    wins = np.array([[0, 30], [10, 0]])
    cov = bradley_terry_covariance(wins, bradley_terry(wins, prior=0.0), prior=0.0)
    np.testing.assert_allclose(cov, ELO**2 / 30 * np.array([[1, -1], [-1, 1]]))


@pytest.mark.slow
def test_bradley_terry_intervals_cover_at_their_level():
    """Simulated round-robins between agents of known strength: the Hessian standard error
    matches the spread of the fitted ratings, and the 95 % intervals cover the truth ~95 %
    of the time (seeded; 2 000 tournaments, so ±1.5 % is 3 standard errors)."""
    rng = np.random.default_rng(0)
    truth = np.array([60.0, 20.0, -30.0, -50.0])
    p = 1 / (1 + 10 ** ((truth[None, :] - truth[:, None]) / 400))  # p[i, j]: i beats j
    games, covered, fitted = 200, 0, []
    for _ in range(2000):
        wins = np.zeros((4, 4), dtype=np.int64)
        for i in range(4):
            for j in range(i + 1, 4):
                wins[i, j] = rng.binomial(games, p[i, j])
                wins[j, i] = games - wins[i, j]
        rating = bradley_terry(wins, prior=0.0)
        se = np.sqrt(np.diag(bradley_terry_covariance(wins, rating, prior=0.0)))
        covered += int(np.sum(np.abs(rating - truth) <= 1.959963984540054 * se))
        fitted.append(rating)
    assert covered / 8000 == pytest.approx(0.95, abs=0.015)
    spread = np.std(fitted, axis=0)
    np.testing.assert_allclose(spread, se, rtol=0.1)


def test_rank_ranges_separate_only_what_the_games_tell_apart():
    wins = np.array([[0, 360, 350], [40, 0, 205], [50, 195, 0]])
    rating = bradley_terry(wins)
    best, worst = rank_ranges(rating, bradley_terry_covariance(wins, rating))
    assert list(best) == [1, 2, 2] and list(worst) == [1, 3, 3]
    even = np.full((3, 3), 200) - np.diag([200] * 3)
    rating = bradley_terry(even)
    best, worst = rank_ranges(rating, bradley_terry_covariance(even, rating))
    assert list(best) == [1, 1, 1] and list(worst) == [3, 3, 3]


def test_bradley_terry_prior_keeps_an_unbeaten_rating_finite():
    rating = bradley_terry(np.array([[0, 20, 20], [0, 0, 10], [0, 10, 0]]))
    assert np.isfinite(rating).all() and rating[0] > rating[1] == pytest.approx(rating[2])


# ---------------------------------------------------------------- seats and bookkeeping
# Each runs with spec strings (players that answer a batch at once) and with players asked row
# by row (``tests.players.RowByRow``; before 0.2 these were played on the scalar engine).
AGENT_KINDS = pytest.mark.parametrize("as_agent", [str, RowByRow], ids=["batch", "row-by-row"])


@AGENT_KINDS
def test_R3_1_seats_rotate_so_everyone_sits_everywhere_equally_often(as_agent):
    agents = [as_agent(a) for a in ("sensible", "random", "lookahead")]
    result = evaluate_agents(agents, num_players=3, num_games=7)
    assert result.num_games == 9  # rounded up to a multiple of the table size
    for row in result.rows:
        assert row.seat_counts == (3, 3, 3) and row.trials == 9 and row.copies == 1


@AGENT_KINDS
def test_a_single_opponent_fills_every_other_seat(as_agent):
    agents = [as_agent(a) for a in ("sensible", "random")]
    result = evaluate_agents(agents, num_players=4, num_games=8)
    me, them = result.rows
    assert (me.copies, me.trials, me.seat_counts) == (1, 8, (2, 2, 2, 2))
    assert (them.copies, them.trials, them.seat_counts) == (3, 24, (6, 6, 6, 6))
    assert me.wins + them.wins == 8  # exactly one winner per game (R1.5)


@AGENT_KINDS
def test_one_card_games_have_hand_checkable_statistics(as_agent):
    # With one card each, the first round decides (R1.4, R1.5): one round per game, the loser
    # loses its only card, the winner none.
    agents = [as_agent(a) for a in ("sensible", "stop-first")]
    result = evaluate_agents(agents, num_players=2, num_games=200, cards=1)
    assert result.mean_game_length == 1.0
    for row in result.rows:
        assert row.cards_lost_per_round == pytest.approx(1 - row.win_rate)
        assert row.mean_placement == pytest.approx(2 - row.win_rate)
    assert result.rows[0].wins + result.rows[1].wins == 200


# ---------------------------------------------------------------- reproducibility and strength
@AGENT_KINDS
def test_evaluation_is_reproducible_and_depends_on_the_seed(as_agent):
    args = ([as_agent(a) for a in ("random", "random", "sensible")], 3, 60)
    first = evaluate_agents(*args, seed=4)
    assert evaluate_agents(*args, seed=4) == first
    assert evaluate_agents(*args, seed=5) != first


@pytest.mark.slow
def test_policy_objects_are_reseeded_so_reruns_match():
    first = evaluate_agents([SensiblePolicy(), "random"], 2, 40, seed=2)
    again = evaluate_agents([SensiblePolicy(), "random"], 2, 40, seed=2)
    assert first == again and first.rows[0].label == "sensible"


@pytest.mark.slow
def test_sensible_beats_random_significantly_in_two_player_games():
    result = evaluate_agents(["sensible", "random"], num_players=2, num_games=2000, seed=0)
    assert result.rows[0].ci_low > 0.5
    assert result.rows[0].win_rate + result.rows[1].win_rate == pytest.approx(1.0)


# ---------------------------------------------------------------- errors
@pytest.mark.parametrize(("kwargs", "message"), [
    ({"agents": ["sensible", "random", "random"], "num_players": 4},
     "agents must be 4 entries .* or 2 .* got 3"),
    ({"agents": ["sensible"]},
     "agents must be 2 \\(the agent under test and its opponent\\), got 1"),
    ({"num_players": 7}, "num_players must be an integer 2–6, got 7"),
    ({"num_games": 0}, "num_games must be an integer ≥ 1, got 0"),
    ({"seed": -1}, "seed must be an integer ≥ 0"),
    ({"cards": 0}, "cards must be 1–10"),
    ({"agents": ["sensible", "nosuch"]}, "unknown policy 'nosuch'"),
])
def test_bad_arguments_give_clear_errors(kwargs, message):
    arguments = {"agents": ["sensible", "random"], "num_games": 10} | kwargs
    with pytest.raises(ValueError, match=message):
        evaluate_agents(**arguments)


# ---------------------------------------------------------------- reports
@pytest.fixture(scope="module")
def small_result() -> EvalResult:
    return evaluate_agents(["sensible", "random", "random"], num_players=3, num_games=30,
                           seed=1)


def test_table_is_aligned_and_names_every_agent(small_result):
    text = small_result.table()
    lines = text.splitlines()
    assert "30 games, 3 players" in lines[0]
    header, rule, *rows, note = lines[1:]
    assert [r.split()[0] for r in rows] == ["sensible", "random", "random#2"]
    assert len(set(map(len, [rule, *rows]))) == 1  # right-aligned columns end together
    # 3 players with 10 cards: the exact columns would take minutes, so they are left out
    # and the table says so
    assert note.startswith("exact: skipped") and note.endswith("Monte Carlo only")


def test_csv_and_json_round_trip(small_result, tmp_path):
    small_result.to_csv(tmp_path / "r.csv")
    with open(tmp_path / "r.csv") as handle:
        lines = list(csv.DictReader(handle))
    assert [line["label"] for line in lines] == [r.label for r in small_result.rows]
    for line, row in zip(lines, small_result.rows, strict=True):
        assert float(line["win_rate"]) == row.win_rate and int(line["wins"]) == row.wins
        assert line["seat_counts"] == " ".join(map(str, row.seat_counts))
    small_result.to_json(tmp_path / "r.json")
    data = json.loads((tmp_path / "r.json").read_text())
    rows = tuple(AgentStats(**(r | {"seat_counts": tuple(r["seat_counts"])}))
                 for r in data.pop("rows"))
    assert EvalResult(**data, rows=rows) == small_result


def test_plot_writes_a_png(small_result, tmp_path):
    pytest.importorskip("matplotlib")
    small_result.plot(tmp_path / "r.png")
    assert (tmp_path / "r.png").read_bytes()[:8] == PNG_MAGIC


def test_progress_bar_can_be_shown(capsys):
    pytest.importorskip("tqdm")
    evaluate_agents(["sensible", "random"], num_games=4, progress=True)
    assert "evaluate" in capsys.readouterr().err


def _status(text: str, phase: str) -> list[str]:
    """The status lines of ``phase`` in ``text``: its start, its steps, its end."""
    return [line for line in text.splitlines() if line.startswith(f"{phase}: ")]


def _steps(lines: list[str], phase: str, unit: str) -> list[tuple[int, int, str]]:
    """``(done, total, note)`` of each step line; fails on any other line between the first
    and the last."""
    steps = []
    for line in lines[1:-1]:
        match = re.fullmatch(rf"{re.escape(phase)}: ([\d,]+)/([\d,]+) {unit}(?: \((.*)\))? "
                             rf"{TIMES}", line)
        assert match, line
        steps.append((int(match[1].replace(",", "")), int(match[2].replace(",", "")),
                      match[3] or ""))
    return steps


def test_status_lines_report_the_games_a_tenth_at_a_time_and_the_exact_agents(capsys):
    """``progress=LINES``: one line as the games start, one each time another tenth of them
    has finished, one at the end; then the exact columns, one step per agent tabulated.
    Counted, not timed."""
    result = evaluate_agents(["sensible", "random"], 2, 200, seed=1, cards=2,
                             progress=LINES, label="against random")
    out = capsys.readouterr().err
    games = _status(out, "against random")
    assert games[0] == "against random: 200 games"
    assert re.fullmatch(rf"against random: done {TIMES}", games[-1])
    steps = _steps(games, "against random", "games")
    done = [d for d, total, _ in steps if total == 200]
    assert len(done) == len(steps) and 1 <= len(done) <= 10 and done[-1] == 200
    assert [d * 10 // 200 for d in done] == sorted(set(d * 10 // 200 for d in done))  # tenths
    exact = _status(out, "against random (exact)")
    assert exact[0] == "against random (exact): 2 agents"
    assert _steps(exact, "against random (exact)", "agents") == [
        (1, 2, "sensible"), (2, 2, "random")]
    assert len(out.splitlines()) == len(games) + len(exact) and result.has_exact


def test_a_tournament_reports_one_status_line_per_pair_and_nothing_per_match(capsys):
    tournament(["sensible", "random", "stop-first"], num_games=4, cards=2, progress=LINES)
    lines = capsys.readouterr().err.splitlines()
    assert lines[0] == "tournament: 3 pairs" and re.fullmatch(rf"tournament: done {TIMES}",
                                                                lines[-1])
    assert _steps(lines, "tournament", "pairs") == [
        (1, 3, "sensible vs random"), (2, 3, "sensible vs stop-first"),
        (3, 3, "random vs stop-first")]


def test_progress_goes_to_the_reporter_given(capsys):
    import io

    stream = io.StringIO()
    evaluate_agents(["sensible", "random"], 2, 10, cards=2, exact=False,
                    progress=Reporter(bars=False, stream=stream))
    assert stream.getvalue().splitlines()[0] == "evaluate: 10 games"
    assert capsys.readouterr() == ("", "")  # and the default reports nothing
    evaluate_agents(["sensible", "random"], 2, 10, cards=2, exact=False)
    assert capsys.readouterr() == ("", "")


def test_the_table_says_why_more_games_were_played_than_asked():
    """Games are rounded up to whole seat rotations (every agent in every seat equally
    often, R3.1), and the table says so rather than leave 2,001 games unexplained."""
    rounded = evaluate_agents(["sensible", "random"], 3, 2000, cards=1, exact=False)
    assert rounded.num_games == 2001 and rounded.games_asked == 2000
    assert ("2,001 games: 2,000 rounded up to whole seat rotations of 3 (every agent sits in "
            "every seat equally often)") in rounded.table().splitlines()
    whole = evaluate_agents(["sensible", "random"], 3, 2001, cards=1, exact=False)
    assert "rounded up" not in whole.table()
    pairs = tournament(["sensible", "random"], num_games=5, cards=1)
    assert pairs.num_games == 6
    assert "6 games per pair: 5 rounded up to whole seat rotations of 2" in pairs.table()
    assert "rounded up" not in tournament(["sensible", "random"], num_games=6, cards=1).table()


# ---------------------------------------------------------------- tournament
@pytest.fixture(scope="module")
def small_tournament():
    return tournament(["sensible", "random", "always-throw"], num_games=400, seed=3)


def test_tournament_matrix_is_consistent(small_tournament):
    rates = np.array(small_tournament.win_rate, dtype=float)  # None on the diagonal → NaN
    wins = np.array(small_tournament.wins)
    assert np.isnan(np.diag(rates)).all()
    off = ~np.eye(3, dtype=bool)
    np.testing.assert_allclose((rates + rates.T)[off], 1.0)  # one winner per game (R1.5)
    np.testing.assert_allclose(rates[off], wins[off] / 400)
    assert small_tournament.rating[0] == max(small_tournament.rating)  # sensible on top
    np.testing.assert_allclose(small_tournament.rating, bradley_terry(wins))


def test_tournament_is_reproducible(small_tournament):
    assert tournament(["sensible", "random", "always-throw"], 400, seed=3) == small_tournament
    assert tournament(["sensible", "random", "always-throw"], 400, seed=4) != small_tournament


def test_tournament_reports(small_tournament, tmp_path):
    pytest.importorskip("matplotlib")
    t = small_tournament
    order = sorted(range(3), key=lambda i: -t.rating[i])
    lines = t.table().splitlines()
    assert lines[1].split() == ["rank", "agent", "rating", "95%", "CI",
                                *(t.labels[i] for i in order)]  # by rating, best first
    first = lines[3].split()
    assert first[1] == t.labels[order[0]] and first[0] == t.rank_text(order[0])
    assert first[3] == f"[{t.rating_low[order[0]]:+.0f},"
    assert first[5] == "-"  # the diagonal
    assert "95%" in lines[-1]
    t.to_csv(tmp_path / "t.csv")
    with open(tmp_path / "t.csv") as handle:
        table = list(csv.reader(handle))
    assert table[0][:6] == ["agent", "rating", "rating_low", "rating_high", "rank_best",
                            "rank_worst"]
    assert float(table[1][2]) == t.rating_low[0] and int(table[1][5]) == t.rank_worst[0]
    assert table[1][6] == "" and float(table[1][7]) == t.win_rate[0][1]
    t.to_json(tmp_path / "t.json")
    data = json.loads((tmp_path / "t.json").read_text())
    assert data["win_rate"][0] == [None, *t.win_rate[0][1:]]
    assert data["labels"] == list(t.labels)
    assert data["rating_high"] == list(t.rating_high) and data["rank_best"] == list(t.rank_best)
    t.plot(tmp_path / "t.png")
    assert (tmp_path / "t.png").read_bytes()[:8] == PNG_MAGIC


def test_tournament_ratings_have_intervals_and_rank_ranges(small_tournament):
    t = small_tournament
    cov = bradley_terry_covariance(np.array(t.wins), np.array(t.rating))
    half = 1.959963984540054 * np.sqrt(np.diag(cov))
    np.testing.assert_allclose(t.rating_high, np.array(t.rating) + half)
    np.testing.assert_allclose(t.rating_low, np.array(t.rating) - half)
    assert all(low < r < high for low, r, high in zip(t.rating_low, t.rating, t.rating_high,
                                                      strict=True))
    assert t.rank_best[0] == t.rank_worst[0] == 1  # sensible, clearly on top
    # random and always-throw are about even: their ranks overlap
    assert (t.rank_best[1], t.rank_worst[1]) == (t.rank_best[2], t.rank_worst[2]) == (2, 3)


def test_result_files_are_replaced_whole_or_not_at_all(small_tournament, small_result,
                                                       tmp_path, monkeypatch):
    pytest.importorskip("matplotlib")
    def interrupted(fd):
        raise KeyboardInterrupt

    monkeypatch.setattr(atomic.os, "fsync", interrupted)
    for name, write in [("t.csv", small_tournament.to_csv), ("t.json", small_tournament.to_json),
                        ("t.png", small_tournament.plot), ("e.csv", small_result.to_csv),
                        ("e.json", small_result.to_json), ("e.png", small_result.plot)]:
        (tmp_path / name).write_text("earlier results")
        with pytest.raises(KeyboardInterrupt):
            write(tmp_path / name)
        assert (tmp_path / name).read_text() == "earlier results"
    assert len(list(tmp_path.iterdir())) == 6  # no temporary files left


def test_tournament_needs_two_agents():
    with pytest.raises(ValueError, match="at least 2 agents, got 1"):
        tournament(["sensible"], num_games=2)


def test_policies_are_asked_about_the_table_before_any_game():
    class TwoSeatsOnly(SensiblePolicy):
        decisions = 0

        def check_table(self, num_players, cards):
            if num_players != 2:
                raise ValueError(f"two seats only, got {num_players}")

        def act_batch(self, obs, mask):
            TwoSeatsOnly.decisions += len(obs)
            return super().act_batch(obs, mask)

    with pytest.raises(ValueError, match="two seats only, got 3"):
        evaluate_agents([TwoSeatsOnly(), "random"], num_players=3, num_games=30)
    assert TwoSeatsOnly.decisions == 0
    with pytest.raises(ValueError, match="'optimal' plays 2-player games only"):
        evaluate_agents(["sensible", "optimal"], num_players=4, num_games=4)


def test_a_seat_the_rotation_cannot_keep_is_refused_before_any_game(tmp_path, monkeypatch):
    """Seats rotate, so an agent told one seat (``equilibrium:seat=0``) would be played at
    every seat: refused in one line. Without a seat, the equilibrium's copy at each seat is
    told its seat, which it needs at 4 players (R6.2)."""
    monkeypatch.setenv("PAGADORES_CACHE", str(tmp_path))
    for players in (3, 4):
        with pytest.raises(ValueError) as refused:
            evaluate_agents(["equilibrium:seat=0", "sensible"], players, players, cards=1)
        assert str(refused.value) == (
            f"'equilibrium:seat=0' plays seat 0 only, but here it takes every seat "
            f"0–{players - 1} in turn (seats rotate): leave out seat=, and each seat's copy is "
            f"told its seat")
    result = evaluate_agents(["equilibrium", "sensible"], 4, 8, cards=1, exact=False)
    assert result.rows[0].seat_counts == (2, 2, 2, 2)
