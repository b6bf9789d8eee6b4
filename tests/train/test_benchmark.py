"""The benchmark suite (pagadores_train.benchmark.suite, benchmark_stats): the smoke suite on both
backends with identical per-trial scores, resume, refused folders and records, and the
rliable summary against a hand computation. The ``pagadores benchmark`` command's refusals
are tested in ``tests/cli/test_benchmark_command.py``."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from pagadores_train.benchmark import suite as benchmark
from pagadores_train.benchmark.stats import PLOTS, SUMMARY, read_trials, write_summary
from pagadores_train.benchmark.suite import (
    MARKER,
    TRIALS,
    Suite,
    SuiteError,
    load_suite,
    run_suite,
    trial_specs,
)
from pagadores_train.run.reports import provenance
from tests.train.suites import SMOKE, TASK, write_suite

ROOT = Path(__file__).resolve().parents[2]
#: What must agree between backends: everything a trial measured, not its timings.
MEASURED = ("task", "algo", "seed", "score", "score_ci", "raw", "timesteps")


def measured(out: Path, seed: int | None = None) -> dict[str, dict]:
    """What each trial record under ``out`` measured (``seed``: that seed's trials only)."""
    return {r_id: {k: r[k] for k in MEASURED}
            for r_id, r in ((p.stem, json.loads(p.read_text()))
                            for p in sorted((out / TRIALS).glob("*.json")))
            if seed is None or r["seed"] == seed}


def one_seed(seed: int) -> Suite:
    """The smoke suite's trials of one seed: each Ray test runs half the trials, so the two
    cover every trial of the local run between them."""
    return replace(load_suite(SMOKE), seeds=(seed,))


@pytest.fixture(scope="module")
def local_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("bench") / "local"
    run_suite(load_suite(SMOKE), out, backend="local", workers=2, progress=False)
    return out


@pytest.mark.slow
def test_smoke_suite_local_writes_every_trial(local_run: Path) -> None:
    suite = load_suite(SMOKE)
    specs = trial_specs(suite)
    assert len(specs) == 8  # 2 algorithms x 2 tasks x 2 seeds
    records = measured(local_run)
    assert sorted(records) == sorted(s.trial_id for s in specs)
    for record in records.values():
        assert np.isfinite(record["score"])
        assert record["timesteps"] >= 512
    mc = [r for r in records.values() if r["task"] == "4p-mixed-heuristics"]
    assert all(lo <= r["score"] <= hi for r in mc for lo, hi in [r["score_ci"]])
    commits = {json.loads(p.read_text())["commit"] for p in (local_run / TRIALS).glob("*.json")}
    assert commits == {provenance()["commit"]}  # each record names the code that ran it


@pytest.mark.slow
def test_ray_backend_gives_identical_scores(local_run: Path, tmp_path: Path) -> None:
    pytest.importorskip("ray")
    out = tmp_path / "ray"
    run_suite(one_seed(0), out, backend="ray", workers=2, progress=False)
    assert measured(out) == measured(local_run, seed=0)


#: A cluster's head in another process: starts Ray, prints its address, runs until its stdin
#: closes.
HEAD = """
import sys, ray
context = ray.init(address="local", num_cpus=2, include_dashboard=False)
print(context.address_info["gcs_address"], flush=True)
sys.stdin.read()
ray.shutdown()
"""


@pytest.mark.slow
def test_ray_backend_joins_a_cluster_by_address(local_run: Path, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """--address: the trials run on a Ray another process started (as on a cluster's head),
    with the same results; Ray's token authentication needs RAY_AUTH_MODE=token to join."""
    pytest.importorskip("ray")
    monkeypatch.setenv("RAY_AUTH_MODE", "token")
    head = subprocess.Popen([sys.executable, "-c", HEAD], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    try:
        address = head.stdout.readline().strip()  # type: ignore[union-attr]
        assert address, "the head process printed no address"
        out = tmp_path / "cluster"
        run_suite(one_seed(1), out, backend="ray", workers=2, address=address,
                  progress=False)
        assert measured(out) == measured(local_run, seed=1)
    finally:
        head.stdin.close()  # type: ignore[union-attr]
        head.wait(timeout=60)


@pytest.mark.slow
def test_resume_runs_only_the_missing_trials(local_run: Path, tmp_path: Path) -> None:
    """A suite stopped after some trials (their records kept, the rest never written)
    finishes the rest, leaves the kept records untouched and gets the same results."""
    out = tmp_path / "resumed"
    (out / TRIALS).mkdir(parents=True)
    shutil.copy(local_run / MARKER, out / MARKER)
    kept = sorted((local_run / TRIALS).glob("*.json"))[:6]
    for path in kept:
        shutil.copy(path, out / TRIALS / path.name)
        os.utime(out / TRIALS / path.name, (1_000_000, 1_000_000))
    done = run_suite(load_suite(SMOKE), out, backend="local", workers=2, progress=False)
    assert len(done) == 2
    assert all((out / TRIALS / p.name).stat().st_mtime == 1_000_000 for p in kept)
    assert measured(out) == measured(local_run)


def test_rerun_of_a_finished_suite_runs_nothing(monkeypatch: pytest.MonkeyPatch,
                                                tmp_path: Path) -> None:
    """A spy backend sees only the trials without a record."""
    suite = load_suite(SMOKE)
    specs = trial_specs(suite)
    seen: list[str] = []

    def spy(pending, out, workers, address):
        for spec in pending:
            seen.append(spec.trial_id)
            yield {"task": spec.task.name, "algo": spec.algo, "seed": spec.seed, "score": 0.5}

    monkeypatch.setattr(benchmark, "_run_local", spy)
    out = tmp_path / "out"
    run_suite(suite, out, progress=False)
    assert seen == [s.trial_id for s in specs]
    seen.clear()
    (out / TRIALS / f"{specs[3].trial_id}.json").unlink()
    assert len(run_suite(suite, out, progress=False)) == 1
    assert seen == [specs[3].trial_id]


def test_refuses_a_foreign_folder_and_foreign_records(tmp_path: Path) -> None:
    suite = load_suite(SMOKE)
    foreign = tmp_path / "mine"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("keep me")
    with pytest.raises(SuiteError, match="not written by pagadores benchmark"):
        run_suite(suite, foreign, progress=False)
    assert [p.name for p in foreign.iterdir()] == ["notes.txt"]
    out = tmp_path / "out"
    (out / TRIALS).mkdir(parents=True)
    (out / MARKER).write_text("{}")
    record = out / TRIALS / f"{trial_specs(suite)[0].trial_id}.json"
    record.write_text("not json")
    with pytest.raises(SuiteError, match="not this suite's trial record"):
        run_suite(suite, out, progress=False)
    assert record.read_text() == "not json"


def test_counts_may_be_written_in_scientific_notation(tmp_path: Path) -> None:
    # as YAML reads them: 1e3 and 1.28e2 are strings, 2.0e+2 a float
    path = write_suite(tmp_path, "tasks: [t]\nseeds: [1e3]\nalgorithms: {A2C: {n_envs: 2}}\n"
                                 "budget: 1.28e2\n", TASK | {"eval_games": 2.0e+2})
    suite = load_suite(path)
    assert suite.seeds == (1000,)
    assert (suite.tasks[0].budget, suite.tasks[0].eval_games) == (128, 200)


# ------------------------------------------------------------------ the summary, by hand
FAKE = {  # algorithm → task → score per seed 0..3
    "A": {"t1": [0.1, 0.4, 0.2, 0.9], "t2": [0.3, 0.5, 1.0, 0.0]},
    "B": {"t1": [0.6, 0.7, 0.2, 0.8], "t2": [0.3, 0.9, 0.4, 0.6]},
}


def iqm(values: list[float]) -> float:
    """The mean of the middle half (8 values: the 3rd to 6th smallest)."""
    middle = sorted(values)[2:6]
    return sum(middle) / 4


def improvement(x: dict, y: dict) -> float:
    """P(X > Y): per task the share of (run of X, run of Y) pairs X wins, ties half."""
    shares = []
    for task in x:
        pairs = [(a, b) for a in x[task] for b in y[task]]
        shares.append(sum(1.0 if a > b else 0.5 if a == b else 0.0 for a, b in pairs)
                      / len(pairs))
    return sum(shares) / len(shares)


@pytest.mark.slow
def test_summary_matches_a_hand_computation(tmp_path: Path) -> None:
    pytest.importorskip("rliable")
    (tmp_path / TRIALS).mkdir()
    for algo, tasks in FAKE.items():
        for task, scores in tasks.items():
            for seed, score in enumerate(scores):
                (tmp_path / TRIALS / f"{task}__{algo}__seed{seed}.json").write_text(json.dumps(
                    {"task": task, "algo": algo, "seed": seed, "score": score,
                     "wall_time_s": 1.0}))
    # An incomplete algorithm is listed, not aggregated.
    (tmp_path / TRIALS / "t1__C__seed0.json").write_text(json.dumps(
        {"task": "t1", "algo": "C", "seed": 0, "score": 0.5, "wall_time_s": 1.0,
         "commit": "abc"}))
    agg = write_summary(tmp_path, reps=200)
    text = (tmp_path / SUMMARY).read_text()
    for algo, tasks in FAKE.items():
        values = [v for scores in tasks.values() for v in scores]
        assert agg.point[algo][0] == pytest.approx(iqm(values))
        assert agg.point[algo][1] == pytest.approx(sum(values) / len(values))
        low, high = agg.interval[algo]
        assert low[0] <= iqm(values) <= high[0]
        assert f"| {algo} | 4 × 2 | {iqm(values):.3f} [" in text
        assert f"| {sum(values) / len(values):.3f} [" in text
        for k, scores in enumerate(tasks.values()):  # 4 seeds: the mean of the middle two
            cell = agg.per_task[algo][k]
            assert cell[0] == pytest.approx(np.mean(sorted(scores)[1:3]))
            assert min(scores) <= cell[1] <= cell[0] <= cell[2] <= max(scores)
        cells = " | ".join(f"{c[0]:.3f} [{c[1]:.3f}, {c[2]:.3f}]" for c in agg.per_task[algo])
        assert f"| {algo} | {cells} |" in text
    p = improvement(FAKE["A"], FAKE["B"])
    assert agg.improvement["A,B"][0] == pytest.approx(p)
    assert f"| A | B | {p:.3f} [" in text
    assert "| C | incomplete (1 trials) |" in text
    # a suite resumed on another commit says so: each commit with its trials
    assert "- trials run at: abc (1 trials), not recorded (16 trials)\n" in text
    for name in PLOTS.values():
        assert (tmp_path / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(read_trials(tmp_path)) == 17


#: Algorithms the smoke suite leaves out, with tiny settings, and how a saved model is named.
TRIAL_ALGORITHMS = {
    "QRDQN": ({"n_envs": 2, "hyperparams": {"learning_starts": 16, "buffer_size": 1000,
                                            "batch_size": 16}}, "qrdqn"),
    "PPO": ({"n_envs": 2, "illegal_action": "replace",
             "hyperparams": {"n_steps": 32, "batch_size": 32, "n_epochs": 1}}, "ppo"),
    "DQN": ({"n_envs": 2, "illegal_action": "replace",
             "hyperparams": {"learning_starts": 16, "buffer_size": 1000, "batch_size": 16}},
            "dqn"),
}


@pytest.mark.slow
@pytest.mark.parametrize("algo", TRIAL_ALGORITHMS)
def test_trial_trains_loads_and_scores(tmp_path: Path, algo: str) -> None:
    """Each algorithm runs as a benchmark algorithm: trained, loaded back as a
    ``model:path=`` player (its own class: QR-DQN's is not DQN's) and scored exactly."""
    settings, saved_as = TRIAL_ALGORITHMS[algo]
    path = write_suite(tmp_path, {"tasks": ["t"], "seeds": [0], "algorithms": {algo: settings}})
    spec = trial_specs(load_suite(path))[0]
    record = benchmark.run_trial(spec, str(tmp_path / "out"))
    assert record["algo"] == algo and record["timesteps"] >= 64
    raw = record["raw"]
    assert record["score"] == pytest.approx(
        (raw["exact_win"] - raw["random_exact_win"])
        / (raw["best_response_win"] - raw["random_exact_win"]))
    from pagadores_agents.sb3_adapter import detect_algo

    assert detect_algo(tmp_path / "out" / "runs" / spec.trial_id / "model.zip") == saved_as


@pytest.mark.slow
def test_recurrent_ppo_trial_trains_loads_and_scores(tmp_path: Path) -> None:
    """RecurrentPPO (sb3-contrib) runs as a benchmark algorithm with its LSTM policy: trained,
    loaded back as a ``model:path=`` player (memoryless, ``sb3_adapter``) and scored."""
    path = write_suite(tmp_path, {"tasks": ["t"], "seeds": [3], "algorithms": {
        "RecurrentPPO": {"n_envs": 2, "hyperparams": {
            "n_steps": 16, "batch_size": 32, "n_epochs": 1,
            "policy_kwargs": {"lstm_hidden_size": 8, "net_arch": [8]}}}}})
    spec = trial_specs(load_suite(path))[0]
    out = tmp_path / "out"
    record = benchmark.run_trial(spec, str(out))
    assert (record["task"], record["algo"], record["seed"]) == ("t", "RecurrentPPO", 3)
    assert record["timesteps"] >= 64
    raw = record["raw"]
    assert record["score"] == pytest.approx(
        (raw["exact_win"] - raw["random_exact_win"])
        / (raw["best_response_win"] - raw["random_exact_win"]))
    from pagadores_agents.sb3_adapter import detect_algo
    from pagadores_train.run.config import load_config

    run = out / "runs" / spec.trial_id
    assert detect_algo(run / "model.zip") == "recurrent_ppo"
    assert load_config(run / "config.yaml").algo.policy == "MlpLstmPolicy"


@pytest.mark.parametrize("path", sorted((ROOT / "configs" / "benchmark").glob("*.yaml")),
                         ids=lambda p: p.name)
def test_shipped_suites_load(path: Path) -> None:
    suite = load_suite(path)
    assert trial_specs(suite), f"{path.name} has no trials"


@pytest.mark.slow
def test_search_trial_trains_by_self_play_and_is_scored_as_its_player(tmp_path: Path) -> None:
    """``search`` runs as a benchmark algorithm: its value net trained by self-play on the
    task's budget of decisions, the player ``search:path=`` of its run scored like a model."""
    path = write_suite(tmp_path, {"tasks": ["t"], "seeds": [1], "algorithms": {
        "search": {"hyperparams": {"games": 10, "fit_steps": 20, "hidden": [16]}}}})
    spec = trial_specs(load_suite(path))[0]
    record = benchmark.run_trial(spec, str(tmp_path / "out"))
    assert (record["task"], record["algo"], record["seed"]) == ("t", "search", 1)
    assert record["timesteps"] >= TASK["budget"]
    from pagadores_env.core.policies import make_policy

    player = make_policy(f"search:path={tmp_path / 'out' / 'runs' / spec.trial_id}")
    score, raw = benchmark.measure(player, spec.task)
    assert (record["score"], record["raw"]) == (score["score"], raw)
    assert 0.0 < record["score"] <= 1.0 + 1e-9  # better than random, at most the best response


@pytest.mark.parametrize(("settings", "key"), [({"n_envs": 2}, "n_envs"),
                                                ({"hyperparams": {"gamma": 1.0}}, "gamma")])
def test_search_takes_only_a_search_section(tmp_path: Path, settings: dict, key: str) -> None:
    path = write_suite(tmp_path, {"tasks": ["t"], "seeds": [0],
                                  "algorithms": {"search": settings}})
    with pytest.raises(SuiteError, match=key):
        load_suite(path)
