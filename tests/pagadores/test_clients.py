"""Clients nobody here wrote drive ``pagadores_v1`` as they drive any AEC env, with no adapter.

RLlib's wrapper and the SB3 tutorial's are restated from their source (cited per class): RLlib
is not imported, the tutorial's training runs sb3-contrib. TorchRL's ``PettingZooWrapper`` and
Tianshou's example run the clients themselves (the ``clients`` extra). Every client plays whole
games, which must end at the end of the game (not at the first knock-out) with exactly one
winner, paid +1 under the "win" scheme while everyone else gets -1.

Shimmy's ``OpenSpielCompatibilityV0`` (the ``clients`` extra) drives the OpenSpiel game
``python_pagadores``; its faults are pinned here, each test naming it as Shimmy's, so a
Shimmy that fixes one fails its test.
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
from pagadores_env.pagadores.observation import SLICES

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
def seat_of(agent: str) -> int:
    return int(agent.removeprefix("player_"))


@pytest.mark.parametrize("num_players", (2, 3, 6))
def test_tianshou_random_agents_example_collects_whole_games(num_players):
    """The "Random Agents" part of Tianshou 2.0.1's MARL tutorial
    (``docs/02_deep_dives/L6_MARL.ipynb``, the script ``test/pettingzoo/tic_tac_toe.py``), the
    client itself: its ``PettingZooEnv``, ``MultiAgentOffPolicyAlgorithm`` of masked random
    algorithms, ``DummyVectorEnv`` and ``Collector``. Beyond 2 players the example's list of
    two algorithms needs one per seat (its own assertion says so). Every collected episode is
    a whole game: its last stored observation shows one seat left holding cards, whom the
    episode's return pays +1 while everyone else gets -1, and no other step pays anything."""
    from tianshou.algorithm.multiagent.marl import MultiAgentOffPolicyAlgorithm
    from tianshou.algorithm.random import MARLRandomDiscreteMaskedOffPolicyAlgorithm
    from tianshou.data import Collector
    from tianshou.env import DummyVectorEnv, PettingZooEnv

    env = PettingZooEnv(pagadores_v1.env(num_players=num_players))
    if num_players != 2:  # the example's two-seat list is refused
        with pytest.raises(AssertionError, match="One policy must be assigned for each agent"):
            MultiAgentOffPolicyAlgorithm(algorithms=[
                MARLRandomDiscreteMaskedOffPolicyAlgorithm(action_space=env.action_space),
                MARLRandomDiscreteMaskedOffPolicyAlgorithm(action_space=env.action_space),
            ], env=env)
    policy = MultiAgentOffPolicyAlgorithm(
        algorithms=[MARLRandomDiscreteMaskedOffPolicyAlgorithm(action_space=env.action_space)
                    for _ in env.agents],  # the one line changed: one per seat
        env=env,
    )
    env = DummyVectorEnv([lambda: env])
    env.seed(num_players)
    np.random.seed(num_players)  # the random algorithms draw from NumPy's global generator
    collector = Collector(policy, env)
    result = collector.collect(n_episode=4, reset_before_collect=True)

    assert result.n_collected_episodes == 4
    steps = collector.buffer[collector.buffer.sample_indices(0)]  # every step, in order
    assert len(steps) == result.n_collected_steps == result.lens.sum()
    assert steps.obs.mask.all()  # the selected agent always had a decision (R3.6)
    assert not steps.info.illegal_action.any()  # infos stacked: one shape per key
    assert not steps.truncated.any()
    ends = np.flatnonzero(steps.terminated)
    assert (ends == np.cumsum(result.lens) - 1).all()  # one termination, each game's last step
    assert not steps.rew[~steps.terminated].any()
    assert (steps.rew[ends] == result.returns).all()
    for last, paid in zip(steps.obs_next[ends], result.returns, strict=True):
        holding = np.flatnonzero(last.obs[SLICES["cards"]][:num_players])  # slots, observer 0
        assert len(holding) == 1, "the episode ended before the game did"
        winner = (seat_of(last.agent_id) + holding[0]) % num_players
        assert paid.tolist() == [1.0 if seat == winner else -1.0 for seat in range(num_players)]


