"""The Perudo environments: PettingZoo ``perudo_v1`` and Gymnasium ``Perudo-v1`` — API
conformance, hidden information, rewards, seeding and one-line errors that change nothing."""

from __future__ import annotations

import os
import random
import warnings

import gymnasium
import numpy as np
import pettingzoo
import pytest
from gymnasium.utils.env_checker import check_env as gym_check_env
from pettingzoo.test import api_test, seed_test

from pagadores_env import IllegalMoveError, perudo_v1
from pagadores_env.core.picture import HEIGHT, WIDTH
from pagadores_env.core.policies import make_policy, registered_policies
from pagadores_env.perudo.dice import FaceStream
from pagadores_env.perudo.engine import Game
from pagadores_env.perudo.observation import (
    OBS_SIZE,
    SLICES,
    ObsFields,
    bid_order,
    decode,
    encode,
    field_table,
)
from pagadores_env.perudo.picture import draw
from pagadores_env.perudo.render import render_table
from pagadores_env.perudo.rules import DUDO, NUM_ACTIONS, bid_action, count_matches

PLAYERS = (2, 3, 6)
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
@pytest.mark.parametrize("num_players", PLAYERS)
def test_pettingzoo_api_test(num_players):
    api_test(perudo_v1.env(num_players=num_players), num_cycles=300)


@pytest.mark.filterwarnings(*DICT_OBS_WARNINGS)
def test_pettingzoo_api_test_raw_env():
    api_test(perudo_v1.raw_env(num_players=3, dice=2), num_cycles=300)


@pytest.mark.parametrize("num_players", PLAYERS)
def test_pettingzoo_seed_test(num_players):
    seed_test(lambda: perudo_v1.env(num_players=num_players), num_cycles=200)


#: Every documented option value that is not a default (``perudo_v1``'s Arguments).
OPTIONS = [{}, {"reward": "placement"}, {"illegal_action": "replace"},
           {"illegal_action": "penalty"}, {"eliminated": "leave"}, {"info_events": True},
           {"info_mask": True}, {"render_mode": "ansi"}, {"render_mode": "human"},
           {"render_mode": "rgb_array"}]


@pytest.mark.filterwarnings(*DICT_OBS_WARNINGS)
@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in
                                                                    o.items()) or "defaults")
@pytest.mark.parametrize("dice", [1, 2, 3, 4, 5, [1, 0, 2], [2, 1, 0, 1]])
def test_every_documented_option_passes_api_test_and_seed_test_at_every_dice_count(
        dice, options, capsys):
    """The same options as ``pagadores_v1`` (issue 45), each at every dice count and with
    seats dealt none; the table size goes round 2–6 with the count. One game each (api_test
    stops at the game's end)."""
    num_players = len(dice) if isinstance(dice, list) else 2 + (dice + 1) % 5
    make = lambda: perudo_v1.env(num_players=num_players, dice=dice, **options)  # noqa: E731
    api_test(make(), num_cycles=1000)
    seed_test(make, num_cycles=50)
    capsys.readouterr()  # render_mode="human" prints the game


def test_registered_with_pettingzoo_and_gymnasium():
    if hasattr(pettingzoo, "make"):
        assert str(pettingzoo.make("aec", "perudo-v1", num_players=3)) == "perudo_v1"
    env = gymnasium.make("Perudo-v1", num_players=4, dice=2)
    assert env.unwrapped.num_players == 4 and env.unwrapped.dice == 2


def test_docstring_holds_the_observation_field_table():
    assert field_table() in perudo_v1.__doc__
    assert f"({OBS_SIZE},) float32" in perudo_v1.__doc__


def test_docstring_example_plays_a_game(capsys):
    example = perudo_v1.__doc__.split("```python\n")[1].split("```")[0]
    exec(example, {})
    assert "wins" in capsys.readouterr().out.splitlines()[0]


# ---------------------------------------------------------------- the AEC protocol
@pytest.mark.parametrize("num_players", PLAYERS)
def test_a_game_pays_plus_one_to_the_winner_and_minus_one_to_the_rest(num_players):
    totals = play(perudo_v1.env(num_players=num_players, dice=2), seed=num_players)
    assert sorted(totals.values()) == [-1.0] * (num_players - 1) + [1.0]


