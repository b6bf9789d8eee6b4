"""``pagadores benchmark``: one-line refusals of bad suites and options, of a Ray cluster
nobody runs, and no pool worker outliving the command when it is killed; tasks of Paye's
dobbelspel and Pasch (a task's ``game:``) trained and scored Monte Carlo by the engine-driven
evaluator. The suite itself (both backends, resume, the summary) is tested in
``tests/train/test_benchmark.py``."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
import yaml

pytest.importorskip("sb3_contrib")

from pagadores_cli.main import main
from pagadores_train.benchmark.suite import EVAL_SEED, TRIALS
from pagadores_train.evaluation.engine import evaluate_game
from pagadores_train.run.config import load_config
from tests.processes import HAS_PROC, kill_once_started, running, within
from tests.train.suites import GOOD, SMOKE, TASK, write_suite

#: A valid task of another game than Pagadores, for the refusals to change one key of.
PAYE = {"game": "paye", "num_players": 2, "opponents": ["sensible"], "budget": 64,
        "score": "monte-carlo"}
PASCH = PAYE | {"game": "pasch", "opponents": ["greedy"]}


def test_an_unreachable_cluster_is_a_one_line_error(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture) -> None:
    """Ray itself waits without end where nothing listens: we say so at once."""
    pytest.importorskip("ray")
    with pytest.raises(SystemExit) as exit_:
        main(["benchmark", str(SMOKE), "--out", str(tmp_path / "o"), "--backend", "ray",
              "--address", "127.0.0.1:1", "--no-progress"])
    assert exit_.value.code == 2
    *status, error = capsys.readouterr().err.splitlines()  # --no-progress: status on stderr
    assert all(line.startswith("trials: ") for line in status)
    assert ("error: cannot join Ray at 127.0.0.1:1: nothing answers there (Connection "
            "refused); start the cluster's head with `ray start --head`") in error


@pytest.mark.slow
@pytest.mark.skipif(not HAS_PROC, reason="reads processes from /proc")
def test_workers_end_when_the_command_is_killed(tmp_path: Path) -> None:
    """``pagadores benchmark`` killed outright (no chance to shut its pool down) leaves no
    worker training on into the run folders (``core.pool.end_with_parent``)."""
    workers = kill_once_started(
        [sys.executable, "-m", "pagadores_cli.benchmark", str(SMOKE), "--out",
         str(tmp_path / "out"), "--workers", "2", "--no-progress"], b"spawn_main", 120)
    assert within(30, lambda: not any(map(running, workers))), "workers outlived the command"


@pytest.mark.parametrize(("suite", "task", "message"), [
    (GOOD | {"seed": [0]}, None, "unknown key 'seed' in the suite"),
    (GOOD | {"algorithms": {"SAC": {}}}, None, "unknown algorithm 'SAC'"),
    (GOOD | {"tasks": ["nope"]}, None, "no task file"),
    (GOOD | {"seeds": [0, 0]}, None, "distinct seeds"),
    (GOOD | {"seeds": [1000, "1e3"]}, None, "distinct seeds"),  # one seed, written twice
    (GOOD | {"seeds": [-1]}, None, "seeds[0] must be an integer ≥ 0"),
    (GOOD | {"algorithms": {"A2C": {"hyperparams": {"n_steps": 0}}}}, None,
     "algo.hyperparams.n_steps must be"),
    (GOOD | {"algorithms": {"PPO": {"illegal_action": "raise"}}}, None, "needs action masks"),
    ("tasks: [t\n", None, "is not valid YAML"),
    (GOOD, TASK | {"score": "elo"}, "score must be one of"),
    (GOOD, TASK | {"num_players": 7}, "num_players must be 2–6"),
    (GOOD, TASK | {"opponents": ["sensible", "sensible"]}, "opponents must list 1 spec"),
    (GOOD, TASK | {"opponents": ["nobody"]}, "opponents[0]: unknown policy 'nobody'"),
    (GOOD, TASK | {"num_players": 6, "opponents": ["sensible"]},
     "needs a table the exact solver covers"),
    (GOOD, TASK | {"game": "chess"},
     "game must be one of 'pagadores', 'perudo', 'paye', 'pasch', got 'chess'"),
    (GOOD, PAYE | {"cards": 3}, "cards is a table option of Dados de Pagadores (game "
     "'pagadores'); Paye's dobbelspel (game 'paye') takes variant, faces, rounds, got cards: 3"),
    (GOOD, TASK | {"blocks": 2}, "blocks is a table option of Pasch (game 'pasch'); Dados de "
     "Pagadores (game 'pagadores') takes cards, got blocks: 2"),
    (GOOD, PAYE | {"colour": "red"}, "unknown key 'colour' in task t (allowed: budget, "
     "eval_games, faces, game, num_players, opponents, rounds, score, selfplay, variant)"),
    (GOOD, PAYE | {"variant": "turbo"}, "variant must be one of 'base', 'expansion'"),
    (GOOD, PAYE | {"rounds": 0}, "rounds must be an integer ≥ 1"),
    (GOOD, PAYE | {"faces": [[1, 2, 3]]}, "faces must be six lists of six whole numbers"),
    (GOOD, PASCH | {"blocks": 11}, "blocks must be a whole number 0–10"),
    (GOOD, PAYE | {"num_players": 7}, "num_players must be 2–6"),
    (GOOD, PAYE | {"score": "exact-best-response"}, "score exact-best-response needs Dados de "
     "Pagadores' exact solver; a task of game 'paye' takes score monte-carlo"),
    (GOOD, PAYE | {"opponents": ["greedy"]}, "opponents[0]: unknown policy of paye 'greedy'"),
    (GOOD | {"algorithms": {"search": {}}}, PASCH,
     "search on task t: search plays Dados de Pagadores only, got game 'pasch'"),
])
def test_bad_suites_fail_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture,
                                     suite: dict | str, task: dict | None,
                                     message: str) -> None:
    path = write_suite(tmp_path, suite, task)
    out = tmp_path / "out"
    with pytest.raises(SystemExit) as exit_:
        main(["benchmark", str(path), "--out", str(out), "--no-progress"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("pagadores benchmark: error: ")
    assert err.count("\n") == 1 and message in err
    assert not out.exists()  # nothing written


def test_bad_options_fail_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    path = write_suite(tmp_path, GOOD)
    for extra, message in ((["--workers", "0"], "--workers must be 1–256"),
                           (["--address", "x:1"], "--address is for --backend ray")):
        with pytest.raises(SystemExit) as exit_:
            main(["benchmark", str(path), "--out", str(tmp_path / "o"), *extra])
        assert exit_.value.code == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and message in err
        assert not (tmp_path / "o").exists()


#: Tiny tasks of Paye's dobbelspel and Pasch, each with table options of its own.
GAME_TASKS = {
    "paye": PAYE | {"rounds": 4, "faces": [[0, 1, 2, 3, 4, 5]] * 3 + [[2, 2, 3, 3, 9, 9]] * 3},
    "pasch": PASCH | {"hand": [1, 2, 3], "blocks": 1},
}


@pytest.mark.slow
def test_paye_and_pasch_tasks_run_and_are_scored_by_the_engine_driven_evaluator(
        tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """A task's ``game:`` and table options reach the trial's training run, and its score is
    the Monte Carlo one, (w - w_random) / (1 - w_random), with w and w_random the win shares
    the engine-driven evaluator gives the trained model and the uniform-random player against
    the task's opponents in the scoring games."""
    (tmp_path / "tasks").mkdir()
    for name, task in GAME_TASKS.items():
        (tmp_path / "tasks" / f"{name}.yaml").write_text(yaml.safe_dump(task))
    suite = tmp_path / "games.yaml"
    suite.write_text(yaml.safe_dump({
        "tasks": list(GAME_TASKS), "seeds": [0], "eval_games": 20,
        "algorithms": {"MaskablePPO": {"n_envs": 2, "hyperparams": {
            "n_steps": 32, "batch_size": 64, "n_epochs": 1}}}}))
    out = tmp_path / "out"
    assert main(["benchmark", str(suite), "--out", str(out), "--workers", "1",
                 "--no-progress"]) == 0
    assert capsys.readouterr().out.startswith("benchmark done in ")
    for name, task in GAME_TASKS.items():
        trial = f"{name}__MaskablePPO__seed0"
        record = json.loads((out / TRIALS / f"{trial}.json").read_text())
        game, opponents = task["game"], task["opponents"]
        options = {k: v for k, v in task.items() if k not in PAYE}
        spec = record["task_spec"]
        assert (spec["game"], spec["num_players"], spec["opponents"]) == (game, 2, opponents)
        assert {k: spec[k] for k in options} == options
        run = out / "runs" / trial
        config = load_config(run / "config.yaml")
        assert (config.env.game, config.total_timesteps) == (game, 64)
        assert {k: config.env.options[k] for k in options} == options
        # the scoring games, played again here: the model's and random's win shares
        model = evaluate_game(game, [f"model:path={run / 'model.zip'}", *opponents], 2, 20,
                              EVAL_SEED, options).rows[0]
        random = evaluate_game(game, ["random", *opponents], 2, 20, EVAL_SEED,
                               options).rows[0]
        raw = record["raw"]
        assert (raw["win_rate"], raw["random_win_rate"], raw["games"]) == (
            model.win_rate, random.win_rate, 20)
        floor = random.win_rate
        assert record["score"] == pytest.approx((model.win_rate - floor) / (1 - floor))
        assert record["score_ci"] == pytest.approx(
            [(model.ci_low - floor) / (1 - floor), (model.ci_high - floor) / (1 - floor)])
    summary = (out / "summary.md").read_text()
    assert all(name in summary for name in GAME_TASKS)
