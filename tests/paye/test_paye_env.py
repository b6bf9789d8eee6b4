"""The Paye environments: PettingZoo ``paye_v1`` and Gymnasium ``Paye-v1`` — API conformance
at 2, 3 and 6 players in both variants, rewards (shared wins), seeding, rendering and one-line
errors that change nothing."""

from __future__ import annotations

import random
import warnings

import gymnasium
import numpy as np
import pettingzoo
import pytest
from gymnasium.utils.env_checker import check_env as gym_check_env
from pettingzoo.test import api_test, seed_test

from pagadores_env import IllegalMoveError, paye_v1
from pagadores_env.core.policies import make_policy, registered_policies
from pagadores_env.paye import picture
from pagadores_env.paye.engine import Game
from pagadores_env.paye.observation import OBS_SIZE, encode, field_table
from pagadores_env.paye.policies import RandomPolicy
from pagadores_env.paye.render import render_table

TABLES = [(n, v) for n in (2, 3, 6) for v in ("base", "expansion")]
# api_test warns about any dict observation unless the env is on its list of classic envs.
DICT_OBS_WARNINGS = [
    "ignore:Observation space for each agent probably should be:UserWarning",
    "ignore:Observation is not a NumPy array:UserWarning",
]


def play(env, seed: int) -> dict[str, float]:
    """One game with random legal actions; each agent's rewards summed over the game."""
    pick = random.Random(seed)
    env.reset(seed=seed)
    totals = dict.fromkeys(env.agents, 0.0)
    for _agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            action = None
        else:
            action = pick.choice(np.flatnonzero(obs["action_mask"]).tolist())
        env.step(action)
        for a, r in env.rewards.items():
            totals[a] += r
    return totals


# ---------------------------------------------------------------- PettingZoo's own checks
@pytest.mark.filterwarnings(*DICT_OBS_WARNINGS)
@pytest.mark.parametrize(("num_players", "variant"), TABLES)
def test_pettingzoo_api_test(num_players, variant):
    api_test(paye_v1.env(num_players=num_players, variant=variant), num_cycles=200)


@pytest.mark.parametrize(("num_players", "variant"), TABLES)
def test_pettingzoo_seed_test(num_players, variant):
    seed_test(lambda: paye_v1.env(num_players=num_players, variant=variant), num_cycles=100)


def test_registered_with_pettingzoo_and_gymnasium():
    if hasattr(pettingzoo, "make"):
        assert str(pettingzoo.make("aec", "paye-v1", num_players=3)) == "paye_v1"
    env = gymnasium.make("Paye-v1", num_players=4, variant="expansion", rounds=3)
    assert (env.unwrapped.num_players, env.unwrapped.variant, env.unwrapped.rounds) == \
        (4, "expansion", 3)


def test_docstring_holds_the_observation_field_table_and_its_example_plays(capsys):
    assert field_table() in paye_v1.__doc__ and f"({OBS_SIZE},) float32" in paye_v1.__doc__
    example = paye_v1.__doc__.split("```python\n")[1].split("```")[0]
    exec(example, {})
    assert "game over" in capsys.readouterr().out.splitlines()[0]


# ---------------------------------------------------------------- the AEC protocol
@pytest.mark.parametrize(("num_players", "variant"), TABLES)
def test_a_game_pays_two_over_k_minus_one_to_each_of_k_winners(num_players, variant):
    env = paye_v1.env(num_players=num_players, variant=variant, rounds=2)
    for seed in range(4):
        totals = play(env, seed)
        game = env.unwrapped.game
        k = len(game.winners)
        assert {a: totals[f"player_{s}"] for s, a in enumerate(totals)} and all(
            totals[f"player_{s}"] == (2 / k - 1 if s in game.winners else -1.0)
            for s in range(num_players))


