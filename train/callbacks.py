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

``RunCallbacks`` is the list a run learns with. It also decides what Ctrl-C does
(``interrupts_deferred``): during the run's own work between rollouts (an evaluation, a
checkpoint) it stops at once, with the policy of the last update; while a rollout is collected
or trained on, it lets that rollout and its update finish first (a few seconds on the batch
engine) and stops at the next rollout boundary, so the checkpoint saved on the way out holds
an update for every step it is labelled with and a resume repeats no update and skips none.
A second Ctrl-C stops at once; the update in progress is then lost and the previous checkpoint
stands (``RunCallbacks.mid_rollout`` tells).

Work between updates must not change the training either: loading a saved model to evaluate or
to seat as a snapshot builds a network, which draws its initial weights from torch's global
generator, the one PPO samples its actions from. ``isolated_rng`` puts the global generators
(torch's, NumPy's and Python's) back as they were, so a run trains the same whatever its
evaluation schedule, and a checkpoint at step N is the final model of the same run stopped at N.
"""

from __future__ import annotations

import random
import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
import torch
from stable_baselines3.common.callbacks import BaseCallback, CallbackList


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

    @contextmanager
    def interrupts_deferred(self) -> Iterator[None]:
        """While inside: a Ctrl-C mid-rollout waits for the next rollout boundary (said in one
        line); elsewhere, or a second one, stops at once. Only in the main thread, where
        Python delivers signals; elsewhere Ctrl-C keeps its usual effect."""
        if threading.current_thread() is not threading.main_thread():
            yield
            return

        def on_interrupt(signum: int, frame: Any) -> None:
            if not self.mid_rollout or self.stop_requested:
                raise KeyboardInterrupt
            self.stop_requested = True
            self.say(f"Ctrl-C: finishing the rollout from step {self.trained:,} and its "
                     "update, then saving a checkpoint (Ctrl-C again to stop at once and keep "
                     "the previous checkpoint)")

        previous = signal.signal(signal.SIGINT, on_interrupt)
        try:
            yield
        finally:
            signal.signal(signal.SIGINT, previous)
