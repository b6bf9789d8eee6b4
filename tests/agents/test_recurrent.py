"""RecurrentPPO (sb3-contrib) as a ``model:path=`` player: detected from its zip and answering
every decision from a fresh LSTM state (the adapter's memoryless projection)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")


from pagadores_agents.sb3_adapter import SB3Policy, detect_algo
from pagadores_env.core.policies import make_policy
from tests.decisions import real_decisions


@pytest.fixture(scope="module")
def saved_recurrent(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An untrained RecurrentPPO model whose fresh-state answers are mixed (seed 0 plays
    both actions on ``real_decisions``), saved as training saves it."""
    import gymnasium as gym
    from sb3_contrib import RecurrentPPO

    path = tmp_path_factory.mktemp("recurrent") / "model.zip"
    RecurrentPPO("MlpLstmPolicy", gym.make("Pagadores-v1"), seed=0, device="cpu",
                 policy_kwargs={"lstm_hidden_size": 16}).save(path)
    return path


def fresh_state_actions(model, obs: np.ndarray) -> np.ndarray:
    """What SB3 answers at every row as an episode's first step (no memory)."""
    actions, _ = model.predict(obs, state=None, episode_start=np.ones(len(obs), bool),
                               deterministic=True)
    return np.asarray(actions)


def test_a_saved_recurrent_model_is_detected_and_loads(saved_recurrent: Path) -> None:
    assert detect_algo(saved_recurrent) == "recurrent_ppo"
    policy = make_policy(f"model:path={saved_recurrent}")
    assert isinstance(policy, SB3Policy) and policy.algo == "recurrent_ppo"
    assert type(policy.model).__name__ == "RecurrentPPO"


def test_act_batch_is_the_fresh_state_predict_of_every_row(saved_recurrent: Path) -> None:
    policy = make_policy(f"model:path={saved_recurrent}")
    obs, _ = real_decisions(400, seed=3)
    both = np.ones((len(obs), 2), np.int8)  # Pagadores: both actions legal (R3.6)
    want = fresh_state_actions(policy.model, obs)
    assert 0 < want.sum() < len(want)  # both actions occur: the comparison can fail
    assert policy._logits(obs) is not None  # the one-pass forward, not predict
    np.testing.assert_array_equal(policy.act_batch(obs, both), want)
    # one row at a time gives the same: no state leaks from one row to the next
    np.testing.assert_array_equal([policy.act(o, m) for o, m in zip(obs[:50], both[:50],
                                                                    strict=True)], want[:50])


@pytest.mark.slow
def test_carried_memory_would_answer_differently(saved_recurrent: Path) -> None:
    """The projection is a choice: the same model carrying its LSTM state through the rows
    answers some of them otherwise, so the equality above is not vacuous."""
    policy = make_policy(f"model:path={saved_recurrent}")
    obs, _ = real_decisions(100, seed=3)
    state, carried = None, []
    for row in obs:
        action, state = policy.model.predict(row[None], state=state,
                                             episode_start=np.zeros(1, bool),
                                             deterministic=True)
        carried.append(int(action[0]))
    assert (np.array(carried) != policy.act_batch(obs, np.ones((100, 2), np.int8))).any()


def test_an_illegal_choice_is_replaced_like_the_other_unmasked_models(saved_recurrent: Path
                                                                      ) -> None:
    policy = make_policy(f"model:path={saved_recurrent}")
    obs, masks = real_decisions(300, seed=5)
    got = policy.act_batch(obs, masks)
    assert masks[np.arange(len(obs)), got].all()
    want = fresh_state_actions(policy.model, obs)
    legal = masks[np.arange(len(obs)), want].astype(bool)
    np.testing.assert_array_equal(got[legal], want[legal])
