"""A trained Perudo model under the exact yardstick (issue 13, goal 3): the model states its
stochastic policy (``PerudoSB3Policy.action_probabilities``), so ``perudo.exact`` measures it
as it samples, and a run on the 2-player 1-die table reports its exact exploitability."""

from __future__ import annotations

import re
from pathlib import Path

import gymnasium
import numpy as np
import pytest

pytest.importorskip("stable_baselines3")


from pagadores_env.core.policies import batch_actions, make_policy
from pagadores_env.perudo import exact
from pagadores_train.evaluation.perudo import EXACT_NOTE, exact_measures
from pagadores_train.learners.sb3 import train
from pagadores_train.run.config import config_from_dict, load_config

CONFIGS = Path(__file__).resolve().parents[2] / "configs"
#: The probabilistic bidder's exact exploitability in the 1-die game.
BIDDER = exact.exploitability(make_policy("probabilistic", game="perudo", seed=0))


@pytest.fixture(scope="module")
def model_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An untrained MaskablePPO model on the 1-die table, its logits made far from flat so
    the softmax and the argmax differ visibly."""
    from sb3_contrib import MaskablePPO

    env = gymnasium.make("Perudo-v1", num_players=2, dice=1, opponents=["random"])
    model = MaskablePPO("MlpPolicy", env, seed=3, device="cpu")
    with __import__("torch").no_grad():
        model.policy.action_net.weight.mul_(30.0)
    path = tmp_path_factory.mktemp("model") / "model.zip"
    model.save(path)
    return path


def test_a_model_states_the_masked_softmax_of_its_logits(model_path: Path) -> None:
    policy = make_policy(f"model:path={model_path}", game="perudo")
    obs, masks = exact._views(4)  # every information state holding a 4
    probs = policy.action_probabilities(obs, masks)
    assert probs.shape == masks.shape
    assert np.allclose(probs.sum(axis=1), 1.0)
    assert not probs[masks == 0].any()  # no mass on an illegal action
    assert (probs[masks == 1] > 0).all()  # a softmax leaves every legal action some
    assert (probs.argmax(axis=1) == batch_actions(policy, obs, masks)).all()  # act: argmax
    assert (probs.max(axis=1) < 1).any()  # the policy is stochastic somewhere
    logits = policy._logits(obs.astype(np.float32)).astype(np.float64)
    row = int(np.argmax(masks.sum(axis=1)))  # the root: the most legal actions
    legal = np.flatnonzero(masks[row])
    expected = np.exp(logits[row, legal] - logits[row, legal].max())
    assert np.allclose(probs[row, legal], expected / expected.sum())


def test_the_exact_yardstick_measures_a_model_as_it_samples(model_path: Path) -> None:
    policy = make_policy(f"model:path={model_path}", game="perudo")
    sampled = exact.strategy(policy)
    assert ((sampled > 0) & (sampled < 1)).any()  # not one action per state
    sampled_value, note = exact_measures(policy, 2, 1)
    values = [float(v) for v in re.findall(r"\d\.\d{4}", note)]
    assert note.startswith("exact exploitability (2 players, 1 die): ") and len(values) == 2
    assert sampled_value == pytest.approx(exact.exploitability(policy), abs=1e-12)
    assert values[0] == pytest.approx(sampled_value, abs=1e-4)
    assert values[0] != values[1]  # as sampled is not as it acts
    assert exact_measures(policy, 2, 2) == (None, EXACT_NOTE)  # no other table is solved


def test_the_1_die_config_validates_and_trains_against_the_best_response() -> None:
    config = load_config(CONFIGS / "perudo_2p_1die.yaml")
    assert (config.env.game, config.env.num_players, config.env.dice) == ("perudo", 2, 1)
    assert config.algo.name == "MaskablePPO" and config.eval.exact and config.env.best_response


@pytest.mark.slow
def test_a_short_run_of_the_1_die_config_ends_less_exploitable_than_the_bidder(
        tmp_path: Path) -> None:
    """The shipped config's settings for 20,480 steps (its learning rate decays over them),
    evaluated briefly: already below the probabilistic bidder's exploitability."""
    data = load_config(CONFIGS / "perudo_2p_1die.yaml")
    config = config_from_dict({
        "env": {"game": "perudo", "dice": 1, "best_response": data.env.best_response},
        "algo": {"hyperparams": data.algo.hyperparams},
        "vec_env": {"n_envs": data.vec_env.n_envs}, "total_timesteps": 20480,
        "checkpoint_every": 20480, "seed": data.seed,
        "output_dir": str(tmp_path), "progress_bar": False,
        "eval": {"every": 0, "games": 2, "final_games": 2, "opponents": ["random"]}},
        name="run")
    table = train(config).table()
    found = re.search(r"exact exploitability \(2 players, 1 die\): (\d\.\d{4}) as sampled", table)
    assert found is not None, table
    model = make_policy(f"model:path={tmp_path / 'run' / 'model.zip'}", game="perudo")
    assert float(found.group(1)) == pytest.approx(exact.exploitability(model), abs=1e-4)
    assert float(found.group(1)) < BIDDER
