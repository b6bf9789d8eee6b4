"""Training against the exact best response: exploitability descent where a game's exact
yardstick gives the best response to a policy fast (``env.best_response``).

The games that do are the entries of ``evaluation.exact_games.YARDSTICKS`` with a response
(``ExactResponse``): Perudo at 2 players with 1 die each (``pagadores_env.perudo.exact``: a
pure strategy exploiting a policy most, in both seats) and Paye's base game at 2 players
(``pagadores_env.paye.exact.best_response``: a table player that plays either seat), each in
well under a second; and Pasch's last round at 2 players
(``pagadores_train.evaluation.pasch.last_round_response``), in seconds, so recomputed every
``ExactResponse.every`` steps. With ``env.best_response: true`` that response is the
learner's opponent: ``BestResponseOpponent`` plays it, and ``RespondEachRollout`` recomputes
it from the learner's current policy (the game's ``model`` player over the model in memory,
``pagadores_agents.sb3_adapter.model_class``) before every rollout. The policy gradient the
learner then follows is the gradient of its value against its own best response, so each
update lowers its exploitability where it is exploited most: exploitability descent (Lockhart
et al., 2019, "Computing Approximate Equilibria in Sequential Adversarial Games by
Exploitability Descent"), here with PPO's clipped steps instead of tabular ones.

Why not plain self-play: in 1-die Perudo the learner against a copy of itself chases its own
last move, and its exploitability keeps cycling (between 0.46 and 0.70 in our trials); against
a fixed heuristic it learns to exploit that heuristic and stays exploitable itself.

The opponent lives in the training process, so it needs envs there (``vec_env.kind:
dummy``); a resumed run recomputes it from the checkpoint's model.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from stable_baselines3.common.callbacks import BaseCallback

from pagadores_agents.sb3_adapter import model_class
from pagadores_env.core.games import game_spec
from pagadores_env.core.policies import BasePolicy, Policy, batch_actions

from ..evaluation.exact_games import ExactResponse, exact_response


class BestResponseOpponent(BasePolicy):
    """Plays, in any seat, the best response to the policy last given to ``respond_to`` at
    a table of ``game`` (``num_players`` and ``options`` by name; an option left out is as
    the response needs it, else the game's default: Perudo's 1-die table by default);
    ``exploitability`` is that policy's exact exploitability. ``ValueError`` in one line for
    a game or table without an exact best response."""

    name = "best-response"

    def __init__(self, game: str = "perudo", num_players: int = 2,
                 options: dict[str, Any] | None = None) -> None:
        super().__init__()
        spec = game_spec(game)
        response = exact_response(game)
        if response is None:
            raise ValueError(f"{spec.title} has no exact best response")
        covered = {k: v for k, v in response.needs.items() if k != "num_players"}
        self.game = game
        self.options = {o.name: o.default for o in spec.options} | covered | dict(options or {})
        missing = response.missing(num_players, self.options)
        if missing:
            raise ValueError(f"the exact best response needs {missing}")
        self.response: ExactResponse = response
        self._player: Policy | None = None
        self.exploitability = float("nan")

    def respond_to(self, policy: Policy) -> float:
        """Recompute the response to ``policy`` (measured as the game's yardstick measures
        it: as it samples where it states its probabilities); returns its exploitability."""
        self.exploitability, self._player = self.response.respond(policy, self.options)
        return self.exploitability

    def act_batch(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The best response's actions (it is pure: one action per decision)."""
        if self._player is None:
            raise RuntimeError("a best-response opponent plays only after respond_to(policy)")
        return batch_actions(self._player, np.atleast_2d(obs), np.atleast_2d(mask))

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        """The best response's action at one observation."""
        return int(self.act_batch(np.reshape(obs, (1, -1)), np.reshape(mask, (1, -1)))[0])


class RespondEachRollout(BaseCallback):
    """Before every rollout, points ``opponent`` at the learner's current policy; where the
    game's response is recomputed every ``ExactResponse.every`` steps, at the first rollout
    from each multiple of it on. ``since`` is the step the opponent last responded at (the
    run's start or resume step), so a resumed run recomputes at the same steps as an
    uninterrupted one; its first response, to the checkpoint's model, is the same as theirs
    where the checkpoint's step is one of those steps (``checkpoint_every`` a multiple of
    ``every``), not after a Ctrl-C between them."""

    def __init__(self, opponent: BestResponseOpponent, since: int = 0) -> None:
        super().__init__()
        self.opponent, self.since = opponent, since

    def _on_rollout_start(self) -> None:
        every = self.opponent.response.every
        if every and self.num_timesteps // every == self.since // every:
            return
        self.since = self.num_timesteps
        self.opponent.respond_to(model_class(self.opponent.game).of_model(self.model))

    def _on_step(self) -> bool:
        return True
