"""Self-play training with RLlib PPO at one Pagadores table: ``pagadores train`` with a config
that has an ``rllib:`` section (``configs/rllib_selfplay_3p.yaml``).

What it trains: RLlib's PPO (its current API stack: RLModule, Learner, EnvRunner) on the
PettingZoo AEC env ``pagadores_v1.env(num_players, cards, reward)`` wrapped as it is in RLlib's
``PettingZooEnv`` (default ``eliminated="stay"``: the agent selected after every reset and step
has a decision). With ``eliminated="leave"`` a seat knocked out by the first throws is
terminated before anyone decides, and the wrapper's ``reset`` hands it to RLlib to act
(mask ``[0, 0]``); the env then refuses the action RLlib sends back and sampling stops. The
issue that chose "stay" reports ``{}`` as that observation; with RLlib 2.60 it is the dead
seat's full observation, refused one step later (``tests/train/test_rllib.py`` shows both).

Every seat is mapped to one shared policy (module id ``shared``): the policy plays and learns
from all seats at once. Its network is ``pagadores_agents.rllib_module.MaskedPPOTorchRLModule``,
RLlib's default PPO module reading our ``observation`` key, with the ``action_mask`` applied to
its logits so a masked action has probability exactly 0 (not a penalty; in Pagadores both
actions are always legal, R3.6).

What a step is: ``total_timesteps`` and ``checkpoint_every`` count environment steps, RLlib's
``num_env_steps_sampled_lifetime``: one ``step`` of ``PettingZooEnv``, that is ONE decision
(stop / throw again) of whichever seat acts, summed over all seats (the dead steps of
terminated agents are not steps). An SB3 self-play run (``configs/selfplay_3p.yaml``) counts
the learner's decisions only, which are also its training samples; here every decision is a
training sample of the shared policy, so the same number means as many samples in both. PPO
samples whole batches of ``rllib.train_batch_size`` steps, so a run ends at the first batch
that reaches ``total_timesteps`` (a batch may run a few steps over when a sampler steps
several envs).

Run it::

    pagadores train configs/rllib_selfplay_3p.yaml [--timesteps N] [--name NAME]
                    [--output-dir DIR] [--fresh] [--no-progress]

On a Ray cluster: start the head (``ray start --head``) and the workers (``ray start
--address HEAD:6379``) on machines where this package is installed with its ``ray`` extra,
then run the same command with ``RAY_ADDRESS=HEAD:6379`` in the environment, or set
``rllib.address`` in the config; ``rllib.num_env_runners`` env runners (one CPU each) then
sample in parallel across the cluster, while the learner runs in this process. Without an
address a local Ray is started for the run (and stopped after it); an already running Ray
in the process (``ray.init`` before ``train``) is used as it is.

The run folder ``OUTPUT_DIR/NAME/`` holds:

====================  ===========================================================
config.yaml           the validated config, defaults filled in
checkpoints/          ``step_<N>/``: the newest RLlib algorithm checkpoint (all of PPO's
                      state: the module, the optimiser, the connectors, the counters);
                      ``latest.json`` names it (the resume point)
final_eval.csv        the final evaluation, the same columns as an SB3 run's
====================  ===========================================================

A run holds its folder while it runs (``pagadores_train.run.lock``: a second run of the folder is
refused in one line), and its steps are trained steps: a checkpoint is saved after
``algo.train()`` returns, every ``checkpoint_every`` steps and at the end, into a temporary
folder in ``checkpoints/`` that is renamed to ``step_<N>`` once complete; then ``latest.json``
is replaced atomically and the older ``step_<N>`` folders are removed. A kill at any moment
leaves the previous checkpoint whole. The trained policy is ``rllib:path=OUTPUT_DIR/NAME``
(``pagadores_agents.rllib_adapter``), playable wherever a player spec goes.

Resume: running the same config again continues from ``latest.json``'s checkpoint (only
``total_timesteps``, ``progress_bar``, ``name``, ``output_dir``, ``rllib.address``,
``rllib.num_env_runners``, ``rllib.num_envs_per_env_runner`` and ``rllib.torch_threads``
may differ); ``--fresh``
starts over, removing only what a run writes (the table above and leftover temporary
folders). If ``latest.json`` is missing or damaged, the newest complete ``step_<N>`` folder is
the resume point (said on stderr), so a run with a checkpoint is never taken for a new one.
A folder holding such files but no run's ``config.yaml`` is refused. A complete run is not
trained again: its final evaluation is redone. Ctrl-C stops at once and keeps the last
checkpoint (a PPO iteration cut short leaves no consistent state to save); the command line
exits with status 130 and prints the command that resumes. SIGTERM does the same (exit 143),
also on the Ray the run starts, whose ``ray.init`` makes it an exit of its own
(``pagadores_train.signals``).

Evaluation: at the end the policy plays as ``rllib:path=…`` through the same reports as an
SB3 run (``pagadores_train.run.model_eval.evaluate_player``, the same final table): Monte Carlo
games against each ``eval.opponents`` and, at 3 or more players where the solver covers the table,
its exact NashConv and exact win against each opponent from one solver pass
(``pagadores_train.evaluation.yardstick.learner_exact``; 3 players with 10 cards ask the policy
about 1.05e8 decisions, a few CPU minutes).

Seeding: ``seed`` is RLlib's seed (``config.debugging(seed=...)``: the module's initial
weights, torch's and numpy's generators, each env runner's env seeds) and the evaluation's.
With ``rllib.num_env_runners: 0`` (sampling in this process) two runs of the same config end
with identical weights (``tests/train/test_rllib.py`` checks it); with env runners the order in
which their batches arrive is up to the cluster, so runs may differ. A resumed run continues
from the checkpoint's state, it does not repeat an uninterrupted run exactly.
"""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pagadores_agents.rllib_adapter import SHARED_POLICY
from pagadores_agents.run_folders import ALGORITHM_MARKER, CHECKPOINTS, LATEST, latest_checkpoint
from pagadores_env.core.atomic import write_atomic
from pagadores_env.integrations.ray_cluster import join_or_start

