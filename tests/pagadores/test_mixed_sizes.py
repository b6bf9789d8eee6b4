"""One policy for every table size: ``num_players`` as a list of sizes in ``Pagadores-v1``
(``pagadores_env.pagadores.gym_env``) and ``PagadoresVecEnv`` (issue 11)."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from gymnasium.utils.env_checker import check_env as gym_check_env
from sb3_contrib import MaskablePPO

from pagadores_env.core.rewards import final_reward
from pagadores_env.pagadores.gym_env import PagadoresGymEnv
from pagadores_env.pagadores.observation import decode
from pagadores_env.pagadores.vec_env import PagadoresVecEnv

ALL_SIZES = [2, 3, 4, 5, 6]


def random_steps(env: PagadoresVecEnv, steps: int, seed: int = 0):
    """``steps`` steps of random learner actions; yields each step's return."""
    for action in np.random.default_rng(seed).integers(0, 2, (steps, env.num_envs)):
        yield env.step(action)


def ended_infos(env: PagadoresVecEnv, steps: int) -> list[dict]:
    return [info for _, _, _, infos in random_steps(env, steps) for info in infos
            if "placement" in info]


def waits_for_learner(env: PagadoresVecEnv) -> bool:
    """Every slot waits at its learner's decision, in the engine of its own size."""
    seen = np.zeros(env.num_envs, int)
    for n, game in env.games.items():
        rows = np.flatnonzero(env.size == n)
        seen[rows] += 1
        if not (game.decision[rows] & (game.seat[rows] == env.learner[rows])).all():
            return False
    return bool((seen == 1).all())


# ---------------------------------------------------------------- the draws
def test_each_game_draws_its_size_uniformly_and_by_seed() -> None:
    env = PagadoresGymEnv(num_players=ALL_SIZES, opponents="random")
    env.reset(seed=0)
    sizes = [env.num_players] + [env.reset()[1] and env.num_players for _ in range(999)]
    counts = np.bincount(sizes, minlength=7)[2:]
    assert counts.sum() == 1000 and counts.min() > 150 and counts.max() < 250  # 200 ± 4 sd
    again = PagadoresGymEnv(num_players=ALL_SIZES, opponents="random")
    again.reset(seed=0)
    assert [again.num_players] + [again.reset()[1] and again.num_players
                                  for _ in range(99)] == sizes[:100]
    again.reset(seed=1)
    assert [again.num_players] + [again.reset()[1] and again.num_players
                                  for _ in range(99)] != sizes[:100]


def test_a_size_listed_twice_is_drawn_twice_as_often() -> None:
    env = PagadoresVecEnv(900, num_players=[2, 2, 5], opponents="random", seed=3)
    assert env.sizes == (2, 2, 5) and env.num_players == (2, 2, 5)
    assert set(env.size.tolist()) == {2, 5}
    assert 540 < (env.size == 2).sum() < 660  # 600 ± 4 sd


def test_vec_env_sizes_follow_the_seed() -> None:
    first = PagadoresVecEnv(300, num_players=ALL_SIZES, opponents="random", seed=4)
    same = PagadoresVecEnv(300, num_players=ALL_SIZES, opponents="random", seed=4)
    other = PagadoresVecEnv(300, num_players=ALL_SIZES, opponents="random", seed=5)
    np.testing.assert_array_equal(first.size, same.size)
    assert (first.size != other.size).any()
    assert set(first.size.tolist()) == set(ALL_SIZES)
    assert all(first.learner[first.size == n].max() < n for n in ALL_SIZES)
    first.seed(5)  # as SB3 seeds a VecEnv: the next reset starts over from the seed
    first.reset()
    np.testing.assert_array_equal(first.size, other.size)


