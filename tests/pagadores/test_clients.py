"""Clients nobody here wrote drive ``pagadores_v1`` as they drive any AEC env, with no adapter.

Each client's driving logic is restated from its source (cited per class), not imported: none
of Tianshou, RLlib or the tutorial script is a dependency. TorchRL is the exception: its
``PettingZooWrapper`` itself runs (the ``clients`` extra). Every client plays whole 3- and
6-player games, which must end at the end of the game (not at the first knock-out) with
exactly one winner, paid +1 under the "win" scheme while everyone else gets -1.
"""

from __future__ import annotations

import random
from collections import defaultdict

import gymnasium
import numpy as np
import pettingzoo
import pettingzoo.utils
import pytest

import pagadores_env  # noqa: F401  (registers pagadores-v1 with PettingZoo)
from pagadores_env import pagadores_v1

PLAYERS = (3, 6)


def masked_choice(mask, rng: random.Random) -> int:
    """A uniformly random legal action, as a masked random policy picks it."""
    return rng.choice(np.flatnonzero(mask).tolist())


def assert_one_winner(rewards: dict[str, float], env) -> None:
    """The game is over and ``rewards`` pays its winner +1 and everyone else -1."""
    game = env.unwrapped.game
    assert game.is_terminal(), "the episode ended before the game did"
    assert rewards == {agent: 1.0 if seat == game.winner else -1.0
                       for seat, agent in enumerate(env.possible_agents)}


# ---------------------------------------------------------------- PettingZoo's registry
def test_pettingzoo_make_builds_the_env_by_id():
    assert hasattr(pettingzoo, "make"), "this PettingZoo has no registry to join"
    env = pettingzoo.make("aec", "pagadores-v1", num_players=4, cards=[2, 3, 4, 5])
    assert isinstance(env, pettingzoo.AECEnv) and str(env) == "pagadores_v1"
    assert env.possible_agents == [f"player_{s}" for s in range(4)]
    env.reset(seed=0)
    assert env.unwrapped.game.start_cards == (2, 3, 4, 5)
    assert pettingzoo.make("aec", "pagadores_v1").unwrapped.num_players == 2  # _v0 spelling


# ---------------------------------------------------------------- the SB3 tutorial
class SB3ActionMaskWrapper(pettingzoo.utils.BaseWrapper, gymnasium.Env):
    """The wrapper of PettingZoo's SB3 action-masking tutorial
    (``tutorials/SB3/connect_four/sb3_connect_four_action_mask.py``), restated: a Gymnasium
    face whose ``step`` returns the next agent's observation with the acting agent's
    cumulative reward, termination, truncation and info."""

    def reset(self, seed=None, options=None):
        super().reset(seed, options)
        self.observation_space = super().observation_space(self.possible_agents[0])[
            "observation"]
        self.action_space = super().action_space(self.possible_agents[0])
        return self.observe(self.agent_selection), {}

    def step(self, action):
        acting = self.agent_selection
        super().step(action)
        return (self.observe(self.agent_selection), self._cumulative_rewards[acting],
                self.terminations[acting], self.truncations[acting], self.infos[acting])

    def observe(self, agent):
        return super().observe(agent)["observation"]

    def action_mask(self):
        return super().observe(self.agent_selection)["action_mask"]


