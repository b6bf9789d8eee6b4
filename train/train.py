"""Train a stable-baselines3 agent on Pagadores-v1 (or Perudo-v1) from a YAML config.

Read top to bottom, ``train(config)`` does: check the run folder and hold it
(``pagadores_train.lock``) → make the vectorised env → build the model, or resume it from the
folder's newest good checkpoint → set up the folder → learn with callbacks that evaluate and
checkpoint on a schedule → save the final model → evaluate it against every evaluation
opponent → draw the learning curve. It says in one line what it does: starting a new run,
resuming from step N, or re-evaluating a complete run; and, when ``total_timesteps`` is not a
whole number of rollouts, the step it will really stop at.

**Step N means N steps trained.** A checkpoint, an evaluation (its ``timesteps``), a self-play
snapshot or a tensorboard point labelled N holds the policy after training on N steps: they
are taken after an update, at rollout boundaries (``pagadores_train.callbacks``), so with
rollouts of 16,384 steps ``eval.every: 100000`` evaluates at 114,688, 212,992, …

A run folder ``OUTPUT_DIR/NAME/`` holds:

====================  ===========================================================
config.yaml           the validated config, defaults filled in
model.zip             the final model (load with ``ALGO.load`` or ``model:path=…``)
checkpoints/          ``model_<timesteps>_steps.zip`` (the newest ``keep_checkpoints``),
                      ``latest.json`` (resume point),
                      ``replay_buffer_<timesteps>_steps.pkl`` (the newest checkpoint's)
                      for off-policy algorithms
selfplay/             with ``env.selfplay``: the learner's frozen snapshots
                      (``snapshot_<timesteps>.zip``) and their list ``pool.json``
                      (``pagadores_train.selfplay``), the pool its opponents are drawn from
tensorboard/          SB3's tensorboard logs (plus ``eval/win_rate/<opponent>``,
                      ``eval/exact_win/<opponent>``, ``eval/exploitability`` and
                      ``eval/nash_conv``)
eval.csv              the model against each evaluation opponent during training: games,
                      win rate with 95 % CI, timesteps, wall time; with two players and one
                      card count the solver's exact win probability, % of the best
                      response's and the policy's exploitability (``pagadores_train.yardstick``);
                      at three or more players the exact win and the policy's NashConv
                      (see "Exact numbers" below); ``nash_conv`` at two players is twice the
                      exploitability
final_eval.csv        the same columns for the final evaluation (``eval.final_games``)
compare.csv           with ``eval.compare``: each of those agents measured on the final
                      evaluation's games and measures (``agent`` column first;
                      ``pagadores_train.compare``)
learning_curve.png    eval.csv drawn: win rates over trained steps (+ exploitability at two
                      players, NashConv at three or more, when exact)
results.md            the final table as printed, with the commit, platform and library
                      versions it was printed with (``write_results``; ``make results``
                      publishes the default run's under ``docs/results/``)
run.lock              while a run holds the folder (``pagadores_train.lock``): another run
                      of it is refused in one line naming the host and process
====================  ===========================================================

Every file the trainer writes itself (all but SB3's tensorboard logs) is written atomically
(``pagadores_env.core.atomic``: a temporary file in the same folder, then renamed), so a kill at
any moment leaves each file as it was or complete. Nothing else in the folder is touched: a
folder holding run files (names above) but no run's ``config.yaml`` is refused.

**Several table sizes** (``env.num_players`` a list): every training game draws its size
from the list (``pagadores_env.pagadores.vec_env``), and every evaluation measures the model at each
listed size; the opponent column then names the size (``sensible (4p)``).

**Exact numbers at three or more players** (``eval.exact``): the NashConv of the model
playing every seat and its exact win against each evaluation opponent (reused in every other
seat, averaged over the seat rotation the games play: what the win rate estimates), all from
one solver pass that asks the model about each decision once (``yardstick.learner_exact``).
A pass asks the policies about every decision of the table: 3 players with 10 cards is
1.05e8 rows, about 2 CPU minutes with a small network. So they are computed at every
evaluation when the pass asks at most ``EVERY_ROWS`` rows (3 players, 10 cards: NashConv and
the win against one opponent), else at the final evaluation only when it asks at most
``FINAL_ROWS``, else not at all; a table the solver does not cover (4 players with many
cards) gets none. The final report says which, in one line. The final evaluation reuses the
exact numbers of an evaluation of the same weights (the scheduled one at the last step)
instead of solving again.

**Resume.** Running the same config again continues the run from its last checkpoint: the
model, its timestep count, the eval CSV (rows after the checkpoint are dropped and redone),
the self-play pool (snapshots after the checkpoint are dropped) and the tensorboard log
carry on. Only ``total_timesteps``, ``progress_bar``, ``name``, ``output_dir``,
``keep_checkpoints`` and the evaluation's size (``eval.games``, ``eval.final_games``,
``eval.exact``: what is measured, not what is trained) may differ; ``total_timesteps`` may
not go below a step the run has already passed (the model cannot be untrained). A run that
has reached ``total_timesteps`` is not trained again; its final evaluation is redone and
replaces ``final_eval.csv``. At a step where both are due the evaluation is written before
the checkpoint, so a kill never loses an evaluation the checkpoint has passed; an evaluation
still missing at the resume step (as a Ctrl-C during it leaves) is done first. Seeded runs
repeat exactly (a resumed run is reproducible from its checkpoint, not identical to an
uninterrupted run).

A run folder written before step labels meant trained steps (its ``latest.json`` has no
``step_means``) says so once when resumed; its older rows and checkpoints keep their labels,
each one rollout less trained than it says.

**Damaged checkpoints.** If ``latest.json`` is missing, empty or names a missing or damaged
model, the run resumes from the newest ``model_<t>_steps.zip`` that loads, and says so on
stderr; with none usable it stops with a one-line error.

**New runs and --fresh.** A folder with no checkpoint (and no ``model.zip``) holds no run to
protect: a new run replaces whatever run files a failed or killed start left there, whatever
its config. ``--fresh`` starts over in a folder that holds a run: it removes only the files
and folders a run writes (the table above, the checkpoint and tensorboard files inside them,
and leftover temporary files) and leaves anything else. The model is built before anything
is removed or written, so a config SB3 refuses changes nothing.

**Ctrl-C** once the run has started lets the rollout in progress and its update finish (a few
seconds), saves a checkpoint there and prints the command that resumes; during an evaluation
it stops at once and saves the checkpoint of the step evaluated. A second Ctrl-C stops at once
and keeps the previous checkpoint (``pagadores_train.callbacks``). Before the run has started,
nothing has been written, and it prints the command to start again; the command line exits
with status 130.

**Progress.** Every long phase (training, each evaluation, the exact solver passes, each
compared agent) reports through ``pagadores_train.progress``: bars, or with ``--no-progress``
(``progress_bar: false``) status lines on stdout, one per step of the phase.

**A full disk** (or any file the run cannot write) ends the command in one line naming the
file, its folder and the step a rerun resumes from (exit status 1); every file written is
atomic, so nothing written before is lost.

**Perudo** (``env.game: perudo``, ``pagadores_train.config``): the same run folder and
resume, with ``Perudo-v1`` envs; evaluations play through the Perudo engine
(``pagadores_train.perudo.evaluate_perudo``) and are Monte Carlo; ``eval.exact`` adds, at 2
players with 1 die each (the table ``perudo.exact`` solves), the policy's exact
exploitability: as it samples in the ``exploitability`` column, and with its exploitability
at its act in a note; at other tables the note says why there is none
(``perudo.exact_measures``). ``env.best_response`` trains there against the exact best
response to the learner, recomputed every rollout (``pagadores_train.best_response``).

Command line: ``pagadores train CONFIG [--timesteps N] [--name NAME] [--output-dir DIR]
[--fresh] [--force] [--eval-games N] [--no-exact] [--no-progress]`` (also ``python -m
pagadores_train.train``). Counts may be written as YAML does (``3e5``).
"""

from __future__ import annotations

import argparse
import csv
import errno
import io
import json
import platform
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field, fields, replace
from functools import partial
from pathlib import Path
from typing import Any

import torch
import yaml
from stable_baselines3.common.base_class import BaseAlgorithm
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.env_util import make_vec_env as sb3_make_vec_env
from stable_baselines3.common.on_policy_algorithm import OnPolicyAlgorithm
from stable_baselines3.common.utils import LinearSchedule
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecEnv, VecMonitor

