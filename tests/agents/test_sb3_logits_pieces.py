"""``SB3Policy._logits`` answers a batch in pieces on one thread: the logits are those of
one forward pass over every row, read-only rows are taken, and torch's thread count is
given back."""

from __future__ import annotations

import numpy as np
import pytest


def test_pieces_give_the_whole_batchs_logits_and_leave_torchs_threads(tmp_path) -> None:
    pytest.importorskip("sb3_contrib")
    import gymnasium as gym
    import torch
    from sb3_contrib import MaskablePPO

    from pagadores_agents import sb3_adapter
    from pagadores_env.core.policies import make_policy

    model = MaskablePPO("MlpPolicy", gym.make("Pagadores-v1"), seed=2, device="cpu",
                        policy_kwargs={"net_arch": [64, 64]})
    model.save(tmp_path / "m.zip")
    policy = make_policy(f"model:path={tmp_path / 'm.zip'}")
    rows = 2 * sb3_adapter.LOGIT_ROWS + 5  # two full pieces and a short one
    obs = np.random.default_rng(4).random((rows, 49), dtype=np.float32)
    obs.flags.writeable = False  # as the solver hands out its cached rows
    with torch.no_grad():
        net = model.policy
        whole = net.action_net(net.mlp_extractor.forward_actor(
            net.pi_features_extractor(torch.from_numpy(obs.copy())))).numpy()
    before = torch.get_num_threads()
    got = policy._logits(obs)
    assert torch.get_num_threads() == before
    np.testing.assert_allclose(got, whole, rtol=0, atol=1e-5)
    assert got.shape == (rows, 2) and not np.array_equal(got[:, 0], got[:, 1])
