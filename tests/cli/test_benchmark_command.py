"""``pagadores benchmark``: one-line refusals of bad suites and options, of a Ray cluster
nobody runs, and no pool worker outliving the command when it is killed. The suite itself
(both backends, resume, the summary) is tested in ``tests/train/test_benchmark.py``."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib")

from pagadores_cli.main import main
from tests.processes import HAS_PROC, kill_once_started, running, within
from tests.train.suites import GOOD, SMOKE, TASK, write_suite


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
