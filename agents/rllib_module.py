"""RLlib's PPO module with our action masks: the network RLlib training builds and the
``rllib:path=…`` player loads.

Our observations are dicts ``{"observation": float32 row, "action_mask": int8 row}``: (49,)
and (2,) in ``pagadores_v1``, (267,) and (181,) in ``perudo_v1``. RLlib's example masking
module reads the key ``observations``; this one reads ours, so the environment keeps the key
every other client reads. The network sees only
``observation``; the mask is applied to its action logits, RLlib's way: the log of the mask,
clamped at the float minimum, is added, so a masked action's logit is about -3.4e38 and its
softmax probability is exactly 0 (it is never sampled and never the argmax while any action is
legal). It is applied in every forward pass (inference, exploration and training), so PPO's
ratios and entropy are those of the masked distribution. In Pagadores both actions are always
legal at a decision (R3.6); in Perudo most bids are illegal at any moment, and the mask keeps
the policy to the legal ones.

Imports ray and torch: only ``pagadores_train.learners.rllib`` and
``pagadores_agents.rllib_adapter`` import this module, lazily, so importing the package never loads
Ray.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import torch
from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import DefaultPPOTorchRLModule
from ray.rllib.core.columns import Columns
from ray.rllib.utils.torch_utils import FLOAT_MIN

#: The observation dict's keys (both games' ``raw_env.observation_spaces``).
OBS_KEY, MASK_KEY = "observation", "action_mask"


class MaskedPPOTorchRLModule(DefaultPPOTorchRLModule):
    """RLlib's default PPO torch module on ``observation`` with ``action_mask`` applied to its
    logits (see the module doc). Takes the env's ``Dict`` observation space; its networks are
    built for the ``observation`` part."""

    def __init__(self, *, observation_space: gym.Space | None = None, **kwargs: Any) -> None:
        if not (isinstance(observation_space, gym.spaces.Dict)
                and {OBS_KEY, MASK_KEY} <= set(observation_space.spaces)):
            raise ValueError(f"MaskedPPOTorchRLModule needs a Dict observation space with keys "
                             f"{OBS_KEY!r} and {MASK_KEY!r}, got {observation_space}")
        self.observation_space_with_mask = observation_space
        super().__init__(observation_space=observation_space[OBS_KEY], **kwargs)

    def setup(self) -> None:
        """Build the networks for ``observation``, then show the whole Dict space (what
        RLlib checks the env's observations against)."""
        super().setup()
        self.observation_space = self.observation_space_with_mask

    def _forward_inference(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        mask, batch = split_mask(batch)
        return masked(super()._forward_inference(batch, **kwargs), mask)

    def _forward_exploration(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        mask, batch = split_mask(batch)
        return masked(super()._forward_exploration(batch, **kwargs), mask)

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        mask, batch = split_mask(batch)
        return masked(super()._forward_train(batch, **kwargs), mask)

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> Any:
        """The value head on ``observation`` (the learner calls it with the raw batch for
        GAE, and with the train pass's embeddings)."""
        if isinstance(batch[Columns.OBS], dict):
            _, batch = split_mask(batch)
        return super().compute_values(batch, embeddings)


def split_mask(batch: dict[str, Any]) -> tuple[torch.Tensor, dict[str, Any]]:
    """The batch's action mask, and a shallow copy of the batch whose ``obs`` is the
    observation alone (RLlib's batch is left as it is: the learner reuses it)."""
    obs = batch[Columns.OBS]
    if not isinstance(obs, dict) or OBS_KEY not in obs or MASK_KEY not in obs:
        keys = sorted(obs) if isinstance(obs, dict) else type(obs).__name__
        raise ValueError(f"MaskedPPOTorchRLModule needs observations with keys {OBS_KEY!r} "
                         f"and {MASK_KEY!r}, got {keys}")
    return obs[MASK_KEY], {**batch, Columns.OBS: obs[OBS_KEY]}


def masked(outputs: dict[str, Any], mask: torch.Tensor) -> dict[str, Any]:
    """``outputs`` with ``log(mask)`` clamped at the float minimum added to its logits: a
    masked action's probability is exactly 0, a legal one's logit is unchanged."""
    penalty = torch.clamp(torch.log(mask.to(torch.float32)), min=FLOAT_MIN)
    outputs[Columns.ACTION_DIST_INPUTS] = outputs[Columns.ACTION_DIST_INPUTS] + penalty
    return outputs
