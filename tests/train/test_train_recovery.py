"""The training run keeps user data safe and recovers: ``--fresh`` removes only run files of
ours, a kill or Ctrl-C loses no evaluation, damaged checkpoints fall back to a good one, a
refused config changes nothing, and a run says what it does (issue 8). What the ``pagadores
train`` command says and exits with is in ``tests/cli/test_train_command.py``."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("stable_baselines3")

from pagadores_train.learners.sb3 import train
from pagadores_train.run import reports
from pagadores_train.run.config import load_config, save_config
from pagadores_train.run.folder import Interrupted, RunError
from pagadores_train.settings import ConfigError
from tests.train.runs import (
    CONFIGS,
    STEPS_0_TO_512,
    base,
    eval_steps,
    evaluate_failing_at,
    finished_run,
    private_copy,
    rows,
    tiny,
    truncate,
)

# base(): 2 dummy envs x 64 steps a rollout, checkpoint and evaluation every 256 steps.


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return finished_run(tmp_path_factory)


@pytest.fixture
def run(finished: Path, tmp_path: Path) -> Path:
    return private_copy(finished, tmp_path)


# --------------------------------------------------------------------------- item 1: --fresh
@pytest.mark.slow
def test_fresh_removes_only_what_a_run_wrote(run: Path) -> None:
    (run / "notes.txt").write_text("mine")
    (run / "checkpoints" / "keep.txt").write_text("mine too")
    (run / "tensorboard" / "my_plots").mkdir()
    train(base(run.parent, 256), fresh=True)
    assert (run / "notes.txt").read_text() == "mine"
    assert (run / "checkpoints" / "keep.txt").read_text() == "mine too"
    assert (run / "tensorboard" / "my_plots").is_dir()
    # the old run's files are gone: no 512-step checkpoint, eval.csv starts over
    assert sorted(p.name for p in (run / "checkpoints").iterdir()) == [
        "keep.txt", "latest.json", "model_256_steps.zip"]
    assert eval_steps(run) == [0, 0, 256, 256]
    assert [p.name for p in (run / "tensorboard").iterdir() if p.name != "my_plots"] == [
        "MaskablePPO_0"]


@pytest.mark.parametrize("fresh", [False, True])
@pytest.mark.parametrize(("files", "why"), [
    ({"eval.csv": "my,own\n1,2\n"}, "holds eval.csv but no config.yaml of a run, so it"),
    ({"config.yaml": "paper: draft\n", "model.zip": "x"},
     "/config.yaml is no config of a run (unknown key 'paper'), so .*/default"),
])
def test_a_folder_that_is_not_a_run_of_ours_is_refused(fresh: bool, files: dict[str, str],
                                                        why: str, tmp_path: Path) -> None:
    folder = tmp_path / "default"
    folder.mkdir()
    for name, text in files.items():
        (folder / name).write_text(text)
    with pytest.raises(RunError, match=re.escape(why).replace(r"\.\*", ".*")
                       + " is not a run folder of ours and is left alone"):
        train(base(tmp_path), fresh=fresh)
    assert sorted(p.name for p in folder.iterdir()) == sorted(files)
    for name, text in files.items():
        assert (folder / name).read_text() == text



@pytest.mark.parametrize(("text", "how"), [
    (b"algo: {name: PPO\nenv: {}\n",
     "is damaged (not YAML: line 2, column 4: expected ',' or '}', but got ':')"),
    (b"seed: 0\nalgo: {name: \xcdPO}\n", "is damaged (not UTF-8 text)"),
    (b"", "is damaged (empty)"),
    (b"- algo\n- env\n", "is damaged (not a mapping of keys to values but a list)"),
    (b"algo: {}\nenv: {}\nagent: x\n", "is no config of a run (unknown key 'agent')"),
    (b"algo: {}\n", "is no config of a run (no env: section)"),
    (b"algo: {}\nenv: {}\ntotal_timesteps: -5\n", "does not validate (total_timesteps must be "
     "an integer ≥ 1, got -5): damaged, or written by another version"),
])
def test_a_damaged_config_yaml_is_named_and_how_it_is_damaged(
        text: bytes, how: str, run: Path) -> None:
    """It was refused with "holds checkpoints, config.yaml, … but no config.yaml of a run"
    (issue 45, item 7)."""
    (run / "config.yaml").write_bytes(text)
    listing = {p: p.read_bytes() for p in run.rglob("*") if p.is_file()}
    with pytest.raises(RunError) as refused:
        train(base(run.parent, 768))
    message = str(refused.value)
    assert message.startswith(f"{run / 'config.yaml'} {how}"), message
    assert "\n" not in message
    assert {p: p.read_bytes() for p in run.rglob("*") if p.is_file()} == listing


def test_a_folder_with_only_other_files_is_used_and_they_stay(tmp_path: Path) -> None:
    (tmp_path / "default").mkdir()
    (tmp_path / "default" / "README.txt").write_text("about this experiment")
    train(base(tmp_path, 128))
    assert (tmp_path / "default" / "README.txt").read_text() == "about this experiment"
    assert (tmp_path / "default" / "model.zip").exists()


# --------------------------------------------------------------------------- item 3: eval.csv
@pytest.mark.slow
def test_a_kill_during_an_evaluation_loses_no_row(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """checkpoint_every = eval.every: the checkpoint at 512 must not be saved before the
    evaluation at 512, or the resumed run never evaluates 512."""
    config = base(tmp_path, 768)
    evaluate_failing_at(512, RuntimeError("killed"), monkeypatch)
    with pytest.raises(RuntimeError, match="killed"):
        train(config)
    run = tmp_path / "default"
    assert eval_steps(run) == [0, 0, 256, 256]
    assert not (run / "checkpoints" / "model_512_steps.zip").exists()
    train(config)
    assert eval_steps(run) == [*STEPS_0_TO_512, 768, 768]


def test_an_evaluation_missing_at_the_resume_step_is_done_first(run: Path) -> None:
    """As a kill between the checkpoint at 512 and its evaluation left it (the old order)."""
    kept = [r for r in rows(run / "eval.csv") if r["timesteps"] != "512"]
    reports.write_csv(run / "eval.csv", kept)
    train(base(run.parent, 768))
    assert eval_steps(run) == [*STEPS_0_TO_512, 768, 768]


@pytest.mark.slow
def test_ctrl_c_during_an_evaluation_checkpoints_and_the_resume_redoes_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = base(tmp_path, 768)
    evaluate_failing_at(512, KeyboardInterrupt(), monkeypatch)
    with pytest.raises(Interrupted) as stop:
        train(config)
    assert stop.value.timesteps == 512
    run = tmp_path / "default"
    assert (run / "checkpoints" / "model_512_steps.zip").exists()
    assert eval_steps(run) == [0, 0, 256, 256]
    train(config)
    assert eval_steps(run) == [*STEPS_0_TO_512, 768, 768]


# --------------------------------------------------------------------------- item 4: reruns
def test_rerunning_a_finished_run_replaces_its_final_evaluation(
        run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = rows(run / "final_eval.csv")
    again = train(base(run.parent))
    assert again.timesteps == 512
    assert f"run {run} is already complete at 512 steps: re-evaluating" in capsys.readouterr(
        ).err
    after = rows(run / "final_eval.csv")
    assert len(after) == len(before) == 2
    assert [r["opponent"] for r in after] == ["random", "sensible"]
    assert eval_steps(run) == STEPS_0_TO_512


def test_a_smaller_total_than_the_run_has_passed_is_refused(run: Path) -> None:
    config_yaml = (run / "config.yaml").read_bytes()
    with pytest.raises(ConfigError, match=r"already at step 512, past total_timesteps 256, "
                                          r"and a run cannot go back; give total_timesteps "
                                          r"512 or more, or pass --fresh"):
        train(base(run.parent, 256))
    assert (run / "config.yaml").read_bytes() == config_yaml
    assert load_config(run / "config.yaml").total_timesteps == 512


# --------------------------------------------------------------------------- item 5: damage
@pytest.mark.parametrize(("damage", "problem", "resumed_from"), [
    (lambda c: (c / "latest.json").write_text(""),
     "latest.json is damaged (empty or not a checkpoint record)", 512),
    (lambda c: (c / "latest.json").unlink(), "latest.json is missing", 512),
    (lambda c: truncate(c / "model_512_steps.zip"),
     "model_512_steps.zip is damaged (it does not load)", 256),
    (lambda c: (c / "model_512_steps.zip").unlink(), "model_512_steps.zip is missing", 256),
])
def test_a_damaged_checkpoint_falls_back_to_the_newest_good_one(
        damage: Any, problem: str, resumed_from: int, run: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    damage(run / "checkpoints")
    result = train(base(run.parent, 768))
    out, err = capsys.readouterr()
    [line] = [line for line in err.splitlines() if "the newest good checkpoint" in line]
    assert line.endswith(f"{problem}: resuming from model_{resumed_from}_steps.zip, the newest "
                         "good checkpoint")
    assert ".zip.zip" not in line
    assert f"resuming from step {resumed_from} in {run}" in err
    assert out == ""  # standard output is for results: train() prints none
    assert result.timesteps == 768
    assert eval_steps(run) == [*STEPS_0_TO_512, 768, 768]



def lines_of(path: Path) -> list[bytes]:
    return path.read_bytes().splitlines(keepends=True)


def cut_mid_line(path: Path) -> list[bytes]:
    """Cut the file in its last row (the evaluation at 512 against sensible); the lines
    that must be set aside: the cut one and the other row of its evaluation."""
    lines = lines_of(path)
    path.write_bytes(b"".join(lines)[:-20])
    return [lines[-2], lines[-1][:-20]]


def not_utf8_in_a_row(path: Path) -> list[bytes]:
    """A byte that is not UTF-8 in the row of the evaluation at 256 against sensible; the
    lines that must be set aside: that row and the other row of its evaluation."""
    lines = lines_of(path)
    lines[4] = lines[4].replace(b"sensible", b"sen\xcdible")
    path.write_bytes(b"".join(lines))
    return lines[3:5]


@pytest.mark.parametrize(("damage", "evaluated"), [
    (cut_mid_line, [*STEPS_0_TO_512, 768, 768]),  # the evaluation at the resume step: redone
    (not_utf8_in_a_row, [0, 0, 512, 512, 768, 768]),  # the model at 256 is gone: not redone
])
def test_a_damaged_eval_csv_is_named_its_rows_set_aside_and_the_run_resumes(
        damage: Any, evaluated: list[int], run: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Rerunning failed with "could not convert string to float: ''" or "'utf-8' codec
    can't decode byte 0xcd", naming no file (issue 45, item 6)."""
    header = lines_of(run / "eval.csv")[0]
    set_aside = damage(run / "eval.csv")
    result = train(base(run.parent, 768))
    assert result.timesteps == 768
    err = capsys.readouterr().err.strip().splitlines()
    [line] = [e for e in err if "eval.csv" in e]
    assert line.startswith(f"{run / 'eval.csv'} is damaged: 1 line that cannot be read")
    assert "eval.csv.damaged" in line
    assert (run / "eval.csv.damaged").read_bytes() == header + b"".join(set_aside)
    assert eval_steps(run) == evaluated
    assert (run / "learning_curve.png").exists()


