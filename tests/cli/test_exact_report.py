"""The exact yardstick (pagadores_train.evaluation.yardstick), its columns in
pagadores_train.evaluation.evaluate and the ``pagadores exact`` report (pagadores_cli.exact_report).

Exact numbers are checked against the solver's own public functions and against Monte-Carlo
play through the engine (seeded, 4 standard errors: a false alarm about once in 16 000 runs,
and every run repeats bit for bit).
"""

from __future__ import annotations

import csv
import json
import math

import numpy as np
import pytest

from pagadores_cli.exact_report import SHIPPED, main, pairwise_table
from pagadores_env.core.policies import BasePolicy, make_policy
from pagadores_env.pagadores.solver import (
    best_response,
    exploitability,
    policy_table,
    win_probabilities,
)
from pagadores_train.evaluation import evaluate as evaluation
from pagadores_train.evaluation.yardstick import (
    DRAWN,
    clear_cache,
    exact_metrics,
    opponent_yardstick,
    yardstick,
)
from tests.players import StopAt

KEYS = {"win_probability", "best_response_win_probability", "percent_of_best_response",
        "exploitability"}


@pytest.fixture(autouse=True)
def _fresh(tmp_path, monkeypatch) -> None:
    """A private solver cache (solving 10 cards takes ~0.1 s) and no cached yardsticks."""
    monkeypatch.setenv("PAGADORES_CACHE", str(tmp_path / "cache"))
    clear_cache()


# ---------------------------------------------------------------- exact metrics
@pytest.mark.slow
def test_optimal_against_optimal_is_even_and_unexploitable() -> None:
    metrics = exact_metrics("optimal", "optimal", cards=10)
    assert set(metrics) == KEYS
    # R3.1: seat 0 wins 0.5135 with optimal play; averaged over who insteeks first it is ½.
    assert metrics["win_probability"] == pytest.approx(0.5, abs=1e-12)
    assert metrics["best_response_win_probability"] == pytest.approx(0.5, abs=1e-12)
    assert metrics["percent_of_best_response"] == pytest.approx(100.0, abs=1e-9)
    assert metrics["exploitability"] == pytest.approx(0.0, abs=1e-12)


def test_metrics_agree_with_the_solvers_own_functions() -> None:
    mine, theirs = make_policy("sensible"), make_policy("always-throw")
    metrics = exact_metrics(mine, theirs, cards=4)
    assert metrics["win_probability"] == pytest.approx(win_probabilities(mine, theirs, 4).win_mean,
                                                       abs=1e-12)
    assert metrics["best_response_win_probability"] == pytest.approx(
        best_response(theirs, 4).win_mean, abs=1e-12)
    assert metrics["exploitability"] == pytest.approx(exploitability(mine, 4), abs=1e-12)
    assert metrics["exploitability"] > 0.001  # sensible is not optimal


@pytest.mark.slow
def test_the_best_response_scores_100_percent_and_no_agent_more() -> None:
    response = best_response(policy_table(make_policy("sensible"), 3), 3).policy()
    assert exact_metrics(response, "sensible", cards=3)["percent_of_best_response"] == \
        pytest.approx(100.0, abs=1e-9)
    for name in SHIPPED:
        assert 0 < exact_metrics(name, "sensible", cards=3)["percent_of_best_response"] <= 100


def test_the_opponent_is_tabulated_once_per_cache() -> None:
    opponent = StopAt(30)
    exact_metrics(StopAt(20), opponent, cards=3)
    asked = opponent.rows
    assert asked > 0
    learner = StopAt(25)
    tabulated = yardstick(learner, 3)
    asked_learner = learner.rows
    # a new learner, the same opponent; passing the learner's yardstick asks nobody again
    assert exact_metrics(tabulated, opponent, cards=3) == exact_metrics(learner, opponent, 3)
    assert opponent.rows == asked and learner.rows == 2 * asked_learner
    assert opponent_yardstick("sensible", 3) is opponent_yardstick("sensible", 3)
    clear_cache()
    exact_metrics(StopAt(25), opponent, cards=3)
    assert opponent.rows == 2 * asked