def test_placement_rewards_share_the_places_of_tied_scores():
    env = paye_v1.env(num_players=4, rounds=1, reward="placement")
    for seed in range(6):
        totals = play(env, seed)
        places = env.unwrapped.game.placements()
        for seat, place in enumerate(places):
            mean = place + (places.count(place) - 1) / 2
            assert totals[f"player_{seat}"] == pytest.approx(1 - 2 * (mean - 1) / 3)


def test_only_the_agent_to_act_has_a_mask_and_it_is_the_engines_legal_actions():
    env = paye_v1.env(num_players=3, variant="expansion")
    env.reset(seed=0)
    game = env.unwrapped.game
    for agent in env.possible_agents:
        mask = env.observe(agent)["action_mask"]
        if agent == env.agent_selection:
            assert np.flatnonzero(mask).tolist() == game.legal_actions() == list(range(7))
        else:
            assert not mask.any()
        np.testing.assert_array_equal(env.observe(agent)["observation"],
                                      encode(game, env.possible_agents.index(agent)))


def test_a_choice_throws_the_dice_inside_step():
    env = paye_v1.env(num_players=2)
    env.reset(seed=2)
    game = env.unwrapped.game
    mover = game.current_player
    env.step(4)
    assert [e.kind for e in game.log].count("throw") == 2 and game.current_player != mover
    assert game.scores[mover] in range(8, 13)  # S4 twice (Y8.2)


# ---------------------------------------------------------------- bad input
@pytest.mark.filterwarnings("ignore:.*not in the possible render_modes:UserWarning")
@pytest.mark.parametrize(("kwargs", "named"), [
    ({"num_players": 1}, "num_players must be an integer 2–6"),
    ({"num_players": 7}, "num_players must be an integer 2–6"),
    ({"variant": "deluxe"}, "variant must be one of"),
    ({"rounds": 0}, "rounds must be an integer ≥ 1"),
    ({"dice": [[1, 2, 3]] * 6}, "dice must be six lists of six whole numbers"),
    ({"reward": "cash"}, "reward must be one of"),
    ({"render_mode": "video"}, "render_mode must be one of"),
    ({"illegal_action": "ignore"}, "illegal_action must be one of"),
])
def test_bad_arguments_raise_one_line_naming_the_argument(kwargs, named):
    for make in (paye_v1.env, lambda **k: gymnasium.make("Paye-v1", **k)):
        with pytest.raises(ValueError, match=named) as err:
            make(**kwargs)
        assert "\n" not in str(err.value)


@pytest.mark.parametrize("action", [6, 7, 13, -1, True, 1.0, None])
def test_an_illegal_action_raises_one_line_and_changes_nothing(action):
    env = paye_v1.env(num_players=3)
    env.reset(seed=3)
    before, selected = env.unwrapped.game.to_dict(), env.agent_selection
    with pytest.raises(IllegalMoveError, match=f"^{selected} played an illegal action") as err:
        env.step(action)
    assert "\n" not in str(err.value)
    assert env.unwrapped.game.to_dict() == before and env.agent_selection == selected


def test_replace_and_penalty_in_the_aec_env():
    env = paye_v1.env(num_players=2, illegal_action="replace")
    env.reset(seed=4)
    agent = env.agent_selection
    env.step(9)
    assert env.infos[agent] == {"illegal_action": True}
    assert env.unwrapped.game.log[[e.kind for e in env.unwrapped.game.log].index("choose")] \
        .value == 0  # the lowest legal die
    env = paye_v1.env(num_players=3, illegal_action="penalty")
    env.reset(seed=4)
    agent = env.agent_selection
    env.step(12)
    assert all(env.terminations.values())
    assert env.rewards == {a: (-1.0 if a == agent else 0.0) for a in env.possible_agents}


def test_after_the_game_last_and_step_say_reset_in_one_line():
    env = paye_v1.env(num_players=2, rounds=1)
    play(env, seed=5)
    for call in (env.last, lambda: env.step(0)):
        with pytest.raises(IllegalMoveError, match="call reset") as err:
            call()
        assert "\n" not in str(err.value)


