"""Step N means N steps trained: a checkpoint, an evaluation or a snapshot labelled N holds the
policy after training on N steps (``pagadores_train.run.callbacks``), for on- and off-policy
algorithms, and a Ctrl-C leaves a checkpoint that a resume continues without repeating or
skipping an update."""

from __future__ import annotations

import json
import signal
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("stable_baselines3")

import torch
from stable_baselines3.common.base_class import BaseAlgorithm
from stable_baselines3.common.vec_env import DummyVecEnv

from pagadores_train.learners.sb3 import train
from pagadores_train.run.algorithms import algorithm_class
from pagadores_train.run.config import Config, load_config
from pagadores_train.run.folder import Interrupted
from tests.train.runs import CONFIGS, interrupt_when, rows, tiny

#: Per config: its rollout in steps under ``tiny`` (2 envs; MaskablePPO n_steps 64, DQN
#: train_freq 4) and a schedule of a few rollouts (DQN's first updates come at step 64,
#: ``learning_starts``).
ROLLOUTS = {"default": (128, 128), "dqn_2p": (8, 96)}
#: The columns of an evaluation row that depend on the policy (not on when it ran).
MEASURES = ("opponent", "games", "wins", "win_rate", "mean_placement")


def run_of(name: str, out: Path, timesteps: int, every: int) -> Config:
    """``configs/<name>.yaml`` shrunk (``tiny``), checkpointed and evaluated every ``every``
    steps on 40 games, the final evaluation on the same 40, at a constant learning rate (a
    linear schedule would depend on ``timesteps``)."""
    config = tiny(load_config(CONFIGS / f"{name}.yaml"), out, timesteps,
                  checkpoint_every=every,
                  eval={"every": every, "games": 40, "final_games": 40, "exact": False,
                        "opponents": ["random", "sensible"]})
    config.algo.hyperparams["learning_rate"] = 1e-3
    return config


def parameters(path: Path, config: Config) -> torch.Tensor:
    model = algorithm_class(config.algo.name).load(path, device="cpu")
    return torch.nn.utils.parameters_to_vector(model.policy.parameters()).detach()


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(ROLLOUTS))
def test_a_checkpoint_and_an_evaluation_at_step_n_hold_the_policy_trained_on_n_steps(
        name: str, tmp_path: Path) -> None:
    """Run A goes on past step N, run B stops there: A's checkpoint and evaluation labelled
    N are B's final model and final evaluation. Before, A's were taken during the rollout
    that ends at N, before its update (with MaskablePPO, the untrained model)."""
    _, every = ROLLOUTS[name]
    longer = run_of(name, tmp_path / "a", 2 * every, every)
    shorter = run_of(name, tmp_path / "b", every, every)
    train(longer)
    train(shorter)
    checkpoint = parameters(longer.run_dir / "checkpoints" / f"model_{every}_steps.zip",
                            longer)
    assert torch.equal(checkpoint, parameters(shorter.run_dir / "model.zip", shorter))
    later = parameters(longer.run_dir / "checkpoints" / f"model_{2 * every}_steps.zip",
                           longer)
    assert not torch.equal(checkpoint, later)  # training moves the weights at all
    at_n = [{k: r[k] for k in MEASURES} for r in rows(longer.run_dir / "eval.csv")
            if int(r["timesteps"]) == every]
    final = [{k: r[k] for k in MEASURES} for r in rows(shorter.run_dir / "final_eval.csv")]
    assert at_n == final and len(at_n) == 2


def updates(config: Config) -> int:
    """How many gradient updates the run's final model has had."""
    model: BaseAlgorithm = algorithm_class(config.algo.name).load(
        config.run_dir / "model.zip", device="cpu")
    return model._n_updates


@pytest.mark.slow
@pytest.mark.parametrize(("target", "method", "call", "where"), [
    (DummyVecEnv, "step_wait", 100, "while a rollout is collected"),
    (algorithm_class("MaskablePPO"), "train", 2, "while a rollout is trained on"),
])
def test_ctrl_c_finishes_the_rollout_and_update_then_checkpoints_there(
        target: Any, method: str, call: int, where: str, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A Ctrl-C {where} (here during the second rollout of 128 steps) stops at step 256,
    after that rollout's update: the checkpoint there is an uninterrupted run's model at 256,
    and the resumed run has had as many updates as one never interrupted. Before, it saved
    the step it was at with the policy of the update before (a checkpoint at step 228 of a
    policy trained on 128 steps), and the resume skipped an update."""
    interrupted = run_of("default", tmp_path / "a", 512, 10**6)
    interrupt_when(monkeypatch, target, method, call)
    with pytest.raises(Interrupted) as stop:
        train(interrupted)
    monkeypatch.undo()
    assert stop.value.timesteps == 256
    assert "Ctrl-C: finishing the rollout from step 128 and its update" in capsys.readouterr().err
    straight = run_of("default", tmp_path / "b", 256, 10**6)
    train(straight)
    assert torch.equal(
        parameters(interrupted.run_dir / "checkpoints" / "model_256_steps.zip", interrupted),
        parameters(straight.run_dir / "model.zip", straight))
    train(interrupted)
    uninterrupted = run_of("default", tmp_path / "c", 512, 10**6)
    train(uninterrupted)
    assert updates(interrupted) == updates(uninterrupted) == 4 * 5  # 4 rollouts, 5 epochs


def test_a_second_ctrl_c_stops_at_once_and_keeps_the_last_checkpoint(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = run_of("default", tmp_path, 512, 128)
    real = DummyVecEnv.step_wait
    calls = {"n": 0}

    def twice(self: Any) -> Any:
        calls["n"] += 1
        if calls["n"] in (100, 101):  # during the second rollout
            signal.raise_signal(signal.SIGINT)
        return real(self)
    monkeypatch.setattr(DummyVecEnv, "step_wait", twice)
    with pytest.raises(Interrupted) as stop:
        train(config)
    assert stop.value.timesteps is None
    latest = json.loads((config.run_dir / "checkpoints" / "latest.json").read_text())
    assert latest["timesteps"] == 128


@pytest.mark.slow
def test_resuming_a_run_from_before_trained_step_labels_says_so_once(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = run_of("default", tmp_path, 256, 128)
    train(config)
    latest = config.run_dir / "checkpoints" / "latest.json"
    record = json.loads(latest.read_text())
    assert record["step_means"] == "trained"
    del record["step_means"]  # as a run folder written before the change holds it
    latest.write_text(json.dumps(record))
    capsys.readouterr()
    notice = "was written before a step meant trained steps"
    train(run_of("default", tmp_path, 384, 128))
    assert capsys.readouterr().err.count(notice) == 1
    train(run_of("default", tmp_path, 512, 128))
    assert notice not in capsys.readouterr().err


@pytest.mark.slow
def test_the_evaluation_schedule_does_not_change_what_is_trained(tmp_path: Path) -> None:
    """Evaluating loads the model, which builds a network from torch's global generator:
    it must not move the generator training samples from (``callbacks.isolated_rng``)."""
    often = run_of("default", tmp_path / "a", 384, 128)
    never = run_of("default", tmp_path / "b", 384, 128)
    never.eval.every = 0  # only the untrained baseline and the final evaluation
    train(often)
    train(never)
    assert len(rows(often.run_dir / "eval.csv")) > len(rows(never.run_dir / "eval.csv"))
    assert torch.equal(parameters(often.run_dir / "model.zip", often),
                       parameters(never.run_dir / "model.zip", never))
