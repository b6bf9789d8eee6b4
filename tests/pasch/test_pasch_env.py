"""The Pasch environments: PettingZoo ``pasch_v1`` and Gymnasium ``Pasch-v1`` — API
conformance, rewards with shared wins, masks, seeding, rendering and one-line errors that
change nothing."""

from __future__ import annotations

import random
import warnings

import gymnasium
import numpy as np
import pettingzoo
import pytest
from gymnasium.utils.env_checker import check_env as gym_check_env
from pettingzoo.test import api_test, seed_test

from pagadores_env import IllegalMoveError, pasch_v1
from pagadores_env.core.policies import make_policy, registered_policies
from pagadores_env.pasch.engine import Game
from pagadores_env.pasch.observation import OBS_SIZE, encode, field_table
from pagadores_env.pasch.policies import RandomPolicy
from pagadores_env.pasch.render import describe_events, render_table

PLAYERS = (2, 3, 6)
DICT_OBS_WARNINGS = [  # api_test warns about any dict observation outside its classic envs
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
        action = None if terminated or truncated else pick.choice(
            np.flatnonzero(obs["action_mask"]).tolist())
        env.step(action)
        for a, r in env.rewards.items():
            totals[a] += r
    return totals


# ---------------------------------------------------------------- PettingZoo's own checks
@pytest.mark.filterwarnings(*DICT_OBS_WARNINGS)
@pytest.mark.parametrize("num_players", PLAYERS)
def test_pettingzoo_api_test(num_players):
    api_test(pasch_v1.env(num_players=num_players, hand=[-1, 3, 5]), num_cycles=300)


@pytest.mark.filterwarnings(*DICT_OBS_WARNINGS)
def test_pettingzoo_api_test_raw_env():
    api_test(pasch_v1.raw_env(num_players=3, hand=[2, 4], blocks=1), num_cycles=200)


@pytest.mark.parametrize("num_players", PLAYERS)
def test_pettingzoo_seed_test(num_players):
    seed_test(lambda: pasch_v1.env(num_players=num_players, hand=[1, 4]), num_cycles=100)


def test_registered_with_pettingzoo_and_gymnasium():
    if hasattr(pettingzoo, "make"):
        assert str(pettingzoo.make("aec", "pasch-v1", num_players=3)) == "pasch_v1"
    env = gymnasium.make("Pasch-v1", num_players=4, hand=[1, 2], blocks=0)
    assert env.unwrapped.num_players == 4 and env.unwrapped.hand == (1, 2)
    assert env.action_space.n == 2 + 49


def test_docstring_holds_the_observation_field_table_and_its_example_plays(capsys):
    assert field_table() in pasch_v1.__doc__
    assert f"({OBS_SIZE},) float32" in pasch_v1.__doc__
    assert "v1 (pagadores-env 0.3.0): first release" in pasch_v1.__doc__
    exec(pasch_v1.__doc__.split("```python\n")[1].split("```")[0], {})
    assert "Game over after 3 rounds" in capsys.readouterr().out


# ---------------------------------------------------------------- the AEC protocol
@pytest.mark.parametrize("num_players", PLAYERS)
def test_a_game_pays_2_over_k_minus_1_to_k_winners_and_minus_1_to_the_rest(num_players):
    env = pasch_v1.env(num_players=num_players, hand=[-1, 2, 5], blocks=1)
    totals = play(env, seed=num_players)
    game = env.unwrapped.game
    k = len(game.winners())
    assert sorted(totals.values()) == pytest.approx([-1.0] * (num_players - k)
                                                    + [2 / k - 1] * k)


def test_a_tie_for_the_most_points_shares_the_win():
    env = pasch_v1.env(num_players=2, hand=[0], blocks=0)  # every card is worth nothing
    totals = play(env, seed=0)
    assert totals == {"player_0": 0.0, "player_1": 0.0}


def test_placement_rewards_follow_the_points():
    env = pasch_v1.env(num_players=4, hand=[-1, 3, 5], reward="placement")
    totals = play(env, seed=4)
    places = env.unwrapped.game.placements()
    expected = {f"player_{s}": 1 - 2 * (p - 1 + (places.count(p) - 1) / 2) / 3
                for s, p in enumerate(places)}
    assert totals == pytest.approx(expected) and sum(totals.values()) == pytest.approx(0)


def test_only_the_agent_to_act_has_a_mask_and_it_is_the_engines_legal_actions():
    env = pasch_v1.env(num_players=3)
    env.reset(seed=0)
    game = env.unwrapped.game
    for seat, agent in enumerate(env.possible_agents):
        seen = env.observe(agent)
        np.testing.assert_array_equal(seen["observation"], encode(game, seat))
        if agent == env.agent_selection:
            assert np.flatnonzero(seen["action_mask"]).tolist() == game.legal_actions()
            assert seen["action_mask"].dtype == np.int8 and seen["action_mask"].shape == (55,)
        else:
            assert not seen["action_mask"].any()


def test_the_dice_are_thrown_inside_step_and_forced_actions_are_played():
    env = pasch_v1.env(num_players=2, hand=[1, 2], blocks=0)
    env.reset(seed=1)
    game = env.unwrapped.game
    assert game.phase == "card" and game.current_player == 0
    env.step(0)  # card 1: the five dice are thrown at once
    assert game.phase == "choose" and game.throws == 1
    env.step(2 + 31)  # stop: the placement without choice is played, seat 1's turn begins
    assert game.discs or game.phase == "blocks"


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize(("kwargs", "named"), [
    ({"num_players": 1}, "num_players must be an integer 2–6"),
    ({"num_players": 7}, "num_players must be an integer 2–6"),
    ({"hand": [11]}, "hand must be 1–10 cards"),
    ({"hand": []}, "hand must be 1–10 cards"),
    ({"blocks": 11}, "blocks must be a whole number 0–10"),
    ({"reward": "cash"}, "reward must be one of"),
    ({"illegal_action": "ignore"}, "illegal_action must be one of"),
    ({"render_mode": "video"}, "render_mode must be one of"),
])
@pytest.mark.filterwarnings("ignore:.*not in the possible render_modes:UserWarning")
def test_bad_arguments_raise_one_line_naming_the_argument(kwargs, named):
    for make in (pasch_v1.env, lambda **k: gymnasium.make("Pasch-v1", **k)):
        with pytest.raises(ValueError, match=named) as err:
            make(**kwargs)
        assert "\n" not in str(err.value)


@pytest.mark.parametrize("action", [6 + 47, 55, -1, True, 1.0, None])
def test_an_illegal_action_raises_one_line_and_changes_nothing(action):
    env = pasch_v1.env(num_players=3)
    env.reset(seed=3)
    before, selected = env.unwrapped.game.to_dict(), env.agent_selection
    with pytest.raises(IllegalMoveError, match=f"^{selected} played an illegal action") as err:
        env.step(action)
    assert "\n" not in str(err.value)
    assert env.unwrapped.game.to_dict() == before and env.agent_selection == selected


def test_replace_plays_the_first_legal_action_and_says_so():
    env = pasch_v1.env(num_players=2, illegal_action="replace")
    env.reset(seed=5)
    env.step(54)  # no card action: the lowest card (-1) is played instead
    assert env.unwrapped.game.played[0] == -1 and env.infos["player_0"]["illegal_action"]


def test_penalty_ends_the_game_with_the_offenders_forfeit():
    env = pasch_v1.env(num_players=3, illegal_action="penalty")
    env.reset(seed=5)
    env.step(54)
    assert all(env.terminations.values())
    assert env.rewards == {"player_0": -1.0, "player_1": 0.0, "player_2": 0.0}
    for _ in env.possible_agents:
        env.step(None)
    assert not env.agents


def test_after_the_game_last_and_step_say_reset_in_one_line():
    env = pasch_v1.env(num_players=2, hand=[3])
    play(env, seed=5)
    for call in (env.last, lambda: env.step(0)):
        with pytest.raises(IllegalMoveError, match="call reset") as err:
            call()
        assert "\n" not in str(err.value)


def test_a_terminated_agent_must_step_none():
    env = pasch_v1.env(num_players=2, hand=[3], blocks=0)
    env.reset(seed=6)
    while not all(env.terminations.values()):
        env.step(int(np.flatnonzero(env.last()[0]["action_mask"])[-1]))  # stop, then place
    with pytest.raises(IllegalMoveError, match="the only valid action is None"):
        env.step(0)


# ---------------------------------------------------------------- rendering
def test_ansi_and_human_show_the_table_and_the_events(capsys):
    env = pasch_v1.env(num_players=2, render_mode="ansi")
    env.reset(seed=7)
    text = env.render()
    assert text == render_table(env.unwrapped.game)
    assert text.startswith("Pasch round 1/6, started by player_0\n> player_0  score   0")
    env.step(0)  # card -1, then the first throw
    assert "played -1" in env.render() and "after 1 throw" in env.render()
    human = pasch_v1.env(num_players=2, render_mode="human")
    human.reset(seed=7)
    human.step(0)
    out = capsys.readouterr().out
    log = describe_events(human.unwrapped.game.log)
    assert log[:2] == ["Round 1: player_0 starts", "player_0 plays card -1"]
    assert all(line in out for line in log) and render_table(human.unwrapped.game) in out


def test_rgb_array_is_a_fixed_size_picture_that_changes_with_the_game():
    env = pasch_v1.env(num_players=6, render_mode="rgb_array")
    env.reset(seed=8)
    first = env.render()
    assert first.shape == (480, 640, 3) and first.dtype == np.uint8
    for _ in range(12):
        env.step(int(np.flatnonzero(env.last()[0]["action_mask"])[-1]))
    assert not np.array_equal(env.render(), first)
    gym_env = gymnasium.make("Pasch-v1", num_players=3, render_mode="rgb_array")
    gym_env.reset(seed=0)
    assert gym_env.render().shape == (480, 640, 3)


# ---------------------------------------------------------------- the Gymnasium env
def make(**kwargs):
    return gymnasium.make("Pasch-v1", **kwargs).unwrapped


@pytest.mark.parametrize("num_players", PLAYERS)
def test_gymnasium_and_sb3_env_checkers_pass(num_players):
    pytest.importorskip("stable_baselines3")
    from stable_baselines3.common.env_checker import check_env as sb3_check_env

    gym_check_env(make(num_players=num_players, hand=[1, 5]), skip_render_check=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # SB3's checker reports problems as warnings
        sb3_check_env(make(num_players=num_players, hand=[1, 5]))


def test_gym_masks_are_the_learners_legal_actions_over_whole_episodes():
    env = make(num_players=3, hand=[-1, 4], learner_seat=1, illegal_action="raise")
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
            assert not truncated
        winners = game.winners()
        assert reward == pytest.approx(2 / len(winners) - 1 if 1 in winners else -1.0)
        assert info["placement"] == game.placements()[1] and not env.action_masks().any()


def test_a_seeded_gym_env_repeats_exactly():
    def run(seed):
        env = make(num_players=4, hand=[1, 2, 3], opponents="random")
        pick, trace = random.Random(seed), []
        env.reset(seed=seed)
        done = False
        while not done:
            obs, reward, done, _, _ = env.step(pick.choice(np.flatnonzero(env.action_masks())))
            trace.append((obs.tobytes(), reward))
        return env.game.history, trace

    assert run(9) == run(9)
    assert run(9)[0] != run(10)[0]


@pytest.mark.parametrize("bad", [-1, "abc", True, 2.0])
def test_a_bad_seed_is_refused_in_one_line_and_the_game_goes_on(bad):
    for new in (lambda: pasch_v1.env(num_players=3, hand=[2]),
                lambda: gymnasium.make("Pasch-v1", num_players=3, hand=[2])):
        env, twin = new(), new()
        for each in (env, twin):
            each.reset(seed=8)
        with pytest.raises(ValueError) as refused:
            env.reset(seed=bad)
        assert str(refused.value) == f"seed must be None or an integer ≥ 0, got {bad!r}"
        assert env.unwrapped.game.to_dict() == twin.unwrapped.game.to_dict()


def test_gym_illegal_action_modes():
    env = make(num_players=2, learner_seat=0)  # "replace" by default
    env.reset(seed=1)
    *_, info = env.step(6 + 47)  # placing before the card: the lowest card is played
    assert info["illegal_action"] and env.game.played[0] == -1
    env = make(num_players=2, learner_seat=0, illegal_action="raise")
    env.reset(seed=1)
    before = env.game.to_dict()
    with pytest.raises(IllegalMoveError, match=r"^the learner \(seat 0\) played an illegal") as err:
        env.step(6 + 47)
    assert "\n" not in str(err.value) and env.game.to_dict() == before
    env = make(num_players=2, learner_seat=0, illegal_action="penalty")
    env.reset(seed=1)
    _, reward, done, _, info = env.step(6 + 47)
    assert (reward, done, info["placement"], info["illegal_action"]) == (-1.0, True, 2, True)


def test_step_after_the_episode_says_reset():
    env = make(num_players=2, hand=[1], learner_seat=0)
    env.reset(seed=0)
    done = False
    while not done:
        _, _, done, _, _ = env.step(env.game.legal_actions()[-1])
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(0)


# ---------------------------------------------------------------- the random policy
def test_pasch_players_have_a_registry_namespace_of_their_own():
    assert "random" in registered_policies(game="pasch")
    assert isinstance(make_policy("random", game="pasch"), RandomPolicy)
    policy = make_policy("random", game="pasch", seed=0)
    mask = np.zeros(55, dtype=np.int8)
    mask[[3, 10, 53]] = 1
    assert {policy.act(np.zeros(OBS_SIZE, np.float32), mask) for _ in range(200)} == {3, 10, 53}
    probs = policy.action_probabilities(np.zeros((1, OBS_SIZE)), mask[None])
    assert probs[0, [3, 10, 53]] == pytest.approx([1 / 3] * 3) and probs.sum() == 1


def test_a_perudo_player_is_no_pasch_opponent():
    with pytest.raises(ValueError, match="unknown policy of pasch 'bluffer'"):
        make(num_players=2, opponents=["bluffer"])


def test_a_game_with_an_unseen_start_is_played_by_the_gym_env_from_its_first_decision():
    env = make(num_players=2, hand=[4, 4], blocks=0, learner_seat=1)
    obs, _ = env.reset(seed=2)
    assert env.game.current_player == 1 and isinstance(env.game, Game)
