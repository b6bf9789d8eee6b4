"""Runs of any size say what they are doing and stay bounded on disk: every long phase reports
progress (a status line per step with ``--no-progress``), smoke runs are quick with
``--eval-games`` and ``--no-exact``, old checkpoints and snapshots are pruned, and a full
disk is one line naming the file and the step a rerun resumes from."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from pagadores_cli.train import main
from pagadores_env.core.atomic import WriteError
from pagadores_train.learners.sb3 import train
from pagadores_train.learners.selfplay import SnapshotPool
from pagadores_train.run import reports
from tests.train.runs import base, config_file, rows, tiny_model


def phase_lines(out: str, label: str) -> list[str]:
    """A phase's status lines, without their elapsed time."""
    return [line.partition(" [")[0] for line in out.splitlines()
            if line.startswith(f"{label}: ")]


def test_without_bars_every_evaluation_reports_a_line_per_opponent(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Before, ``--no-progress`` printed nothing at all while evaluations ran."""
    assert main([str(config_file(tmp_path)), "--no-progress"]) == 0
    out = capsys.readouterr().err
    assert phase_lines(out, "evaluation at step 0") == [
        "evaluation at step 0: 2 steps",
        "evaluation at step 0: 1/2 steps (20 games against random)",
        "evaluation at step 0: 2/2 steps (20 games against sensible)",
        "evaluation at step 0: done"]
    assert len(phase_lines(out, "evaluation at step 256")) == 4
    assert phase_lines(out, "final evaluation")[-1] == "final evaluation: done"


@pytest.mark.slow
def test_eval_games_and_no_exact_make_a_smoke_run_quick(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = config_file(tmp_path)
    data = path.read_text().replace("exact: false", "exact: true")
    path.write_text(data)
    assert main([str(path), "--eval-games", "6", "--no-exact", "--no-progress"]) == 0
    run = tmp_path / "default"
    for name in ("eval.csv", "final_eval.csv"):
        assert {r["games"] for r in rows(run / name)} == {"6"}
        assert {r["exact_win"] for r in rows(run / name)} == {""}
    # the measurement may change on a resume: the model does not
    assert main([str(path), "--timesteps", "384", "--no-progress"]) == 0
    assert "resuming from step 256" in capsys.readouterr().err


@pytest.mark.slow
def test_only_the_newest_checkpoints_are_kept(tmp_path: Path) -> None:
    config = base(tmp_path, 768, checkpoint_every=128, keep_checkpoints=2)
    train(config)
    folder = config.run_dir / "checkpoints"
    assert sorted(p.name for p in folder.glob("model_*")) == [
        "model_640_steps.zip", "model_768_steps.zip"]
    assert json.loads((folder / "latest.json").read_text())["model"] == "model_768_steps.zip"


def test_a_bounded_pool_retires_its_oldest_snapshots_from_disk_and_draws(
        tmp_path: Path) -> None:
    pool = SnapshotPool(tmp_path / "selfplay", max_snapshots=2)
    model = tiny_model(0)
    pool.add(model, 0)
    opponent = pool.opponent("uniform", seed=3)
    opponent.new_games(np.arange(64))  # drawn while snapshot 0 may still be drawn
    held = {int(k) for k in opponent._drawn[:, :3].ravel()}
    for step in (100, 200, 300):
        pool.add(model, step)
    assert sorted(p.name for p in pool.folder.glob("snapshot_*")) == [
        "snapshot_200.zip", "snapshot_300.zip"]
    assert pool.active.tolist() == [2, 3]
    opponent.new_games(np.arange(64, 128))
    assert set(opponent._drawn[64:, :3].ravel().tolist()) == {2, 3}
    # the games that drew snapshot 0 before it retired play on with it
    assert held == {0}
    obs = np.zeros((1, 49), np.float32)
    mask = np.ones((1, 2), np.int8)
    assert opponent.act_games(np.array([0]), np.array([1]), obs, mask).shape == (1,)
    again = SnapshotPool(pool.folder).restore()
    assert again.active.tolist() == [2, 3] and again.timesteps == [0, 100, 200, 300]


def test_a_full_disk_is_one_line_with_the_step_a_rerun_resumes_from(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Before: an ``OSError`` traceback out of ``write_atomic``."""
    path = config_file(tmp_path, 512)
    real = reports.write_atomic
    writes = {"eval.csv": 0}

    def full_at_the_third_eval_csv(target: Any, data: Any) -> Any:
        if Path(target).name == "eval.csv":
            writes["eval.csv"] += 1
            if writes["eval.csv"] == 3:
                raise WriteError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(target))
        return real(target, data)
    monkeypatch.setattr(reports, "write_atomic", full_at_the_third_eval_csv)
    assert main([str(path), "--no-progress"]) == 1
    run = tmp_path / "default"
    *status, error = capsys.readouterr().err.splitlines()  # --no-progress: status on stderr
    assert error == (
        f"pagadores train: error: cannot write eval.csv in {run}: No space left on device; "
        f"after freeing space, a rerun resumes from step 256 (pagadores train {path} "
        "--no-progress)")
    assert not [line for line in status if "error" in line or "Traceback" in line]
    monkeypatch.undo()
    assert main([str(path), "--no-progress"]) == 0
    assert "resuming from step 256" in capsys.readouterr().err


@pytest.mark.slow
def test_the_printed_table_is_written_to_the_runs_results_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``results.md`` holds the final table exactly as printed, with what printed it: the
    file ``make results`` publishes and the docs quote (test_published_results)."""
    assert main([str(config_file(tmp_path)), "--no-progress"]) == 0
    out = capsys.readouterr().out
    text = (tmp_path / "default" / "results.md").read_text()
    table = reports.RESULTS_TABLE.search(text)
    assert table is not None and out.endswith("\n" + table["table"])
    for fact in ("- commit: ", "- platform: ", "- python: ", "- libraries: torch "):
        assert fact in text
