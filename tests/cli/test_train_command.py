"""``pagadores train``: the command line over the trainers (``pagadores_cli.train``). Its
overrides and table, its help, and what it says and exits with when a run is refused,
interrupted (Ctrl-C, 130) or has no usable checkpoint; the runs themselves are tested in
``tests/train``."""

from __future__ import annotations

import json
import resource
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("sb3_contrib")

import yaml

from pagadores_cli.train import build_parser, main
from pagadores_train.learners import rllib, sb3
from pagadores_train.learners.rllib_config import RLlibConfig
from pagadores_train.run import checkpoints
from pagadores_train.run.config import load_config, save_config
from pagadores_train.settings import ConfigError
from tests.cli.terminate import terminate_when
from tests.train.runs import (
    CONFIGS,
    STEPS_0_TO_512,
    eval_steps,
    evaluate_failing_at,
    finished_run,
    private_copy,
    smoke_config_file,
    tiny,
    truncate,
)


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return finished_run(tmp_path_factory)


@pytest.fixture
def run(finished: Path, tmp_path: Path) -> Path:
    return private_copy(finished, tmp_path)


@pytest.fixture
def smoke_yaml(tmp_path: Path) -> Path:
    """A tiny config file whose runs go to ``tmp_path`` (run name: ``smoke``)."""
    return smoke_config_file(tmp_path)


def test_command_line_override_and_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                         ) -> None:
    config = tiny(load_config(CONFIGS / "default.yaml"), tmp_path, 10_000)
    path = tmp_path / "smoke.yaml"
    save_config(config, path)
    assert main([str(path), "--timesteps", "128", "--name", "cli", "--no-progress"]) == 0
    out, err = capsys.readouterr()
    assert "128 timesteps" in out and "sensible" in out and "95% CI" in out
    # status on stderr, results on stdout: the headline and the table alone (issue 45, 13)
    assert out.strip().startswith("MaskablePPO on 2 players, 128 timesteps")
    assert "training:" in err and "training" not in out and "starting" not in out
    assert load_config(tmp_path / "cli" / "config.yaml").total_timesteps == 128



def test_train_help_lists_both_kinds_of_config_keys() -> None:
    text = build_parser().format_help()
    assert "algo.hyperparams" in text and "rllib.num_env_runners" in text