from pagadores_agents.run_folders import CHECKPOINT_MODEL, FINAL_MODEL
from pagadores_agents.sb3_adapter import PerudoSB3Policy
from pagadores_env.core.atomic import WriteError, write_atomic
from pagadores_env.core.policies import Policy, make_policy
from pagadores_env.pagadores.vec_env import PagadoresVecEnv
from pagadores_env.perudo.policies import GAME as PERUDO

from .best_response import BestResponseOpponent, RespondEachRollout
from .callbacks import AfterUpdate, Every, RunCallbacks, isolated_rng
from .compare import cache_key, cached_exact
from .config import (
    ACTIVATIONS,
    LINEAR,
    Config,
    ConfigError,
    algorithm_class,
    config_from_dict,
    count_argument,
    describe,
    load_config,
    make_env_in_worker,
    save_config,
    table_sizes,
)
from .evaluate import AgentStats, evaluate_agents
from .lock import FolderInUse, hold_run_folder
from .perudo import evaluate_perudo, exact_measures
from .progress import BARS, LINES, SILENT, Phase, Reporter
from .selfplay import POOL_FILE, SnapshotEvery, SnapshotPool
from .yardstick import (
    DRAWN,
    ExactMetrics,
    LearnerExact,
    learner_cost,
    learner_exact,
    opponent_yardstick,
    yardstick,
)

EVAL_FIELDS = ("timesteps", "wall_time_s", "opponent", "games", "wins", "win_rate",
               "ci_low", "ci_high", "mean_placement", "exact_win", "percent_of_best_response",
               "exploitability", "exact_vs_drawn_table", "nash_conv")
#: Policy rows (``yardstick.learner_cost``) the exact numbers of a 3+-player run may ask at
#: every evaluation: 3 players with 10 cards and one opponent (1.05e8 rows; two ask 1.47e8;
#: a small SB3 network answers about 1e6 rows a CPU second).
EVERY_ROWS = 13 * 10**7
#: The same at the final evaluation only: about three times as many.
FINAL_ROWS = 32 * 10**7
LATEST = "latest.json"
#: The final table as printed, with what printed it (``write_results``).
RESULTS = "results.md"
#: What ``latest.json`` records a checkpoint's step to mean (``step_means``): the policy
#: after training on that many steps. Checkpoints from before it was recorded were saved
#: before their rollout's update (``pagadores_train.callbacks``).
TRAINED_STEPS = "trained"
#: The run's sub-folder of self-play snapshots (``selfplay.SnapshotPool``).
SELFPLAY = "selfplay"
#: Config keys that may differ when a run is continued.
RESUMABLE_CHANGES = frozenset({"total_timesteps", "progress_bar", "name", "output_dir",
                               "keep_checkpoints", "eval.games", "eval.final_games",
                               "eval.exact"})
#: What a run writes into its folder: files, and in its sub-folders the entries matching
#: these patterns. ``--fresh`` removes exactly these (and leftover temporary files).
#: ``eval.compare``'s agents measured like the model (``compare_agents``), and its columns.
COMPARE = "compare.csv"
COMPARE_FIELDS = ("agent", *EVAL_FIELDS[2:])
RUN_FILES = ("config.yaml", FINAL_MODEL, "eval.csv", "final_eval.csv", COMPARE,
             "learning_curve.png", RESULTS)
RUN_FOLDERS = {"checkpoints": ("model_*_steps.zip", "replay_buffer_*_steps.pkl", LATEST),
               "tensorboard": ("*_[0-9]*",),  # SB3's <tb_log_name>_<run id>
               SELFPLAY: ("snapshot_*.zip", POOL_FILE)}
#: The temporary files ``pagadores_env.core.atomic.write_atomic`` leaves if killed mid-write.
TEMPORARY = ".*.tmp"


class RunError(ValueError):
    """A run folder that cannot be used as asked (not ours, or no usable checkpoint)."""


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during a run; ``timesteps`` is the step of the checkpoint saved on the way out
    (None if that save was interrupted too: the previous checkpoint stands)."""

    def __init__(self, timesteps: int | None) -> None:
        super().__init__(timesteps)
        self.timesteps = timesteps


# --------------------------------------------------------------------------- the pipeline
def train(config: Config, fresh: bool = False, force: bool = False,
          progress: Reporter | None = None) -> RunResult:
    """Train (or continue training) ``config`` and evaluate the result; see the module doc.
    Raises ``ConfigError``/``RunError`` before changing anything in the run folder (among
    them a folder another run holds: ``pagadores_train.lock``; ``force`` takes over a lock
    another host left), and ``Interrupted`` on Ctrl-C once the run has started. ``progress``
    reports the long phases (default: bars, or status lines with ``progress_bar: false``)."""
    torch.set_num_threads(config.torch_threads)
    progress = progress or (BARS if config.progress_bar else LINES)
    _last_exact.clear()  # reused within a run only
    run_dir = config.run_dir
    saved_run(config, fresh)  # refuses a folder that is not ours before locking it
    with hold_run_folder(run_dir, force, say=warn):
        return train_locked(config, fresh, progress)


def train_locked(config: Config, fresh: bool, progress: Reporter) -> RunResult:
    """``train`` once this process holds the run folder."""
    run_dir = config.run_dir
    saved = saved_run(config, fresh)
    pool = SnapshotPool(run_dir / SELFPLAY, config.env.selfplay.max_snapshots) \
        if config.env.selfplay.every else None
    responder = BestResponseOpponent() if config.env.best_response else None
    env = make_vec_env(config, pool, responder)
    try:
        if saved is None:
            model, clock = new_model(config, env), Clock()
            start = f"starting a new run in {run_dir}" + (
                " (removed the previous run's files)" if run_entries(run_dir) else "")
        else:
            model, clock = resume(config, env, run_dir)
            check_not_backwards(config, saved, model.num_timesteps)
            start = (f"resuming from step {model.num_timesteps:,} in {run_dir}"
                     if model.num_timesteps < config.total_timesteps else
                     f"run {run_dir} is already complete at {model.num_timesteps:,} steps: "
                     "re-evaluating")
            if pool is not None:
                restore_pool(pool, model.num_timesteps)
        set_up_run_dir(config, new=saved is None, timesteps=model.num_timesteps)
        # learn's first reset already draws opponents and plays their first moves
        opponents: list[BaseCallback] = []
        if pool is not None:
            if not len(pool):
                pool.add(model, model.num_timesteps)
            opponents.append(SnapshotEvery(pool, config.env.selfplay.every))
        if responder is not None:
            responder.respond_to(PerudoSB3Policy.of_model(model))
            opponents.append(RespondEachRollout(responder))
        say(start)
        planned = planned_timesteps(model, config.total_timesteps)
        if model.num_timesteps < config.total_timesteps < planned:
            say(f"training to step {planned:,}: total_timesteps {config.total_timesteps:,} "
                f"rounded up to whole rollouts of {rollout_steps(model):,} steps")
        checkpoints = CheckpointEvery(config.checkpoint_every, run_dir / "checkpoints", clock,
                                      config.keep_checkpoints)
        # Evaluation before checkpoint: a checkpoint must never pass a missing evaluation;
        # opponents before the checkpoint, which must not pass a snapshot.
        callbacks = RunCallbacks([EvaluateEvery(config, run_dir / "eval.csv", clock, progress),
                                  *opponents, checkpoints], say=warn)
        try:
            final, compared = learn_and_evaluate(model, config, clock, checkpoints, callbacks,
                                                 progress)
        except KeyboardInterrupt:
            saved_at = None if callbacks.mid_rollout else save_on_interrupt(checkpoints, model)
            raise Interrupted(saved_at) from None
    finally:
        env.close()
    return RunResult(run_dir, model.num_timesteps, clock(), final, compared)


def restore_pool(pool: SnapshotPool, timesteps: int) -> None:
    """Reload the run's self-play pool up to the resume step; ``RunError`` if it is damaged."""
    try:
        pool.restore(up_to=timesteps)
    except ValueError as err:
        raise RunError(f"the run's self-play pool does not load ({err}); pass --fresh to "
                       "start over or pick another --name") from None


