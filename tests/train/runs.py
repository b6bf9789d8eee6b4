"""Tiny training runs, shared by the training tests (``tests/train``) and the tests of the
``pagadores train`` command (``tests/cli``): configs shrunk to seconds, the rows a run writes,
config files on disk, a small untrained model. Needs the ``train`` extra: a module importing
this says so first (``pytest.importorskip``)."""

from __future__ import annotations

import csv
import shutil
import signal
from pathlib import Path
from typing import Any

import pytest
import yaml
from sb3_contrib import MaskablePPO

from pagadores_env.pagadores.vec_env import PagadoresVecEnv
from pagadores_train.learners.sb3 import train
from pagadores_train.learners.search.config import SearchConfig, search_config_from_dict
from pagadores_train.run import callbacks
from pagadores_train.run.algorithms import without_log_files
from pagadores_train.run.config import Config, config_from_dict, load_config, save_config

CONFIGS = Path(__file__).resolve().parents[2] / "configs"
ON_POLICY = {"MaskablePPO", "PPO", "A2C"}
#: The evaluation steps in ``eval.csv`` of a ``base`` run of 512 steps (two opponents each).
STEPS_0_TO_512 = [0, 0, 256, 256, 512, 512]


def tiny(config: Config, out: Path, timesteps: int, **changes: Any) -> Config:
    """``config`` shrunk to run in seconds: few envs, short rollouts, few evaluation games."""
    data = config.to_dict()
    hyper = data["algo"]["hyperparams"]
    if data["algo"]["name"] in ON_POLICY:
        hyper["n_steps"] = 64
    if "batch_size" in hyper:
        hyper["batch_size"] = 64
    if data["algo"]["name"] == "DQN":
        hyper |= {"learning_starts": 64, "buffer_size": 2000, "target_update_interval": 100}
    data |= {"total_timesteps": timesteps, "output_dir": str(out), "checkpoint_every": 256,
             "progress_bar": False, "vec_env": {"n_envs": 2, "kind": "dummy"},
             "eval": {"every": 256, "games": 20, "final_games": 20,
                      "opponents": ["random", "sensible"], "exact": False}}
    return config_from_dict(data | changes, name=config.name)


def base(out: Path, timesteps: int = 512, **changes: Any) -> Config:
    """The default config, tiny: 2 dummy envs x 64 steps a rollout, checkpoint and evaluation
    every 256 steps, run name ``default``."""
    return tiny(load_config(CONFIGS / "default.yaml"), out, timesteps, **changes)


def finished_run(factory: pytest.TempPathFactory) -> Path:
    """A finished 512-step ``base`` run (checkpoints at 256 and 512), trained once per
    module that asks: its tests copy it (``private_copy``)."""
    out = factory.mktemp("finished")
    train(base(out))
    return out / "default"


def private_copy(finished: Path, tmp_path: Path) -> Path:
    """A copy of the finished run ``finished``, as ``tmp_path/default``."""
    shutil.copytree(finished, tmp_path / "default")
    return tmp_path / "default"


def rows(path: Path) -> list[dict[str, str]]:
    with path.open(newline="") as f:
        return list(csv.DictReader(f))


def eval_steps(run: Path) -> list[int]:
    return [int(r["timesteps"]) for r in rows(run / "eval.csv")]


def truncate(path: Path) -> None:
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def config_file(tmp_path: Path, timesteps: int = 256) -> Path:
    """A ``base`` config written to ``tmp_path/smoke.yaml``, run name ``default``."""
    path = tmp_path / "smoke.yaml"
    save_config(base(tmp_path, timesteps), path)
    data = yaml.safe_load(path.read_text())
    data["name"] = "default"
    path.write_text(yaml.safe_dump(data))
    return path


def smoke_config_file(tmp_path: Path) -> Path:
    """A ``base`` config written to ``tmp_path/smoke.yaml`` with no name: its runs go to
    ``tmp_path`` as ``smoke``, the file's stem."""
    path = tmp_path / "smoke.yaml"
    save_config(base(tmp_path), path)
    data = yaml.safe_load(path.read_text())
    del data["name"]
    path.write_text(yaml.safe_dump(data))
    return path


def evaluate_failing_at(step: int, error: BaseException,
                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the evaluation during training at ``step`` raise ``error`` (a kill or Ctrl-C in
    the middle of it), once."""
    real = callbacks.evaluate_model
    state = {"armed": True}

    def evaluate_model(model: Any, config: Any, games: int, final: bool = False,
                       **reporting: Any) -> Any:
        if state["armed"] and model.num_timesteps == step:
            state["armed"] = False
            raise error
        return real(model, config, games, final=final, **reporting)
    monkeypatch.setattr(callbacks, "evaluate_model", evaluate_model)


#: A search run shrunk to seconds (``tiny_search``): 3 players with 2 cards, 8 games an
#: iteration (about 60 decisions), a net of 16, an evaluation and a checkpoint every 80
#: decisions (after the iterations that reach 80 and 160), 20 Monte Carlo games.
SEARCH_TINY: dict[str, Any] = {
    "seed": 1, "total_timesteps": 160, "progress_bar": False,
    "env": {"num_players": 3, "cards": 2},
    "search": {"games": 8, "buffer": 500, "slices": 3, "fit_steps": 20, "batch": 32,
               "hidden": [16]},
    "eval": {"every": 80, "games": 20, "opponents": ["sensible"], "exact": False},
    "checkpoint_every": 80}


def tiny_search(out: Path, name: str = "search", **changes: Any) -> SearchConfig:
    """``SEARCH_TINY`` (with ``changes`` to its top-level keys) run as ``out/name``."""
    return search_config_from_dict(SEARCH_TINY | {"name": name, "output_dir": str(out)}
                                   | changes)


def interrupt_when(monkeypatch: pytest.MonkeyPatch, target: Any, method: str,
                   call: int, times: int = 1) -> None:
    """Deliver ``times`` real SIGINTs (Ctrl-C) at the ``call``-th call of ``target.method``,
    before that call runs."""
    real = getattr(target, method)
    calls = {"n": 0}

    def wrapped(self: Any, *args: Any, **kwargs: Any) -> Any:
        calls["n"] += 1
        if calls["n"] == call:
            for _ in range(times):
                signal.raise_signal(signal.SIGINT)
        return real(self, *args, **kwargs)
    monkeypatch.setattr(target, method, wrapped)


def tiny_model(seed: int, num_players: int = 3) -> MaskablePPO:
    """An untrained MaskablePPO with a small network, on a VecEnv of ``num_players``, that
    writes no log files when it learns."""
    env = PagadoresVecEnv(2, num_players=num_players, opponents="random", seed=seed)
    return without_log_files(MaskablePPO("MlpPolicy", env, seed=seed, device="cpu", n_steps=32,
                                         batch_size=32, policy_kwargs={"net_arch": [8]}))