@pytest.mark.parametrize("name", [".", "../victim"])
def test_fresh_with_a_path_as_name_is_refused_and_deletes_nothing(
        name: str, tmp_path: Path, smoke_yaml: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "runs"
    (out / "other-run").mkdir(parents=True)
    (out / "other-run" / "model.zip").write_bytes(b"precious")
    (tmp_path / "victim").mkdir()
    (tmp_path / "victim" / "thesis.tex").write_text("years of work")
    code = main([str(smoke_yaml), "--output-dir", str(out), "--name", name, "--fresh",
                 "--no-progress"])
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith("pagadores train: error: name must be a plain folder name")
    assert len(err.strip().splitlines()) == 1
    assert (out / "other-run" / "model.zip").read_bytes() == b"precious"
    assert (tmp_path / "victim" / "thesis.tex").read_text() == "years of work"


def test_with_no_good_checkpoint_the_error_is_one_line(
        run: Path, smoke_yaml: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for zip_path in (run / "checkpoints").glob("model_*_steps.zip"):
        truncate(zip_path)
    (run / "checkpoints" / "latest.json").write_text("")
    listing = sorted(p.name for p in (run / "checkpoints").iterdir())
    code = main([str(smoke_yaml), "--name", "default", "--output-dir", str(run.parent),
                 "--no-progress"])
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith(f"pagadores train: error: {run} has no usable checkpoint (")
    assert "model_256_steps.zip is damaged" in err and "--fresh" in err
    assert len(err.strip().splitlines()) == 1
    assert sorted(p.name for p in (run / "checkpoints").iterdir()) == listing


def test_ctrl_c_prints_the_resume_command_and_exits_130(
        tmp_path: Path, smoke_yaml: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    evaluate_failing_at(256, KeyboardInterrupt(), monkeypatch)
    args = [str(smoke_yaml), "--timesteps", "512", "--fresh", "--no-progress"]
    assert main(args) == 130
    last = capsys.readouterr().err.splitlines()[-1]  # after the status lines
    assert last == (f"interrupted: checkpoint saved at step 256; resume with: pagadores train "
                    f"{smoke_yaml} --timesteps 512 --no-progress")
    resume = last.split("resume with: pagadores train ")[1].split()
    assert main(resume) == 0
    assert "resuming from step 256" in capsys.readouterr().err
    assert eval_steps(tmp_path / "smoke") == STEPS_0_TO_512


def test_a_second_ctrl_c_during_the_checkpoint_leaves_the_last_one(
        run: Path, smoke_yaml: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    evaluate_failing_at(768, KeyboardInterrupt(), monkeypatch)

    def save(self: Any, model: Any) -> None:
        raise KeyboardInterrupt  # the second Ctrl-C, while saving after the first
    monkeypatch.setattr(checkpoints.CheckpointEvery, "save", save)
    args = [str(smoke_yaml), "--name", "default", "--output-dir", str(run.parent),
            "--timesteps", "1024"]
    assert main(args) == 130
    assert capsys.readouterr().err.splitlines()[-1] == (  # after the status lines
        "interrupted: the last checkpoint stands; resume with: pagadores train "
        f"{smoke_yaml} --timesteps 1024 --name default --output-dir {run.parent}")
    assert json.loads((run / "checkpoints" / "latest.json").read_text())["timesteps"] == 512


def test_ctrl_c_before_the_run_starts_changes_nothing(
        run: Path, smoke_yaml: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    def interrupted(*args: Any) -> Any:
        raise KeyboardInterrupt
    monkeypatch.setattr(sb3, "make_vec_env", interrupted)
    listing = sorted(str(p.relative_to(run)) for p in run.rglob("*"))
    args = [str(smoke_yaml), "--name", "default", "--output-dir", str(run.parent), "--fresh"]
    assert main(args) == 130
    assert capsys.readouterr().err == (
        "interrupted before the run started; start it again with: pagadores train "
        f"{smoke_yaml} --name default --output-dir {run.parent} --fresh\n")
    assert sorted(str(p.relative_to(run)) for p in run.rglob("*")) == listing



def test_sigterm_saves_and_stops_as_ctrl_c_does_and_exits_143(tmp_path: Path) -> None:
    """``kill -TERM`` (``timeout``, SLURM, ``docker stop``) ended a run at once with status
    143, saying nothing, losing the work since its last checkpoint and leaving ``run.lock``
    (issue 45, item 10)."""
    path = smoke_config_file(tmp_path)
    data = yaml.safe_load(path.read_text())
    data |= {"total_timesteps": 1_000_000, "checkpoint_every": 1_000_000,
             "eval": data["eval"] | {"every": 0}}
    path.write_text(yaml.safe_dump(data))
    code, _, err = terminate_when(["train", str(path), "--no-progress"], "training: ",
                                  tmp_path)
    assert code == 143
    lines = err.strip().splitlines()
    assert lines[-1].startswith("terminated by SIGTERM: checkpoint saved at step "), err
    step = int(lines[-1].split("checkpoint saved at step ")[1].split(";")[0].replace(",", ""))
    assert lines[-1].endswith(f"; resume with: pagadores train {path} --no-progress")
    said = [line for line in lines[:-1] if "SIGTERM" in line]  # among the status lines
    assert len(said) <= 1 and all(line.startswith("SIGTERM: finishing the rollout from step ")
                                  for line in said), err
    assert "Traceback" not in err
    run = tmp_path / "smoke"
    assert not (run / "run.lock").exists()
    assert checkpoints.resume_step(run) == step > 0



def test_a_memory_limit_too_small_for_training_is_refused_before_the_folder_is_touched(
        tmp_path: Path, smoke_yaml: Path) -> None:
    """Under ``ulimit -v 1000000`` a run died halfway (OpenBLAS's abort, or a MemoryError in
    its first evaluation) after writing config.yaml and tensorboard/ (issue 45, item 8)."""
    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1_000_000 * 1024, resource.RLIM_INFINITY))

    done = subprocess.run([sys.executable, "-m", "pagadores_cli.main", "train",
                           str(smoke_yaml), "--no-progress"], preexec_fn=limited,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 2, done.stderr
    assert done.stderr == (
        "pagadores train: error: this process may map 1.02 GB (ulimit -v 1000000), less than "
        "the 1.3 GB of address space a training run needs; raise the limit (ulimit -v 1269532 "
        "or more) or lift it (ulimit -v unlimited)\n")
    assert not (tmp_path / "smoke").exists()



@pytest.mark.parametrize("how", ["--output-dir", "output_dir:"])
@pytest.mark.parametrize("where", ["a file", "under a file"])
def test_an_output_dir_that_cannot_be_a_folder_is_one_line(
        how: str, where: str, tmp_path: Path, smoke_yaml: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A NotADirectoryError traceback (issue 45, item 12)."""
    (tmp_path / "notes.txt").write_text("mine")
    output = tmp_path / "notes.txt" / ("" if where == "a file" else "runs")
    args = [str(smoke_yaml)]
    if how == "--output-dir":
        args += ["--output-dir", str(output)]
    else:
        data = yaml.safe_load(smoke_yaml.read_text())
        smoke_yaml.write_text(yaml.safe_dump(data | {"output_dir": str(output)}))
    assert main(args) == 2
    assert capsys.readouterr().err == (
        f"pagadores train: error: cannot create the run folder {output / 'smoke'}: "
        f"{tmp_path / 'notes.txt'} is a file, not a folder; pick another --output-dir\n")
    assert (tmp_path / "notes.txt").read_text() == "mine"


def test_help_and_errors_name_pagadores_train(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    assert capsys.readouterr().out.startswith("usage: pagadores train ")
    with pytest.raises(SystemExit) as exit_:
        main(["x.yaml", "--timesteps", "many"])
    assert exit_.value.code == 2
    assert "pagadores train: error: argument --timesteps" in capsys.readouterr().err


def test_an_rllib_config_goes_to_rllibs_trainer_with_the_overrides(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A config with an ``rllib:`` section is handed, overrides applied, to RLlib's trainer
    (its runs, resumed from a config file, are in ``tests/train/test_rllib.py``)."""
    seen: dict[str, Any] = {}

    def train(config: Any, fresh: bool = False, force: bool = False) -> Any:
        seen.update(config=config, fresh=fresh, force=force)
        raise ConfigError("stopped before training")
    monkeypatch.setattr(rllib, "train", train)
    path = tmp_path / "a.yaml"
    path.write_text(yaml.safe_dump({"name": "a", "output_dir": str(tmp_path),
                                    "total_timesteps": 400, "rllib": {"num_env_runners": 0}}))
    assert main([str(path), "--timesteps", "600", "--fresh", "--no-progress"]) == 2
    assert capsys.readouterr().err == "pagadores train: error: stopped before training\n"
    config = seen["config"]
    assert isinstance(config, RLlibConfig)
    assert (config.total_timesteps, config.name, config.progress_bar) == (600, "a", False)
    assert (seen["fresh"], seen["force"]) == (True, False)



@pytest.mark.parametrize(("text", "message"), [
    (None, "cannot read config {path}: No such file or directory"),
    ("algo: {name: PPO}\ntotal_timesteps: -1\n",
     "total_timesteps must be an integer ≥ 1, got -1"),
    ("algo: {name: PPOO}\n", "algo.name must be one of "),
    ("search: {depth: 9}\n", "search.depth must be 1–3, got 9"),
    ("rllib: {lr: 0}\n", "rllib.lr must be a number > 0, got 0"),
])
def test_a_missing_or_bad_config_is_refused_before_torch_is_imported(
        text: str | None, message: str, tmp_path: Path) -> None:
    """Every ``pagadores train`` error took 5 s: torch and SB3 were imported before the YAML
    was read (issue 45, item 13)."""
    path = tmp_path / "config.yaml"
    if text is not None:
        path.write_text(text)
    code = ("import sys; from pagadores_cli.main import main; "
            f"code = main(['train', {str(path)!r}]); "
            "print(code, sorted({'torch', 'stable_baselines3', 'ray'} & sys.modules.keys()))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.stdout == "2 []\n", done.stderr
    assert done.stderr.startswith("pagadores train: error: " + message.format(path=path))
    assert done.stderr.count("\n") == 1


@pytest.mark.slow
def test_importing_the_command_and_both_trainers_leaves_ray_out() -> None:
    code = ("import sys, pagadores_env, pagadores_agents, pagadores_train.learners.sb3, "
            "pagadores_cli.train, pagadores_train.learners.rllib; "
            "from pagadores_env.core.policies import make_policy; "
            "make_policy('sensible'); "
            "assert 'ray' not in sys.modules, sorted(m for m in sys.modules if 'ray' in m)")
    subprocess.run([sys.executable, "-c", code], check=True)