@pytest.mark.parametrize("num_players", PLAYERS)
def test_sb3_tutorial_trains_by_id_and_its_evaluation_finds_the_winner(num_players):
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
    from sb3_contrib.common.wrappers import ActionMasker

    # train_action_mask: the env by id, the tutorial's wrapper, SB3's ActionMasker
    env = SB3ActionMaskWrapper(pettingzoo.make("aec", "pagadores-v1", num_players=num_players))
    env.reset(seed=0)
    env = ActionMasker(env, lambda env: env.action_mask())
    model = MaskablePPO(MaskableActorCriticPolicy, env, n_steps=128, batch_size=64,
                        n_epochs=1, seed=0, device="cpu")
    model.learn(total_timesteps=384)
    episodes = list(model.ep_info_buffer)
    assert len(episodes) >= 3  # whole games were played through the wrapper
    assert {e["r"] for e in episodes} <= {-1.0, 1.0}  # the last mover's final reward

    # eval_action_mask: a random player_0 against the model, stopping at the first
    # termination and reading the winner off env.rewards
    env = pettingzoo.make("aec", "pagadores-v1", num_players=num_players)
    for game in range(4):
        env.reset(seed=game)
        env.action_space(env.possible_agents[0]).seed(game)
        for agent in env.agent_iter():
            obs, reward, termination, truncation, info = env.last()
            observation, action_mask = obs.values()
            if termination or truncation:
                assert_one_winner(env.rewards, env)
                winner = max(env.rewards, key=env.rewards.get)  # as the tutorial finds it
                assert winner == env.possible_agents[env.unwrapped.game.winner]
                break
            if agent == env.possible_agents[0]:
                act = env.action_space(agent).sample(action_mask)
            else:
                act = int(model.predict(observation, action_masks=action_mask,
                                        deterministic=True)[0])
            env.step(act)
        else:
            pytest.fail("the loop ended without a terminated agent")


# ---------------------------------------------------------------- Tianshou 2.0
class TianshouPettingZooEnv:
    """``tianshou.env.PettingZooEnv`` (Tianshou 2.0), restated: after each step it reports
    the next selected agent's observation (with ``agent_id`` and a boolean ``mask``), every
    agent's reward from ``env.rewards`` as a list, and that next agent's termination,
    truncation and info; its collector ends the episode when that termination is True."""

    def __init__(self, env):
        self.env = env
        self.agents = env.possible_agents
        self.agent_idx = {agent: i for i, agent in enumerate(self.agents)}
        self.rewards = [0] * len(self.agents)
        self.observation_space = env.observation_space(self.agents[0])
        self.action_space = env.action_space(self.agents[0])
        assert all(env.observation_space(a) == self.observation_space for a in self.agents)
        assert all(env.action_space(a) == self.action_space for a in self.agents)
        self.reset()

    def _observation(self, observation):
        return {"agent_id": self.env.agent_selection, "obs": observation["observation"],
                "mask": [m == 1 for m in observation["action_mask"]]}

    def reset(self, *args, **kwargs):
        self.env.reset(*args, **kwargs)
        observation, _, _, _, info = self.env.last(self)  # Tianshou passes itself as observe
        return self._observation(observation), info

    def step(self, action):
        self.env.step(action)
        observation, _, term, trunc, info = self.env.last()
        for agent, reward in self.env.rewards.items():
            self.rewards[self.agent_idx[agent]] = reward
        return self._observation(observation), self.rewards, term, trunc, info


def replay_buffer_stack(infos: list[dict]) -> dict[str, np.ndarray]:
    """Stack infos into arrays as a replay buffer does: one key set, one shape per key."""
    assert all(info.keys() == infos[0].keys() for info in infos)
    return {key: np.stack([np.asarray(info[key]) for info in infos]) for key in infos[0]}


@pytest.mark.parametrize("num_players", PLAYERS)
def test_tianshou_collector_plays_whole_games_into_a_replay_buffer(num_players):
    env = TianshouPettingZooEnv(pagadores_v1.env(num_players=num_players))
    # the multi-agent policy manager: one policy per agent, chosen by obs["agent_id"]
    policies = {agent: random.Random(i) for i, agent in enumerate(env.agents)}
    for seed in range(4):
        obs, info = env.reset(seed=seed)
        infos, returns, steps = [info], np.zeros(num_players), 0
        while True:
            assert any(obs["mask"]), f"{obs['agent_id']} was asked to act with nothing legal"
            act = masked_choice(obs["mask"], policies[obs["agent_id"]])
            obs, rew, term, trunc, info = env.step(act)
            returns += np.asarray(rew, dtype=float)
            infos.append(info)
            steps += 1
            if term or trunc:  # the collector's done: the episode ends and the env resets
                break
        stacked = replay_buffer_stack(infos)
        assert stacked["illegal_action"].shape == (steps + 1,)
        assert_one_winner(dict(zip(env.agents, returns.tolist(), strict=True)), env.env)