@pytest.mark.slow
def test_tianshou_dqn_example_trains_against_a_random_opponent():
    """The DQN part of the same example (``get_agents`` and ``train_agent``), the client
    itself at two players: a ``DQN`` learner in seat 2 against the masked random algorithm,
    trained by Tianshou's off-policy trainer. The example's hyperparameters, except a short
    run (1 epoch of 300 steps, 2 training and 2 test envs); no TensorBoard logger and no
    saving of the best policy."""
    import torch
    from tianshou.algorithm import (
        DQN,
        MARLRandomDiscreteMaskedOffPolicyAlgorithm,
        MultiAgentOffPolicyAlgorithm,
    )
    from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy
    from tianshou.algorithm.optim import AdamOptimizerFactory
    from tianshou.data import Collector, CollectStats, VectorReplayBuffer
    from tianshou.env import DummyVectorEnv
    from tianshou.env.pettingzoo_env import PettingZooEnv
    from tianshou.trainer import OffPolicyTrainerParams
    from tianshou.utils.net.common import Net

    def get_env(render_mode=None):
        return PettingZooEnv(pagadores_v1.env(render_mode=render_mode))

    training_envs = DummyVectorEnv([get_env for _ in range(2)])
    test_envs = DummyVectorEnv([get_env for _ in range(2)])
    np.random.seed(1626)
    torch.manual_seed(1626)
    training_envs.seed(1626)
    test_envs.seed(1626)

    # get_agents
    env = get_env()
    observation_space = (env.observation_space.spaces["observation"]
                         if isinstance(env.observation_space, gymnasium.spaces.Dict)
                         else env.observation_space)
    state_shape = observation_space.shape or int(observation_space.n)
    action_shape = env.action_space.shape or int(env.action_space.n)
    net = Net(state_shape=state_shape, action_shape=action_shape,
              hidden_sizes=[128, 128, 128, 128])
    agent_learn = DQN(
        policy=DiscreteQLearningPolicy(model=net, action_space=env.action_space,
                                       eps_training=0.1, eps_inference=0.05),
        optim=AdamOptimizerFactory(lr=1e-4), n_step_return_horizon=3, gamma=0.9,
        target_update_freq=320)
    agent_opponent = MARLRandomDiscreteMaskedOffPolicyAlgorithm(action_space=env.action_space)
    marl_algorithm = MultiAgentOffPolicyAlgorithm(algorithms=[agent_opponent, agent_learn],
                                                  env=env)

    # train_agent
    training_collector = Collector[CollectStats](
        marl_algorithm, training_envs, VectorReplayBuffer(20000, len(training_envs)),
        exploration_noise=True)
    test_collector = Collector[CollectStats](marl_algorithm, test_envs, exploration_noise=True)
    training_collector.reset()
    training_collector.collect(n_step=64 * len(training_envs))
    before = [p.detach().clone() for p in net.parameters()]
    result = marl_algorithm.run_training(OffPolicyTrainerParams(
        training_collector=training_collector,
        test_collector=test_collector,
        max_epochs=1,
        epoch_num_steps=300,
        collection_step_num_env_steps=10,
        test_step_num_episodes=2,
        batch_size=64,
        stop_fn=lambda mean_rewards: mean_rewards >= 0.6,
        update_step_num_gradient_steps_per_sample=0.1,
        test_in_training=False,
        multi_agent_return_reduction=lambda rews: rews[:, 1],  # the learner's seat
        show_progress=False,
    ))

    assert result.train_step >= 300 and result.train_episode >= 1
    assert result.update_step > 0
    assert any((p != q).any() for p, q in zip(before, net.parameters(), strict=True))
    assert result.test_episode >= 2 and result.best_reward in (-1.0, 0.0, 1.0)  # 2 games


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


# ---------------------------------------------------------------- Shimmy 2.0
def shimmy_game(env, seed: int) -> tuple[dict[str, float], list[tuple[str, float]]]:
    """One game by the loop of Shimmy's OpenSpiel page (``docs/environments/open_spiel.md``,
    "Run the environment"), seeded: ``env.rewards`` when the game has ended (as the first
    terminated agent is seen), and each agent's reward from ``last()`` at its dead step, in
    the order the agents leave. A seeded generator picks the random legal actions in place of
    ``env.action_space(agent).sample(mask)``: Shimmy makes new action spaces at every step,
    so seeding them holds for one step only."""
    env.reset(seed=seed)
    rng = random.Random(seed)
    at_end, leaving = None, []
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        if termination or truncation:
            action = None
            at_end = dict(env.rewards) if at_end is None else at_end
            leaving.append((agent, reward))
        else:
            action = masked_choice(info["action_mask"], rng)
        env.step(action)
    return at_end, leaving


# api_test warns about the unbounded Box Shimmy gives every OpenSpiel observation tensor.
SHIMMY_BOX_WARNINGS = [
    "ignore:Agent's minimum observation space value is -infinity:UserWarning",
    "ignore:Agent's maximum observation space value is infinity:UserWarning",
]