from ..progress import BARS, LINES, Reporter
from ..run.config import evaluation_config
from ..run.folder import (
    CONFIG,
    Clock,
    Interrupted,
    Layout,
    RunError,
    check_not_backwards,
    saved_config,
    say,
    warn,
    with_section,
    write_config,
)
from ..run.lock import hold_run_folder
from ..run.memory import check_memory
from ..run.model_eval import Evaluation, evaluate_run
from ..run.reports import RESULTS, RunResult, eval_rows, write_csv
from ..settings import ConfigError
from ..signals import kept, stopping
from .rllib_config import RESUMABLE, SECTION, RLlibConfig, load_rllib_config

STEP = re.compile(r"step_(\d+)")
#: The name RLlib knows the env by (``tune.register_env``).
ENV_NAME = "pagadores_aec"
#: What an RLlib run writes (``--fresh`` removes exactly these): its config, final table and
#: results, and its ``step_<N>`` algorithm checkpoints with ``latest.json``.
LAYOUT = Layout("an RLlib run", (CONFIG, "final_eval.csv", RESULTS),
                {CHECKPOINTS: (STEP.pattern, re.escape(LATEST))}, with_section(SECTION))


# --------------------------------------------------------------------------- RLlib
def make_env(env_config: dict[str, Any]) -> Any:
    """The env an RLlib env runner steps: ``pagadores_v1.env(**env_config)`` in RLlib's
    ``PettingZooEnv``, as it is (module level, so env runners on other machines import it)."""
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv

    from pagadores_env import pagadores_v1

    return PettingZooEnv(pagadores_v1.env(**env_config))


