"""Training against the exact best response: exploitability descent in the smallest Perudo.

In the 2-player game with 1 die each the exact yardstick (``pagadores_env.perudo.exact``)
finds, in well under a second, a pure strategy that exploits a policy most, in both seats
(``exact.best_responses``). With ``env.best_response: true`` that strategy is the learner's
opponent: ``BestResponseOpponent`` plays it, and ``RespondEachRollout`` recomputes it from the
learner's current sampling policy (``PerudoSB3Policy.of_model``) before every rollout. The
policy gradient the learner then follows is the gradient of its value against its own best
response, so each update lowers its exploitability where it is exploited most: exploitability
descent (Lockhart et al., 2019, "Computing Approximate Equilibria in Sequential Adversarial
Games by Exploitability Descent"), here with PPO's clipped steps instead of tabular ones.

Why not plain self-play: in this game the learner against a copy of itself chases its own
last move, and its exploitability keeps cycling (between 0.46 and 0.70 in our trials); against
a fixed heuristic it learns to exploit that heuristic and stays exploitable itself.

The opponent lives in the training process, so it needs envs there (``vec_env.kind:
dummy``); a resumed run recomputes it from the checkpoint's model.
"""

from __future__ import annotations

import numpy as np
from stable_baselines3.common.callbacks import BaseCallback

from pagadores_agents.sb3_adapter import PerudoSB3Policy
from pagadores_env.core.policies import BasePolicy, Policy
from pagadores_env.perudo import exact


class BestResponseOpponent(BasePolicy):
    """Plays, in either seat, the pure best response to the policy last given to
    ``respond_to``; ``exploitability`` is that policy's exact exploitability."""

    name = "best-response"

    def __init__(self) -> None:
        super().__init__()
        self._strategy: exact.StrategyPolicy | None = None
        self.exploitability = float("nan")

    def respond_to(self, policy: Policy) -> float:
        """Recompute the response to ``policy`` (a Perudo policy of the 2-player 1-die game,
        measured as ``exact.strategy`` measures it); returns its exploitability."""
        self.exploitability, best = exact.best_responses(policy)
        self._strategy = exact.StrategyPolicy(best)
        return self.exploitability

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        """The best response's action (it is pure: one action has all the probability)."""
        if self._strategy is None:
            raise RuntimeError("a best-response opponent plays only after respond_to(policy)")
        return int(self._strategy.action_probabilities(np.reshape(obs, (1, -1)), mask)[0]
                   .argmax())


class RespondEachRollout(BaseCallback):
    """Before every rollout, points ``opponent`` at the learner's current policy."""

    def __init__(self, opponent: BestResponseOpponent) -> None:
        super().__init__()
        self.opponent = opponent

    def _on_rollout_start(self) -> None:
        self.opponent.respond_to(PerudoSB3Policy.of_model(self.model))

    def _on_step(self) -> bool:
        return True