def test_placement_rewards_follow_the_order_of_knock_outs():
    env = perudo_v1.env(num_players=4, dice=1, reward="placement")
    totals = play(env, seed=4)
    places = env.unwrapped.game.placements()
    expected = {f"player_{s}": 1 - 2 * (p - 1) / 3 for s, p in enumerate(places)}
    assert totals == pytest.approx(expected)


def test_only_the_agent_to_act_has_a_mask_and_it_is_the_engines_legal_actions():
    env = perudo_v1.env(num_players=3, dice=2)
    env.reset(seed=0)
    game = env.unwrapped.game
    for agent in env.possible_agents:
        mask = env.observe(agent)["action_mask"]
        if agent == env.agent_selection:
            assert np.flatnonzero(mask).tolist() == game.legal_actions()
            assert mask.dtype == np.int8 and mask.shape == (NUM_ACTIONS,)
        else:
            assert not mask.any()


def test_an_agent_observes_its_own_dice_and_nobody_elses():
    env = perudo_v1.env(num_players=3, dice=3)
    env.reset(seed=1)
    game = env.unwrapped.game
    for seat, agent in enumerate(env.possible_agents):
        np.testing.assert_array_equal(env.observe(agent)["observation"], encode(game, seat))
        mine = env.observe(agent)["observation"][:6] * 5
        assert np.rint(mine).tolist() == [game.hands[seat].count(f) for f in range(1, 7)]


def test_a_dudo_rolls_the_next_round_inside_step():
    env = perudo_v1.env(num_players=2, dice=2)
    env.reset(seed=2)
    game = env.unwrapped.game
    env.step(bid_action(1, 2))
    env.step(DUDO)
    assert game.round == 2 and not game.is_chance_node()
    assert env.agent_selection == f"player_{game.starter}"
    assert sum(len(h) for h in game.hands) == 3


# ---------------------------------------------------------------- the options pagadores_v1 has
MODES = ("stay", "leave")


def test_the_aec_env_takes_every_option_pagadores_v1_takes():
    import inspect

    from pagadores_env import pagadores_v1

    ours = inspect.signature(perudo_v1.raw_env).parameters
    theirs = inspect.signature(pagadores_v1.raw_env).parameters
    assert [name for name in theirs if name != "cards"] == [
        name for name in ours if name != "dice"]
    for name in theirs:
        if name not in ("cards", "num_players"):
            assert ours[name].default == theirs[name].default, name


@pytest.mark.parametrize("eliminated", MODES)
def test_P1_3_leave_mode_terminates_a_player_at_the_dudo_that_takes_its_last_die(eliminated):
    env = perudo_v1.env(num_players=3, dice=[1, 2, 2], eliminated=eliminated)
    seed = next(seed for seed in range(100)  # a roll on which five sixes is a false bid
                if (env.reset(seed=seed), count_matches(env.unwrapped.game.hands, 6,
                                                        False))[1] < 5)
    env.reset(seed=seed)
    env.step(bid_action(5, 6))  # seat 0 bids five sixes
    env.step(DUDO)  # seat 1 calls: seat 0 loses its only die and is out (P4.2, P1.3)
    game = env.unwrapped.game
    assert game.dice_counts[0] == 0 and game.winner is None
    if eliminated == "leave":
        assert env.terminations["player_0"] and env.agent_selection == "player_0"
        assert env.rewards["player_0"] == -1.0 and env.last()[1] == -1.0
        env.step(None)
        assert env.agents == ["player_1", "player_2"]
        assert env.agent_selection == f"player_{game.current_player}"
    else:
        assert not any(env.terminations.values()) and env.agents == env.possible_agents
        assert env.agent_selection == f"player_{game.current_player}"
        assert env.rewards == dict.fromkeys(env.possible_agents, 0.0)
    assert env.observe("player_0")["action_mask"].sum() == 0


