"""Feature extractors for stable-baselines3 policies, named in a config's
``algo.hyperparams.policy_kwargs.features_extractor`` (the names are
``pagadores_train.run.algorithms.FEATURE_EXTRACTORS``).

``paye_grid`` (``PayeGrid``): Paye's observation (``pagadores_env.paye.observation``) with
each slot's score one-hot (0 … 100) and the rounds left one-hot (0 … 10, more counted as 10)
beside it. The observation carries a score as score / target, so two scores one point apart
differ by 0.02 and the optimum's choice flips between them (a die that can hit 50 exactly
from 44 is useless from 45); an MLP has to learn each such step from the fractions, while a
one-hot column gives every score its own weights. Measured on ``configs/paye_2p.yaml``'s
learner against ``optimal``: exploitability 0.019 at 300,000 steps with the grid, where the
plain observation gave 0.03 at 200,000 and settled near 0.027 by 2 million.

The class lives here, in ``pagadores_agents``, because a saved model names it: loading the
model imports it, wherever the model is played.
"""

from __future__ import annotations

import gymnasium
import torch
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor

from pagadores_env.paye.observation import SLICES
from pagadores_env.paye.rules import MAX_PLAYERS, ROUNDS, TARGETS

#: The highest score column (the expansion's target; the base game's scores stop at 50).
MAX_SCORE = max(TARGETS.values())


class PayeGrid(BaseFeaturesExtractor):
    """Paye's observation, each slot's score one-hot and the rounds left one-hot (module
    docstring)."""

    def __init__(self, observation_space: gymnasium.spaces.Box) -> None:
        size = int(observation_space.shape[0])
        super().__init__(observation_space,
                         features_dim=size + MAX_PLAYERS * (MAX_SCORE + 1) + ROUNDS + 1)

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        """A batch of observations → their features (the observation first, unchanged)."""
        expansion = observations[:, SLICES["expansion"]]
        target = torch.where(expansion > 0.5, TARGETS["expansion"], TARGETS["base"])
        scores = torch.round(observations[:, SLICES["scores"]] * target).long()
        rounds = torch.round(1 / observations[:, SLICES["rounds"]].clamp(min=1e-6))
        left = rounds - torch.round(observations[:, SLICES["round"]] * rounds)
        one_hot = torch.nn.functional.one_hot
        return torch.cat([observations,
                          one_hot(scores.clamp(0, MAX_SCORE), MAX_SCORE + 1).float().flatten(1),
                          one_hot(left.long().clamp(0, ROUNDS).squeeze(1), ROUNDS + 1).float()],
                         dim=1)
