"""The single-agent Gymnasium environment ``Pagadores-v1`` (pagadores_env.pagadores.gym_env)."""

from __future__ import annotations

import pickle
import re
import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env as gym_check_env
from gymnasium.wrappers import RecordVideo, RenderCollection

import pagadores_env  # noqa: F401  (registers Pagadores-v1)
from pagadores_env.core.errors import IllegalMoveError
from pagadores_env.core.rewards import final_reward, placement_reward
from pagadores_env.pagadores import picture
from pagadores_env.pagadores.gym_env import MAX_SILENT_GAMES, PagadoresGymEnv
from pagadores_env.pagadores.observation import OBS_SIZE, encode
from pagadores_env.pagadores.render import render_table
from tests.readme import readme_snippets


def make(**kwargs) -> PagadoresGymEnv:
    return gym.make("Pagadores-v1", **kwargs).unwrapped


def rollout(env: PagadoresGymEnv, seed: int, actions: np.random.Generator, episodes: int = 3):
    """Every (obs, reward, terminated, info) of a few seeded episodes with random actions."""
    trace = []
    obs, info = env.reset(seed=seed)
    trace.append((obs, 0.0, False, info))
    done_episodes = 0
    while done_episodes < episodes:
        obs, reward, terminated, truncated, info = env.step(int(actions.integers(2)))
        assert not truncated
        trace.append((obs, reward, terminated, info))
        if terminated:
            done_episodes += 1
            obs, info = env.reset()
            trace.append((obs, 0.0, False, info))
    return trace


def assert_same_trace(a, b):
    assert len(a) == len(b)
    for (o1, r1, t1, i1), (o2, r2, t2, i2) in zip(a, b, strict=True):
        np.testing.assert_array_equal(o1, o2)
        assert (r1, t1, i1["events"], i1["learner_seat"]) == (r2, t2, i2["events"],
                                                              i2["learner_seat"])
        np.testing.assert_array_equal(i1["action_mask"], i2["action_mask"])