@pytest.mark.slow
@pytest.mark.parametrize("victim", ["latest.json", "model_768_steps.zip"])
def test_a_kill_while_checkpointing_leaves_the_previous_checkpoint_whole(
        victim: str, run: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A checkpoint's files are written to temporaries and renamed into place (latest.json
    last): a kill before a rename leaves the previous resume point as it was."""
    before = {p.name: p.read_bytes() for p in (run / "checkpoints").iterdir()}
    real_replace = os.replace

    def replace(src: Any, dst: Any) -> None:
        if Path(dst).name == victim:
            raise KeyboardInterrupt  # the kill, just before the rename
        real_replace(src, dst)
    monkeypatch.setattr(os, "replace", replace)
    with pytest.raises(Interrupted):
        train(base(run.parent, 1024))  # the next checkpoint is at 768
    monkeypatch.setattr(os, "replace", real_replace)
    after = {p.name: p.read_bytes() for p in (run / "checkpoints").iterdir()}
    assert after["latest.json"] == before["latest.json"]
    assert {name: after[name] for name in before} == before
    assert not list(run.rglob("*.tmp"))  # no temporary file left behind
    assert train(base(run.parent, 1024)).timesteps == 1024
    assert eval_steps(run) == [*STEPS_0_TO_512, 768, 768, 1024, 1024]


# --------------------------------------------------------------------------- item 6: bad starts
def typo_in_policy_kwargs(out: Path) -> Any:
    """A config the validation passes (policy_kwargs are the policy's business) and SB3
    refuses when building the model."""
    config = base(out, 128)
    config.algo.hyperparams["policy_kwargs"] = {"net_arch": [64, 64], "activaton_fn": "relu"}
    return config


def test_a_config_sb3_refuses_writes_nothing(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"^algo\.hyperparams: MaskablePPO refuses them: "
                                          r".*activaton_fn"):
        train(typo_in_policy_kwargs(tmp_path))
    assert not (tmp_path / "default").exists()


def test_fresh_with_a_refused_config_keeps_the_old_run(run: Path) -> None:
    listing = sorted(str(p.relative_to(run)) for p in run.rglob("*"))
    with pytest.raises(ConfigError, match="MaskablePPO refuses them"):
        train(typo_in_policy_kwargs(run.parent), fresh=True)
    assert sorted(str(p.relative_to(run)) for p in run.rglob("*")) == listing


def test_a_folder_without_a_checkpoint_is_not_a_run_to_protect(tmp_path: Path) -> None:
    """A failed start left config.yaml (and a baseline eval) but no checkpoint: the corrected
    config starts a new run there instead of being refused."""
    failed = base(tmp_path, 128, seed=7)
    (tmp_path / "default").mkdir()
    save_config(failed, tmp_path / "default" / "config.yaml")
    reports.write_csv(tmp_path / "default" / "eval.csv", [
        {"timesteps": 0, "wall_time_s": 0.1, "opponent": "stale", "games": 20}])
    result = train(base(tmp_path, 128))
    assert load_config(result.run_dir / "config.yaml").seed == 0
    assert [(r["timesteps"], r["opponent"]) for r in rows(result.run_dir / "eval.csv")] == [
        ("0", "random"), ("0", "sensible")]


# --------------------------------------------------------------------------- item 15 and more
def training_lines(out: str) -> list[str]:
    """The training phase's status lines (``pagadores_train.progress``, bars off), without
    their elapsed time."""
    return [line.partition(" [")[0] for line in out.splitlines()
            if line.startswith("training")]


@pytest.mark.slow
def test_training_progress_counts_the_timesteps_really_run_and_says_why(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """SB3 stops only after whole rollouts (here 2 envs x 64 steps): asked for 200 it runs
    256; the training phase counts to 256 and the run says once why (before, the bar ended
    at 256/200 and nothing was said)."""
    result = train(base(tmp_path, 200))
    assert result.timesteps == 256
    out = capsys.readouterr().err
    assert out.count("training to step 256: total_timesteps 200 rounded up to whole rollouts "
                     "of 128 steps\n") == 1
    lines = training_lines(out)
    assert lines[1] == "training: 256 steps" and lines[-2:] == [
        "training: 256/256 steps", "training: done"]
    resumed = train(base(tmp_path, 300))  # from 256: one more rollout
    assert resumed.timesteps == 384
    lines = training_lines(capsys.readouterr().err)
    assert lines[1] == "training: 128 steps" and lines[-2:] == [
        "training: 128/128 steps", "training: done"]


@pytest.mark.parametrize(("name", "runs"), [("a2c_2p", 384), ("dqn_2p", 304)])
def test_training_progress_knows_every_algorithms_rollout(
        name: str, runs: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A2C: rollouts of 2 envs x 64 steps; DQN: train_freq 4 steps of 2 envs."""
    result = train(tiny(load_config(CONFIGS / f"{name}.yaml"), tmp_path, 300))
    assert result.timesteps == runs
    assert training_lines(capsys.readouterr().err)[-2:] == [
        f"training: {runs}/{runs} steps", "training: done"]


@pytest.mark.slow
def test_train_says_what_it_does(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    train(base(tmp_path, 256))
    assert f"starting a new run in {tmp_path / 'default'}\n" in capsys.readouterr().err
    train(base(tmp_path, 384))
    assert f"resuming from step 256 in {tmp_path / 'default'}\n" in capsys.readouterr().err
    train(base(tmp_path, 384), fresh=True)
    assert (f"starting a new run in {tmp_path / 'default'} (removed the previous run's files)"
            in capsys.readouterr().err)


@pytest.mark.parametrize("kind", ["batch", "dummy"])
def test_per_seat_cards_train(kind: str, tmp_path: Path) -> None:
    """``env.cards: [3, 4]``: the exact columns (one card count for both) are left empty."""
    result = train(base(tmp_path, 256, env={"cards": [3, 4], "opponents": ["sensible"]},
                        vec_env={"n_envs": 2, "kind": kind},
                        eval={"every": 0, "games": 20, "final_games": 20,
                              "opponents": ["random"], "exact": True}))
    assert load_config(result.run_dir / "config.yaml").env.cards == [3, 4]
    assert [r["exact_win"] for r in rows(result.run_dir / "final_eval.csv")] == [""]
    assert result.timesteps == 256
