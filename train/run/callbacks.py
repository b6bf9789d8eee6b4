"""When a run's step-labelled work happens: after an update, never inside a rollout.

SB3 calls a callback's ``_on_step`` after every env step of a rollout, before that rollout
is trained on; work done there at step N would see the policy trained on the steps before the
rollout only (a checkpoint labelled 16,384 held the untrained model). So evaluations,
checkpoints and self-play snapshots are ``AfterUpdate`` callbacks: they act at SB3's
``on_rollout_start`` (the previous rollout's update is done) and ``on_training_end`` (the last
update is done), the same for on-policy algorithms (PPO, A2C, MaskablePPO: ``collect_rollouts``
of ``n_steps`` per env, then ``train``) and off-policy ones (DQN: ``collect_rollouts`` of
``train_freq`` steps, then ``train``). Step N always means: the policy after training on N
steps. The steps they see are whole rollouts, so ``every: 100000`` at rollouts of 16,384 acts
at 114,688 (the first rollout boundary at or past each multiple), labelled with that step.

``RunCallbacks`` is the list a run learns with. It also decides what Ctrl-C (or SIGTERM) does
(``interrupts_deferred``): during the run's own work between rollouts (an evaluation, a
checkpoint) it stops at once, with the policy of the last update; while a rollout is collected
or trained on, it lets that rollout and its update finish first (a few seconds on the batch
engine) and stops at the next rollout boundary, so the checkpoint saved on the way out holds
an update for every step it is labelled with and a resume repeats no update and skips none.
A second Ctrl-C stops at once; the update in progress is then lost and the previous checkpoint
stands (``RunCallbacks.mid_rollout`` tells).

``EvaluateEvery`` writes the run's ``eval.csv`` and its tensorboard points at the evaluation
steps (checkpoints: ``pagadores_train.run.checkpoints``; snapshots:
``pagadores_train.learners.selfplay``); ``TrainingProgress`` reports the training phase, up to the
step ``learn`` will really stop at (``planned_timesteps``: whole rollouts).

Work between updates must not change the training either: loading a saved model to evaluate or
to seat as a snapshot builds a network, which draws its initial weights from torch's global
generator, the one PPO samples its actions from. ``isolated_rng`` puts the global generators
(torch's, NumPy's and Python's) back as they were, so a run trains the same whatever its
evaluation schedule, and a checkpoint at step N is the final model of the same run stopped at N.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

import numpy as np
import torch
from stable_baselines3.common.base_class import BaseAlgorithm
from stable_baselines3.common.callbacks import BaseCallback, CallbackList
from stable_baselines3.common.on_policy_algorithm import OnPolicyAlgorithm

from ..progress import SILENT, Phase, Reporter
from ..signals import stopping
from .config import Config
from .folder import Clock
from .model_eval import evaluate_model
from .reports import eval_rows, eval_scalars, read_rows, write_csv


@contextmanager
def isolated_rng() -> Iterator[None]:
    """Run the block without moving the global generators that training draws from."""
    state = random.getstate(), np.random.get_state()
    with torch.random.fork_rng(devices=[]):
        try:
            yield
        finally:
            random.setstate(state[0])
            np.random.set_state(state[1])


class Every:
    """True once each time the timestep count reaches a new multiple of ``every``
    (0: never)."""

    def __init__(self, every: int) -> None:
        self.every = every
        self.done = 0

    def start_at(self, timesteps: int) -> None:
        """Count the multiples up to ``timesteps`` as done (a run starting or resuming there)."""
        self.done = timesteps // self.every if self.every > 0 else 0

    def due(self, timesteps: int) -> bool:
        """Whether ``timesteps`` passed a multiple not yet done (and mark it done)."""
        if self.every <= 0 or timesteps // self.every <= self.done:
            return False
        self.done = timesteps // self.every
        return True


class AfterUpdate(BaseCallback):
    """A callback whose work (``_after_update``) runs after each update: at the start of every
    rollout and at the end of training (see the module docstring)."""

    def _after_update(self) -> None:
        """The work, with ``self.model`` trained on ``self.num_timesteps`` steps."""
        raise NotImplementedError

    def _on_rollout_start(self) -> None:
        self.num_timesteps = self.model.num_timesteps
        self._after_update()

    def _on_training_end(self) -> None:
        self.num_timesteps = self.model.num_timesteps
        self._after_update()

    def _on_step(self) -> bool:
        return True


class RunCallbacks(CallbackList):
    """A run's callbacks, and what Ctrl-C does while they train (module docstring).
    ``mid_rollout`` is True from a rollout's first step until the next rollout starts (or
    training ends): the policy is then being changed, so no checkpoint can be taken of it."""

    def __init__(self, callbacks: list[BaseCallback],
                 say: Callable[[str], None] = print) -> None:
        super().__init__(callbacks)
        self.say = say
        self.mid_rollout = False
        self.stop_requested = False
        self.trained = 0  # the step of the last update (of the model as learn found it)

    def _on_training_start(self) -> None:
        self.mid_rollout = False
        self.trained = self.model.num_timesteps
        super()._on_training_start()

    def _on_rollout_start(self) -> None:
        self._boundary()
        super()._on_rollout_start()
        self.mid_rollout = True

    def _on_training_end(self) -> None:
        self._boundary()
        super()._on_training_end()

    def _boundary(self) -> None:
        self.mid_rollout = False
        self.trained = self.model.num_timesteps
        if self.stop_requested:
            raise KeyboardInterrupt

    def interrupts_deferred(self) -> AbstractContextManager[None]:
        """While inside: a Ctrl-C or SIGTERM mid-rollout waits for the next rollout boundary
        (said in one line); elsewhere, or a second one, stops at once
        (``pagadores_train.signals.stopping``: in the main thread only)."""

        def defer(name: str) -> bool:
            if not self.mid_rollout or self.stop_requested:
                return False
            self.stop_requested = True
            self.say(f"{name}: finishing the rollout from step {self.trained:,} and its "
                     f"update, then saving a checkpoint ({name} again to stop at once and keep "
                     "the previous checkpoint)")
            return True

        return stopping(defer)


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
        for key, value in eval_scalars(results).items():
            self.logger.record(key, value)
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

    def __init__(self, progress: Reporter, label: str = "training") -> None:
        super().__init__()
        self.progress = progress
        self.label = label
        self.phase: Phase | None = None  # until training starts
        self.start = 0

    def _on_training_start(self) -> None:
        total = planned_timesteps(self.model, self.locals["total_timesteps"])
        self.start = self.model.num_timesteps
        self.phase = self.progress.phase(self.label, total - self.start, "step")

    def _on_step(self) -> bool:
        if self.phase is not None:
            self.phase.advance_to(self.num_timesteps - self.start)
        return True

    def close(self, finished: bool = True) -> None:
        """End the phase, if training started one."""
        if self.phase is not None:
            self.phase.close(finished)