# ---------------------------------------------------------------- API conformance
@pytest.mark.parametrize("num_players", [2, 4, 6])
def test_env_checkers_pass(num_players):
    pytest.importorskip("stable_baselines3")
    from stable_baselines3.common.env_checker import check_env as sb3_check_env

    opponents = ["sensible", "random"] * 3
    env = make(num_players=num_players, opponents=opponents[:num_players - 1])
    gym_check_env(env, skip_render_check=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # SB3's checker reports problems as warnings
        sb3_check_env(make(num_players=num_players, opponents=["lookahead"]))


def test_spaces_and_observation_are_the_aec_vector():
    env = make(num_players=3, opponents=["sensible"], learner_seat=2)
    obs, info = env.reset(seed=3)
    assert env.observation_space.shape == (OBS_SIZE,) and env.action_space.n == 2
    assert obs.dtype == np.float32
    np.testing.assert_array_equal(obs, encode(env.game, 2))
    assert env.game.current_player == 2 and env.game.is_decision_node()


# ---------------------------------------------------------------- determinism and pickling
def test_seeded_runs_repeat_exactly_and_seeds_matter():
    env_a, env_b = (make(num_players=3, opponents=["random"], info_events=True)
                    for _ in range(2))
    trace = rollout(env_a, 11, np.random.default_rng(0))
    assert_same_trace(trace, rollout(env_b, 11, np.random.default_rng(0)))
    assert_same_trace(trace, rollout(env_a, 11, np.random.default_rng(0)))  # reset(seed) again
    other = rollout(env_b, 12, np.random.default_rng(0))
    assert [t[3]["events"] for t in other] != [t[3]["events"] for t in trace]


def test_pickled_env_continues_identically():
    env = make(num_players=4, opponents=["random", "sensible", "lookahead"], info_events=True)
    env.reset(seed=5)
    env.step(1)
    twin = pickle.loads(pickle.dumps(env))
    assert_same_trace(rollout_from_here(env), rollout_from_here(twin))


def rollout_from_here(env, steps: int = 60):
    trace, rng = [], np.random.default_rng(1)
    for _ in range(steps):
        obs, reward, terminated, _, info = env.step(int(rng.integers(2)))
        trace.append((obs, reward, terminated, info))
        if terminated:
            env.reset()
    return trace


#: Seeds every env refuses: negative, not integers, a bool (an int to Python, not a seed).
BAD_SEEDS = [-1, "abc", True, 2.0, [1]]


@pytest.mark.parametrize("bad", BAD_SEEDS)
def test_a_bad_seed_is_refused_in_one_line_and_the_game_goes_on(bad):
    env, twin = (gym.make("Pagadores-v1", num_players=3, opponents=["random", "sensible"],
                          info_events=True) for _ in range(2))
    for each in (env, twin):
        each.reset(seed=4)
    with pytest.raises(ValueError) as refused:
        env.reset(seed=bad)
    assert str(refused.value) == f"seed must be None or an integer ≥ 0, got {bad!r}"
    assert_same_trace(rollout_from_here(env.unwrapped), rollout_from_here(twin.unwrapped))


def test_a_numpy_integer_seed_seeds_as_the_same_int():
    env, twin = (make(num_players=3, opponents=["random"], info_events=True) for _ in range(2))
    assert_same_trace(rollout(env, np.int64(11), np.random.default_rng(0)),
                      rollout(twin, 11, np.random.default_rng(0)))


@pytest.mark.slow
def test_subproc_vec_env_smoke():
    pytest.importorskip("stable_baselines3")
    from stable_baselines3.common.vec_env import SubprocVecEnv

    # "module:id" makes gymnasium import the package (so the id is registered) in each worker,
    # which the default forkserver start method needs.
    vec = SubprocVecEnv([lambda: gym.make("pagadores_env:Pagadores-v1",
                                          opponents=["sensible"])] * 2)
    try:
        vec.seed(0)
        obs = vec.reset()
        assert obs.shape == (2, OBS_SIZE)
        for _ in range(50):
            masks = np.stack(vec.env_method("action_masks"))
            assert masks.shape == (2, 2) and masks.all()
            obs, rewards, dones, infos = vec.step(np.array([1, 0]))
            assert set(rewards[~dones]) <= {0.0} and set(rewards[dones]) <= {-1.0, 1.0}
    finally:
        vec.close()


def test_maskable_ppo_can_train_a_few_steps():
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO

    model = MaskablePPO("MlpPolicy", make(opponents=["random"]), n_steps=64, batch_size=32,
                        n_epochs=1, seed=0, device="cpu")
    model.learn(64)
    assert model.num_timesteps >= 64


#: How the README's Gymnasium snippet says a mask is read, in its code or its comments.
MASK_READS = re.compile(r'[\w.]*action_masks\(\w*\)|info\["action_mask"\]')


@pytest.mark.slow
def test_the_readmes_gymnasium_snippet_runs_and_every_mask_read_it_names_works():
    """The README's snippet (trained a few hundred steps) runs, and each way it names to
    read a mask gives the mask on its ``gym.make`` env, wrappers and all."""
    pytest.importorskip("sb3_contrib")
    import torch
    from sb3_contrib.common.maskable.utils import get_action_masks

    (snippet,) = [s for s in readme_snippets() if 'gym.make("Pagadores-v1"' in s]
    reads = set(MASK_READS.findall(snippet))
    assert reads, "the snippet names no way to read a mask"
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # as the wheel test runs the snippets: the network is tiny
    try:
        names: dict = {}
        exec(compile(snippet, "README.md", "exec"), names)
    finally:
        torch.set_num_threads(threads)
    env = names["env"]
    assert isinstance(env, gym.Wrapper)  # what gym.make gives, not the env itself
    _, info = env.reset(seed=1)
    for read in reads:
        mask = eval(read, {"env": env, "info": info, "get_action_masks": get_action_masks})
        np.testing.assert_array_equal(mask, env.unwrapped.action_masks(), err_msg=read)


# ---------------------------------------------------------------- episodes, rewards, info
def test_info_events_concatenate_to_the_whole_game_log_and_masks_agree():
    env = make(num_players=3, opponents=["random"], learner_seat=1, info_events=True)
    obs, info = env.reset(seed=2)
    seen = list(info["events"])
    rng = np.random.default_rng(2)
    terminated = False
    while not terminated:
        np.testing.assert_array_equal(info["action_mask"], env.action_masks())
        assert info["action_mask"].tolist() == [1, 1]
        obs, reward, terminated, _, info = env.step(int(rng.integers(2)))
        seen += info["events"]
    assert seen == env.game.log
    assert env.action_masks().tolist() == [0, 0] == info["action_mask"].tolist()


def test_episode_ends_when_the_learner_is_knocked_out():  # R1.4
    env = make(num_players=4, cards=2, opponents=["sensible"], learner_seat=0)
    rng = np.random.default_rng(0)
    early_exits = 0
    for episode in range(40):
        env.reset(seed=episode)
        terminated = False
        while not terminated:
            _, reward, terminated, _, info = env.step(int(rng.integers(2)))
            if not terminated:
                assert reward == 0.0 and env.game.cards[0] > 0
        game = env.game
        assert game.cards[0] == 0 or game.is_terminal()
        assert info["placement"] == game.placements()[0]
        assert reward == (1.0 if game.winner == 0 else -1.0)
        early_exits += not game.is_terminal()
        with pytest.raises(RuntimeError, match="call reset"):
            env.step(0)
    assert early_exits > 0, "some episodes must end before the game does"


def test_placement_reward_matches_the_shared_mapping():
    env = make(num_players=4, cards=1, opponents=["random"], reward="placement")
    rng = np.random.default_rng(3)
    rewards = set()
    for episode in range(60):
        env.reset(seed=episode)
        terminated = False
        while not terminated:
            _, reward, terminated, _, info = env.step(int(rng.integers(2)))
        places = env.game.placements()
        place = places[env.seat]
        assert reward == final_reward("placement", place, 4, places.count(place))
        rewards.add(reward)
    assert len(rewards) >= 3  # several places reached, so the mapping is exercised


def test_reward_schemes_by_hand():
    assert [placement_reward(p, 1, 4) for p in (1, 2, 3, 4)] == pytest.approx(
        [1, 1 / 3, -1 / 3, -1])
    assert placement_reward(3, 2, 4) == pytest.approx(-2 / 3)  # places 3 and 4 shared
    assert final_reward("win", 1, 6) == 1.0 and final_reward("win", 2, 6) == -1.0
    assert final_reward("placement", 2, 2) == final_reward("win", 2, 2) == -1.0


@pytest.mark.parametrize("num_players", [2, 3])
def test_info_has_the_same_keys_and_shapes_at_every_step(num_players):
    """Replay buffers stack infos: no key comes or goes, ``placement`` is 0 until the end."""
    env = make(num_players=num_players, cards=2, opponents=["random"])
    rng = np.random.default_rng(4)
    shapes = set()
    for episode in range(10):
        _, info = env.reset(seed=episode)
        infos = [info]
        terminated = False
        while not terminated:
            _, _, terminated, _, info = env.step(int(rng.integers(2)))
            infos.append(info)
        assert [i["placement"] for i in infos[:-1]] == [0] * (len(infos) - 1)
        assert infos[-1]["placement"] == env.game.placements()[env.seat] >= 1
        shapes |= {tuple((k, np.shape(v), np.asarray(v).dtype.kind) for k, v in i.items())
                   for i in infos}
    assert shapes == {(("action_mask", (2,), "i"), ("learner_seat", (), "i"),
                       ("illegal_action", (), "b"), ("placement", (), "i"))}


# ---------------------------------------------------------------- illegal actions
@pytest.mark.parametrize("action", [2, -1, 0.5, 1.0, np.float32(1), "1", None, True,
                                    np.bool_(False), np.array([1])], ids=repr)
def test_illegal_action_raise_gives_the_engine_message_and_changes_nothing(action):
    env = make(opponents=["random"])
    env.reset(seed=0)
    before = env.game.to_dict()
    with pytest.raises(IllegalMoveError) as err:
        env.step(action)
    engine_says = str(err.value).split(": ", 1)[1]
    assert str(err.value) == (f"the learner (seat {env.seat}) played an illegal action: "
                              f"{engine_says}")
    assert engine_says.startswith("action must be 0 (stop) or 1 (throw again) as an integer, "
                                  f"got {action!r}")
    assert env.game.to_dict() == before
    env.step(np.array(1))  # still playable, with a 0-d integer array (a policy's predict)


def test_illegal_action_replace_plays_the_first_legal_action():
    env, twin = (make(illegal_action="replace", info_events=True) for _ in range(2))
    env.reset(seed=4)
    twin.reset(seed=4)
    obs, reward, terminated, _, info = env.step(7)
    expected = twin.step(0)
    assert info["illegal_action"] is True and expected[4]["illegal_action"] is False
    np.testing.assert_array_equal(obs, expected[0])
    assert info["events"] == expected[4]["events"]


def test_illegal_action_penalty_ends_the_episode():
    env = make(num_players=3, illegal_action="penalty")
    env.reset(seed=4)
    _, reward, terminated, truncated, info = env.step(True)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    assert info["placement"] == 3  # a forfeit is last (it read as 1, the winner's place)


# ---------------------------------------------------------------- rendering
def test_render_modes_pass_gymnasiums_render_check():
    for mode in ("rgb_array", "ansi"):
        gym_check_env(make(render_mode=mode))  # the render check included


def test_rgb_array_frames_of_an_episode_follow_the_game():
    env = RenderCollection(gym.make("Pagadores-v1", num_players=3, render_mode="rgb_array",
                                    opponents=["random"], learner_seat=1))
    env.reset(seed=5)
    games = [env.unwrapped.game.clone()]
    rng = np.random.default_rng(0)
    terminated = False
    while not terminated:
        _, _, terminated, _, _ = env.step(int(rng.integers(2)))
        games.append(env.unwrapped.game.clone())
    frames = env.render()
    names = ["player_0", "player_1 (learner)", "player_2"]
    assert len(frames) == len(games) > 2
    for frame, game in zip(frames, games, strict=True):
        assert frame.dtype == np.uint8 and frame.shape == (picture.HEIGHT, picture.WIDTH, 3)
        assert np.array_equal(frame, picture.draw(game, names))
    assert len({frame.tobytes() for frame in frames}) == len(frames)


def test_record_video_accepts_the_env(tmp_path):
    """RecordVideo needs moviepy, which is not a dependency: without it, the env must get
    past every check of RecordVideo's own (render mode, fps) up to that import."""
    env = gym.make("Pagadores-v1", render_mode="rgb_array", opponents=["random"])
    try:
        import moviepy  # noqa: F401
    except ImportError:
        with pytest.raises(gym.error.DependencyNotInstalled, match="(?i)moviepy"):
            RecordVideo(env, str(tmp_path / "videos"), episode_trigger=lambda _: True)
        return
    recorder = RecordVideo(env, str(tmp_path / "videos"), episode_trigger=lambda _: True)
    recorder.reset(seed=0)
    terminated = False
    while not terminated:
        _, _, terminated, _, _ = recorder.step(1)
    recorder.close()
    assert list((tmp_path / "videos").glob("*.mp4"))


def test_ansi_and_human_show_the_table(capsys):
    env = make(render_mode="ansi", opponents=["random"])
    env.reset(seed=1)
    assert env.render() == render_table(env.game)
    human = make(render_mode="human", opponents=["random"])
    human.reset(seed=1)
    human.step(0)
    printed = capsys.readouterr().out
    assert printed.count("seat       cards") == 2  # after reset() and after step()
    assert render_table(human.game) in printed


def test_render_without_a_render_mode_says_so_in_one_line():
    env = make()
    env.reset(seed=0)
    with pytest.warns(UserWarning) as caught:
        assert env.render() is None
    [warning] = caught
    assert "\n" not in str(warning.message) and "render_mode='ansi'" in str(warning.message)
    with pytest.raises(RuntimeError, match=r"^render\(\): there is no game yet; call reset"):
        make(render_mode="ansi").render()


# ---------------------------------------------------------------- options and their errors
@pytest.mark.parametrize(("kwargs", "message"), [
    ({"num_players": 7}, "num_players must be 2–6"),
    ({"cards": 11}, "cards must be 1–10"),
    ({"num_players": 4, "opponents": ["random", "random"]},
     "opponents must be one policy per other seat \\(3 for 4 players\\) or a single one "
     "shared by all of them, got 2"),
    ({"opponents": ["nosuch"]}, "unknown policy 'nosuch'"),
    ({"learner_seat": 2}, "learner_seat must be 'random' or a seat 0–1, got 2"),
    ({"reward": "money"}, "reward must be one of 'win', 'placement'"),
    ({"illegal_action": "ignore"}, "illegal_action must be one of 'raise', 'replace'"),
    ({"render_mode": "video"},
     "render_mode must be one of None, 'ansi', 'human', 'rgb_array', got 'video'"),
    ({"info_events": "yes"}, "info_events must be one of False, True, got 'yes'"),
    ({"cards": [3, 4, 5]}, "cards per seat must be 2 numbers"),
])
def test_bad_options_give_clear_errors(kwargs, message):
    with pytest.raises(ValueError, match=message):
        PagadoresGymEnv(**kwargs)


def test_opponents_one_per_seat_or_one_reused():
    env = make(num_players=4, opponents=["random", "sensible", "lookahead"], learner_seat=1)
    env.reset(seed=0)
    assert [p.name for p in (env._policy_of[s] for s in (0, 2, 3))] == [
        "random", "sensible", "lookahead"]
    for single in ("random", ["random"]):
        shared = make(num_players=4, opponents=single)
        assert len(shared.opponents) == 3
        assert len({id(p) for p in shared.opponents}) == 1  # one object in every other seat


def test_seeded_gym_env_and_vec_env_seed_their_opponents_alike():
    """``reset(seed)`` of the Gym env and ``PagadoresVecEnv(seed=...)`` give each distinct
    opponent object the same seed (``opponents.reseed_opponents``), so both draw the same
    opponents' randomness; a shared opponent is seeded once."""
    pytest.importorskip("stable_baselines3")
    from pagadores_env.core.policies import BasePolicy
    from pagadores_env.pagadores.vec_env import PagadoresVecEnv

    class Recorder(BasePolicy):
        def __init__(self) -> None:
            super().__init__()
            self.seeds: list[int] = []

        def reset(self, seed: int | None = None) -> None:
            self.seeds.append(seed)
            super().reset(seed)

        def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
            return int(self.rng.integers(2))

    for count in (1, 3):  # one shared opponent, or one per other seat
        gym_opponents = [Recorder() for _ in range(count)]
        vec_opponents = [Recorder() for _ in range(count)]
        PagadoresGymEnv(num_players=4, opponents=gym_opponents).reset(seed=7)
        PagadoresVecEnv(3, num_players=4, opponents=vec_opponents, seed=7)
        gym_seeds = [p.seeds for p in gym_opponents]
        assert gym_seeds == [p.seeds for p in vec_opponents]
        assert all(len(seeds) == 1 for seeds in gym_seeds)  # a shared one is seeded once
        assert len({seeds[0] for seeds in gym_seeds}) == count  # distinct streams


def test_fixed_and_random_learner_seats():
    assert {make(learner_seat=1).reset(seed=s)[1]["learner_seat"] for s in range(5)} == {1}
    seats = {make(num_players=3).reset(seed=s)[1]["learner_seat"] for s in range(30)}
    assert seats == {0, 1, 2}


def test_reset_skips_games_without_a_learner_decision():
    # One card each, the opponent insteeks first and never throws again: as seat 1 the
    # learner then never decides (limit 1, R3.2), as seat 0 it does; reset must land on one.
    env = make(cards=1, opponents=["stop-first"])
    for seed in range(20):
        env.reset(seed=seed)
        assert env.game.current_player == env.seat == 0 and env.game.is_decision_node()


def test_reset_gives_up_when_the_learner_can_never_decide():
    env = make(cards=1, opponents=["stop-first"], learner_seat=1)
    with pytest.raises(RuntimeError, match=f"no decision in {MAX_SILENT_GAMES} games"):
        env.reset(seed=0)