@pytest.mark.parametrize("eliminated", MODES)
@pytest.mark.parametrize("scheme", ("win", "placement"))
def test_each_agent_is_paid_its_place_once_in_both_modes(scheme, eliminated):
    env = perudo_v1.env(num_players=4, dice=1, reward=scheme, eliminated=eliminated)
    for seed in range(6):
        totals = play(env, seed)
        places = env.unwrapped.game.placements()
        expected = {f"player_{s}": (1 - 2 * (p - 1) / 3 if scheme == "placement"
                                    else (1.0 if p == 1 else -1.0))
                    for s, p in enumerate(places)}
        assert totals == pytest.approx(expected)


def test_both_modes_play_the_same_game_for_the_same_seed_and_decisions():
    games = []
    for eliminated in MODES:
        env = perudo_v1.env(num_players=4, dice=2, eliminated=eliminated)
        play(env, seed=17)
        games.append(env.unwrapped.game)
    assert games[0] == games[1] and games[0].is_terminal()


@pytest.mark.parametrize("eliminated", MODES)
def test_a_seat_dealt_no_dice_is_out_from_the_start(eliminated):
    env = perudo_v1.env(num_players=3, dice=[2, 0, 2], eliminated=eliminated)
    env.reset(seed=3)
    assert not any(env.terminations.values())  # reset() terminates nobody (api_test)
    assert env.agent_selection == "player_0"
    env.step(bid_action(1, 2))
    if eliminated == "leave":  # terminated by the first step, then it leaves at once
        assert env.agent_selection == "player_1" and env.terminations["player_1"]
        assert env.last()[1] == -1.0
    else:
        assert env.agent_selection == "player_2" and not any(env.terminations.values())


@pytest.mark.parametrize("make", (perudo_v1.env, perudo_v1.raw_env))
@pytest.mark.parametrize("action", [DUDO, bid_action(30, 6), 181, True, 1.0], ids=repr)
def test_replace_mode_plays_the_first_legal_action_and_flags_it(make, action):
    env, twin = make(num_players=3, dice=2, illegal_action="replace"), make(num_players=3,
                                                                            dice=2)
    for e in (env, twin):
        e.reset(seed=6)
    agent = env.agent_selection
    assert env.infos[agent]["illegal_action"] is False
    env.step(action)
    twin.step(env.unwrapped.game.history[1])
    assert env.unwrapped.game.history[1] == bid_action(1, 2)  # the lowest opening bid
    assert env.unwrapped.game == twin.unwrapped.game
    assert env.infos[agent]["illegal_action"] is True
    assert not any(info["illegal_action"] for a, info in env.infos.items() if a != agent)
    while env.agent_selection != agent:
        env.step(env.unwrapped.game.legal_actions()[-1])
    assert env.last()[4]["illegal_action"] is True  # the flag lasts until the agent acts again
    env.step(env.unwrapped.game.legal_actions()[-1])
    assert env.infos[agent]["illegal_action"] is False


@pytest.mark.parametrize("eliminated", MODES)
@pytest.mark.parametrize("make", (perudo_v1.env, perudo_v1.raw_env))
def test_penalty_mode_ends_the_game_with_the_offender_at_minus_one(make, eliminated):
    env = make(num_players=4, dice=2, illegal_action="penalty", eliminated=eliminated)
    env.reset(seed=6)
    env.step(bid_action(1, 3))
    offender = env.agent_selection
    state = env.unwrapped.game.to_dict()
    env.step(bid_action(1, 2))  # does not raise the bid (P3.3)
    assert env.unwrapped.game.to_dict() == state
    assert all(env.terminations.values()) and not any(env.truncations.values())
    assert {a: info["illegal_action"] for a, info in env.infos.items()} == {
        a: a == offender for a in env.possible_agents}
    assert not env.observe(offender)["action_mask"].any()
    rewards = {}
    for agent in env.agent_iter():
        _, reward, terminated, _, _ = env.last()
        assert terminated
        rewards[agent] = reward
        env.step(None)
    assert rewards == {a: (-1.0 if a == offender else 0.0) for a in env.possible_agents}


