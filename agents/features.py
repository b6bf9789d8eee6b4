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

``pasch_grid`` (``PaschGrid``): Pasch's observation (``pagadores_env.pasch.observation``)
with the facts a dice decision turns on written so a linear layer can compare them: how many
dice show each face (one-hot 0 … 5 per face) and, per sorted position, how many dice share
its face (one-hot 1 … 5: "keep the most frequent value" becomes a sum); the best disc of the
round and the dice's own placement as thermometers over the 37 classes of X7.1 (one class
above another is then one weight per column, where the observation's fraction (class + 1) /
37 puts neighbouring fields 0.027 apart), with whether the dice reach the best disc (an
equal field counts, X6.4); the learner's lead over the best other seat in points (one-hot,
clamped to ±40); the learner's and the others' most blocks left (one-hot 0 … 10); the cards
left in its hand (one-hot 0 … 10). Nothing here looks ahead: the features are facts of the
position, as ``paye_grid``'s are.

The classes live here, in ``pagadores_agents``, because a saved model names them: loading
the model imports them, wherever the model is played.
"""

from __future__ import annotations

import gymnasium
import torch
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor

from pagadores_env.pasch import observation as pasch_obs
from pagadores_env.pasch import rules as pasch_rules
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


#: The lead in points ``PaschGrid`` tells apart (a larger lead counts as this one).
MAX_LEAD = 40
_DICE, _FACES, _CLASSES = pasch_rules.DICE, pasch_rules.FACES, pasch_rules.CLASSES
_BLOCKS, _HAND = pasch_rules.MAX_BLOCKS, pasch_rules.MAX_HAND
_AT = pasch_obs.SLICES


class PaschGrid(BaseFeaturesExtractor):
    """Pasch's observation with its dice, discs, lead, blocks and cards left written for a
    linear layer (module docstring)."""

    def __init__(self, observation_space: gymnasium.spaces.Box) -> None:
        extra = (_FACES * (_DICE + 1) + _DICE * _DICE + 2 * _CLASSES + 1
                 + 2 * MAX_LEAD + 1 + 2 * (_BLOCKS + 1) + _HAND + 1)
        super().__init__(observation_space,
                         features_dim=int(observation_space.shape[0]) + extra)

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        """A batch of observations → their features (the observation first, unchanged)."""
        one_hot, obs = torch.nn.functional.one_hot, observations

        def ints(name: str, scale: float) -> torch.Tensor:
            return torch.round(obs[:, _AT[name]] * scale).long()

        dice = obs[:, _AT["dice"]].reshape(-1, _DICE, _FACES)  # one-hot per position
        counts = dice.sum(dim=1).round().long()  # dice per face
        shared = (dice * counts[:, None, :]).sum(dim=2).round().long()  # 0 with no dice
        classes = torch.arange(1, _CLASSES + 1, device=obs.device)
        best, mine = ints("best_disc", _CLASSES), ints("dice_disc", _CLASSES)
        scores = ints("scores", pasch_obs.SCORE_SCALE)
        present = obs[:, _AT["present"]] > 0.5
        others = torch.where(present, scores, torch.full_like(scores, -10**6))[:, 1:]
        lead = (scores[:, 0] - others.max(dim=1).values).clamp(-MAX_LEAD, MAX_LEAD)
        blocks = ints("blocks", _BLOCKS)
        cards = torch.round(obs[:, _AT["hands"]][:, :pasch_obs.CARDS].sum(dim=1) * _HAND)
        return torch.cat([
            obs,
            one_hot(counts, _DICE + 1).float().flatten(1),
            one_hot(shared.clamp(1, _DICE) - 1, _DICE).float().flatten(1)
            * (shared > 0).float().repeat_interleave(_DICE, dim=1),
            (classes <= best).float(), (classes <= mine).float(),
            ((mine >= best) & (mine > 0)).float(),
            one_hot(lead + MAX_LEAD, 2 * MAX_LEAD + 1).float(),
            one_hot(blocks[:, 0], _BLOCKS + 1).float(),
            one_hot(blocks[:, 1:].max(dim=1).values, _BLOCKS + 1).float(),
            one_hot(cards.long().clamp(0, _HAND), _HAND + 1).float(),
        ], dim=1)
