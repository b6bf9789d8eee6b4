"""``pagadores train`` on a search config (``pagadores_cli.train`` over
``pagadores_train.learners.search.trainer``): a tiny run from the command line with its overrides,
its table and ``results.md``, Ctrl-C's exit and resume command, its keys in ``--help``, one-line
errors. The runs themselves are tested in ``tests/train/test_search_train.py``."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("stable_baselines3")
pytest.importorskip("matplotlib")

import yaml

from pagadores_cli.train import build_parser, main
from pagadores_train.learners.search.config import load_search_config
from pagadores_train.learners.search.learn import ValueLearner
from pagadores_train.learners.search.trainer import resume_step
from tests.cli.terminate import terminate_when
from tests.train.runs import SEARCH_TINY, interrupt_when, rows


def config_file(tmp_path: Path) -> Path:
    """The tiny search config with exact evaluations, as ``tmp_path/tiny_search.yaml``
    (runs go to ``tmp_path/tiny_search``)."""
    path = tmp_path / "tiny_search.yaml"
    path.write_text(yaml.safe_dump(SEARCH_TINY | {
        "output_dir": str(tmp_path), "eval": SEARCH_TINY["eval"] | {"exact": True}}))
    return path


def test_a_search_config_trains_from_the_command_line_with_its_overrides(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = config_file(tmp_path)
    args = [str(path), "--timesteps", "30", "--name", "cli", "--eval-games", "6",
            "--no-exact", "--no-progress"]
    assert main(args) == 0
    out, err = capsys.readouterr()
    run = tmp_path / "cli"
    # status on stderr, results on stdout: the headline and the table alone (issue 45, 13)
    assert f"starting a new run in {run}" in err and "training: 30 decisions" in err
    headline = out.strip().splitlines()[0]
    assert "training" not in out and "evaluation" not in out
    assert headline.startswith("search self-play (depth 1) on 3 players, ")
    assert headline.endswith(f" → {run}") and "95% CI" in out and "NashConv" not in out
    config = load_search_config(run / "config.yaml")
    assert (config.total_timesteps, config.eval.games, config.eval.exact,
            config.progress_bar) == (30, 6, False, False)
    [final] = rows(run / "final_eval.csv")
    assert int(final["games"]) >= 6 and final["nash_conv"] == final["exact_win"] == ""
    assert headline in (run / "results.md").read_text()
    assert main(args) == 0  # complete: evaluated again, not trained
    assert "is already complete" in capsys.readouterr().err


def test_ctrl_c_prints_the_resume_command_and_exits_130(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    path = config_file(tmp_path)
    interrupt_when(monkeypatch, ValueLearner, "iterate", 2)
    args = [str(path), "--no-exact", "--no-progress"]
    assert main(args) == 130
    monkeypatch.undo()
    *status, last = capsys.readouterr().err.splitlines()  # the status lines come first
    assert [line for line in status if line.startswith("Ctrl-C")][0].startswith(
        "Ctrl-C: finishing the iteration from step ")
    step = int(last.split("checkpoint saved at step ")[1].split(";")[0])
    assert last == (f"interrupted: checkpoint saved at step {step}; resume with: pagadores "
                    f"train {path} --no-exact --no-progress")
    assert main(last.split("resume with: pagadores train ")[1].split()) == 0
    assert f"resuming from step {step}" in capsys.readouterr().err



def test_sigterm_saves_and_stops_as_ctrl_c_does_and_exits_143(tmp_path: Path) -> None:
    """``kill -TERM`` (``timeout``, SLURM, ``docker stop``) ended a search run at once with
    status 143, saying nothing, losing the work since its last checkpoint and leaving
    ``run.lock`` (issue 45, item 10)."""
    path = tmp_path / "long.yaml"
    path.write_text(yaml.safe_dump(SEARCH_TINY | {
        "output_dir": str(tmp_path), "total_timesteps": 3000, "checkpoint_every": 3000,
        "eval": SEARCH_TINY["eval"] | {"every": 0, "games": 4}}))
    # once iterations run: numba's compiling swallows an exception a signal raises there
    code, _, err = terminate_when(["train", str(path), "--no-progress"], "/3,000 decisions",
                                  tmp_path)
    assert code == 143
    last = err.strip().splitlines()[-1]
    assert last.startswith("terminated by SIGTERM: checkpoint saved at step "), err
    step = int(last.split("checkpoint saved at step ")[1].split(";")[0].replace(",", ""))
    assert last.endswith(f"; resume with: pagadores train {path} --no-progress")
    assert "Traceback" not in err
    run = tmp_path / "long"
    assert not (run / "run.lock").exists()
    assert resume_step(run) == step > 0


def test_help_lists_the_search_config_keys() -> None:
    text = build_parser().format_help()
    assert "search config keys (configs/search_3p.yaml)" in text
    assert "search.fit_steps = 300" in text and "search.depth = 1" in text


@pytest.mark.parametrize(("text", "message"), [
    ("search: {depth: 5}\n", "search.depth must be 1–3, got 5"),
    ("search: {}\nalgo: {name: PPO}\n", "unknown key 'algo' (allowed: name, seed, "),
])
def test_a_bad_search_config_is_one_line_and_exit_2(
        text: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    assert main([str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"pagadores train: error: {message}") and err.count("\n") == 1
    assert not (tmp_path / "runs").exists()