@pytest.mark.parametrize("eliminated", MODES)
def test_default_infos_have_fixed_keys_and_shapes(eliminated):
    env = perudo_v1.env(num_players=4, dice=2, eliminated=eliminated)
    shapes = set()
    for seed in range(3):
        env.reset(seed=seed)
        pick = random.Random(seed)
        for _agent in env.agent_iter():
            obs, _, terminated, _, info = env.last()
            for each in (info, *env.infos.values()):
                shapes.add(tuple((k, np.shape(v), np.asarray(v).dtype.str)
                                 for k, v in sorted(each.items())))
            env.step(None if terminated else
                     pick.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    assert shapes == {(("illegal_action", (), "|b1"),)}


def test_info_mask_adds_the_mask_each_agent_will_act_with():
    env = perudo_v1.env(num_players=3, dice=2, info_mask=True)
    env.reset(seed=2)
    pick = random.Random(2)
    for agent in env.agent_iter():
        obs, _, terminated, _, _ = env.last()
        game = env.unwrapped.game
        for other, info in env.infos.items():
            assert info["action_mask"].dtype == np.int8
            assert info["action_mask"].shape == (NUM_ACTIONS,)
            if other == agent and not terminated:
                assert np.flatnonzero(info["action_mask"]).tolist() == game.legal_actions()
            else:
                assert not info["action_mask"].any()
        env.step(None if terminated else pick.choice(game.legal_actions()))


@pytest.mark.parametrize("eliminated", MODES)
def test_info_events_cover_every_engine_event_once_per_agent(eliminated):
    env = perudo_v1.env(num_players=4, dice=2, info_events=True, eliminated=eliminated)
    for seed in range(3):
        env.reset(seed=seed)
        pick = random.Random(seed)
        seen = {agent: [] for agent in env.possible_agents}
        log_at_exit = {}
        for agent in env.agent_iter():
            obs, _, terminated, _, info = env.last()
            seen[agent] += info["events"]
            if terminated:
                log_at_exit[agent] = list(env.unwrapped.game.log)
            env.step(None if terminated else
                     pick.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        for agent in env.possible_agents:
            assert seen[agent] == log_at_exit[agent]
        assert max(len(v) for v in log_at_exit.values()) == len(env.unwrapped.game.log)


# ---------------------------------------------------------------- bad input
@pytest.mark.filterwarnings("ignore:.*not in the possible render_modes:UserWarning")
@pytest.mark.parametrize(("kwargs", "named"), [
    ({"num_players": 1}, "num_players must be 2–6"),
    ({"num_players": 7}, "num_players must be 2–6"),
    ({"dice": 6}, "dice must be 1–5"),
    ({"dice": [5, 0]}, "dice per seat must be 2 numbers from 0 to 5"),
    ({"reward": "cash"}, "reward must be one of"),
    ({"illegal_action": "ignore"}, "illegal_action must be one of"),
    ({"render_mode": "video"}, "render_mode must be one of"),
])
def test_bad_arguments_raise_one_line_naming_the_argument(kwargs, named):
    for make in (perudo_v1.env, lambda **k: gymnasium.make("Perudo-v1", **k)):
        with pytest.raises(ValueError, match=named) as err:
            make(**kwargs)
        assert "\n" not in str(err.value)


@pytest.mark.parametrize("action", [DUDO, bid_action(1, 1), 181, -1, True, 1.0, None])
def test_an_illegal_action_raises_one_line_and_changes_nothing(action):
    env = perudo_v1.env(num_players=3, dice=2)
    env.reset(seed=3)
    before, selected = env.unwrapped.game.to_dict(), env.agent_selection
    with pytest.raises(IllegalMoveError, match=f"^{selected} played an illegal action") as err:
        env.step(action)
    assert "\n" not in str(err.value)
    assert env.unwrapped.game.to_dict() == before and env.agent_selection == selected


def test_after_the_game_last_and_step_say_reset_in_one_line():
    env = perudo_v1.env(num_players=2, dice=1)
    play(env, seed=5)
    for call in (env.last, lambda: env.step(DUDO)):
        with pytest.raises(IllegalMoveError, match="call reset") as err:
            call()
        assert "\n" not in str(err.value)


def test_a_terminated_agent_must_step_none():
    env = perudo_v1.env(num_players=2, dice=1)
    env.reset(seed=6)
    env.step(bid_action(1, 2))
    env.step(DUDO)  # one die each: this dudo ends the game
    assert all(env.terminations.values())
    with pytest.raises(IllegalMoveError, match="the only valid action is None"):
        env.step(DUDO)


def test_ansi_render_shows_the_public_table_only():
    env = perudo_v1.env(num_players=2, dice=2, render_mode="ansi")
    env.reset(seed=7)
    text = env.render()
    assert "round 1" in text and "player_1" in text and "revealed" not in text
    other = Game(2, 2)
    other.apply_roll([[6, 6], [6, 6]])  # other hidden dice, the same public position
    assert render_table(other) == text
    env.step(bid_action(1, 2))
    env.step(DUDO)
    assert "revealed" in env.render()  # after the dudo the dice are public (P7.2)


# ---------------------------------------------------------------- the Gymnasium env
def make(**kwargs):
    return gymnasium.make("Perudo-v1", **kwargs).unwrapped


def sb3_check_env(env):
    """SB3's checker, whose findings are warnings, with every warning an error."""
    pytest.importorskip("stable_baselines3")
    from stable_baselines3.common.env_checker import check_env

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env)


def test_gymnasium_and_sb3_env_checkers_pass_every_time_with_default_arguments(capsys):
    """Issue 45: both checkers step unmasked samples of ``action_space``, most of them bids
    the rules refuse; with the default ``illegal_action="replace"`` they are replaced, as
    Gymnasium's contract asks (every element of the space is a valid ``step`` argument).
    Before, with ``"raise"``, about 6 runs in 10 failed. 100 runs of each, every action
    space seeded differently."""
    for run in range(100):
        for check in (gym_check_env, sb3_check_env):
            env = gymnasium.make("Perudo-v1").unwrapped
            env.action_space.seed(run)
            check(env)
    capsys.readouterr()  # Gymnasium's render check prints the "human" mode's tables


@pytest.mark.parametrize("num_players", [4, 6])
def test_gymnasium_and_sb3_env_checkers_pass_at_larger_tables(num_players):
    for seed in range(5):
        for check in (lambda env: gym_check_env(env, skip_render_check=True), sb3_check_env):
            env = make(num_players=num_players, dice=1)
            env.action_space.seed(seed)
            check(env)


def test_gym_masks_are_the_learners_legal_actions_over_whole_episodes():
    env = make(num_players=3, dice=2, learner_seat=1)
    pick = random.Random(0)
    for seed in range(5):
        obs, info = env.reset(seed=seed)
        done = False
        while not done:
            game = env.game
            assert game.current_player == 1 and obs.shape == (OBS_SIZE,)
            assert np.flatnonzero(env.action_masks()).tolist() == game.legal_actions()
            np.testing.assert_array_equal(info["action_mask"], env.action_masks())
            np.testing.assert_array_equal(obs, encode(game, 1))
            action = pick.choice(game.legal_actions())
            obs, reward, done, truncated, info = env.step(action)
            assert not truncated
        assert reward == (1.0 if info["placement"] == 1 else -1.0)
        assert not env.action_masks().any()


def test_a_seeded_gym_env_repeats_exactly():
    def run(seed):
        env = make(num_players=4, dice=2, opponents="random")
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


@pytest.mark.parametrize("bad", [-1, "abc", True, 2.0, [1]])
def test_a_bad_seed_is_refused_in_one_line_and_the_game_goes_on(bad):
    """In both envs: one line naming the seed, and the game in play goes on as if the call
    had not been made."""
    def finish_aec(env):
        pick = random.Random(0)
        for agent in env.agent_iter():
            legal = np.flatnonzero(env.last()[0]["action_mask"]).tolist()
            env.step(None if env.terminations[agent] else pick.choice(legal))
        return env.unwrapped.game.history

    def finish_gym(env):
        pick, trace, done = random.Random(0), [], False
        while not done:
            obs, reward, done, _, _ = env.step(
                pick.choice(np.flatnonzero(env.action_masks()).tolist()))
            trace.append((obs.tobytes(), reward))
        return env.game.history, trace

    for new, finish in [(lambda: perudo_v1.env(num_players=3, dice=2), finish_aec),
                        (lambda: gymnasium.make("Perudo-v1", num_players=3, dice=2,
                                                opponents="random"),
                         lambda env: finish_gym(env.unwrapped))]:
        env, twin = new(), new()
        for each in (env, twin):
            each.reset(seed=8)
        with pytest.raises(ValueError) as refused:
            env.reset(seed=bad)
        assert str(refused.value) == f"seed must be None or an integer ≥ 0, got {bad!r}"
        assert finish(env) == finish(twin)


def test_gym_illegal_action_modes():
    env = make(num_players=2, dice=2, learner_seat=0, illegal_action="raise")
    env.reset(seed=1)
    before = env.game.to_dict()
    with pytest.raises(IllegalMoveError, match=r"^the learner \(seat 0\) played an illegal") as err:
        env.step(DUDO)  # no bid to call yet (P2.3)
    assert "\n" not in str(err.value) and env.game.to_dict() == before
    for env in (make(num_players=2, dice=2, learner_seat=0, illegal_action="replace"),
                make(num_players=2, dice=2, learner_seat=0)):  # "replace" is the default
        env.reset(seed=1)
        *_, info = env.step(DUDO)
        assert info["illegal_action"] and env.game.history[1] == bid_action(1, 2)  # lowest bid
        *_, info = env.step(env.game.legal_actions()[0])
        assert not info["illegal_action"]  # only the step that was replaced is flagged
    env = make(num_players=2, dice=2, learner_seat=0, illegal_action="penalty")
    env.reset(seed=1)
    _, reward, done, _, info = env.step(DUDO)
    assert (reward, done, info["placement"], info["illegal_action"]) == (-1.0, True, 2, True)


def test_step_after_the_episode_says_reset():
    env = make(num_players=2, dice=1, learner_seat=0)
    env.reset(seed=0)
    done = False
    while not done:
        _, _, done, _, _ = env.step(env.game.legal_actions()[0])
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(DUDO)


# ---------------------------------------------------------------- pictures (rgb_array)
def test_aec_rgb_array_shows_the_dice_of_the_seat_to_act_at_every_step():
    env = perudo_v1.env(num_players=3, dice=2, render_mode="rgb_array")
    assert "rgb_array" in env.metadata["render_modes"]
    pick = random.Random(0)
    env.reset(seed=0)
    frames = 0
    for _agent in env.agent_iter():
        game = env.unwrapped.game
        to_act = [game.current_player] if game.current_player >= 0 else []
        frame = env.render()
        assert frame.shape == (HEIGHT, WIDTH, 3) and frame.dtype == np.uint8
        assert np.array_equal(frame, draw(game, env.possible_agents, shown=to_act))
        frames += 1
        obs, _, terminated, _, _ = env.last()
        env.step(None if terminated else pick.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    assert frames > 5


def test_gym_rgb_array_shows_the_learners_dice_and_names_its_seat():
    env = gymnasium.make("Perudo-v1", num_players=3, dice=2, render_mode="rgb_array")
    assert env.metadata["render_modes"] == ["human", "ansi", "rgb_array"]
    pick = random.Random(1)
    _, info = env.reset(seed=1)
    ended, frames = False, []
    while not ended:
        unwrapped = env.unwrapped
        seat = unwrapped.seat
        names = [f"player_{s}" + (" (learner)" if s == seat else "") for s in range(3)]
        frames.append(env.render())
        assert np.array_equal(frames[-1], draw(unwrapped.game, names, shown=[seat]))
        _, _, ended, _, info = env.step(pick.choice(np.flatnonzero(info["action_mask"]).tolist()))
    assert len({frame.tobytes() for frame in frames}) == len(frames)


def colours(frame: np.ndarray) -> int:
    """How many colours an RGB frame has."""
    return len(np.unique(frame.astype(np.uint32) @ np.array([1 << 16, 1 << 8, 1], np.uint32)))


def test_render_collection_gathers_every_frame_of_an_episode():
    """``RecordVideo`` needs moviepy, which none of this package's extras installs; the
    frames it records come from ``render()`` at every step, as Gymnasium's
    ``RenderCollection`` gathers them here."""
    from gymnasium.wrappers import RenderCollection

    env = RenderCollection(gymnasium.make("Perudo-v1", num_players=2, dice=2,
                                          render_mode="rgb_array"))
    pick = random.Random(2)
    _, info = env.reset(seed=2)
    steps, ended = 0, False
    while not ended:
        _, _, ended, _, info = env.step(pick.choice(np.flatnonzero(info["action_mask"]).tolist()))
        steps += 1
    frames = env.render()
    assert len(frames) == steps + 1
    assert all(f.shape == (HEIGHT, WIDTH, 3) and f.dtype == np.uint8 for f in frames)
    assert all(colours(f) > 50 for f in frames)  # pictures, not blanks


def test_record_video_records_the_frames_of_each_episode(tmp_path, monkeypatch):
    """Gymnasium's ``RecordVideo`` records our frames: moviepy, which encodes them and which
    no extra of this package installs, is stood in for by a clip that keeps the frames and
    writes them as a NumPy file where the video goes."""
    import sys
    import types

    written = {}

    class Clip:  # moviepy's ImageSequenceClip, as far as RecordVideo uses it
        def __init__(self, frames, fps):
            self.frames, self.fps = list(frames), fps

        def write_videofile(self, path, logger=None):
            written[path] = (np.stack(self.frames), self.fps)
            (tmp_path / "written").touch()

    clip_module = types.ModuleType("moviepy.video.io.ImageSequenceClip")
    clip_module.ImageSequenceClip = Clip
    for name in ("moviepy", "moviepy.video", "moviepy.video.io"):
        monkeypatch.setitem(sys.modules, name, types.ModuleType(name))
    monkeypatch.setitem(sys.modules, "moviepy.video.io.ImageSequenceClip", clip_module)
    from gymnasium.wrappers import RecordVideo

    env = RecordVideo(gymnasium.make("Perudo-v1", num_players=2, dice=1,
                                     render_mode="rgb_array"),
                      str(tmp_path / "videos"), episode_trigger=lambda episode: True)
    pick = random.Random(3)
    for episode in range(2):
        _, info = env.reset(seed=episode)
        ended = False
        while not ended:
            _, _, ended, _, info = env.step(
                pick.choice(np.flatnonzero(info["action_mask"]).tolist()))
    env.close()
    assert sorted(os.path.basename(path) for path in written) == [
        "rl-video-episode-0.mp4", "rl-video-episode-1.mp4"]
    for frames, fps in written.values():
        assert frames.shape[1:] == (HEIGHT, WIDTH, 3) and frames.dtype == np.uint8
        assert len(frames) >= 2 and fps == 2


def test_sb3_make_vec_env_builds_perudo_with_its_default_rgb_array():
    """SB3's ``make_vec_env`` asks for ``render_mode="rgb_array"``: the envs are built, play,
    and ``get_images`` gives each one's picture."""
    pytest.importorskip("stable_baselines3")
    from stable_baselines3.common.env_util import make_vec_env

    vec = make_vec_env("Perudo-v1", n_envs=2, seed=0, env_kwargs={"dice": 2})
    try:
        play_vec_env(vec)
    finally:
        vec.close()


def play_vec_env(vec) -> None:
    """Masked random actions for 60 steps; every picture of the table is one."""
    obs = vec.reset()
    assert obs.shape == (2, OBS_SIZE)
    rng, ended = np.random.default_rng(0), 0
    for _ in range(60):
        masks = np.stack(vec.env_method("action_masks"))
        actions = np.array([rng.choice(np.flatnonzero(mask)) for mask in masks])
        obs, rewards, dones, _ = vec.step(actions)
        assert set(rewards[~dones]) <= {0.0} and set(rewards[dones]) <= {-1.0, 1.0}
        ended += dones.sum()
    assert ended > 0
    images = vec.get_images()
    assert len(images) == 2 and all(i.shape == (HEIGHT, WIDTH, 3) for i in images)


@pytest.mark.slow
def test_sb3_make_vec_env_with_subprocess_workers():
    """Under ``SubprocVecEnv`` (forkserver workers) the ``module:id`` form imports the
    package, which registers the id, in each worker."""
    pytest.importorskip("stable_baselines3")
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.vec_env import SubprocVecEnv

    vec = make_vec_env("pagadores_env:Perudo-v1", n_envs=2, seed=0, env_kwargs={"dice": 2},
                       vec_env_cls=SubprocVecEnv)
    try:
        play_vec_env(vec)
    finally:
        vec.close()


# ---------------------------------------------------------------- the random policy
def test_perudo_players_have_a_registry_namespace_of_their_own():
    from pagadores_env.perudo.policies import RandomPolicy

    assert registered_policies(game="perudo") == ["bluffer", "model", "probabilistic", "random"]
    assert "random" in registered_policies() and "sensible" in registered_policies()
    assert isinstance(make_policy("random", game="perudo"), RandomPolicy)
    assert not isinstance(make_policy("random"), RandomPolicy)  # Pagadores' own
    policy = make_policy("random", game="perudo", seed=0)
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    mask[[0, 7, 40]] = 1
    drawn = {policy.act(np.zeros(OBS_SIZE, np.float32), mask) for _ in range(200)}
    assert drawn == {0, 7, 40}
    with pytest.raises(ValueError, match="game must be one of 'pagadores', 'perudo'"):
        make_policy("random", game="chess")


def test_a_pagadores_player_is_no_perudo_opponent():
    with pytest.raises(ValueError, match="unknown policy of perudo 'sensible'; known: "
                                         "bluffer, model, probabilistic, random"):
        make(num_players=2, opponents=["sensible"])


def test_the_bids_field_gives_the_rounds_bid_sequence_in_order():
    env = perudo_v1.env(num_players=4, dice=3)
    pick = random.Random(8)
    env.reset(seed=8)
    checked = 0
    for _agent in env.agent_iter():
        obs, _, terminated, _, _ = env.last()
        if terminated:
            env.step(None)
            continue
        game = env.unwrapped.game
        made = (np.flatnonzero(obs["observation"][SLICES["bids"]]) + 1).tolist()
        in_order = sorted(made, key=lambda a: bid_order(a, game.palifico))
        assert in_order == game.bids
        checked += len(made) > 1
        env.step(pick.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    assert checked > 10


def test_decode_reads_back_what_encode_wrote_from_every_seat():
    rng = np.random.default_rng(0)
    for _ in range(60):
        n = int(rng.integers(2, 7))
        game, faces = Game(n, int(rng.integers(1, 6))), FaceStream(rng)
        while not game.is_terminal():
            if game.is_chance_node():
                game.apply_roll(faces.roll(game.dice_counts))
                continue
            rows = decode(np.stack([encode(game, seat) for seat in range(n)]))
            for seat in range(n):
                seen = ObsFields(*(field[seat] for field in rows))
                slot_of = [(seat + k) % n for k in range(n)]  # slot → seat
                assert seen.players == n and seen.total == sum(game.dice_counts)
                assert seen.palifico == game.palifico and seen.bid == game.bid_action
                assert slot_of[seen.starter] == game.starter
                bidder = -1 if seen.bidder < 0 else slot_of[seen.bidder]
                assert bidder == game.bidder
                assert list(seen.dice[:n]) == [game.dice_counts[s] for s in slot_of]
                assert list(seen.last_bids[:n]) == [game.last_bids[s] for s in slot_of]
                assert sorted(np.flatnonzero(seen.bids) + 1) == sorted(game.bids)
                hand = game.hands[seat]
                assert list(seen.my_dice) == [hand.count(face) for face in range(1, 7)]
                if game.revealed is not None:
                    assert [list(seen.revealed[k]) for k in range(n)] == [
                        [game.revealed[s].count(face) for face in range(1, 7)] for s in slot_of]
            legal = game.legal_actions()
            game.apply_action(int(legal[rng.integers(len(legal))]))
    with pytest.raises(ValueError, match=f"an observation must have {OBS_SIZE} values"):
        decode(np.zeros(3))
