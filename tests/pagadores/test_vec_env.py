"""The SB3 ``PagadoresVecEnv`` over the batch engine, and the batch evaluator."""

from __future__ import annotations

import re

import gymnasium as gym
import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
from stable_baselines3 import PPO
from stable_baselines3.common.callbacks import BaseCallback

import pagadores_env  # noqa: F401  (registers Pagadores-v1)
from pagadores_env.pagadores.vec_env import PagadoresVecEnv
from pagadores_env.pagadores.vector import evaluate_batch
from tests.players import Looping


def waits_for_learner(env: PagadoresVecEnv) -> bool:
    game = env.game
    return bool((game.decision & (game.seat == env.learner)).all())


class MaskCheck(BaseCallback):
    """Checks, at every rollout step, that each game waits for its learner (R3.6: both
    actions legal) and that the masks MaskablePPO reads say so."""

    def __init__(self) -> None:
        super().__init__()
        self.checked = 0

    def _on_step(self) -> bool:
        env = self.training_env
        assert waits_for_learner(env)
        assert get_action_masks(env).shape == (env.num_envs, 2)
        assert get_action_masks(env).all()
        self.checked += 1
        return True


def test_maskable_ppo_learns_on_vec_env() -> None:
    env = PagadoresVecEnv(8, num_players=3, cards=4, opponents="sensible", seed=0)
    assert is_masking_supported(env)
    model = MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=64, n_epochs=1, seed=0,
                        device="cpu")
    check = MaskCheck()
    model.learn(400, callback=check)
    assert model.num_timesteps >= 400 and check.checked >= 50


def test_ppo_learns_on_vec_env() -> None:
    env = PagadoresVecEnv(8, num_players=2, cards=3, opponents="random", seed=1)
    model = PPO("MlpPolicy", env, n_steps=32, batch_size=64, n_epochs=1, seed=0, device="cpu")
    model.learn(300)
    assert model.num_timesteps >= 256 and waits_for_learner(env)


@pytest.mark.parametrize("reward", ["win", "placement"])
def test_rewards_only_at_episode_end(reward: str) -> None:
    env = PagadoresVecEnv(32, num_players=4, cards=2, opponents="threshold:min_points=100",
                          reward=reward, seed=2)
    obs = env.reset()
    rng = np.random.default_rng(0)
    ends = 0
    for _ in range(100):
        obs, rewards, dones, infos = env.step(rng.integers(0, 2, 32))
        assert obs.shape == (32, 49) and obs.dtype == np.float32
        assert (rewards[~dones] == 0).all()
        for i in np.flatnonzero(dones):
            place = infos[i]["placement"]
            assert infos[i]["terminal_observation"].shape == (49,)
            if reward == "win":
                assert rewards[i] == (1.0 if place == 1 else -1.0)
            else:
                assert -1.0 <= rewards[i] <= 1.0 and (rewards[i] == 1.0) == (place == 1)
        ends += dones.sum()
        assert waits_for_learner(env)
    assert ends > 100


def test_same_seed_same_run() -> None:
    """Seeded through the constructor or through ``seed()`` (as SB3 does), runs repeat."""
    runs = []
    for through_seed_method in (False, False, True):
        env = PagadoresVecEnv(16, num_players=3, cards=3, opponents="random",
                              seed=None if through_seed_method else 5)
        if through_seed_method:
            env.seed(5)
        trace = [env.reset()]
        for k in range(40):
            obs, rewards, dones, _ = env.step(np.arange(16) % 2 ^ (k % 2))
            trace += [obs, rewards, dones]
        runs.append(trace)
    for other in runs[1:]:
        for a, b in zip(runs[0], other, strict=True):
            np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("bad", [-1, "abc", True, 2.0, [1]])
def test_a_bad_seed_is_refused_in_one_line_and_changes_nothing(bad: object) -> None:
    message = f"^seed must be None or an integer ≥ 0, got {re.escape(repr(bad))}$"
    with pytest.raises(ValueError, match=message):
        PagadoresVecEnv(4, opponents="random", seed=bad)
    env, twin = (PagadoresVecEnv(4, opponents="random", seed=5) for _ in range(2))
    env.seed(9)  # a good seed waiting for the next reset stays waiting
    twin.seed(9)
    with pytest.raises(ValueError, match=message):
        env.seed(bad)
    for each in (env, twin):
        each.step(np.ones(4, np.int64))
    runs = [[each.reset()] + list(each.step(np.zeros(4, np.int64))[:3]) for each in (env, twin)]
    for a, b in zip(*runs, strict=True):
        np.testing.assert_array_equal(a, b)


def test_a_numpy_integer_seed_seeds_as_the_same_int() -> None:
    env, twin = (PagadoresVecEnv(4, opponents="random") for _ in range(2))
    env.seed(np.int64(3))
    twin.seed(3)
    np.testing.assert_array_equal(env.reset(), twin.reset())
    assert env.seed(np.uint32(7)) == [7, 8, 9, 10]