def test_a_terminated_agent_must_step_none():
    env = paye_v1.env(num_players=2, rounds=1)
    env.reset(seed=6)
    env.step(0)
    env.step(0)  # one round: the game is over
    assert all(env.terminations.values())
    with pytest.raises(IllegalMoveError, match="the only valid action is None"):
        env.step(0)


# ---------------------------------------------------------------- rendering
def test_ansi_and_human_render_the_table(capsys):
    env = paye_v1.env(num_players=3, render_mode="ansi")
    env.reset(seed=7)
    assert env.render() == render_table(env.unwrapped.game)
    assert "round 1 of 10" in env.render() and "player_2" in env.render()
    human = paye_v1.env(num_players=2, render_mode="human")
    human.reset(seed=7)
    human.step(2)
    printed = capsys.readouterr().out
    assert "moves first" in printed and "with S2" in printed


@pytest.mark.parametrize("variant", ["base", "expansion"])
def test_rgb_array_is_a_picture_of_the_table_at_every_step(variant):
    env = paye_v1.env(num_players=4, variant=variant, rounds=2, render_mode="rgb_array")
    env.reset(seed=8)
    frames = []
    for _agent in env.agent_iter():
        frame = env.render()
        assert frame.shape == (picture.HEIGHT, picture.WIDTH, 3) and frame.dtype == np.uint8
        assert np.array_equal(frame, picture.draw(env.unwrapped.game, env.possible_agents))
        frames.append(frame.tobytes())
        done = env.terminations[env.agent_selection]
        env.step(None if done else int(np.flatnonzero(env.last()[0]["action_mask"])[-1]))
    assert len(set(frames)) > len(frames) // 2  # the picture follows the game