def test_a_seeded_run_repeats_with_its_sizes() -> None:
    runs = []
    for _ in range(2):
        env = PagadoresVecEnv(8, num_players=ALL_SIZES, cards=3, opponents="random", seed=6)
        trace = [env.reset()]
        for obs, rewards, dones, infos in random_steps(env, 200):
            trace += [obs, rewards, dones, env.size.copy(),
                      np.array([i.get("num_players", 0) for i in infos])]
        runs.append(trace)
    for a, b in zip(*runs, strict=True):
        np.testing.assert_array_equal(a, b)


def test_a_seeded_gym_env_and_one_game_vec_env_draw_the_same_sizes() -> None:
    gym_env = PagadoresGymEnv(num_players=ALL_SIZES, opponents="sensible")
    gym_env.reset(seed=7)
    gym_sizes = [gym_env.num_players] + [gym_env.reset()[1] and gym_env.num_players
                                         for _ in range(39)]
    vec = PagadoresVecEnv(1, num_players=ALL_SIZES, opponents="sensible", seed=7)
    vec_sizes = [int(vec.size[0])]
    while len(vec_sizes) < 40:
        _, _, dones, infos = vec.step(np.array([1]))
        if dones[0]:
            assert infos[0]["num_players"] == vec_sizes[-1]
            vec_sizes.append(int(vec.size[0]))
    assert vec_sizes == gym_sizes
    assert set(gym_sizes) == set(ALL_SIZES)


# ---------------------------------------------------------------- one size as before
def test_one_size_in_a_list_is_that_size() -> None:
    runs = []
    for num_players in (3, [3], [3, 3]):
        env = PagadoresVecEnv(6, num_players=num_players, cards=3, opponents="random", seed=8)
        assert env.num_players == 3 and env.sizes == (3,)
        runs.append([x for step in random_steps(env, 100) for x in step[:3]])
    for other in runs[1:]:
        for a, b in zip(runs[0], other, strict=True):
            np.testing.assert_array_equal(a, b)


def vec_digest(env: PagadoresVecEnv, steps: int = 150) -> str:
    env.reset()
    digest = hashlib.sha256()
    for _, rewards, dones, infos in random_steps(env, steps):
        digest.update(rewards.tobytes() + dones.tobytes() + env.learner.tobytes())
        digest.update(bytes(i["placement"] for i in infos if "placement" in i))
    return digest.hexdigest()[:32]


def gym_digest(env: PagadoresGymEnv, steps: int = 600) -> str:
    env.reset(seed=3)
    digest = hashlib.sha256()
    for action in np.random.default_rng(0).integers(0, 2, steps).tolist():
        _, reward, terminated, _, info = env.step(action)
        digest.update(np.float64(reward).tobytes()
                      + bytes([info["learner_seat"], info["placement"]]))
        if terminated:
            _, info = env.reset()
            digest.update(bytes([info["learner_seat"]]))
    return digest.hexdigest()[:32]


def test_single_size_runs_are_what_they_were_before_size_lists() -> None:
    """The digests were recorded with the envs as they were before ``num_players`` could be a
    list: a single size must draw nothing new (same seats, dice, rewards, places). The
    VecEnv's were recorded again when the batch engine's dice stream changed (the compiled
    kernel throws a block of dice game after game; the blocks are SplitMix64 words), and the
    second again when the kernel began to play table players itself (the threshold player's
    turns take their dice game after game too: ``vector.tables``)."""
    threshold = "threshold:min_points=100"
    assert vec_digest(PagadoresVecEnv(8, num_players=3, cards=4, opponents="random", seed=5)) \
        == "72df04b8fae70b1bdabbc0b900b183c2"
    assert vec_digest(PagadoresVecEnv(6, num_players=4, cards=3,
                                      opponents=["random", threshold, "random"], learner_seat=1,
                                      reward="placement", seed=9)) \
        == "9dbac949f7838fcc8e4a6a098df5c5b8"
    assert gym_digest(PagadoresGymEnv(num_players=3, cards=4, opponents="random")) \
        == "2122b88982d3fd8ef95cd0b4f44c4a7d"
    assert gym_digest(PagadoresGymEnv(num_players=5, cards=2,
                                      opponents=["random", threshold, "random", "random"],
                                      reward="placement")) \
        == "63a2931e5e2d421974f40eda404ebc62"