def test_a_larger_table_is_measured_at_the_cards_asked_for() -> None:
    ten = policy_table(make_policy("sensible"), 10)
    assert exact_metrics(ten, "stop-first", cards=3) == exact_metrics("sensible", "stop-first", 3)


class _Coin(BasePolicy):
    """A 50/50 player that does not report its probabilities to the solver."""

    def act_batch(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return (self.rng.random(len(obs)) < 0.5).astype(np.int64)


def test_stochastic_agents_without_probabilities_are_told_apart() -> None:
    assert not yardstick(_Coin(seed=0), 2).exact
    assert yardstick("sensible", 2).exact


@pytest.mark.slow
def test_random_is_evaluated_exactly_as_its_mixture() -> None:
    """``random`` reports its probabilities, so its table holds 1/2 and its numbers are exact:
    the exact win probability of sensible against it matches a large seat-rotated Monte-Carlo
    evaluation (batch engine) within 4 standard errors."""
    stick = yardstick("random", 10)
    assert stick.exact and stick.table.mixed
    exact = exact_metrics("sensible", "random", cards=10)["win_probability"]
    games = 40_000
    measured = evaluation.evaluate_agents(["sensible", "random"], num_players=2,
                                          num_games=games, seed=5, exact=False).rows[0].win_rate
    assert abs(measured - exact) < 4 * (exact * (1 - exact) / games) ** 0.5


@pytest.mark.parametrize(("call", "message"), [
    (lambda: exact_metrics("sensible", "random", cards=11), "cards must be an integer 1–10"),
    (lambda: exact_metrics("sensible", "nosuch", cards=2), "unknown policy 'nosuch'"),
    (lambda: yardstick("sensible", 2).against(yardstick("sensible", 3)),
     "yardsticks for 2 and 3 cards cannot meet"),
    (lambda: pairwise_table([], cards=2), "at least one agent"),
])
def test_bad_input_is_named(call, message) -> None:
    with pytest.raises(ValueError, match=message):
        call()


# ---------------------------------------------------------------- in
# pagadores_train.evaluation.evaluate
@pytest.mark.slow
def test_exact_win_agrees_with_monte_carlo_within_4_se() -> None:
    games = 4000
    result = evaluation.evaluate_agents(["threshold", "always-throw"], 2, games, seed=3, cards=10)
    for row in result.rows:
        p = row.exact_win_probability
        assert abs(row.win_rate - p) < 4 * math.sqrt(p * (1 - p) / games), (row.win_rate, p)
    assert result.rows[0].exact_deterministic and result.rows[1].exact_deterministic


@pytest.fixture(scope="module")
def exact_result() -> evaluation.EvalResult:
    return evaluation.evaluate_agents(["sensible", "random"], 2, 20, seed=1, cards=3)


def test_R1_5_exact_columns_are_shown_in_the_table(exact_result) -> None:
    me, them = exact_result.rows
    # one winner per game (R1.5), so the two exact win probabilities add up to 1
    assert me.exact_win_probability + them.exact_win_probability == pytest.approx(1, abs=1e-12)
    assert me.exact_percent_of_best_response == pytest.approx(
        100 * me.exact_win_probability / me.exact_best_response_win_probability)
    lines = exact_result.table().splitlines()
    header = lines[1]
    assert header.index("95% CI") < header.index("exact win") < header.index("mean place")
    assert "% of BR" in header and "exploitability" in header
    assert f"{me.exact_win_probability:.4f}" in lines[3] and DRAWN not in lines[3]
    # random reports its probabilities: exact, so no drawn-table mark and no note
    assert f"{them.exact_win_probability:.4f}" in lines[4] and DRAWN not in exact_result.table()


def test_a_drawn_table_is_marked_in_the_table() -> None:
    result = evaluation.evaluate_agents(["sensible", _Coin(seed=0)], 2, 20, seed=1, cards=3)
    lines = result.table().splitlines()
    assert f"{result.rows[1].exact_win_probability:.4f}{DRAWN}" in lines[4]
    assert lines[-1].startswith(f"{DRAWN} stochastic agent")


def test_exact_columns_reach_csv_and_json(exact_result, tmp_path) -> None:
    exact_result.to_csv(tmp_path / "r.csv")
    with open(tmp_path / "r.csv") as handle:
        lines = list(csv.DictReader(handle))
    for line, row in zip(lines, exact_result.rows, strict=True):
        assert float(line["exact_win_probability"]) == row.exact_win_probability
        assert float(line["exact_exploitability"]) == row.exact_exploitability
    exact_result.to_json(tmp_path / "r.json")
    data = json.loads((tmp_path / "r.json").read_text())
    rows = tuple(evaluation.AgentStats(**(r | {"seat_counts": tuple(r["seat_counts"])}))
                 for r in data.pop("rows"))
    assert evaluation.EvalResult(**data, rows=rows) == exact_result


def test_metrics_from_the_training_hook_fill_the_same_columns() -> None:
    # The training loop evaluates with exact=False and adds exact_metrics itself.
    agents = ["sensible", "stop-first"]
    plain = evaluation.evaluate_agents(agents, 2, 20, seed=1, cards=3, exact=False)
    full = evaluation.evaluate_agents(agents, 2, 20, seed=1, cards=3)
    hooked = evaluation.with_exact(plain.rows[0], exact_metrics(*agents, cards=3))
    assert hooked == full.rows[0] and hooked != plain.rows[0]


def test_exact_columns_can_be_turned_off_and_need_one_card_count() -> None:
    # (3+-player tables have their own exact columns: tests/train/test_evaluate_exact.py)
    off = evaluation.evaluate_agents(["sensible", "random"], 2, 10, cards=2, exact=False)
    assert not off.has_exact and "exact win" not in off.table()
    assert off.rows[0].exact_win_probability is None
    three = evaluation.evaluate_agents(["sensible", "random"], 3, 3, cards=2, exact=False)
    assert not three.has_exact and not three.exact_note
    with pytest.raises(ValueError, match=r"exact=True at 2 players needs one card count .* "
                                         r"got cards \[2, 3\]"):
        evaluation.evaluate_agents(["sensible", "random"], 2, 2, cards=[2, 3], exact=True)
    with pytest.raises(ValueError, match="exact must be True, False or None"):
        evaluation.evaluate_agents(["sensible", "random"], 2, 2, cards=2, exact="yes")


# ---------------------------------------------------------------- the pairwise table
def _cells(text: str) -> list[list[str]]:
    rows = [line.strip("|").split("|") for line in text.splitlines() if line.startswith("|")]
    return [[cell.strip() for cell in row] for row in rows]


@pytest.mark.slow
def test_pairwise_table_covers_every_shipped_agent() -> None:
    rows = _cells(pairwise_table(SHIPPED, cards=3))
    header, _, *body, ceiling = rows
    assert header == ["row vs column", *SHIPPED, "exploitability"]
    assert [row[0] for row in body] == header[1:-1]
    assert ceiling[0] == "best response"
    size = len(SHIPPED)
    win = np.full((size, size), np.nan)
    for i, row in enumerate(body):
        for j, cell in enumerate(row[1:-1]):
            if i != j:
                win[i, j] = float(cell)
    off = ~np.eye(size, dtype=bool)
    # R1.5: exactly one winner, so row-vs-column and column-vs-row add up to 1 (4 d.p.)
    np.testing.assert_allclose((win + win.T)[off], 1.0, atol=2e-4)
    # nobody beats the optimum on average over who insteeks first, nor the best response
    assert np.nanmax(win[:, -1]) <= 0.5
    assert (np.nanmax(win, axis=0) <= np.array(ceiling[1:-1], dtype=float) + 1e-4).all()
    exploit = [float(row[-1]) for row in body]
    assert exploit[-1] == 0.0 and min(exploit[:-1]) > 0


def test_main_prints_markdown_and_the_time(capsys) -> None:
    assert main(["--cards", "2", "sensible", "optimal"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("| row vs column | sensible | optimal | exploitability |")
    assert DRAWN not in out and "computed in" in err
    with pytest.raises(SystemExit) as exit_info:
        main(["--cards", "0"])
    assert exit_info.value.code == 2
    assert "cards must be an integer 1–10" in capsys.readouterr().err