# ---------------------------------------------------------------- RLlib
class RLlibPettingZooEnv:
    """``ray.rllib.env.wrappers.pettingzoo_env.PettingZooEnv`` (RLlib 2.x), restated: reset
    reports only the selected agent; step plays the selected agent's action, then reports
    every agent selected until one can act, dead-stepping the terminated ones on the way;
    ``__all__`` is done once every agent has left."""

    def __init__(self, env):
        self.env = env
        env.reset()

    def reset(self, *, seed=None, options=None):
        info = self.env.reset(seed=seed, options=options)
        return {self.env.agent_selection: self.env.observe(self.env.agent_selection)}, info or {}

    def step(self, action):
        self.env.step(action[self.env.agent_selection])
        obs_d, rew_d, terminated_d, truncated_d, info_d = {}, {}, {}, {}, {}
        while self.env.agents:
            obs, rew, terminated, truncated, info = self.env.last()
            agent_id = self.env.agent_selection
            obs_d[agent_id], rew_d[agent_id], info_d[agent_id] = obs, rew, info
            terminated_d[agent_id], truncated_d[agent_id] = terminated, truncated
            if (self.env.terminations[self.env.agent_selection]
                    or self.env.truncations[self.env.agent_selection]):
                self.env.step(None)
            else:
                break
        all_gone = not self.env.agents
        terminated_d["__all__"] = all_gone and all(terminated_d.values())
        truncated_d["__all__"] = all_gone and all(truncated_d.values())
        return obs_d, rew_d, terminated_d, truncated_d, info_d


@pytest.mark.parametrize(("num_players", "cards", "games"), [(3, 10, 4), (6, 10, 4),
                                                              (3, 1, 300)])
def test_rllib_wrapper_plays_whole_games(num_players, cards, games):
    """At 3 players and 1 card, some resets used to start with a knocked-out agent selected,
    which RLlib's reset hands to the policy as if it could act."""
    env = RLlibPettingZooEnv(pagadores_v1.env(num_players=num_players, cards=cards))
    rng = random.Random(num_players)
    for seed in range(games):
        obs, _ = env.reset(seed=seed)
        totals: dict[str, float] = defaultdict(float)
        terminated = {}
        while True:
            actions = {agent: masked_choice(o["action_mask"], rng) for agent, o in obs.items()
                       if not terminated.get(agent, False)}
            assert list(actions) == [env.env.agent_selection]
            obs, rewards, terminated, truncated, _ = env.step(actions)
            for agent, reward in rewards.items():
                totals[agent] += reward
            if terminated["__all__"] or truncated["__all__"]:
                break
        assert_one_winner(dict(totals), env.env)


# ---------------------------------------------------------------- TorchRL
@pytest.mark.parametrize("num_players", (2, 3, 6))
def test_torchrl_wrapper_with_masks_checks_its_specs_and_plays_a_whole_game(num_players):
    """TorchRL 0.14's ``PettingZooWrapper(use_mask=True)``, the client itself and unadapted:
    its spec check passes and a rollout plays a game to its one winner, only the selected
    agent acting with both actions legal. (With the mask in the infos, ``info_mask=True``,
    the wrapper fails in its reset: ``'NoneType' object does not support item
    assignment``.)"""
    import torch
    from torchrl.envs.libs.pettingzoo import PettingZooWrapper
    from torchrl.envs.utils import check_env_specs

    torch.manual_seed(num_players)
    env = PettingZooWrapper(env=pagadores_v1.env(num_players=num_players), use_mask=True)
    check_env_specs(env)
    rollout = env.rollout(10_000)  # stops at the game's end
    agents = [f"player_{seat}" for seat in range(num_players)]
    assert bool(rollout["next", "done"][-1])
    acting = torch.stack([rollout[agent, "mask"][:, 0] for agent in agents], dim=1)
    assert (acting.sum(dim=1) == 1).all()  # one selected agent a step (R3.6)
    for agent in agents:
        legal = rollout[agent, "action_mask"][:, 0]
        assert legal[rollout[agent, "mask"][:, 0]].all()
    paid = sorted(float(rollout["next", agent, "reward"].sum()) for agent in agents)
    assert paid == [-1.0] * (num_players - 1) + [1.0]
