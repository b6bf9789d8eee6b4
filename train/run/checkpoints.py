"""An SB3 run's checkpoints: saving them after updates, and resuming from the newest good one.

``checkpoints/`` holds ``model_<t>_steps.zip`` (the newest ``keep_checkpoints``; the resume
point is always kept), ``replay_buffer_<t>_steps.pkl`` (the newest checkpoint's, for
off-policy algorithms) and ``latest.json``, the resume point: which model, its step, the run's
wall time then, and ``step_means: trained`` (step N is the policy after training on N steps;
a run from before it was recorded says so once when resumed). Each file is written atomically
and ``latest.json`` last, so a kill at any moment leaves the previous resume point whole.

**Damaged checkpoints.** If ``latest.json`` is missing, empty or names a missing or damaged
model, the run resumes from the newest ``model_<t>_steps.zip`` that loads, and says so on
stderr; with none usable it stops with a one-line error.
"""

from __future__ import annotations

import json
from pathlib import Path

from stable_baselines3.common.base_class import BaseAlgorithm
from stable_baselines3.common.vec_env import VecEnv

from pagadores_agents.run_folders import CHECKPOINT_MODEL, CHECKPOINTS, LATEST
from pagadores_env.core.atomic import write_atomic

from .algorithms import algorithm_class
from .callbacks import AfterUpdate, Every
from .config import Config
from .folder import Clock, load_newest, newest_first, saved_step, warn
from .reports import saved_bytes, wall_time_at

#: What ``latest.json`` records a checkpoint's step to mean (``step_means``): the policy
#: after training on that many steps. Checkpoints from before it was recorded were saved
#: before their rollout's update (``pagadores_train.run.callbacks``).
TRAINED_STEPS = "trained"


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
            for old in newest_first(self.folder, CHECKPOINT_MODEL)[self.keep:]:
                if old.name != name:
                    old.unlink()


class DamagedCheckpoint(ValueError):
    """A checkpoint file that cannot be read (the message says which and why)."""


def resume(config: Config, env: VecEnv, run_dir: Path) -> tuple[BaseAlgorithm, Clock]:
    """The model of the run's newest good checkpoint (the one ``latest.json`` names, else the
    newest ``model_<t>_steps.zip`` that loads, which is said on stderr), re-seeded so the
    resumed run repeats, with its replay buffer, and the run's clock at that checkpoint.
    Raises ``RunError`` if no checkpoint loads (``run_folder.load_newest``)."""
    algo = algorithm_class(config.algo.name)
    model, record = load_newest(run_dir, "model", CHECKPOINT_MODEL,
                                lambda path: load_model(algo, path, env), "good checkpoint")
    if record is None:  # a checkpoint found without its record: saved by this version
        record = {"wall_time_s": wall_time_at(run_dir / "eval.csv", model.num_timesteps),
                  "step_means": TRAINED_STEPS}
    if record.get("step_means") != TRAINED_STEPS:  # none: a run from before it was recorded
        warn(f"{run_dir} was written before a step meant trained steps: its checkpoints "
             f"and evaluations up to step {model.num_timesteps:,} hold the policy of one "
             "rollout earlier and keep their labels; from here on, step N is the policy "
             "after training on N steps")
    # Re-seed from the checkpoint so a resumed run repeats; the env seeds move on too.
    model.set_random_seed(config.seed + model.num_timesteps)
    if hasattr(model, "replay_buffer"):
        load_replay_buffer(model, run_dir / CHECKPOINTS
                           / f"replay_buffer_{model.num_timesteps}_steps.pkl")
    return model, Clock(record["wall_time_s"])


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


def resume_step(run_dir: Path) -> int | None:
    """The step a rerun of the SB3 run in ``run_dir`` resumes from: ``latest.json``'s, else
    the newest checkpoint's (None: there is none)."""
    return saved_step(run_dir, "model", CHECKPOINT_MODEL)
