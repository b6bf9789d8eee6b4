"""Train a stable-baselines3 agent on any game's Gymnasium env (``Pagadores-v1``, ``Perudo-v1``,
``Paye-v1``, ``Pasch-v1``: ``env.game``) from a YAML config.

Read top to bottom, ``train(config)`` does: check the run folder and hold it
(``pagadores_train.run.lock``) → make the vectorised env → build the model, or resume it from the
folder's newest good checkpoint (``pagadores_train.run.checkpoints``) → set up the folder → learn
with callbacks that evaluate, keep the learner's opponents current and checkpoint after
updates (``pagadores_train.run.callbacks``) → save the final model → evaluate it against every
evaluation opponent (``pagadores_train.run.model_eval``) → draw the learning curve
(``pagadores_train.run.reports``). It says in one line what it does: starting a new run, resuming
from step N, or re-evaluating a complete run; and, when ``total_timesteps`` is not a whole
number of rollouts, the step it will really stop at. The command line is ``pagadores train``
(``pagadores_cli.train``).

**Step N means N steps trained.** A checkpoint, an evaluation (its ``timesteps``), a self-play
snapshot or a tensorboard point labelled N holds the policy after training on N steps: they
are taken after an update, at rollout boundaries, so with rollouts of 16,384 steps
``eval.every: 100000`` evaluates at 114,688, 212,992, …

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
                      (``pagadores_train.learners.selfplay``), the pool its opponents are drawn from
tensorboard/          SB3's tensorboard logs (plus ``eval/win_rate/<opponent>``,
                      ``eval/exact_win/<opponent>``, ``eval/exploitability`` and
                      ``eval/nash_conv``)
eval.csv              the model against each evaluation opponent during training: games,
                      win rate with 95 % CI, trained steps, wall time; the solver's exact
                      numbers where it covers the table (``pagadores_train.run.model_eval``);
                      ``nash_conv`` at two players is twice the exploitability
eval.csv.damaged      only after ``eval.csv`` was found damaged: its lines that could not
                      be read, as they were (``pagadores_train.run.reports``)
final_eval.csv        the same columns for the final evaluation (``eval.final_games``)
compare.csv           with ``eval.compare``: each of those agents measured on the final
                      evaluation's games and measures (``agent`` column first)
learning_curve.png    eval.csv drawn: win rates over trained steps (+ exploitability at two
                      players, NashConv at three or more, when exact)
results.md            the final table as printed, with the commit, platform and library
                      versions it was printed with (``pagadores_train.run.reports``)
run.lock              while a run holds the folder (``pagadores_train.run.lock``)
====================  ===========================================================

Every file the trainer writes itself (all but SB3's tensorboard logs) is written atomically
(``pagadores_env.core.atomic``), so a kill at any moment leaves each file as it was or complete.
Nothing else in the folder is touched: a folder holding run files (names above) but no run's
``config.yaml`` is refused (``pagadores_train.run.folder``).

**Several table sizes** (``env.num_players`` a list): every training game draws its size
from the list (``pagadores_env.pagadores.vec_env``), and every evaluation measures the model at each
listed size; the opponent column then names the size (``sensible (4p)``).

**Resume.** Running the same config again continues the run from its last checkpoint: the
model, its timestep count, the eval CSV (rows after the checkpoint are dropped and redone),
the self-play pool (snapshots after the checkpoint are dropped) and the tensorboard log carry
on. Only ``RESUMABLE_CHANGES`` may differ: ``total_timesteps``, ``progress_bar``, ``name``,
``output_dir``, ``keep_checkpoints`` and the evaluation's size (``eval.games``,
``eval.final_games``, ``eval.exact``: what is measured, not what is trained);
``total_timesteps`` may not go below a step the run has already passed (the model cannot be
untrained). A run that has reached ``total_timesteps`` is not trained again; its final
evaluation is redone and replaces ``final_eval.csv``. At a step where both are due the
evaluation is written before the checkpoint, so a kill never loses an evaluation the
checkpoint has passed; an evaluation still missing at the resume step (as a Ctrl-C during it
leaves) is done first. Seeded runs repeat exactly (a resumed run is reproducible from its
checkpoint, not identical to an uninterrupted run).

**New runs and --fresh.** A folder with no checkpoint (and no ``model.zip``) holds no run to
protect: a new run replaces whatever run files a failed or killed start left there, whatever
its config. ``--fresh`` starts over in a folder that holds a run: it removes only the files
and folders a run writes (``LAYOUT``) and leaves anything else. The model is built before
anything is removed or written, so a config SB3 refuses changes nothing.

**Ctrl-C** once the run has started lets the rollout in progress and its update finish (a few
seconds), saves a checkpoint there; during an evaluation it stops at once and saves the
checkpoint of the step evaluated. A second Ctrl-C stops at once and keeps the previous
checkpoint (``pagadores_train.run.callbacks``). ``train`` then raises ``Interrupted``. SIGTERM
(``timeout``, SLURM, ``docker stop``) does what Ctrl-C does (``pagadores_train.signals``).

**Progress.** Every long phase (training, each evaluation, the exact solver passes, each
compared agent) reports through ``pagadores_train.progress``: bars, or with
``progress_bar: false`` status lines on stderr, one per step of the phase (stdout is left
to the results).

**Every game** (``env.game``, ``pagadores_train.run.config``): the same run folder and
resume, with the game's Gymnasium env and its table options; evaluations play through its
engine where it has no compiled kernel, with its exact numbers where its yardstick covers the
table (``pagadores_train.run.model_eval``). ``env.best_response`` trains against the exact
best response to the learner, recomputed every rollout, where the game has one
(``pagadores_train.learners.best_response``: 1-die Perudo, Paye's 2-player base game);
``env.selfplay`` draws the opponents from snapshots of the learner on ``dummy`` envs of any
game or Pagadores' ``batch`` engine (``pagadores_train.learners.selfplay``).
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from dataclasses import fields
from pathlib import Path
from typing import Any

import torch
from stable_baselines3.common.base_class import BaseAlgorithm
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.env_util import make_vec_env as sb3_make_vec_env
from stable_baselines3.common.utils import LinearSchedule
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecEnv, VecMonitor

from pagadores_agents.run_folders import CHECKPOINT_MODEL, CHECKPOINTS, FINAL_MODEL, LATEST
from pagadores_agents.sb3_adapter import model_class
from pagadores_env.core.atomic import write_atomic
from pagadores_env.core.policies import Policy
from pagadores_env.pagadores.vec_env import PagadoresVecEnv

from ..progress import BARS, LINES, SILENT, Reporter
from ..run.algorithms import ACTIVATIONS, FEATURE_EXTRACTORS, LINEAR, algorithm_class
from ..run.callbacks import (
    EvaluateEvery,
    RunCallbacks,
    TrainingProgress,
    planned_timesteps,
    rollout_steps,
)
from ..run.checkpoints import CheckpointEvery, resume
from ..run.checkpoints import resume_step as resume_step  # what pagadores train asks of a trainer
from ..run.config import (
    Config,
    load_config,
    make_env_in_worker,
    table_sizes,
)
from ..run.folder import (
    CONFIG,
    RESUMABLE_CHANGES,
    Clock,
    Interrupted,
    Layout,
    RunError,
    check_not_backwards,
    saved_config,
    say,
    warn,
    write_config,
)
from ..run.lock import hold_run_folder
from ..run.memory import check_memory
from ..run.model_eval import Evaluation, compare_agents, final_evaluation, forget_exact
from ..run.reports import (
    COMPARE,
    COMPARE_FIELDS,
    RESULTS,
    RunResult,
    eval_rows,
    plot_learning_curve,
    saved_bytes,
    truncate_rows,
    write_csv,
)
from ..settings import ConfigError
from ..signals import stopping
from .best_response import BestResponseOpponent, RespondEachRollout
from .selfplay import POOL_FILE, SnapshotEvery, SnapshotPool

#: The run's sub-folder of self-play snapshots (``selfplay.SnapshotPool``).
SELFPLAY = "selfplay"
#: Config keys that may differ when an SB3 run is continued: any run's, how many checkpoints
#: it keeps and how big its final evaluation is.
RESUMABLE = RESUMABLE_CHANGES | {"keep_checkpoints", "eval.final_games"}


def not_run_config(data: dict[Any, Any]) -> str | None:
    """Why the mapping a saved ``config.yaml`` holds is not the config of an SB3 run (None: it
    is): one of its keys is no config key, or it lacks ``algo`` or ``env``. It need not
    validate (a run of an older version is still ours)."""
    unknown = sorted(map(str, data.keys() - {f.name for f in fields(Config)}))
    if unknown:
        return f"unknown key {unknown[0]!r}"
    missing = [key for key in ("algo", "env") if key not in data]
    return f"no {missing[0]}: section" if missing else None


#: What an SB3 run writes (``--fresh`` removes exactly these): the files of the module
#: docstring's table but ``eval.csv.damaged``, and in its sub-folders the checkpoints, SB3's
#: tensorboard runs (``<tb_log_name>_<run id>``) and the self-play snapshots with their
#: listing.
LAYOUT = Layout("a run", (CONFIG, FINAL_MODEL, "eval.csv", "final_eval.csv", COMPARE,
                          "learning_curve.png", RESULTS),
                {CHECKPOINTS: (CHECKPOINT_MODEL.pattern, r"replay_buffer_\d+_steps\.pkl",
                               re.escape(LATEST)),
                 "tensorboard": (r".*_\d.*",),
                 SELFPLAY: (r"snapshot_\d+\.zip", re.escape(POOL_FILE))},
                not_run_config)


def train(config: Config, fresh: bool = False, force: bool = False,
          progress: Reporter | None = None) -> RunResult:
    """Train (or continue training) ``config`` and evaluate the result; see the module doc.
    Raises ``ConfigError``/``RunError`` before changing anything in the run folder (among
    them a folder another run holds: ``pagadores_train.run.lock``; ``force`` takes over a lock
    another host left), and ``Interrupted`` on Ctrl-C or SIGTERM once the run has started.
    ``progress`` reports the long phases (default: bars, or status lines with
    ``progress_bar: false``)."""
    torch.set_num_threads(config.torch_threads)
    progress = progress or (BARS if config.progress_bar else LINES)
    forget_exact()  # reused within a run only
    run_dir = config.run_dir
    with stopping():  # SIGTERM as Ctrl-C, for the whole run
        check_memory()  # a limit too small for any run, before the folder is touched
        saved_run(config, fresh)  # refuses a folder that is not ours before locking it
        with hold_run_folder(run_dir, force, say=warn):
            return train_locked(config, fresh, progress)


def train_locked(config: Config, fresh: bool, progress: Reporter) -> RunResult:
    """``train`` once this process holds the run folder."""
    run_dir = config.run_dir
    saved = saved_run(config, fresh)
    env_config = config.env
    pool = SnapshotPool(run_dir / SELFPLAY, env_config.selfplay.max_snapshots,
                        env_config.game) if env_config.selfplay.every else None
    responder = BestResponseOpponent(env_config.game, env_config.num_players,
                                     env_config.options) if env_config.best_response else None
    env = make_vec_env(config, pool, responder)
    try:
        if saved is None:
            model, clock = new_model(config, env), Clock()
            start = f"starting a new run in {run_dir}" + (
                " (removed the previous run's files)" if LAYOUT.entries(run_dir) else "")
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
            responder.respond_to(model_class(config.env.game).of_model(model))
            opponents.append(RespondEachRollout(responder, model.num_timesteps))
        say(start)
        planned = planned_timesteps(model, config.total_timesteps)
        if model.num_timesteps < config.total_timesteps < planned:
            say(f"training to step {planned:,}: total_timesteps {config.total_timesteps:,} "
                f"rounded up to whole rollouts of {rollout_steps(model):,} steps")
        checkpoints = CheckpointEvery(config.checkpoint_every, run_dir / CHECKPOINTS, clock,
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
            "from the cache, else solver passes: pagadores_train.evaluation.compare)")
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


def saved_run(config: Config, fresh: bool) -> Config | None:
    """The saved config of the run in ``config.run_dir`` to continue, or None to start a new
    run there (``fresh``, or no checkpoint yet). Reads only: raises ``RunError`` if the folder
    is not a run folder of ours, ``ConfigError`` if it holds a run of another config."""
    run_dir = config.run_dir
    LAYOUT.check_ours(run_dir)
    if fresh or not has_progress(run_dir):
        return None
    return saved_config(run_dir, config, load_config, RESUMABLE)


def has_progress(run_dir: Path) -> bool:
    """Whether the folder holds a trained model: a checkpoint or a final model."""
    checkpoints = run_dir / CHECKPOINTS
    return ((checkpoints / LATEST).exists() or (run_dir / FINAL_MODEL).exists()
            or any(CHECKPOINT_MODEL.fullmatch(p.name) for p in checkpoints.glob("*.zip")))


def set_up_run_dir(config: Config, new: bool, timesteps: int) -> None:
    """Write the config into the run folder: for a new run after removing an earlier run's
    files, when resuming after dropping evaluations past the resume step."""
    run_dir = config.run_dir
    if new:
        LAYOUT.remove(run_dir)
    write_config(run_dir, config.to_dict())
    if not new:
        truncate_rows(run_dir / "eval.csv", timesteps, say=warn)


def make_vec_env(config: Config, pool: SnapshotPool | None = None,
                 responder: BestResponseOpponent | None = None) -> VecEnv:
    """``n_envs`` monitored copies of the env, seeded ``seed + i``, made the way
    ``vec_env.kind`` says (``VEC_ENVS``). With a self-play ``pool`` a ``SelfPlayOpponent``
    sits in every other seat, mixing in ``env.opponents`` at ``env.selfplay.scripted_share``
    (one per env; the batch engine's one for all its games); a best-response ``responder``
    (``env.best_response``) sits there in every env."""
    env = config.env

    def opponents() -> list[str | Policy] | None:
        """The opponents of one more env: None for ``env.opponents``."""
        if pool is not None:
            return [pool.opponent(env.selfplay.sample, env.opponents,
                                  env.selfplay.scripted_share)]
        return None if responder is None else [responder]

    return VEC_ENVS[config.vec_env.kind](config, opponents)


def dummy_vec_env(config: Config, opponents: Callable[[], list[str | Policy] | None]
                  ) -> VecEnv:
    """Every env in this process (``DummyVecEnv``): the one kind whose opponents may be
    objects of this process (self-play snapshots, a best response)."""
    return sb3_make_vec_env(lambda: config.env.make(opponents()), n_envs=config.vec_env.n_envs,
                            seed=config.seed, vec_env_cls=DummyVecEnv)


def subproc_vec_env(config: Config, opponents: Callable[[], list[str | Policy] | None]
                    ) -> VecEnv:
    """An env per worker process (``SubprocVecEnv``): workers unpickle
    ``pagadores_train.run.config.make_env_in_worker``, which imports only the light config
    module and leaves Ctrl-C to this process; their opponents are ``env.opponents``."""
    return sb3_make_vec_env(make_env_in_worker, n_envs=config.vec_env.n_envs,
                            seed=config.seed, vec_env_cls=SubprocVecEnv,
                            env_kwargs={"env": config.env})


def batch_vec_env(config: Config, opponents: Callable[[], list[str | Policy] | None]
                  ) -> VecEnv:
    """Pagadores' batch engine: every env a row of one compiled batch game
    (``PagadoresVecEnv``), its opponents asked about all rows at once."""
    env = config.env
    return VecMonitor(PagadoresVecEnv(
        config.vec_env.n_envs, num_players=env.num_players, cards=env.cards,
        opponents=opponents() or env.opponents, learner_seat=env.learner_seat,
        reward=env.reward, seed=config.seed))


#: ``vec_env.kind`` → how its envs are made (``batch`` is Pagadores' own engine: the config
#: refuses it for the other games, ``run.games``).
VEC_ENVS: dict[str, Callable[[Config, Callable[[], list[str | Policy] | None]], VecEnv]] = {
    "dummy": dummy_vec_env, "subproc": subproc_vec_env, "batch": batch_vec_env}


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


def hyperparams(config: Config) -> dict[str, Any]:
    """The config's hyper-parameters for SB3: ``"lin_<start>"`` becomes a linear schedule
    (SB3 passes it the fraction of the run still to go, 1 → 0), activation names torch
    classes and a features extractor's name its class."""
    params = {name: LinearSchedule(float(value[len(LINEAR):]), 0.0, 1.0)
              if isinstance(value, str) and value.startswith(LINEAR) else value
              for name, value in config.algo.hyperparams.items()}
    policy_kwargs = dict(params.get("policy_kwargs") or {})
    if "activation_fn" in policy_kwargs:
        policy_kwargs["activation_fn"] = getattr(
            torch.nn, ACTIVATIONS[policy_kwargs["activation_fn"]])
    if "features_extractor" in policy_kwargs:
        _, module, name = FEATURE_EXTRACTORS[policy_kwargs.pop("features_extractor")]
        policy_kwargs["features_extractor_class"] = getattr(importlib.import_module(module),
                                                            name)
    if policy_kwargs:
        params["policy_kwargs"] = policy_kwargs
    return params


def headline(config: Config, result: RunResult) -> str:
    """The line above an SB3 run's final table."""
    sizes = table_sizes(config.env)
    players = f"{sizes[0]}" if len(sizes) == 1 else f"{', '.join(map(str, sizes))}"
    return (f"{config.algo.name} on {players} players, "
            f"{result.timesteps} timesteps, {result.wall_time_s:.0f} s → {result.run_dir}")