# ---------------------------------------------------------------- refusals
@pytest.mark.parametrize("kwargs, message", [
    ({"num_players": [1, 3]}, r"num_players must be 2–6 or a non-empty list of table sizes "
                              r"2–6, got \[1, 3\]"),
    ({"num_players": [3, 7]}, r"num_players must be .* got \[3, 7\]"),
    ({"num_players": []}, r"num_players must be .*non-empty list.* got \[\]"),
    ({"num_players": [2, True]}, r"num_players must be .* got \[2, True\]"),
    ({"num_players": [2, 3.0]}, r"num_players must be .* got \[2, 3.0\]"),
    ({"num_players": 7}, r"num_players must be 2–6, got 7"),
    ({"num_players": [2, 4], "opponents": ["random", "sensible", "random"]},
     r"opponents must be a single policy, shared by every other seat, when num_players lists "
     r"several table sizes \(\[2, 4\]\); got 3"),
    ({"num_players": [2, 4], "cards": [3, 3]},
     r"cards must be one count for every seat when num_players lists several table sizes "
     r"\(\[2, 4\]\), got \[3, 3\]"),
    ({"num_players": [2, 4], "cards": 11}, r"cards must be 1–10"),
    ({"num_players": [2, 4], "learner_seat": 2},
     r"learner_seat when num_players lists several table sizes \(\[2, 4\]\) must be 'random' "
     r"or a seat 0–1, got 2"),
    ({"num_players": [2, 3], "opponents": "nobody"}, r"unknown policy 'nobody'"),
    ({"num_players": [2, 3], "opponents": "optimal"}, r"optimal"),
])
@pytest.mark.parametrize("make", [
    lambda **kw: PagadoresGymEnv(**kw),
    lambda **kw: PagadoresVecEnv(2, **kw),
], ids=["gym", "vec"])
def test_bad_table_arguments_are_refused_in_one_line(make, kwargs, message) -> None:
    with pytest.raises(ValueError, match=message) as caught:
        make(**kwargs)
    assert "\n" not in str(caught.value)


def test_a_seat_every_size_has_and_per_seat_opponents_at_one_listed_size_are_fine() -> None:
    env = PagadoresVecEnv(20, num_players=[2, 5], learner_seat=1, opponents=["random"], seed=0)
    assert (env.learner == 1).all() and waits_for_learner(env)
    one = PagadoresGymEnv(num_players=[3, 3], opponents=["random", "sensible"])
    assert len(one.opponents) == 2 and one.opponents[0] is not one.opponents[1]


# ---------------------------------------------------------------- playing
def test_gym_env_with_sizes_passes_the_env_checkers() -> None:
    from stable_baselines3.common.env_checker import check_env as sb3_check_env

    env = PagadoresGymEnv(num_players=ALL_SIZES, opponents="sensible")
    gym_check_env(env, skip_render_check=True)
    sb3_check_env(env, warn=True)


def test_gym_env_plays_each_drawn_size() -> None:
    env = PagadoresGymEnv(num_players=ALL_SIZES, cards=3, opponents="random", reward="placement")
    obs, _ = env.reset(seed=2)
    seen = set()
    rng = np.random.default_rng(2)
    for _ in range(60):
        n = env.num_players
        assert env.game.num_players == n and len(env.opponents) == n - 1
        assert decode(obs).players == n
        terminated = False
        while not terminated:
            obs, reward, terminated, _, info = env.step(int(rng.integers(2)))
        places = env.game.placements()
        shared = places.count(info["placement"])
        assert reward == final_reward("placement", info["placement"], n, shared)
        seen.add(n)
        obs, _ = env.reset()
    assert seen == set(ALL_SIZES)