def ppo_config(config: RLlibConfig) -> Any:
    """RLlib's ``PPOConfig`` for the run: every seat mapped to the shared masked module."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.tune.registry import register_env

    from pagadores_agents.rllib_module import MaskedPPOTorchRLModule

    register_env(ENV_NAME, make_env)
    r = config.rllib
    module = RLModuleSpec(module_class=MaskedPPOTorchRLModule,
                          model_config={"fcnet_hiddens": list(r.fcnet_hiddens),
                                        "fcnet_activation": r.fcnet_activation,
                                        "vf_share_layers": False})
    return (
        PPOConfig()
        .environment(ENV_NAME, env_config={"num_players": config.env.num_players,
                                           "cards": config.env.cards,
                                           "reward": config.env.reward})
        .framework("torch")
        .env_runners(num_env_runners=r.num_env_runners,
                     num_envs_per_env_runner=r.num_envs_per_env_runner)
        .multi_agent(policies={SHARED_POLICY}, policy_mapping_fn=shared_policy)
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={SHARED_POLICY: module}))
        .training(train_batch_size_per_learner=r.train_batch_size,
                  minibatch_size=r.minibatch_size, num_epochs=r.num_epochs, lr=r.lr,
                  gamma=r.gamma, lambda_=r.lambda_, entropy_coeff=r.entropy_coeff,
                  clip_param=r.clip_param, vf_loss_coeff=r.vf_loss_coeff)
        .debugging(seed=config.seed, log_level="ERROR")
    )


def shared_policy(agent_id: str, *args: Any, **kwargs: Any) -> str:
    """Every seat plays the shared policy (self-play)."""
    return SHARED_POLICY


# --------------------------------------------------------------------------- the run folder


def saved_run(config: RLlibConfig, fresh: bool) -> tuple[RLlibConfig, ResumePoint] | None:
    """The saved config of the run to continue and its checkpoint, or None to start anew
    (``fresh``, or no checkpoint yet). Reads only: ``RunError`` for a folder that is not an
    RLlib run of ours, ``ConfigError`` for a run of another config."""
    run_dir = config.run_dir
    LAYOUT.check_ours(run_dir)
    point = None if fresh else resume_point(run_dir)
    if point is None:
        return None
    return saved_config(run_dir, config, load_rllib_config, RESUMABLE), point


def save_checkpoint(algo: Any, run_dir: Path, steps: int, wall_time_s: float) -> Path:
    """Save ``algo`` as ``checkpoints/step_<steps>`` (written into a temporary folder, then
    renamed), point ``latest.json`` at it, then remove the older ``step_<N>`` folders."""
    folder = run_dir / CHECKPOINTS
    folder.mkdir(parents=True, exist_ok=True)
    name = f"step_{steps}"
    final, partial = folder / name, folder / f".{name}.tmp"
    if partial.exists():  # left by a killed save of this very step
        shutil.rmtree(partial)
    if not final.exists():
        algo.save_to_path(str(partial.resolve()))
        partial.rename(final)
    record = {"checkpoint": name, "timesteps": steps, "wall_time_s": wall_time_s}
    write_atomic(folder / LATEST, json.dumps(record, indent=2))
    for old in folder.iterdir():
        if old.is_dir() and STEP.fullmatch(old.name) and old.name != name:
            shutil.rmtree(old)
    return final


@dataclass(frozen=True)
class ResumePoint:
    """A run's checkpoint to continue from: its folder, its step, the run's wall time then."""

    folder: Path
    timesteps: int
    wall_time_s: float


def resume_point(run_dir: Path) -> ResumePoint | None:
    """``latest.json``'s checkpoint, else (a missing or damaged record) the newest complete
    ``step_<N>`` folder, said on stderr (its wall time is unknown: 0); None if there is
    neither."""
    folder = latest_checkpoint(run_dir)
    if folder is not None:
        try:
            record = json.loads((run_dir / CHECKPOINTS / LATEST).read_text())
            return ResumePoint(folder, int(record["timesteps"]), float(record["wall_time_s"]))
        except (OSError, UnicodeDecodeError, ValueError, TypeError, KeyError):
            pass
    steps = {int(m[1]): p for p in LAYOUT.entries(run_dir)
             if (m := STEP.fullmatch(p.name)) and (p / ALGORITHM_MARKER).is_file()}
    if not steps:
        return None
    newest = max(steps)
    warn(f"{run_dir / CHECKPOINTS}: {LATEST} is missing or damaged: resuming from "
         f"{steps[newest].name}")
    return ResumePoint(steps[newest], newest, 0.0)


# --------------------------------------------------------------------------- the pipeline
def train(config: RLlibConfig, fresh: bool = False, force: bool = False,
          progress: Reporter | None = None) -> RunResult:
    """Train (or continue) ``config`` and evaluate the result; see the module doc. Raises
    ``ConfigError``/``RunError`` before changing anything in the run folder (``FolderInUse``
    for a folder another run holds: ``pagadores_train.run.lock``, ``force`` as there),
    ``Interrupted`` on Ctrl-C or SIGTERM once the run has started (its ``timesteps``: the
    last checkpoint's step). ``progress`` reports the long phases (default: bars, or status lines
    with ``progress_bar: false``)."""
    with stopping():  # SIGTERM as Ctrl-C, for the whole run
        check_memory()  # a limit too small for any run, before the folder is touched
        saved_run(config, fresh)  # refuses a folder that is not ours before locking it
        with hold_run_folder(config.run_dir, force, say=warn):
            return train_locked(config, fresh,
                                progress or (BARS if config.progress_bar else LINES))


def train_locked(config: RLlibConfig, fresh: bool, progress: Reporter) -> RunResult:
    """``train`` once this process holds the run folder."""
    run_dir = config.run_dir
    saved = saved_run(config, fresh)
    point = None
    if saved is not None:
        before, point = saved
        check_not_backwards(config, before, point.timesteps)  # reads the totals, run_dir
    steps = point.timesteps if point else 0
    clock = Clock(point.wall_time_s if point else 0.0)
    if steps < config.total_timesteps:
        steps = learn(config, point, clock, progress)
    else:
        say(f"run {run_dir} is already complete at {steps:,} steps: re-evaluating")
    final = final_evaluation(config, steps, clock(), progress)
    return RunResult(run_dir, steps, clock(), final)


def learn(config: RLlibConfig, point: ResumePoint | None, clock: Clock,
          progress: Reporter) -> int:
    """Build PPO, resume it from ``point`` (or set up a new run folder), train it to
    ``total_timesteps`` (``train_to``); the step reached. Ray is joined or started for it
    and left as found."""
    with kept():  # ray.init makes SIGTERM an exit of its own: ours again after the run
        connected = join_or_start(config.rllib.address, None, RunError)
        with stopping():  # and during it: SIGTERM stops as Ctrl-C does
            return learn_on_ray(config, point, clock, progress, connected)


def learn_on_ray(config: RLlibConfig, point: ResumePoint | None, clock: Clock,
                 progress: Reporter, connected: bool) -> int:
    """``learn`` once Ray runs (``connected``: started or joined for the run, so shut down
    after it)."""
    import torch

    run_dir = config.run_dir
    algo, threads = None, torch.get_num_threads()
    # Ray limits its workers' threads, not this process's: torch's default (every core)
    # made the learner and in-process sampling 2-4 times slower on 2 cores
    torch.set_num_threads(config.rllib.torch_threads)
    try:
        try:
            algo = ppo_config(config).build_algo()
        except (ValueError, TypeError) as err:  # RLlib's checks of its config
            reason = (str(err).strip().splitlines() or [type(err).__name__])[0]
            raise ConfigError(f"rllib: RLlib refuses the settings: {reason}") from None
        if point is not None:
            try:
                algo.restore_from_path(str(point.folder.resolve()))
            except Exception as err:  # pickle, pyarrow and torch fail in many ways
                reason = (str(err).strip().splitlines() or [type(err).__name__])[0]
                raise RunError(f"checkpoint {point.folder} does not load ({reason}); pass "
                               "--fresh to start over or pick another --name") from None
            say(f"resuming from step {point.timesteps:,} in {run_dir}")
        else:
            start = f"starting a new run in {run_dir}" + (
                " (removed the previous run's files)" if LAYOUT.entries(run_dir) else "")
            LAYOUT.remove(run_dir)
            say(start)
        write_config(run_dir, config.to_dict())
        return train_to(algo, config, point.timesteps if point else None, clock, progress)
    finally:
        torch.set_num_threads(threads)
        if algo is not None:
            algo.stop()
        if connected:
            import ray

            ray.shutdown()


def train_to(algo: Any, config: RLlibConfig, saved_at: int | None, clock: Clock,
             progress: Reporter) -> int:
    """Run PPO iterations until ``total_timesteps`` env steps, reporting ``progress``,
    checkpointing every ``checkpoint_every`` steps and at the end; ``saved_at`` is the
    step of the run's checkpoint (None: none yet). ``Interrupted`` on Ctrl-C."""
    from ray.rllib.utils.metrics import NUM_ENV_STEPS_SAMPLED_LIFETIME

    steps = saved_at or 0
    every, batch = config.checkpoint_every, config.rllib.train_batch_size
    planned = steps + -(-(config.total_timesteps - steps) // batch) * batch  # whole batches
    if planned > config.total_timesteps:
        say(f"training to about step {planned:,}: total_timesteps "
            f"{config.total_timesteps:,} rounded up to whole batches of {batch:,} steps")
    phase = progress.phase("training", planned - steps, "step")
    start, finished = steps, False
    try:
        while steps < config.total_timesteps:
            result = algo.train()
            now = int(result[NUM_ENV_STEPS_SAMPLED_LIFETIME])
            phase.total = max(phase.total, now - start)  # a batch may run a few steps over
            phase.advance_to(now - start)
            steps = now
            if steps // every > (saved_at or 0) // every and steps < config.total_timesteps:
                save_checkpoint(algo, config.run_dir, steps, clock())
                saved_at = steps
        if saved_at != steps:
            save_checkpoint(algo, config.run_dir, steps, clock())
        finished = True
    except KeyboardInterrupt:
        raise Interrupted(saved_at, saved_now=False) from None
    finally:
        phase.close(finished)
    return steps


def final_evaluation(config: RLlibConfig, steps: int, wall_time_s: float,
                     progress: Reporter) -> list[Evaluation]:
    """The run's policy (``rllib:path=RUN_DIR``) against every evaluation opponent, with the
    exact numbers where the solver covers the table; written to ``final_eval.csv``."""
    final = evaluate_run(f"rllib:path={config.run_dir}", evaluation_config(config), progress)
    write_csv(config.run_dir / "final_eval.csv", eval_rows(final, steps, wall_time_s))
    return final


# --------------------------------------------------------------------------- reporting
def headline(config: RLlibConfig, result: RunResult) -> str:
    """The line above an RLlib run's final table."""
    return (f"RLlib PPO self-play on {config.env.num_players} players, "
            f"{result.timesteps} env steps, {result.wall_time_s:.0f} s → {result.run_dir}")


def resume_step(run_dir: Path) -> int | None:
    """The step a rerun of the RLlib run in ``run_dir`` resumes from (None: none saved)."""
    point = resume_point(run_dir)
    return None if point is None else point.timesteps


