"""``PagadoresVecEnv``: the single-agent task of ``Pagadores-v0`` as one SB3 ``VecEnv``.

Needs the ``train`` extra (``pip install 'pagadores-env[train]'``): it subclasses
stable-baselines3's ``VecEnv``, so ``import pagadores_env`` does not import this module (the
environment package imports without torch or SB3); import it as
``from pagadores_env.vec_env import PagadoresVecEnv``.

``num_envs`` games run as one ``VectorGame``; in each the learner holds one seat (fixed, or
drawn per game with ``learner_seat="random"``) and scripted opponents play the others
(``opponents`` and ``learner_seat`` as the Gym env takes them, ``pagadores_env.opponents``: a
single opponent is one policy object in every other seat, and a seed gives the opponents the
same seeds as the Gym env's ``reset(seed)``). A
step applies the learner's actions, then lets every game run — dice by the batch engine,
opponent decisions by each opponent's ``act_batch`` on the batch of games where that opponent
decides — until each game waits for its learner again. Observations, actions, rewards and
episode ends follow the Gymnasium env (``pagadores_env.gym_env``): the observation is
``observation.encode`` for the learner's seat; the reward is paid once at the end of the
learner's episode (it is knocked out or the game is over; ``pagadores_env.rewards``); a game
that ends before the learner decides at all is replayed silently. Finished games restart at
once (SB3's auto-reset); ``infos[i]["terminal_observation"]`` and ``["placement"]`` describe
the game that ended. One difference from the Gym env: when the learner is knocked out while
the game goes on, its terminal observation is taken where the batch engine next stops (the
next decision or the game's end), a few throws after the knock-out rather than right at it;
rewards and placements are the same (a knocked-out seat's place no longer changes).

MaskablePPO reads masks through ``env_method("action_masks")`` (``sb3_contrib.common.
maskable.utils.get_action_masks``); both actions are legal at every decision (R3.6).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from stable_baselines3.common.vec_env import VecEnv
from stable_baselines3.common.vec_env.base_vec_env import VecEnvIndices, VecEnvStepReturn

from .engine import Game
from .observation import OBS_SIZE
from .opponents import (
    Opponents,
    check_learner_seat,
    distinct,
    end_games,
    game_actions,
    reseed_opponents,
    seat_opponents,
    start_games,
)
from .rewards import check_scheme, final_reward
from .seeding import spawned_rng
from .vector import VectorGame


class PagadoresVecEnv(VecEnv):
    """``num_envs`` learner-vs-opponents games in lock-step (see the module docstring)."""

    render_mode = None

    def __init__(self, num_envs: int, num_players: int = 2, cards: int | Sequence[int] = 10,
                 opponents: Opponents = ("random",),
                 learner_seat: int | str = "random", reward: str = "win",
                 seed: int | None = None) -> None:
        Game(num_players, cards)  # validates num_players and cards with clear errors
        self.num_players = num_players
        self.cards = cards
        self.learner_seat = check_learner_seat(learner_seat, num_players)
        self.reward = check_scheme(reward)
        self.opponents = seat_opponents(opponents, num_players, cards)
        # one act_batch call per distinct policy object per round of opponent decisions
        self._policies = distinct(self.opponents)
        self._group_of = np.array([next(g for g, p in enumerate(self._policies) if p is q)
                                   for q in self.opponents])
        self._actions = np.zeros(num_envs, np.int64)
        super().__init__(num_envs, gym.spaces.Box(-1.0, 1.0, (OBS_SIZE,), np.float32),
                         gym.spaces.Discrete(2))
        self._seed_streams(seed)
        self._start()
        self._fresh = True

    # ------------------------------------------------------------------ VecEnv API
    def reset(self) -> np.ndarray:
        """New games in every slot; a seed given through ``seed()`` reseeds everything first
        (otherwise the generators run on, as a Gym env's do between resets)."""
        if self._seeds[0] is not None:
            self._seed_streams(self._seeds[0])
            self._fresh = False
        self._reset_seeds()
        if not self._fresh:  # games built by the constructor count as the first reset
            self._start()
        self._fresh = False
        return self._observe()

    def step_async(self, actions: np.ndarray) -> None:
        """Take one action per game, each 0 (stop) or 1 (throw again), for ``step_wait``; else
        ``ValueError``."""
        actions = np.asarray(actions).reshape(-1)
        if actions.shape != (self.num_envs,) or not ((actions == 0) | (actions == 1)).all():
            raise ValueError(f"actions must be {self.num_envs} values, each 0 (stop) or "
                             f"1 (throw again), got {actions!r}")
        self._actions = actions.astype(np.int64)

    def step_wait(self) -> VecEnvStepReturn:
        """Play the actions and every game on to its learner's next decision; a finished game
        restarts at once (SB3's auto-reset)."""
        rewards = np.zeros(self.num_envs, np.float32)
        dones = np.zeros(self.num_envs, bool)
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        self.acted[:] = True
        self._fresh = False
        self.game.step(self._actions)
        self._run(rewards, dones, infos)
        return self._observe(), rewards, dones, infos

    def action_masks(self) -> np.ndarray:
        """``(num_envs, 2)`` bool ``[stop, throw again]``: every game waits at a decision."""
        return self.game.action_masks()

    def close(self) -> None:
        """Nothing to release: the games are arrays in this process."""

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        """Every sub-environment shares this object's settings."""
        value = getattr(self, attr_name)
        return [value for _ in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        """Refused: the games share settings fixed at construction."""
        raise AttributeError(f"PagadoresVecEnv settings are fixed at construction; cannot set "
                             f"{attr_name!r}")

    def env_method(self, method_name: str, *method_args: Any, indices: VecEnvIndices = None,
                   **method_kwargs: Any) -> list[Any]:
        """Only ``action_masks`` is per game: one row per requested index."""
        if method_name != "action_masks":
            raise AttributeError(f"PagadoresVecEnv has no per-game method {method_name!r}; "
                                 "only 'action_masks'")
        masks = self.action_masks()
        return [masks[i] for i in self._get_indices(indices)]

    def env_is_wrapped(self, wrapper_class: type[gym.Wrapper],
                       indices: VecEnvIndices = None) -> list[bool]:
        """False for every index: the games are not Gym envs and have no wrappers."""
        return [False for _ in self._get_indices(indices)]

    # ------------------------------------------------------------------ internals
    def _seed_streams(self, seed: int | None) -> None:
        """Generators for dice, learner seats and opponents, all derived from ``seed``: the
        ``P`` distinct opponents get parts ``0 … P-1`` (``opponents.reseed_opponents``, as in
        the Gym env), the learner seats part ``P``, the dice part ``P + 1``."""
        reseed_opponents(self._policies, seed)
        count = len(self._policies)
        self.seat_rng = spawned_rng(seed, count)
        self.dice_rng = spawned_rng(seed, count + 1)

    def _start(self) -> None:
        """New games everywhere, each waiting for its learner's first decision."""
        self.learner = self._draw_seats(self.num_envs)
        self.acted = np.zeros(self.num_envs, bool)  # has the learner decided this episode?
        self.game = VectorGame(self.num_envs, self.num_players, self.cards, self.dice_rng,
                               auto_reset=False)
        start_games(self._policies, np.arange(self.num_envs))
        self._run(np.zeros(self.num_envs, np.float32), np.zeros(self.num_envs, bool),
                  [{} for _ in range(self.num_envs)])

    def _draw_seats(self, count: int) -> np.ndarray:
        if self.learner_seat == "random":
            return self.seat_rng.integers(0, self.num_players, size=count)
        return np.full(count, int(self.learner_seat), np.int64)

    def _run(self, rewards: np.ndarray, dones: np.ndarray, infos: list[dict[str, Any]]) -> None:
        """Finish learner episodes and let opponents play until every game waits for its
        learner."""
        game = self.game
        while True:
            ended = np.flatnonzero(game.done | (game.cards[np.arange(self.num_envs),
                                                           self.learner] == 0))
            if ended.size:
                self._end_episodes(ended, rewards, dones, infos)
            rows = np.flatnonzero(game.decision & (game.seat != self.learner))
            if not rows.size:
                if not ended.size:
                    return
                continue
            self._opponents_act(rows)

    def _end_episodes(self, rows: np.ndarray, rewards: np.ndarray, dones: np.ndarray,
                      infos: list[dict[str, Any]]) -> None:
        """Pay the learners whose episode just ended and start new games in those slots."""
        game = self.game
        learner = self.learner[rows]
        places = game.placements(rows)
        place = places[np.arange(rows.size), learner]
        shared = (places == place[:, None]).sum(axis=1)
        final_obs = game.observations(rows, learner)
        for k, i in enumerate(rows.tolist()):
            if self.acted[i]:  # games without a learner decision are not episodes
                dones[i] = True
                rewards[i] = final_reward(self.reward, int(place[k]), self.num_players,
                                          int(shared[k]))
                infos[i].update(terminal_observation=final_obs[k], placement=int(place[k]),
                                learner_seat=int(learner[k]))
        episodes = self.acted[rows]  # before the slots restart and their opponents redraw
        end_games(self._policies, rows[episodes], place[episodes])
        self.acted[rows] = False
        self.learner[rows] = self._draw_seats(rows.size)
        game.reset_games(rows)
        start_games(self._policies, rows)

    def _opponents_act(self, rows: np.ndarray) -> None:
        game = self.game
        seat = game.seat[rows]
        # opponent k sits in the k-th other seat, counting from seat 0 and skipping the learner
        group = self._group_of[seat - (seat > self.learner[rows])]
        obs = game.observations(rows)
        masks = np.ones((rows.size, 2), bool)
        actions = np.zeros(rows.size, np.int64)
        for k, policy in enumerate(self._policies):
            mine = group == k
            if mine.any():
                actions[mine] = game_actions(policy, rows[mine], seat[mine], obs[mine],
                                             masks[mine])
        game.step(actions, rows)

    def _observe(self) -> np.ndarray:
        return self.game.observations(np.arange(self.num_envs), self.learner)