@pytest.mark.filterwarnings(*SHIMMY_BOX_WARNINGS)
def test_shimmy_plays_python_pagadores_given_its_parameters_as_config():
    """Shimmy 2.0's ``OpenSpielCompatibilityV0``, the client itself, with the game's
    parameters as ``config`` (the form that keeps them, see below): PettingZoo's
    ``api_test`` passes, and Shimmy's own loop plays whole games of the 3-player game, paid
    as ``python_pagadores`` pays: 1 to the one seat left holding cards, 0 to the others."""
    from pettingzoo.test import api_test
    from shimmy import OpenSpielCompatibilityV0

    import pagadores_env.integrations.openspiel  # noqa: F401  (registers python_pagadores)

    # 4 cards: with 3, chance alone can end a game at reset (see below), which api_test's
    # unseeded resets would meet about one run in fifty
    env = OpenSpielCompatibilityV0(game_name="python_pagadores",
                                   config={"players": 3, "cards": 4})
    api_test(env, num_cycles=1000)
    assert env.possible_agents == ["player_0", "player_1", "player_2"]
    for seed in range(10):
        at_end, leaving = shimmy_game(env, seed)
        game = env.game_state.engine  # the engine's game under OpenSpiel's state
        assert game.is_terminal() and game.start_cards == (4, 4, 4)
        assert game.alive() == [game.winner]
        assert at_end == {f"player_{seat}": 1.0 if seat == game.winner else 0.0
                          for seat in range(3)}
        assert [agent for agent, _ in leaving] == env.possible_agents


def test_shimmy_dead_steps_pay_the_final_rewards_again():
    """Shimmy's bug (2.0.1): ``step`` on a dead step neither clears ``rewards`` nor skips
    ``_accumulate_rewards``, so each agent still in the env collects the game's rewards once
    more per agent leaving before it: the k-th agent to leave reads k times its reward from
    ``last()``. OpenSpiel's own ``tic_tac_toe`` shows the same. Read the rewards from
    ``env.rewards`` at the end of the game (as ``shimmy_game`` does) or from
    ``env.game_state.returns()``. If Shimmy fixes this, this test fails: update the docs'
    clients page."""
    from shimmy import OpenSpielCompatibilityV0

    import pagadores_env.integrations.openspiel  # noqa: F401  (registers python_pagadores)

    env = OpenSpielCompatibilityV0(game_name="python_pagadores",
                                   config={"players": 3, "cards": 4})
    read = []
    for seed in range(10):
        at_end, leaving = shimmy_game(env, seed)
        assert sorted(at_end.values()) == [0.0, 0.0, 1.0]
        assert leaving == [(agent, k * at_end[agent]) for k, (agent, _) in
                           enumerate(leaving, start=1)]
        read += [reward for _, reward in leaving]
    assert max(read) > 1.0  # some winner left second or third, and read 2 or 3


def test_shimmy_drops_parameters_written_into_the_game_string():
    """Shimmy's bug (2.0.1): ``reset`` loads the game again from its short name and
    ``config`` only, so parameters given any other way fall back to the game's defaults
    there: written into ``game_name`` (OpenSpiel's game string) or held by a game passed as
    ``env`` (Shimmy's "wrap an existing environment"). A player count other than the
    default's fails the reset (the env kept the 3 agents of the game it was built with); a
    card count silently becomes 10. If Shimmy fixes this, this test fails: update the docs'
    clients page."""
    import pyspiel
    from shimmy import OpenSpielCompatibilityV0

    import pagadores_env.integrations.openspiel  # noqa: F401  (registers python_pagadores)

    env = OpenSpielCompatibilityV0(game_name="python_pagadores(players=3,cards=3)")
    assert len(env.possible_agents) == 3  # the game string's game, until reset
    with pytest.raises(pyspiel.SpielError, match="player < num_players_"):
        env.reset(seed=0)

    for env in (OpenSpielCompatibilityV0(game_name="python_pagadores(cards=3)"),
                OpenSpielCompatibilityV0(pyspiel.load_game("python_pagadores", {"cards": 3}))):
        env.reset(seed=0)
        assert env.game_state.get_game().get_parameters() == {"players": 2, "cards": 10}
        assert env.game_state.engine.start_cards == (10, 10)

    env = OpenSpielCompatibilityV0(game_name="python_pagadores", config={"cards": 3})
    env.reset(seed=0)  # config survives the reset
    assert env.game_state.engine.start_cards == (3, 3)


def test_shimmy_reset_fails_when_chance_alone_ends_the_game():
    """Shimmy's bug (2.0.1): ``reset`` plays the chance nodes and then selects the agent to
    act, which fails with a ``KeyError`` on OpenSpiel's terminal player id when the game is
    already over: with 3 cards a special on the very first throw can end it (the AEC env
    deals such a game again). Rare (about one reset in a hundred here), and impossible with
    the official 10 cards. If Shimmy fixes this, this test fails: update the docs' clients
    page."""
    import pyspiel
    from shimmy import OpenSpielCompatibilityV0

    import pagadores_env.integrations.openspiel  # noqa: F401  (registers python_pagadores)

    env = OpenSpielCompatibilityV0(game_name="python_pagadores",
                                   config={"players": 3, "cards": 3})
    for seed in range(300):
        try:
            env.reset(seed=seed)
        except KeyError as err:
            assert err.args == (pyspiel.PlayerId.TERMINAL,)
            break
    else:
        pytest.fail("no reset of 300 dealt a game over before its first decision")
    game = env.game_state.engine
    assert game.is_terminal() and all(isinstance(throw, tuple) for throw in game.history)