def learn_and_evaluate(model: BaseAlgorithm, config: Config, clock: Clock,
                       checkpoints: CheckpointEvery, callbacks: RunCallbacks,
                       progress: Reporter = SILENT,
                       ) -> tuple[list[Evaluation], dict[str, list[Evaluation]]]:
    """Learn up to ``total_timesteps`` (if not there yet) with ``callbacks`` (evaluations,
    the callbacks that keep the learner's opponents current, checkpoints), then save the
    model, its final evaluation and the ``eval.compare`` agents' (``compare_agents``), and
    draw the learning curve."""
    run_dir = config.run_dir
    remaining = max(0, config.total_timesteps - model.num_timesteps)
    if remaining:
        bar = TrainingProgress(progress)
        callbacks.callbacks.append(bar)
        finished = False
        try:
            with callbacks.interrupts_deferred():
                model.learn(remaining, callback=callbacks, reset_num_timesteps=False,
                            progress_bar=False, tb_log_name=config.algo.name)
            finished = True
        finally:
            bar.close(finished)  # also on Ctrl-C, so the resume line is not drawn over
        checkpoints.save(model)  # so a rerun resumes from exactly here
    write_atomic(run_dir / FINAL_MODEL, saved_bytes(model.save))
    final = final_evaluation(model, config, progress)
    write_csv(run_dir / "final_eval.csv", eval_rows(final, model.num_timesteps, clock()))
    if config.eval.compare:
        count = len(config.eval.compare)
        say(f"measuring {count} agent{'s' if count > 1 else ''} for comparison (exact numbers "
            "from the cache, else solver passes: pagadores_train.compare)")
    compared = compare_agents(config, progress)
    if compared:
        write_csv(run_dir / COMPARE, [{"agent": spec} | r.row() for spec, results
                                      in compared.items() for r in results], COMPARE_FIELDS)
    plot_learning_curve(run_dir / "eval.csv", run_dir / "learning_curve.png",
                        table_sizes(config.env))
    return final, compared


def save_on_interrupt(checkpoints: CheckpointEvery, model: BaseAlgorithm) -> int | None:
    """Checkpoint the model after a Ctrl-C; the step saved, or None if a second Ctrl-C
    stopped the save (the atomic write then leaves the previous checkpoint as it was)."""
    try:
        checkpoints.save(model)
    except KeyboardInterrupt:
        return None
    return model.num_timesteps


def say(message: str) -> None:
    """Print ``message`` on standard output at once (flushed)."""
    print(message, flush=True)


def warn(message: str) -> None:
    """Print ``message`` on standard error at once (flushed)."""
    print(message, file=sys.stderr, flush=True)


# --------------------------------------------------------------------------- the run folder
def saved_run(config: Config, fresh: bool) -> Config | None:
    """The saved config of the run in ``config.run_dir`` to continue, or None to start a new
    run there (``fresh``, or no checkpoint yet). Reads only: raises ``RunError`` if the folder
    is not a run folder of ours, ``ConfigError`` if it holds a run of another config."""
    run_dir = config.run_dir
    if run_dir.exists() and not run_dir.is_dir():
        raise RunError(f"{run_dir} is a file, not a run folder; pick another --name or "
                       "--output-dir")
    entries = run_entries(run_dir)
    if entries and not is_run_config(run_dir / "config.yaml"):
        names = ", ".join(sorted({p.relative_to(run_dir).parts[0] for p in entries}))
        raise RunError(f"{run_dir} holds {names} but no config.yaml of a run, so it is not a "
                       "run folder of ours and is left alone; pick another --name or "
                       "--output-dir")
    if fresh or not has_progress(run_dir):
        return None
    return saved_config(run_dir, config, load_config, RESUMABLE_CHANGES)


def saved_config(run_dir: Path, config: Any, load: Callable[[Path], Any],
                 resumable: Collection[str]) -> Any:
    """The config saved in ``run_dir`` (read by ``load``), if ``config`` may resume that run:
    they differ in ``resumable`` keys only (SB3's and RLlib's runs alike)."""
    try:
        before = load(run_dir / "config.yaml")
    except ConfigError as err:
        raise RunError(f"the run in {run_dir} has a config that no longer validates ({err}); "
                       "pass --fresh to start over or pick another --name") from None
    old, now = flat_keys(before.to_dict()), flat_keys(config.to_dict())
    changed = [k for k in sorted(old.keys() | now.keys())
               if k not in resumable and old.get(k) != now.get(k)]
    if changed:
        raise ConfigError(
            f"{run_dir} holds a run with a different config ({', '.join(changed)} "
            "changed); pick another name or pass --fresh to start over")
    return before


def run_entries(run_dir: Path) -> list[Path]:
    """The files and folders in ``run_dir`` that a run writes (``RUN_FILES``, the matching
    entries of ``RUN_FOLDERS``, leftover temporary files of atomic writes)."""
    if not run_dir.is_dir():
        return []
    found = [run_dir / name for name in RUN_FILES if (run_dir / name).exists()]
    found += run_dir.glob(TEMPORARY)
    for folder, patterns in RUN_FOLDERS.items():
        if (run_dir / folder).is_dir():
            found += [p for pattern in (*patterns, TEMPORARY)
                      for p in (run_dir / folder).glob(pattern)]
    return found


def is_run_config(path: Path) -> bool:
    """Whether ``path`` is a config a run saved: a YAML mapping of config keys including
    ``algo`` and ``env``. It need not validate (a run of an older version is still ours)."""
    try:
        data = yaml.safe_load(path.read_text())
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return False
    return (isinstance(data, dict) and {"algo", "env"} <= data.keys()
            and data.keys() <= {f.name for f in fields(Config)})


def has_progress(run_dir: Path) -> bool:
    """Whether the folder holds a trained model: a checkpoint or a final model."""
    checkpoints = run_dir / "checkpoints"
    return ((checkpoints / LATEST).exists() or (run_dir / FINAL_MODEL).exists()
            or any(checkpoints.glob("model_*_steps.zip")))


def remove_run_files(run_dir: Path) -> None:
    """Remove what a run wrote (``run_entries``), then its sub-folders if that empties them;
    anything else in the folder stays."""
    for path in run_entries(run_dir):
        if path.is_dir():
            shutil.rmtree(path)
        else:
            path.unlink()
    for folder in RUN_FOLDERS:
        if (run_dir / folder).is_dir() and not any((run_dir / folder).iterdir()):
            (run_dir / folder).rmdir()


def set_up_run_dir(config: Config, new: bool, timesteps: int) -> None:
    """Write the config into the run folder: for a new run after removing an earlier run's
    files, when resuming after dropping evaluations past the resume step."""
    run_dir = config.run_dir
    try:
        if new:
            remove_run_files(run_dir)
        run_dir.mkdir(parents=True, exist_ok=True)
        save_config(config, run_dir / "config.yaml")
    except OSError as err:
        raise RunError(f"cannot write the run folder {run_dir}: {err.strerror}") from None
    if not new:
        truncate_rows(run_dir / "eval.csv", timesteps)


def check_not_backwards(config: Config, saved: Config, timesteps: int) -> None:
    """Refuse a smaller ``total_timesteps`` than the saved one that the run has already
    passed: config.yaml would no longer describe the model."""
    if config.total_timesteps < saved.total_timesteps and timesteps > config.total_timesteps:
        raise ConfigError(
            f"{config.run_dir} is already at step {timesteps:,}, past total_timesteps "
            f"{config.total_timesteps:,}, and a run cannot go back; give total_timesteps "
            f"{saved.total_timesteps:,} or more, or pass --fresh to start over")


