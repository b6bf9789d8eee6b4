"""An RLlib run's configuration (``pagadores train`` with a config that has an ``rllib:``
section, e.g. ``configs/rllib_selfplay_3p.yaml``): the dataclasses, validated like an SB3
run's (``pagadores_train.settings``), and which of their keys may change when a run resumes.
The trainer is ``pagadores_train.learners.rllib``; this module imports no Ray, so ``--help`` and the
config checks stay light.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pagadores_env.core.rewards import REWARDS
from pagadores_env.pagadores.rules import MAX_PLAYERS, MIN_PLAYERS

from ..run.algorithms import ACTIVATIONS
from ..run.config import check_table_run, spec_list
from ..run.folder import RESUMABLE_CHANGES, RunConfig
from ..run.games import cards_spec
from ..settings import (
    ConfigError,
    boolean,
    build_section,
    choice,
    has_section,
    integer,
    number,
    optional,
    read_yaml,
    run_name,
    setting,
    text,
)

#: The section that makes a YAML config an RLlib one (``is_rllib_config``).
SECTION = "rllib"


#: Keys that may differ when a run is continued: SB3's, and where and how wide it samples.
RESUMABLE = RESUMABLE_CHANGES | {"rllib.address", "rllib.num_env_runners",
                                 "rllib.num_envs_per_env_runner", "rllib.torch_threads"}


def layers(value: Any, key: str) -> list[int]:
    """A non-empty list of layer sizes 1–4096."""
    if not isinstance(value, list) or not value:
        raise ConfigError(f"{key} must be a non-empty list of layer sizes, got {value!r}")
    return [integer(1, 4096)(v, f"{key}[{i}]") for i, v in enumerate(value)]


@dataclass
class TableConfig:
    """``env``: the table every seat of which the shared policy plays."""

    num_players: int = setting(3, integer(MIN_PLAYERS, MAX_PLAYERS), "players at the table "
                              "(R1.1), every seat played by the shared policy")
    cards: int | list[int] = setting(
        10, cards_spec, "starting cards per player, or a list of one count per seat (R1.1)")
    reward: str = setting("win", choice(*REWARDS), "reward scheme (pagadores_env.core.rewards)")


@dataclass
class PPOSettings:
    """``rllib``: where RLlib samples and PPO's settings (keys named as RLlib's
    ``PPOConfig.env_runners``/``training`` arguments and ``DefaultModelConfig`` fields)."""

    address: str | None = setting(None, optional(text), "Ray cluster to join, e.g. "
                                 "'HEAD:6379' (default: RAY_ADDRESS, else a local Ray)")
    num_env_runners: int = setting(0, integer(0, 1024), "sampling workers, one CPU each "
                                  "(0: sample in this process)")
    num_envs_per_env_runner: int = setting(1, integer(1, 256), "envs each sampler steps")
    train_batch_size: int = setting(4000, integer(2), "env steps per PPO iteration")
    minibatch_size: int = setting(500, integer(2), "steps per SGD minibatch")
    num_epochs: int = setting(5, integer(1), "passes over each batch")
    lr: float = setting(3e-4, number(0, above=True), "Adam learning rate")
    gamma: float = setting(1.0, number(0, 1), "discount")
    lambda_: float = setting(0.95, number(0, 1), "GAE lambda")
    entropy_coeff: float = setting(0.0, number(0), "entropy bonus")
    clip_param: float = setting(0.2, number(0, above=True), "PPO clip range")
    vf_loss_coeff: float = setting(1.0, number(0), "value loss weight")
    fcnet_hiddens: list[int] = setting([64, 64], layers,
                                      "hidden layer sizes (actor and critic each)")
    fcnet_activation: str = setting("tanh", choice(*ACTIVATIONS), "hidden activation")
    torch_threads: int = setting(1, integer(1, 64), "torch threads of this process: the "
                                "learner, and the sampling with 0 env runners (small nets: "
                                "1 is fastest)")


@dataclass
class FinalEvalConfig:
    """``eval``: the final evaluation (the same reports as an SB3 run's)."""

    games: int = setting(2000, integer(1), "games per opponent")
    opponents: list[str] = setting(["random", "stop-first", "always-throw", "sensible"],
                                  spec_list, "opponents to evaluate against")
    exact: bool = setting(True, boolean, "add the solver's exact numbers where it covers the "
                         "table (3+ players: NashConv and exact win)")


@dataclass
class RLlibConfig(RunConfig):
    """A whole RLlib run: the top-level keys and the sections above."""

    name: str | None = setting(None, optional(run_name),
                              "run folder name, a plain name (default: YAML file stem)")
    seed: int = setting(0, integer(0), "RLlib's seed and the evaluation's")
    total_timesteps: int = setting(1_000_000, integer(1), "env steps to train on: decisions "
                                  "of all seats")
    env: TableConfig = field(default_factory=TableConfig)
    rllib: PPOSettings = field(default_factory=PPOSettings)
    eval: FinalEvalConfig = field(default_factory=FinalEvalConfig)
    checkpoint_every: int = setting(100_000, integer(1), "save a checkpoint every N env steps")
    output_dir: str = setting("runs", text, "runs are written to OUTPUT_DIR/NAME/")
    progress_bar: bool = setting(True, boolean, "show a progress bar over env steps")


def is_rllib_config(path: str | Path) -> bool:
    """Whether the YAML file at ``path`` is an RLlib config (a mapping with an ``rllib``
    section). False for anything unreadable: ``load_config`` then says what is wrong."""
    return has_section(path, SECTION)


def rllib_config_from_dict(data: Any, name: str | None = None) -> RLlibConfig:
    """Validate plain data into an ``RLlibConfig``; ``ConfigError`` names the first bad key."""
    config = build_section(RLlibConfig, data, "")
    check_table_run(config, name)
    if config.rllib.minibatch_size > config.rllib.train_batch_size:
        raise ConfigError(f"rllib.minibatch_size must be at most rllib.train_batch_size "
                          f"({config.rllib.train_batch_size}), got {config.rllib.minibatch_size}")
    return config


def load_rllib_config(path: str | Path) -> RLlibConfig:
    """Read and validate an RLlib YAML config; the run name defaults to the file's stem."""
    path = Path(path)
    return rllib_config_from_dict(read_yaml(path), name=path.stem)