def test_render_without_a_mode_warns_in_one_line():
    env = paye_v1.env(num_players=2)
    env.reset(seed=0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert env.render() is None
    assert "render_mode='ansi', 'human' or 'rgb_array'" in str(caught[0].message)


# ---------------------------------------------------------------- the Gymnasium env
def make(**kwargs):
    return gymnasium.make("Paye-v1", **kwargs).unwrapped


@pytest.mark.parametrize(("num_players", "variant"), TABLES)
def test_gymnasium_and_sb3_env_checkers_pass(num_players, variant):
    pytest.importorskip("stable_baselines3")
    from stable_baselines3.common.env_checker import check_env as sb3_check_env

    gym_check_env(make(num_players=num_players, variant=variant), skip_render_check=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # SB3's checker reports problems as warnings
        sb3_check_env(make(num_players=num_players, variant=variant))


@pytest.mark.parametrize("variant", ["base", "expansion"])
def test_gym_masks_are_the_learners_legal_actions_over_whole_episodes(variant):
    env = make(num_players=3, variant=variant, rounds=4, learner_seat=1, opponents="random")
    pick = random.Random(0)
    for seed in range(4):
        obs, info = env.reset(seed=seed)
        done = False
        while not done:
            game = env.game
            assert game.current_player == 1 and obs.shape == (OBS_SIZE,)
            assert np.flatnonzero(env.action_masks()).tolist() == game.legal_actions()
            np.testing.assert_array_equal(info["action_mask"], env.action_masks())
            np.testing.assert_array_equal(obs, encode(game, 1))
            obs, reward, done, truncated, info = env.step(pick.choice(game.legal_actions()))
            assert not truncated and (done or reward == 0.0)
        k = len(env.game.winners)
        assert reward == (2 / k - 1 if 1 in env.game.winners else -1.0)
        assert info["placement"] == env.game.placements()[1]
        assert not env.action_masks().any()


def test_a_seeded_gym_env_repeats_exactly():
    def run(seed):
        env = make(num_players=4, variant="expansion", rounds=3, opponents="random")
        pick, trace = random.Random(seed), []
        obs, _ = env.reset(seed=seed)
        done = False
        while not done:
            action = pick.choice(np.flatnonzero(env.action_masks()).tolist())
            obs, reward, done, _, _ = env.step(action)
            trace.append((obs.tobytes(), reward))
        return env.game.history, trace

    assert run(9) == run(9)
    assert run(9)[0] != run(10)[0]


@pytest.mark.parametrize("bad", [-1, "abc", True, 2.0])
def test_a_bad_seed_is_refused_in_one_line_and_the_episode_goes_on(bad):
    def finish(env):
        pick, trace, done = random.Random(0), [], False
        while not done:
            obs, reward, done, _, _ = env.step(
                pick.choice(np.flatnonzero(env.action_masks()).tolist()))
            trace.append((obs.tobytes(), reward))
        return env.game.history, trace

    env, twin = make(num_players=3), make(num_players=3)
    for each in (env, twin):
        each.reset(seed=8)
    with pytest.raises(ValueError) as refused:
        env.reset(seed=bad)
    assert str(refused.value) == f"seed must be None or an integer ≥ 0, got {bad!r}"
    assert finish(env) == finish(twin)


def test_gym_illegal_action_modes():
    env = make(num_players=2, learner_seat=0)  # "replace" by default
    env.reset(seed=1)
    *_, info = env.step(11)
    assert info["illegal_action"] and 0 in env.game.history  # the lowest die
    env = make(num_players=2, learner_seat=0, illegal_action="raise")
    env.reset(seed=1)
    before = env.game.to_dict()
    with pytest.raises(IllegalMoveError, match=r"^the learner \(seat 0\) played an illegal") as err:
        env.step(6)
    assert "\n" not in str(err.value) and env.game.to_dict() == before
    env = make(num_players=3, learner_seat=0, illegal_action="penalty")
    env.reset(seed=1)
    _, reward, done, _, info = env.step(-1)
    assert (reward, done, info["placement"], info["illegal_action"]) == (-1.0, True, 3, True)


def test_step_after_the_episode_says_reset():
    env = make(num_players=2, rounds=1, learner_seat=0)
    env.reset(seed=0)
    done = False
    while not done:
        _, _, done, _, _ = env.step(0)
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(0)


def test_gym_rgb_array_names_the_learner():
    env = make(num_players=3, render_mode="rgb_array", learner_seat=2)
    env.reset(seed=3)
    names = ["player_0", "player_1", "player_2 (learner)"]
    assert np.array_equal(env.render(), picture.draw(env.game, names))


# ---------------------------------------------------------------- the registry
def test_paye_players_have_a_registry_namespace_of_their_own():
    assert "random" in registered_policies(game="paye")
    assert isinstance(make_policy("random", game="paye"), RandomPolicy)
    policy = make_policy("random", game="paye", seed=0)
    mask = np.zeros(13, dtype=np.int8)
    mask[[0, 7, 12]] = 1
    assert {policy.act(np.zeros(OBS_SIZE, np.float32), mask) for _ in range(200)} == {0, 7, 12}
    assert policy.action_probabilities(np.zeros((1, OBS_SIZE)), mask[None]).tolist() == \
        [[1 / 3, 0, 0, 0, 0, 0, 0, 1 / 3, 0, 0, 0, 0, 1 / 3]]


def test_a_pagadores_player_is_no_paye_opponent():
    with pytest.raises(ValueError, match="unknown policy of paye 'threshold'"):
        make(num_players=2, opponents=["threshold"])


def test_a_game_ending_before_the_learner_chooses_is_no_episode():
    env = make(num_players=2, rounds=1, learner_seat=1)
    for seed in range(30):
        env.reset(seed=seed)
        assert env.game.current_player == 1 and not env.game.is_terminal()
    assert Game(2, first_player=0, scores=[38, 0]).current_player == 0