def test_vec_env_rewards_places_and_final_observations_follow_each_games_size() -> None:
    env = PagadoresVecEnv(32, num_players=ALL_SIZES, cards=3, opponents="random",
                          reward="placement", seed=1)
    ended: dict[int, list[tuple[int, float]]] = {n: [] for n in ALL_SIZES}
    for _, rewards, dones, infos in random_steps(env, 300):
        assert waits_for_learner(env)
        assert env.action_masks().all()
        for i in np.flatnonzero(dones):
            info = infos[i]
            n, place = info["num_players"], info["placement"]
            assert decode(info["terminal_observation"]).players == n
            assert 1 <= place <= n
            # the placement scheme at n players: seats sharing place p get the mean of their
            # span, so a reward names how many share it; it must be a whole number that fits
            share = 1 + (1 - rewards[i]) * (n - 1) - 2 * (place - 1)
            assert share == pytest.approx(round(share)) and 1 <= round(share) <= n - place + 1
            assert rewards[i] == pytest.approx(final_reward("placement", place, n, round(share)))
            ended[n].append((place, float(rewards[i])))
    for n, results in ended.items():
        assert len(results) > 20
        assert {p for p, _ in results} == set(range(1, n + 1))  # every place of the size
        assert (1, 1.0) in results and (n, -1.0) in results


class GameLog:
    """A per-game policy (the shape of ``train.selfplay.SelfPlayOpponent``) that records which
    games start, and checks every decision it is asked against ``env`` once that is set (the
    env asks it for decisions while it is being made)."""

    def __init__(self) -> None:
        self.env: PagadoresVecEnv | PagadoresGymEnv | None = None
        self.started: list[int] = []
        self.decisions = 0
        self.sizes: set[int] = set()

    def new_games(self, games: np.ndarray) -> None:
        self.started += np.asarray(games).tolist()

    def act_games(self, games, seats, obs, mask) -> np.ndarray:
        players = decode(obs).players
        for game, seat, n in zip(games.tolist(), seats.tolist(), players.tolist(), strict=True):
            assert game in self.started
            if isinstance(self.env, PagadoresVecEnv):  # a slot is one game id at every size
                assert n == self.env.size[game] and self.env.learner[game] != seat < n
            elif self.env is not None:
                assert game == 0 and n == self.env.num_players and self.env.seat != seat < n
            self.sizes.add(n)
        self.decisions += len(games)
        return mask[:, 1].astype(np.int64)  # always throw again: long games, many decisions

    def act(self, obs, mask) -> int:
        raise AssertionError("the envs ask a per-game policy through act_games only")


def test_a_per_game_policy_sees_slots_as_game_ids_at_every_size() -> None:
    log = GameLog()
    env = PagadoresVecEnv(16, num_players=ALL_SIZES, cards=3, opponents=log, seed=0)
    log.env = env
    assert sorted(log.started[:16]) == list(range(16))
    env.seed(0)
    env.reset()  # the same games again, now checked from their start
    ends = ended_infos(env, 200)
    assert len(ends) > 50 and log.sizes == set(ALL_SIZES)
    # every game that started got a new_games call with its slot: the first 16 twice (the
    # constructor's games and the reset's), then one per game that ended (episodes or not)
    assert len(log.started) >= 32 + len(ends) and set(log.started) == set(range(16))
    assert log.decisions > 500

    gym_log = GameLog()
    gym_env = PagadoresGymEnv(num_players=ALL_SIZES, cards=3, opponents=gym_log)
    gym_log.env = gym_env
    gym_env.reset(seed=0)
    for _ in range(400):
        if gym_env.step(1)[2]:
            gym_env.reset()
    assert set(gym_log.started) == {0} and gym_log.sizes == set(ALL_SIZES)


def test_maskable_ppo_trains_on_mixed_sizes() -> None:
    env = PagadoresVecEnv(4, num_players=ALL_SIZES, cards=3, opponents="sensible", seed=0)
    model = MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=64, n_epochs=1, seed=0,
                        device="cpu", policy_kwargs={"net_arch": [16]})
    model.learn(256)
    assert model.num_timesteps >= 256 and waits_for_learner(env)
