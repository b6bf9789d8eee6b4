"""One run per folder (``pagadores_train.run.lock``): a folder another run holds is refused in one
line naming the host, the process and the folder; a lock a killed run of this host left is
taken over, saying so; another host's only with ``--force``. For SB3 and RLlib runs and for
``pagadores benchmark --out``."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib")

from pagadores_cli import benchmark as benchmark_cli
from pagadores_cli.train import main
from pagadores_train.learners.rllib import train as rllib_train
from pagadores_train.learners.rllib_config import rllib_config_from_dict
from pagadores_train.learners.sb3 import train
from pagadores_train.run.lock import LOCK, FolderInUse, hold_run_folder
from tests.train.runs import base, config_file, eval_steps

HOST = socket.gethostname()


def gone_pid() -> int:
    """The id of a process that has ended."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_a_run_folder_in_use_is_refused_in_one_line_and_left_alone(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Before, a second run with --fresh removed the first one's files while it trained, and
    both wrote every eval.csv row."""
    path = config_file(tmp_path)
    assert main([str(path), "--no-progress"]) == 0
    run = tmp_path / "default"
    listing = {p: p.read_bytes() for p in run.rglob("*") if p.is_file()}
    capsys.readouterr()
    with hold_run_folder(run):  # the first run, still training
        assert main([str(path), "--fresh", "--timesteps", "512"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith(f"pagadores train: error: run folder {run} is in use by process "
                          f"{os.getpid()} on host {HOST}")
    assert {p: p.read_bytes() for p in run.rglob("*") if p.is_file()} == listing
    assert not (run / LOCK).exists()  # the holder removed its lock when it ended


def test_a_lock_a_killed_run_left_on_this_host_is_taken_over(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = tmp_path / "default"
    run.mkdir()
    dead = gone_pid()
    (run / LOCK).write_text(json.dumps({"host": HOST, "pid": dead, "started": "1"}))
    train(base(tmp_path, 256))
    err = capsys.readouterr().err
    assert f"took over the lock left by process {dead} on host {HOST}" in err
    assert "that process is gone" in err
    assert eval_steps(run) == [0, 0, 256, 256]
    assert not (run / LOCK).exists()


def test_another_hosts_lock_is_taken_over_only_with_force(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = config_file(tmp_path)
    run = tmp_path / "default"
    run.mkdir()
    (run / LOCK).write_text(json.dumps({"host": "node-7", "pid": 4242, "since": "today"}))
    assert main([str(path)]) == 2
    err = capsys.readouterr().err
    assert err == (f"pagadores train: error: run folder {run} is locked by process 4242 on "
                   "host node-7 since today, which this host cannot check; if that run is "
                   "gone, pass --force to take the folder over\n")
    assert sorted(p.name for p in run.iterdir()) == [LOCK]
    assert main([str(path), "--force", "--no-progress"]) == 0
    assert "took over the lock left by process 4242 on host node-7 since today (forced)" in (
        capsys.readouterr().err)


def test_a_refused_run_leaves_no_folder_behind(tmp_path: Path) -> None:
    config = base(tmp_path, 256)
    config.algo.hyperparams["n_steps"] = -3  # SB3 refuses it once the folder is held
    with pytest.raises(ValueError, match="refuses"):
        train(config)
    assert not (tmp_path / "default").exists()


def test_an_rllib_run_folder_in_use_is_refused_before_ray_starts(tmp_path: Path) -> None:
    config = rllib_config_from_dict({"name": "rl", "output_dir": str(tmp_path),
                                     "rllib": {"train_batch_size": 64, "minibatch_size": 32}})
    with hold_run_folder(config.run_dir), pytest.raises(
            FolderInUse, match=f"run folder {config.run_dir} is in use by process "
                               f"{os.getpid()} on host {HOST}"):
        rllib_train(config)


def test_a_benchmark_folder_in_use_is_refused_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "bench"
    out.mkdir()
    suite = Path(__file__).resolve().parents[2] / "configs" / "benchmark" / "smoke.yaml"
    with hold_run_folder(out), pytest.raises(SystemExit) as stop:
        benchmark_cli.main([str(suite), "--out", str(out), "--no-progress"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert f"benchmark folder {out} is in use by process {os.getpid()} on host {HOST}" in err
    assert sorted(p.name for p in out.iterdir()) == []  # the holder's lock is gone, nothing else