def test_vec_env_matches_gym_env_in_expectation() -> None:
    """Same task as ``Pagadores-v1``: a fixed learner (always stop) earns the same mean
    reward against the same opponents in both (4,000 episodes each; 5 standard errors)."""
    episodes = 4000
    gym_env = gym.make("Pagadores-v1", num_players=2, cards=3, opponents="sensible")
    gym_env.reset(seed=0)
    total, done = 0.0, 0
    while done < episodes:
        _, reward, terminated, _, _ = gym_env.step(0)
        if terminated:
            total, done = total + reward, done + 1
            gym_env.reset()
    vec = PagadoresVecEnv(200, num_players=2, cards=3, opponents="sensible", seed=0)
    vec_total, vec_done = 0.0, 0
    while vec_done < episodes:
        _, rewards, dones, _ = vec.step(np.zeros(200, np.int64))
        vec_total += rewards.sum()
        vec_done += dones.sum()
    assert abs(total / done - vec_total / vec_done) < 5 * np.sqrt(2 / episodes)



@pytest.mark.parametrize("bad", [0, -3, True, 2.0])
def test_a_bad_num_envs_is_refused_in_one_line(bad: object) -> None:
    """0 reached SB3's IndexError, -3 numpy's "negative dimensions are not allowed"
    (issue 45, item 12)."""
    with pytest.raises(ValueError, match=re.escape(f"num_envs must be an integer ≥ 1, got "
                                                   f"{bad!r}")):
        PagadoresVecEnv(bad)  # type: ignore[arg-type]


def test_vec_env_refuses_bad_input() -> None:
    with pytest.raises(ValueError, match="num_players"):
        PagadoresVecEnv(2, num_players=7)
    with pytest.raises(ValueError, match="learner_seat"):
        PagadoresVecEnv(2, num_players=2, learner_seat=2)
    with pytest.raises(ValueError, match="opponents"):
        PagadoresVecEnv(2, num_players=3, opponents=["random"] * 3)
    with pytest.raises(ValueError, match="'optimal' plays 2-player games only"):
        PagadoresVecEnv(2, num_players=3, opponents="optimal")  # refused before any game
    env = PagadoresVecEnv(2, num_players=2, seed=0)
    before = env.reset()
    with pytest.raises(ValueError, match="0 \\(stop\\) or"):
        env.step(np.array([0, 2]))
    np.testing.assert_array_equal(env.game.observations(np.arange(2), env.learner), before)
    with pytest.raises(AttributeError, match="action_masks"):
        env.env_method("render")


def test_evaluate_batch_rotates_seats() -> None:
    result = evaluate_batch(["sensible", "random", "random"], 3, 3000, seed=0)
    assert sum(result["win_rate"]) == pytest.approx(1.0)
    assert result["win_rate"][0] > 0.45  # sensible beats two random players by far
    by_seat = np.array(result["win_rate_by_seat"])
    assert by_seat.shape == (3, 3) and (by_seat > 0).all()  # every entry played every seat
    assert result["mean_place"][0] < result["mean_place"][1]
    lost = result["cards_lost_per_round"]  # sensible gives away fewer cards than random
    assert 0 < lost[0] < min(lost[1:])
    with pytest.raises(ValueError, match="one policy per seat"):
        evaluate_batch(["random"], 2, 10)


@pytest.mark.parametrize("players", [2, *(pytest.param(n, marks=pytest.mark.slow) for n in (4, 6))])
def test_table_opponents_play_the_games_they_play_when_asked(players: int) -> None:
    """With one game the dice are taken in the same order whoever decides, so opponents played
    inside the kernel from their tables and the same opponents asked decision by decision
    give the same episodes, step for step (learner knock-outs and seat draws included)."""
    specs = ["sensible", "threshold:min_points=150", "stop-first", "always-throw",
             "sensible"][:players - 1]
    traces = []
    for wrap in (str, Looping):  # Looping: the same player behind act alone, no table
        env = PagadoresVecEnv(1, num_players=players, cards=3, opponents=[wrap(s) for s in specs],
                              reward="placement", seed=11)
        assert bool(len(env._decision_tables)) == (wrap is str)
        trace = [env.reset()]
        for action in np.random.default_rng(0).integers(0, 2, size=(3000, 1)):
            obs, rewards, dones, infos = env.step(action)
            assert waits_for_learner(env)
            trace += [obs, rewards, dones, env.learner.copy(),
                      np.array([infos[0].get("placement", 0)])]
        traces.append(trace)
        episodes = sum(int(d.sum()) for d in trace[3::5])
    assert episodes > 100
    for a, b in zip(*traces, strict=True):
        np.testing.assert_array_equal(a, b)
