"""The SB3 adapter's forward pass (``SB3Policy._logits``) plays exactly what ``predict`` does."""

from __future__ import annotations

import numpy as np
import pytest

from pagadores_env.core.policies import make_policy
from tests.decisions import real_decisions


@pytest.mark.parametrize("algo", ["maskable_ppo", "ppo", "a2c"])
def test_the_forward_pass_gives_predicts_deterministic_actions_under_any_mask(algo, tmp_path):
    pytest.importorskip("sb3_contrib")
    import gymnasium as gym
    from sb3_contrib import MaskablePPO
    from stable_baselines3 import A2C, PPO

    cls = {"maskable_ppo": MaskablePPO, "ppo": PPO, "a2c": A2C}[algo]
    model = cls("MlpPolicy", gym.make("Pagadores-v1"), seed=1, device="cpu")
    model.save(tmp_path / "m.zip")
    policy = make_policy(f"model:path={tmp_path / 'm.zip'}")
    obs, _ = real_decisions(400, seed=3)
    masks = np.random.default_rng(0).integers(0, 2, (len(obs), 2))
    masks[masks.sum(axis=1) == 0, 1] = 1
    assert policy._logits(obs) is not None  # the fast path is taken
    extra = {"action_masks": masks.astype(bool)} if algo == "maskable_ppo" else {}
    want, _ = policy.model.predict(obs, deterministic=True, **extra)
    legal = masks[np.arange(len(obs)), want].astype(bool)
    want = np.where(legal, want, masks.argmax(axis=1))
    np.testing.assert_array_equal(policy.act_batch(obs, masks), want)