def flat_keys(data: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """Nested dicts as ``{"algo.hyperparams.gamma": 1.0, ...}``, to name what changed."""
    flat: dict[str, Any] = {}
    for key, value in data.items():
        if isinstance(value, dict) and value:
            flat |= flat_keys(value, f"{prefix}{key}.")
        else:
            flat[f"{prefix}{key}"] = value
    return flat


# --------------------------------------------------------------------------- env and model
def make_vec_env(config: Config, pool: SnapshotPool | None = None,
                 responder: BestResponseOpponent | None = None) -> VecEnv:
    """``n_envs`` monitored copies of the env, seeded ``seed + i``. Workers of a
    SubprocVecEnv unpickle ``pagadores_train.config.make_env_in_worker``, which imports only
    the light config module and leaves Ctrl-C to this process. With a self-play ``pool``
    (only with the batch engine, which ``env.selfplay`` requires) one ``SelfPlayOpponent``
    sits in every other seat, mixing in ``env.opponents`` at ``env.selfplay.scripted_share``;
    a best-response ``responder`` (``env.best_response``) sits there in every env."""
    if config.vec_env.kind == "batch":
        env = config.env
        opponents = env.opponents if pool is None else pool.opponent(
            env.selfplay.sample, env.opponents, env.selfplay.scripted_share)
        return VecMonitor(PagadoresVecEnv(
            config.vec_env.n_envs, num_players=env.num_players, cards=env.cards,
            opponents=opponents, learner_seat=env.learner_seat, reward=env.reward,
            seed=config.seed))
    if config.vec_env.kind == "subproc":
        return sb3_make_vec_env(make_env_in_worker, n_envs=config.vec_env.n_envs,
                                seed=config.seed, vec_env_cls=SubprocVecEnv,
                                env_kwargs={"env": config.env})
    make = config.env.make if responder is None else partial(config.env.make, [responder])
    return sb3_make_vec_env(make, n_envs=config.vec_env.n_envs, seed=config.seed,
                            vec_env_cls=DummyVecEnv)


def new_model(config: Config, env: VecEnv) -> BaseAlgorithm:
    """A new model; hyper-parameters SB3 or torch refuse (e.g. an unknown
    ``policy_kwargs`` key, or a negative layer size) are a ``ConfigError``."""
    algo = algorithm_class(config.algo.name)
    try:
        return algo(config.algo.policy, env, seed=config.seed, verbose=0, device="cpu",
                    tensorboard_log=str(config.run_dir / "tensorboard"), **hyperparams(config))
    except (AssertionError, ValueError, TypeError, RuntimeError) as err:  # SB3's and torch's
        reason = " ".join(str(err).split())
        raise ConfigError(f"algo.hyperparams: {config.algo.name} refuses them: {reason}"
                          ) from None


class DamagedCheckpoint(Exception):
    """A checkpoint file that cannot be read (the message says which and why)."""


def resume(config: Config, env: VecEnv, run_dir: Path) -> tuple[BaseAlgorithm, Clock]:
    """The model of the run's newest good checkpoint (the one ``latest.json`` names, else the
    newest ``model_<t>_steps.zip`` that loads, which is said on stderr), re-seeded so the
    resumed run repeats, with its replay buffer, and the run's clock at that checkpoint.
    Raises ``RunError`` if no checkpoint loads."""
    folder = run_dir / "checkpoints"
    algo = algorithm_class(config.algo.name)
    record, problems = read_latest(folder)
    for path in checkpoint_candidates(folder, record):
        try:
            model = load_model(algo, path, env)
        except DamagedCheckpoint as err:
            problems.append(str(err))
            continue
        if record is None or path.name != record["model"]:
            warn(f"{folder}: {'; '.join(problems)}: resuming from {path.name}, the newest "
                 "good checkpoint")
            record = {"wall_time_s": _wall_time_at(run_dir / "eval.csv", model.num_timesteps)}
        if record.get("step_means", TRAINED_STEPS) != TRAINED_STEPS:
            warn(f"{run_dir} was written before a step meant trained steps: its checkpoints "
                 f"and evaluations up to step {model.num_timesteps:,} hold the policy of one "
                 "rollout earlier and keep their labels; from here on, step N is the policy "
                 "after training on N steps")
        # Re-seed from the checkpoint so a resumed run repeats; the env seeds move on too.
        model.set_random_seed(config.seed + model.num_timesteps)
        if hasattr(model, "replay_buffer"):
            load_replay_buffer(model, folder / f"replay_buffer_{model.num_timesteps}_steps.pkl")
        return model, Clock(record["wall_time_s"])
    raise RunError(f"{run_dir} has no usable checkpoint ({'; '.join(problems) or 'none saved'}"
                   "); pass --fresh to start over or pick another --name")


def read_latest(folder: Path) -> tuple[dict[str, Any] | None, list[str]]:
    """``latest.json``'s record (``model``: a checkpoint's file name, ``wall_time_s``,
    ``step_means``: ``TRAINED_STEPS``, or None in a run from before it was recorded), or None
    and what is wrong with it."""
    path = folder / LATEST
    if not path.exists():
        return None, [f"{LATEST} is missing"]
    try:
        record = json.loads(path.read_text())
        record = {"model": record["model"], "wall_time_s": float(record["wall_time_s"]),
                  "step_means": record.get("step_means")}
        if CHECKPOINT_MODEL.fullmatch(record["model"]):
            return record, []
    except (OSError, UnicodeDecodeError, ValueError, TypeError, KeyError):
        pass
    return None, [f"{LATEST} is damaged (empty or not a checkpoint record)"]


def checkpoint_candidates(folder: Path, record: dict[str, Any] | None) -> list[Path]:
    """Model files to resume from, best first: the one ``record`` names, then every
    ``model_<t>_steps.zip`` from the newest."""
    saved = sorted((p for p in folder.glob("model_*_steps.zip")
                    if CHECKPOINT_MODEL.fullmatch(p.name)),
                   key=lambda p: int(CHECKPOINT_MODEL.fullmatch(p.name)[1]), reverse=True)
    first = [folder / record["model"]] if record is not None else []
    return list(dict.fromkeys(first + saved))


def load_model(algo: type[BaseAlgorithm], path: Path, env: VecEnv) -> BaseAlgorithm:
    """``algo.load(path)``, or ``DamagedCheckpoint`` saying why it cannot be."""
    if not path.is_file():
        raise DamagedCheckpoint(f"{path.name} is missing")
    try:
        return algo.load(path, env=env, device="cpu")
    except Exception:  # SB3, torch and pickle fail on a damaged file in many ways
        raise DamagedCheckpoint(f"{path.name} is damaged (it does not load)") from None


def load_replay_buffer(model: BaseAlgorithm, path: Path) -> None:
    """The replay buffer saved with the checkpoint; without one (an older checkpoint found by
    the fallback, whose buffer was superseded) or an unreadable one, it starts empty."""
    try:
        model.load_replay_buffer(path)
    except Exception as err:  # missing, or damaged in any of the ways pickle can fail
        warn(f"{path.parent}: no usable {path.name} ({type(err).__name__}): the replay buffer "
             "starts empty")


def _wall_time_at(csv_path: Path, timesteps: int) -> float:
    """The run's wall time at ``timesteps`` as far as eval.csv tells (for a checkpoint found
    without its latest.json record)."""
    return max((float(r["wall_time_s"]) for r in read_rows(csv_path)
                if int(r["timesteps"]) <= timesteps), default=0.0)


def hyperparams(config: Config) -> dict[str, Any]:
    """The config's hyper-parameters for SB3: ``"lin_<start>"`` becomes a linear schedule
    (SB3 passes it the fraction of the run still to go, 1 → 0) and activation names torch
    classes."""
    params = {name: LinearSchedule(float(value[len(LINEAR):]), 0.0, 1.0)
              if isinstance(value, str) and value.startswith(LINEAR) else value
              for name, value in config.algo.hyperparams.items()}
    policy_kwargs = dict(params.get("policy_kwargs") or {})
    if "activation_fn" in policy_kwargs:
        policy_kwargs["activation_fn"] = getattr(
            torch.nn, ACTIVATIONS[policy_kwargs["activation_fn"]])
    if policy_kwargs:
        params["policy_kwargs"] = policy_kwargs
    return params


def rollout_steps(model: BaseAlgorithm) -> int:
    """The steps of one rollout, between two updates: ``n_steps`` (on-policy) or
    ``train_freq`` (off-policy, in steps) steps of every env."""
    per_env = (model.n_steps if isinstance(model, OnPolicyAlgorithm)
               else model.train_freq.frequency)
    return per_env * model.n_envs


def planned_timesteps(model: BaseAlgorithm, total_timesteps: int) -> int:
    """The step ``model.learn`` stops at when asked to reach ``total_timesteps``: it checks
    only between rollouts (``rollout_steps``), so it runs on to the end of the rollout that
    crosses the total."""
    rollout = rollout_steps(model)
    remaining = max(0, total_timesteps - model.num_timesteps)
    return model.num_timesteps + -(-remaining // rollout) * rollout


# --------------------------------------------------------------------------- playing a model
@dataclass(frozen=True)
class Evaluation:
    """The model against one opponent: Monte-Carlo games (``stats``, the model's row) and, at
    two-player tables, the solver's exact numbers (``pagadores_train.yardstick``). ``drawn`` marks
    exact numbers against a stochastic opponent: they hold for the one deterministic table
    its calls drew, not for the opponent itself."""

    opponent: str
    stats: AgentStats
    exact: ExactMetrics | None = None
    drawn: bool = False
    #: Three or more players: the exact win and the model's NashConv (``learner_exact``).
    exact_win: float | None = None
    nash_conv: float | None = None
    #: Why a 3+-player evaluation has no exact numbers ("" when it has them or is 2-player).
    note: str = ""
    #: The table size, in runs that train at several (``env.num_players`` a list), else None.
    players: int | None = None
    #: Perudo at 2 players with 1 die: the policy's exact exploitability as it samples.
    exploitability: float | None = None

    @property
    def label(self) -> str:
        """The opponent, with the table size in runs at several sizes."""
        return self.opponent if self.players is None else f"{self.opponent} ({self.players}p)"

    @property
    def exact_win_probability(self) -> float | None:
        """The exact win against this opponent at any table size (None: not computed)."""
        return self.exact_win if self.exact is None else self.exact.win_probability

    @property
    def exact_exploitability(self) -> float | None:
        """The policy's exact exploitability at two players (either game), or None."""
        return self.exploitability if self.exact is None else self.exact.exploitability

    @property
    def exact_nash_conv(self) -> float | None:
        """The model's NashConv (at two players twice its exploitability), or None."""
        return self.nash_conv if self.exact is None else 2 * self.exact.exploitability

    def row(self) -> dict[str, Any]:
        """The CSV columns after timesteps and wall time (exact ones empty when absent)."""
        s, x = self.stats, self.exact
        win, nash, exploited = (self.exact_win_probability, self.exact_nash_conv,
                                self.exact_exploitability)
        return {"opponent": self.label, "games": s.trials, "wins": s.wins,
                "win_rate": round(s.win_rate, 4), "ci_low": round(s.ci_low, 4),
                "ci_high": round(s.ci_high, 4), "mean_placement": round(s.mean_placement, 3),
                "exact_win": "" if win is None else round(win, 5),
                "percent_of_best_response":
                    "" if x is None else round(x.percent_of_best_response, 3),
                "exploitability": "" if exploited is None else round(exploited, 5),
                "exact_vs_drawn_table": "" if x is None else self.drawn,
                "nash_conv": "" if nash is None else round(nash, 5)}


def evaluate_model(model: BaseAlgorithm, config: Config, games: int, final: bool = False,
                   progress: Reporter = SILENT, label: str = "evaluation") -> list[Evaluation]:
    """The model against every evaluation opponent (``evaluate_player``). It plays through
    the ``model:path=…`` player (``pagadores_agents.sb3_adapter``), from a temporary copy;
    its exact numbers at three or more players are reused for the same weights
    (``measured_exactly``)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "model.zip"
        model.save(path)
        player = make_policy(f"model:path={path}", game=config.env.game)
        return evaluate_player(player, config, games, final,
                               lambda at: measured_exactly(model, player, at, progress),
                               progress, label)


def evaluate_player(player: Policy, config: Config, games: int, final: bool,
                    exact_of: Callable[[Config], LearnerExact], progress: Reporter = SILENT,
                    label: str = "evaluation") -> list[Evaluation]:
    """``player`` against every evaluation opponent at every table size of the run, on the
    same seeded games each time so points on the learning curve (and rows of the final table)
    are comparable. Exact numbers at two players cost one tabulation of the player;
    opponents' tabulations are cached across evaluations. At three or more players they are
    ``exact_of(config at that size)`` (solver passes), so they are done when quick or
    ``final`` (see "Exact numbers" above; ``exact_plan``). ``progress`` reports the phase
    (``label``): a step per opponent and table size, and one for the exact numbers."""
    sizes = table_sizes(config.env)
    steps = len(sizes) * (len(config.eval.opponents) + config.eval.exact)
    with progress.phase(label, steps, "step") as phase:
        if len(sizes) == 1:
            return evaluate_at_size(player, config, games, final, exact_of, phase, progress)
        return [replace(r, players=n) for n in sizes
                for r in evaluate_at_size(player, at_size(config, n), games, final, exact_of,
                                          phase, progress)]


def at_size(config: Config, num_players: int) -> Config:
    """``config`` with its env at one table size (to evaluate a run at several)."""
    return replace(config, env=replace(config.env, num_players=num_players))


def evaluate_at_size(player: Policy, config: Config, games: int, final: bool,
                     exact_of: Callable[[Config], LearnerExact], phase: Phase,
                     progress: Reporter) -> list[Evaluation]:
    """``evaluate_player`` at a config of one table size, a ``phase`` step per opponent and
    one for the exact numbers (``progress`` reports the solver passes within it)."""
    env = config.env
    size = f" ({env.num_players}p)" if len(table_sizes(config.env)) > 1 else ""

    def against(opponent: str, stats: AgentStats, **exact: Any) -> Evaluation:
        phase.step(note=f"{games:,} games against {opponent}{size}")
        return Evaluation(opponent, stats, **exact)

    if env.game == PERUDO:
        exploited, note = (exact_measures(player, env.num_players, env.dice) if config.eval.exact
                           else (None, ""))
        if config.eval.exact:
            phase.step(note="exact exploitability")
        return [against(opponent, evaluate_perudo([player, opponent], env.num_players, games,
                                                  config.seed, env.dice).rows[0], note=note,
                        exploitability=exploited)
                for opponent in config.eval.opponents]
    results = [
        against(opponent, evaluate_agents([player, opponent], num_players=env.num_players,
                                          num_games=games, seed=config.seed, cards=env.cards,
                                          exact=False).rows[0])
        for opponent in config.eval.opponents
    ]
    if not config.eval.exact:
        return results
    if env.num_players > 2:
        wanted, note = exact_plan(player, config, final)
        if not wanted:
            phase.step(note="exact numbers skipped")
            return [replace(r, note=note) for r in results]
        measured = exact_of(config)
        phase.step(note="exact numbers")
        return [replace(r, exact_win=measured.win_probability[r.opponent],
                        nash_conv=measured.nash_conv) for r in results]
    phase.step(note="exact yardstick")
    if not isinstance(env.cards, int):
        return results  # the two-player yardstick needs one card count for both
    mine = yardstick(player, env.cards)
    return [replace(r, exact=mine.against(theirs), drawn=not theirs.exact)
            for r in results for theirs in [opponent_yardstick(r.opponent, env.cards)]]


def compare_agents(config: Config, progress: Reporter = SILENT) -> dict[str, list[Evaluation]]:
    """Every ``eval.compare`` agent measured as the final evaluation measures the model
    (``evaluate_player``), its exact numbers from the cache of ``pagadores_train.compare``."""
    compared = {}
    for i, spec in enumerate(config.eval.compare):
        player = make_policy(spec, game=config.env.game, seed=config.seed)

        def exact(at: Config, player: Policy = player, spec: str = spec) -> LearnerExact:
            env = at.env
            key = cache_key(spec, at.eval.opponents, env.num_players, env.cards, at.seed)
            return cached_exact(key, lambda: learner_exact(
                player, at.eval.opponents, env.num_players, env.cards, at.seed,
                progress=progress, label=f"exact pass of {spec}"), progress=progress,
                label=f"exact numbers of {spec}")
        label = f"comparison {i + 1}/{len(config.eval.compare)}: {spec}"
        compared[spec] = evaluate_player(player, config, config.eval.final_games, True, exact,
                                         progress, label)
    return compared


def exact_plan(player: Policy, config: Config, final: bool) -> tuple[bool, str]:
    """Whether this evaluation of a 3+-player run gets exact numbers (``learner_exact``),
    and the note saying why not: a table beyond the solver, or passes asking more policy
    rows than ``EVERY_ROWS`` (every evaluation) or ``FINAL_ROWS`` (the final one)."""
    env = config.env
    try:
        rows = learner_cost(player, config.eval.opponents, env.num_players, env.cards)
    except ValueError as err:
        return False, f"exact: not covered: {err}; Monte Carlo only"
    if rows <= EVERY_ROWS or (final and rows <= FINAL_ROWS):
        return True, ""
    limit = FINAL_ROWS if final else EVERY_ROWS
    return False, (f"exact: skipped: the solver passes would ask the model {rows:.1e} rows, "
                   f"more than the {limit:.0e} allowed at {'the final' if final else 'each'} "
                   "evaluation; Monte Carlo only")


#: The run's last ``learner_exact`` result, by what it measured (``weights_key``, opponents,
#: table): the final evaluation of a run whose last scheduled evaluation fell on its last step
#: asks the same weights again.
_last_exact: dict[tuple[object, ...], LearnerExact] = {}


def weights_key(model: BaseAlgorithm) -> bytes:
    """The model's policy weights as bytes: equal exactly when it plays the same."""
    return b"".join(t.detach().cpu().numpy().tobytes()
                    for t in model.policy.state_dict().values())


def measured_exactly(model: BaseAlgorithm, player: Policy, config: Config,
                     progress: Reporter = SILENT) -> LearnerExact:
    """``learner_exact`` of ``player`` (``model`` saved as a policy) at the run's table,
    reused when the previous call measured the same weights the same way."""
    env = config.env
    key = (weights_key(model), tuple(config.eval.opponents), env.num_players, str(env.cards),
           config.seed)
    if key not in _last_exact:
        _last_exact.clear()
        _last_exact[key] = learner_exact(player, config.eval.opponents, env.num_players,
                                         env.cards, config.seed, progress=progress,
                                         label="exact pass of the model")
    return _last_exact[key]


def final_evaluation(model: BaseAlgorithm, config: Config,
                     progress: Reporter = SILENT) -> list[Evaluation]:
    """``evaluate_model`` with the final evaluation's number of games."""
    return evaluate_model(model, config, config.eval.final_games, final=True,
                          progress=progress, label="final evaluation")


# --------------------------------------------------------------------------- callbacks
class Clock:
    """Wall time of the run in seconds, carried over from the checkpoint when resuming."""

    def __init__(self, offset: float = 0.0) -> None:
        self.start = time.perf_counter() - offset

    def __call__(self) -> float:
        """Seconds since the run started, to the hundredth."""
        return round(time.perf_counter() - self.start, 2)


class CheckpointEvery(AfterUpdate):
    """Saves ``model_<t>_steps.zip`` (and ``replay_buffer_<t>_steps.pkl`` for off-policy
    algorithms) after the update that reaches each multiple of ``every`` timesteps, then
    points ``latest.json`` at it: the resume point. Each file is written atomically and
    ``latest.json`` last, so a kill leaves the previous resume point whole. Only the newest
    ``keep`` checkpoints stay (0: all), and the replay buffer of the newest only."""

    def __init__(self, every: int, folder: Path, clock: Clock, keep: int = 0) -> None:
        super().__init__()
        self.schedule = Every(every)
        self.folder = folder
        self.clock = clock
        self.keep = keep
        self.saved_at: int | None = None

    def _on_training_start(self) -> None:
        self.schedule.start_at(self.num_timesteps)

    def _after_update(self) -> None:
        if self.schedule.due(self.num_timesteps):
            self.save(self.model)

    def save(self, model: BaseAlgorithm) -> None:
        """Write ``model``'s checkpoint (and replay buffer, if it has one) at its current step,
        then point ``latest.json`` at it (nothing to do if this step is saved already)."""
        steps = model.num_timesteps
        if steps == self.saved_at:
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        name = f"model_{steps}_steps.zip"
        write_atomic(self.folder / name, saved_bytes(model.save))
        buffer = f"replay_buffer_{steps}_steps.pkl"
        if hasattr(model, "replay_buffer"):
            write_atomic(self.folder / buffer, saved_bytes(model.save_replay_buffer))
        record = {"model": name, "timesteps": steps, "wall_time_s": self.clock(),
                  "step_means": TRAINED_STEPS}
        write_atomic(self.folder / LATEST, json.dumps(record, indent=2))
        self.saved_at = steps
        for old in self.folder.glob("replay_buffer_*_steps.pkl"):  # one buffer is enough
            if old.name != buffer:
                old.unlink()
        if self.keep:
            for old in checkpoint_candidates(self.folder, None)[self.keep:]:
                if old.name != name:
                    old.unlink()


class EvaluateEvery(AfterUpdate):
    """Evaluates the model after the update that reaches each multiple of ``eval.every``
    timesteps (and before a new run's first step, for the untrained baseline), appending to
    the eval CSV and tensorboard. When training starts at a step whose evaluation is missing
    from the CSV, it is done first (``evaluation_missing``)."""

    def __init__(self, config: Config, path: Path, clock: Clock,
                 progress: Reporter = SILENT) -> None:
        super().__init__()
        self.config = config
        self.schedule = Every(config.eval.every)
        self.path = path
        self.clock = clock
        self.progress = progress

    def _on_training_start(self) -> None:
        self.schedule.start_at(self.num_timesteps)
        last = max((int(r["timesteps"]) for r in read_rows(self.path)), default=-1)
        if evaluation_missing(self.num_timesteps, last, self.schedule.every):
            self.run()

    def _after_update(self) -> None:
        if self.schedule.due(self.num_timesteps):
            self.run()

    def run(self) -> None:
        """Evaluate the model now and add its rows to the eval CSV and tensorboard (dumped
        at this step, so tensorboard's steps are trained steps too)."""
        steps = self.model.num_timesteps
        with isolated_rng():
            results = evaluate_model(self.model, self.config, self.config.eval.games,
                                     progress=self.progress,
                                     label=f"evaluation at step {steps:,}")
        write_csv(self.path, read_rows(self.path) + eval_rows(results, steps, self.clock()))
        for result in results:
            self.logger.record(f"eval/win_rate/{result.opponent}", result.stats.win_rate)
            if result.exact_win_probability is not None:
                self.logger.record(f"eval/exact_win/{result.opponent}",
                                   result.exact_win_probability)
        if results and results[0].exact_exploitability is not None:
            self.logger.record("eval/exploitability", results[0].exact_exploitability)
        if results and results[0].exact_nash_conv is not None:
            self.logger.record("eval/nash_conv", results[0].exact_nash_conv)
        self.logger.dump(steps)


def evaluation_missing(timesteps: int, last: int, every: int) -> bool:
    """Whether the evaluation due where training starts (``timesteps``) is missing from an
    eval CSV whose last row is at ``last`` (-1: no rows): the untrained baseline of a new run,
    or a scheduled one whose step a checkpoint reached first (a Ctrl-C during the evaluation
    saves the checkpoint at its step)."""
    return last < 0 or (every > 0 and timesteps // every > last // every)


class TrainingProgress(BaseCallback):
    """The training phase's progress (``pagadores_train.progress``): a bar over timesteps, or
    a status line at every tenth of them. Its total is the step ``learn`` will really stop at
    (``planned_timesteps``), not the one asked for, which it overshoots to the end of a
    rollout (SB3's own bar ended at 20,480/20,000)."""

    def __init__(self, progress: Reporter) -> None:
        super().__init__()
        self.progress = progress
        self.phase: Phase | None = None  # until training starts
        self.start = 0

    def _on_training_start(self) -> None:
        total = planned_timesteps(self.model, self.locals["total_timesteps"])
        self.start = self.model.num_timesteps
        self.phase = self.progress.phase("training", total - self.start, "step")

    def _on_step(self) -> bool:
        if self.phase is not None:
            self.phase.advance_to(self.num_timesteps - self.start)
        return True

    def close(self, finished: bool = True) -> None:
        """End the phase, if training started one."""
        if self.phase is not None:
            self.phase.close(finished)


# --------------------------------------------------------------------------- files
def eval_rows(results: list[Evaluation], timesteps: int,
              wall_time: float) -> list[dict[str, Any]]:
    """One CSV row per opponent."""
    return [{"timesteps": timesteps, "wall_time_s": wall_time} | r.row() for r in results]


def write_csv(path: Path, rows: list[dict[str, Any]],
              columns: Sequence[str] = EVAL_FIELDS) -> None:
    """Write ``rows`` (``columns``) as the whole CSV, atomically."""
    text = io.StringIO(newline="")
    writer = csv.DictWriter(text, fieldnames=columns)
    writer.writeheader()
    writer.writerows(rows)
    write_atomic(path, text.getvalue())


def saved_bytes(save: Callable[[io.BytesIO], object]) -> bytes:
    """What ``save`` (``model.save``, ``fig.savefig``, …) writes to a file object, so that
    ``write_atomic`` can put it in place in one step."""
    buffer = io.BytesIO()
    save(buffer)
    return buffer.getvalue()


def read_rows(path: Path) -> list[dict[str, str]]:
    """The rows of the CSV at ``path``; none if there is no such file yet."""
    if not path.exists():
        return []
    with path.open(newline="") as f:
        return list(csv.DictReader(f))


def truncate_rows(path: Path, timesteps: int) -> None:
    """Drop evaluations after ``timesteps``: a resumed run redoes them."""
    rows = read_rows(path)
    kept = [r for r in rows if int(r["timesteps"]) <= timesteps]
    if kept != rows:
        write_csv(path, kept)


def plot_learning_curve(csv_path: Path, png_path: Path, sizes: Sequence[int]) -> None:
    """Win rate against each opponent (and table size, in runs at several) over timesteps:
    Monte-Carlo points with their 95 % CI as a band, and the exact win probability as a dashed
    line where the solver gave one; then a second panel with the policy's exact
    exploitability (two players) or NashConv (three or more, or per size in runs at several;
    log scale) at the evaluations that have it."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = read_rows(csv_path)
    exact = any(r["exact_win"] or r["exploitability"] for r in rows)
    fig, axes = plt.subplots(1, 2 if exact else 1, figsize=(12 if exact else 8, 5),
                             squeeze=False, gridspec_kw={"width_ratios": [2, 1][:1 + exact]})
    ax = axes[0][0]
    for opponent in dict.fromkeys(r["opponent"] for r in rows):
        mine = [r for r in rows if r["opponent"] == opponent]
        x = [int(r["timesteps"]) for r in mine]
        line, = ax.plot(x, [float(r["win_rate"]) for r in mine], marker="o", label=opponent)
        ax.fill_between(x, [float(r["ci_low"]) for r in mine],
                        [float(r["ci_high"]) for r in mine], alpha=0.2, color=line.get_color())
        solved = [r for r in mine if r["exact_win"]]
        if solved:
            ax.plot([int(r["timesteps"]) for r in solved],
                    [float(r["exact_win"]) for r in solved], linestyle="--",
                    color=line.get_color())
    if len(sizes) == 1:  # at several sizes each opponent's label names its size
        ax.axhline(1 / sizes[0], color="grey", linestyle=":", label="fair share")
    dashed = any(r["exact_win"] for r in rows)
    ax.set(xlabel="trained steps", ylabel="win rate", ylim=(0, 1),
           title=f"{png_path.parent.name}: win rate (points: games, 95% CI"
                 + ("; dashed: exact)" if dashed else ")"))
    ax.legend(loc="lower right", fontsize="small")
    if exact:
        # eval.csv files written before the nash_conv column have exploitability (2 players)
        two = list(sizes) == [2] and any(r["exploitability"] for r in rows)
        measure, name = ("exploitability", "exploitability") if two else ("nash_conv", "NashConv")
        right = axes[0][1]
        def size_of(row: dict[str, str]) -> str:  # its label's "Np)" at several sizes
            return row["opponent"].rpartition(" (")[2] if len(sizes) > 1 else ""

        for size in sorted({size_of(r) for r in rows if r[measure]}):
            by_step = {int(r["timesteps"]): float(r[measure]) for r in rows
                       if r[measure] and size_of(r) == size}
            right.plot(list(by_step), [max(v, 1e-6) for v in by_step.values()], marker="o",
                       label=size.rstrip(")") if len(sizes) > 1 else None)
        if len(sizes) > 1:
            right.legend(fontsize="small")
        right.set(xlabel="trained steps", ylabel=f"{name} (exact)", yscale="log",
                  title=f"{name} (0 = {'optimal play' if two else 'an equilibrium'})")
    fig.tight_layout()
    write_atomic(png_path, saved_bytes(lambda f: fig.savefig(f, format="png", dpi=100)))
    plt.close(fig)


# --------------------------------------------------------------------------- result
#: The trained policy's name in a final table with ``eval.compare`` rows.
TRAINED = "trained policy"


@dataclass
class RunResult:
    """What a finished run reports: its folder, timesteps, wall time, final evaluation and the
    ``eval.compare`` agents measured the same way (by spec)."""

    run_dir: Path
    timesteps: int
    wall_time_s: float
    final: list[Evaluation]
    compared: dict[str, list[Evaluation]] = field(default_factory=dict)

    def table(self) -> str:
        """The final evaluation, one line per opponent (and table size, in runs at several),
        with the exact columns and the notes they need (or the lines saying why there are
        none). With ``compared`` agents, one block per opponent: the trained policy's line,
        then each agent's. Lines end with the agent's own exploitability (2 players) or
        NashConv when there are compared agents or several sizes."""
        rows = [(TRAINED, r) for r in self.final] + [
            (spec, r) for spec, results in self.compared.items() for r in results]
        two = all(r.exact is not None for _, r in rows)  # every row has the 2-player yardstick
        wins = any(r.exact_win_probability is not None for _, r in rows)
        several = any(r.players is not None for _, r in rows)
        own = (bool(self.compared) or several) and wins  # a per-agent measure at line end
        agent = max(map(len, self.compared), default=0)
        agent = max(agent, len(TRAINED)) + 1 if agent else 0
        width = max(24, *(len(r.label) + 1 for _, r in rows))
        head = f"{'agent':<{agent}}" if agent else ""
        head += f"{'opponent':<{width}} {'games':>6} {'win rate':>9}  {'95% CI':<14}"
        if wins:
            head += f"  {'exact win':>10}"
        if two:
            head += f"  {'% of best response':>18}"
        if own:
            head += f"  {'exploitability' if two else 'NashConv':>14}"
        lines = [head, "-" * len(head)]
        order = {r.label: i for i, r in enumerate(self.final)}
        for name, r in sorted(rows, key=lambda row: order[row[1].label]):
            s, win = r.stats, r.exact_win_probability
            line = f"{name:<{agent}}" if agent else ""
            line += (f"{r.label:<{width}} {s.trials:>6} {s.win_rate:>9.3f}  "
                     f"[{s.ci_low:.3f}, {s.ci_high:.3f}]")
            if wins:
                shown = "" if win is None else f"{win:.4f}" + (
                    (DRAWN if r.drawn else " ") if two else "")
                line += f"  {shown:>10}"
            if two and r.exact is not None:
                line += f"  {r.exact.percent_of_best_response:>17.1f}%"
            if own:
                value = r.exact.exploitability if two and r.exact else r.exact_nash_conv
                line += f"  {'' if value is None else f'{value:.4f}':>14}"
            lines.append(line.rstrip())
        mine = self.final[0]
        if wins and not two and not several:
            lines += [
                f"NashConv of the trained policy in every seat: {mine.nash_conv:.4f}"
                " (exact; 0 = an equilibrium)",
                "exact win: the solver's win probability with the opponent in every other "
                "seat, averaged over the seat rotation the games play",
            ]
        if several and wins:
            lines.append("exact win: the solver's, where it covers the table size; NashConv at "
                         "2 players is twice the exploitability")
        lines += sorted({r.note for _, r in rows if r.note})
        if two and mine.exact is not None:
            lines += [
                f"exploitability of the trained policy: {mine.exact.exploitability:.4f}"
                " (exact; 0 = optimal play)",
                "exact win: the solver's win probability, averaged over who insteeks first",
                "% of best response: exact win / what the best reply to that opponent wins",
            ]
            if any(r.drawn for _, r in rows):
                lines.append(f"{DRAWN} stochastic opponent: exact numbers are against the one "
                             "deterministic table its calls drew")
        return "\n".join(lines)


# --------------------------------------------------------------------------- command line
PROG = "pagadores train"


def build_parser() -> argparse.ArgumentParser:
    """The ``pagadores train`` argument parser (its help lists every config key)."""
    from .rllib import RLlibConfig  # its schema only: no Ray
    parser = argparse.ArgumentParser(
        prog=PROG, formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Train an SB3 agent on Pagadores-v1 from a YAML config, then evaluate it. "
                    "Running it again resumes the run from its last checkpoint. A config "
                    "with an rllib: section trains RLlib PPO self-play instead (extra ray; "
                    "keys below).",
        epilog="config keys (YAML, nested by the dots):\n" + describe()
               + "\n\nRLlib config keys (configs/rllib_selfplay_3p.yaml):\n"
               + describe(RLlibConfig))
    parser.add_argument("config", help="YAML config file, e.g. configs/default.yaml")
    parser.add_argument("--timesteps", type=count_argument, metavar="N",
                        help="override total_timesteps (smoke tests)")
    parser.add_argument("--name", help="override the run name (the run folder), a plain name")
    parser.add_argument("--output-dir", help="override output_dir")
    parser.add_argument("--fresh", action="store_true",
                        help="start over instead of resuming: removes the files an earlier run "
                             "of this name wrote (and nothing else)")
    parser.add_argument("--force", action="store_true",
                        help="take over a run folder whose lock another host left (a run "
                             "there that is gone); a lock of this host's is taken over "
                             "without it once its process is gone")
    parser.add_argument("--eval-games", type=count_argument, metavar="N",
                        help="games per opponent in every evaluation, the final one included "
                             "(eval.games and eval.final_games; smoke runs)")
    parser.add_argument("--no-exact", action="store_true",
                        help="leave out the solver's exact numbers (eval.exact: false)")
    parser.add_argument("--no-progress", action="store_true",
                        help="status lines (one per step of each long phase) instead of "
                             "progress bars")
    return parser


@dataclass(frozen=True)
class Trainer:
    """What ``run`` needs of a kind of config: SB3's (this module) or RLlib's
    (``pagadores_train.rllib.TRAINER``)."""

    load: Callable[[str], Any]  # the config file → a validated config
    from_dict: Callable[[dict[str, Any]], Any]  # a config's dict (with overrides) → a config
    train: Callable[..., RunResult]  # (config, fresh, force) → the run's result
    headline: Callable[[Any, RunResult], str]  # the line above the final table
    interrupted: Callable[[KeyboardInterrupt, argparse.Namespace], str]  # after Ctrl-C
    resume_step: Callable[[Path], int | None]  # a run folder → the step a rerun resumes from


def run(args: argparse.Namespace) -> int:
    """Run the parsed command line; prints the evaluation table and writes it to the run's
    ``results.md``. Exit code 2 on a bad config or an unusable run folder (one in use among
    them), 1 on a file that cannot be written (a full disk: one line saying which file and the
    step a rerun resumes from), 130 on Ctrl-C (after saying how to resume). A config with an
    ``rllib:`` section trains with RLlib instead (``pagadores_train.rllib``)."""
    from .rllib import TRAINER, is_rllib_config  # Ray is imported only by an RLlib run

    trainer = TRAINER if is_rllib_config(args.config) else SB3_TRAINER
    config = None
    try:
        config = trainer.from_dict(overridden(trainer.load(args.config).to_dict(), args))
        result = trainer.train(config, fresh=args.fresh, force=args.force)
        headline = trainer.headline(config, result)
        write_results(result, headline)
    except (ConfigError, RunError, FolderInUse) as err:
        print(f"{PROG}: error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as stop:
        print(trainer.interrupted(stop, args), file=sys.stderr)
        return 130
    except OSError as err:
        if not is_write_failure(err) or config is None:
            raise
        print(f"{PROG}: error: {write_failure(err)}; "
              f"{rerun_from(trainer.resume_step(config.run_dir), args)}", file=sys.stderr)
        return 1
    print(f"\n{headline}")
    print(result.table())
    return 0


def write_results(result: RunResult, headline: str) -> Path:
    """Write the run's final table, as printed, to ``results.md`` in its folder, with what
    it was printed with (``provenance``): the file ``make results`` publishes under
    ``docs/results/`` for the README to quote."""
    lines = [f"# {result.run_dir.name}: final evaluation", "", f"{headline}", "",
             *[f"- {key}: {value}" for key, value in provenance().items()], "",
             "```text", result.table(), "```", ""]
    return write_atomic(result.run_dir / RESULTS, "\n".join(lines))


def provenance() -> dict[str, str]:
    """What a result was computed with: the commit of this checkout (``-dirty`` with
    uncommitted changes; "not a git checkout" for an installed package), the platform, and
    the versions of Python and the libraries that decide the numbers."""
    from importlib.metadata import PackageNotFoundError, version

    root = Path(__file__).resolve().parent.parent
    try:
        commit = subprocess.run(["git", "-C", str(root), "describe", "--always", "--dirty",
                                 "--abbrev=12"], capture_output=True, text=True, timeout=30,
                                check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        commit = "not a git checkout"
    versions = []
    for package in ("torch", "stable-baselines3", "sb3-contrib", "numpy", "numba"):
        try:
            versions.append(f"{package} {version(package)}")
        except PackageNotFoundError:
            continue
    return {"commit": commit, "platform": f"{platform.platform()}, {platform.machine()}",
            "python": platform.python_version(), "libraries": ", ".join(versions)}


def overridden(data: dict[str, Any], args: argparse.Namespace) -> dict[str, Any]:
    """A config's plain data with the command line's overrides."""
    overrides = {"total_timesteps": args.timesteps, "name": args.name,
                 "output_dir": args.output_dir}
    data = data | {k: v for k, v in overrides.items() if v is not None}
    if args.no_progress:
        data["progress_bar"] = False
    evaluation = dict(data.get("eval") or {})
    if args.eval_games is not None:
        evaluation |= {k: args.eval_games for k in ("games", "final_games") if k in evaluation}
    if args.no_exact:
        evaluation["exact"] = False
    return data | {"eval": evaluation}


def is_write_failure(err: OSError) -> bool:
    """Whether ``err`` is a file the run could not write: a ``WriteError`` of ours, or
    another library's write to a full disk or quota, or to a read-only file system."""
    return isinstance(err, WriteError) or err.errno in (errno.ENOSPC, errno.EDQUOT,
                                                        errno.EROFS, errno.EFBIG)


def write_failure(err: OSError) -> str:
    """A write failure in one line (``WriteError.line`` where we know the file)."""
    if isinstance(err, WriteError):
        return err.line
    where = f" {err.filename}" if err.filename else ""
    return f"cannot write{where}: {err.strerror or err}"


def rerun_from(step: int | None, args: argparse.Namespace) -> str:
    """What a rerun of ``args`` does, for the line after a failed write."""
    if step is None:
        return f"no checkpoint was saved yet: a rerun starts over ({command(args)})"
    return f"after freeing space, a rerun resumes from step {step:,} ({command(args, False)})"


def headline(config: Config, result: RunResult) -> str:
    """The line above an SB3 run's final table."""
    sizes = table_sizes(config.env)
    players = f"{sizes[0]}" if len(sizes) == 1 else f"{', '.join(map(str, sizes))}"
    return (f"{config.algo.name} on {players} players, "
            f"{result.timesteps} timesteps, {result.wall_time_s:.0f} s → {result.run_dir}")


def interrupted(stop: KeyboardInterrupt, args: argparse.Namespace) -> str:
    """The one line after Ctrl-C: where the run stands and the command that goes on."""
    if not isinstance(stop, Interrupted):  # before the run folder was touched
        return f"interrupted before the run started; start it again with: {command(args)}"
    where = ("the last checkpoint stands" if stop.timesteps is None
             else f"checkpoint saved at step {stop.timesteps:,}")
    return f"interrupted: {where}; resume with: {command(args, fresh=False)}"



def resume_step(run_dir: Path) -> int | None:
    """The step a rerun of the SB3 run in ``run_dir`` resumes from: ``latest.json``'s, else
    the newest checkpoint's (None: there is none)."""
    folder = run_dir / "checkpoints"
    record, _ = read_latest(folder)
    names = [record["model"]] if record is not None else []
    names += [p.name for p in checkpoint_candidates(folder, None)]
    steps = [int(m[1]) for n in names if (m := CHECKPOINT_MODEL.fullmatch(n))]
    return steps[0] if steps else None


SB3_TRAINER = Trainer(load_config, config_from_dict, train, headline, interrupted, resume_step)

def command(args: argparse.Namespace, fresh: bool | None = None) -> str:
    """The command line that runs ``args`` again (``fresh`` overrides ``--fresh``)."""
    words = [*PROG.split(), args.config]
    for flag, value in (("--timesteps", args.timesteps), ("--name", args.name),
                        ("--output-dir", args.output_dir)):
        if value is not None:
            words += [flag, str(value)]
    if args.fresh if fresh is None else fresh:
        words.append("--fresh")
    for flag, value in (("--eval-games", args.eval_games),):
        if value is not None:
            words += [flag, str(value)]
    for flag, on in (("--no-exact", args.no_exact), ("--no-progress", args.no_progress)):
        if on:
            words.append(flag)
    return shlex.join(words)


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``pagadores train`` with ``argv`` (default: the command line); return the exit code."""
    return run(build_parser().parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
