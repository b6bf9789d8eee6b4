"""``PagadoresVecEnv``: the single-agent task of ``Pagadores-v1`` as one SB3 ``VecEnv``.

Needs the ``train`` extra (``pip install 'pagadores-env[train]'``): it subclasses
stable-baselines3's ``VecEnv``, so ``import pagadores_env`` does not import this module (the
environment package imports without torch or SB3); import it as
``from pagadores_env.pagadores.vec_env import PagadoresVecEnv``.

``num_envs`` games run in lock-step on the batch engine (``VectorGame``); in each the learner holds
one seat (fixed, or drawn per game with ``learner_seat="random"``) and scripted opponents play the
others (``core.opponents`` and ``learner_seat`` as the Gym env takes them,
``pagadores_env.core.opponents``: a single opponent is one policy object in every other seat, and a
seed gives the opponents the same seeds as the Gym env's ``reset(seed)``). A step applies the
learner's actions, then lets every game run — dice by the batch engine, opponent decisions by each
opponent's ``act_batch`` on the batch of games where that opponent decides, or inside the batch
engine's kernel for an opponent with a decision table (``vector.tables``: ``sensible``,
``threshold``, ``stop-first``, ``always-throw``) — until each game waits for its learner again.
Observations, actions, rewards and episode ends follow the Gymnasium env
(``pagadores_env.pagadores.gym_env``): the observation is ``observation.encode`` for the learner's
seat; the reward is paid once at the end of the learner's episode (it is knocked out or the game is
over; ``pagadores_env.core.rewards``); a game that ends before the learner decides at all is
replayed silently. Finished games restart at once (SB3's auto-reset);
``infos[i]["terminal_observation"]``, ``["placement"]``, ``["learner_seat"]`` and
``["num_players"]`` describe the game that ended. One difference from the Gym env: when the learner
is knocked out while the game goes on, its terminal observation is taken where the batch engine next
stops (the next decision or the game's end), a few throws after the knock-out rather than right at
it; rewards and placements are the same (a knocked-out seat's place no longer changes).

Table sizes: ``num_players`` is one size or a list (``num_players=[2, 3, 4, 5, 6]``), as the
Gym env takes it (``gym_env``'s "Table sizes": every new game in a slot draws its size
uniformly over the list's entries from its own seeded stream, part ``P + 2``; with several
sizes ``cards`` is one count, ``core.opponents`` a single policy object seated at every size,
``learner_seat`` ``"random"`` or a seat every size has). ``sizes`` is the list, ``size`` the
current size per slot; ``num_players`` is the one size, or the list; ``core.opponents`` maps each
size to the policies of its other seats. Each size has its own ``VectorGame`` with a row per
slot (``games``; ``game`` when there is one size), and only the rows whose slot plays that size
take part: a slot that draws another size restarts in that size's game, its row in the old one
left idle. Opponents answer the decisions of all sizes in one call per policy object, with the
slots as game ids (``core.opponents.GameHooks.game_actions``), so a per-game policy such as a
self-play opponent keeps one record per slot whatever its size. ``infos[i]["num_players"]`` is
the size of the game that ended. One size runs exactly as it always did (the same streams, the same
draws, the same speed); several sizes cost speed, as each size's engine advances its rows in
calls of its own: with 64 envs, 3 players against ``sensible`` and random learner actions on a
shared 2-core machine, one size ran 14,700–15,600 env steps per CPU second and
``[2, 3, 4, 5, 6]`` 5,000–5,300 (six players alone are the slowest). The decision is
``docs/architecture.md``'s "Table sizes in one run".

Seeds (the constructor's and ``seed()``'s) are None or an integer ≥ 0, as the Gym env's
(``core.checks.check_seed``).

MaskablePPO reads masks through ``env_method("action_masks")`` (``sb3_contrib.common.
maskable.utils.get_action_masks``); both actions are legal at every decision (R3.6).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import gymnasium as gym
import numpy as np
from stable_baselines3.common.vec_env import VecEnv
from stable_baselines3.common.vec_env.base_vec_env import VecEnvIndices, VecEnvStepReturn

from ..core.checks import check_int, check_seed
from ..core.opponents import GameHooks, Opponents, distinct, reseed_opponents
from ..core.rewards import check_scheme, final_reward
from ..core.seeding import spawned_rng
from .observation import OBS_SIZE
from .seating import draw_sizes, size_rng, tables
from .vector import VectorGame
from .vector.tables import seat_tables


@dataclass(slots=True)
class _Table:
    """The games of one table size: a ``VectorGame`` with a row per slot, of which only the
    slots ``rows`` (ascending) play at this size now; the other rows sit idle, untouched."""

    game: VectorGame
    rows: np.ndarray
    #: per slot and seat, the decision table the kernel plays that seat by (-1: none), kept by
    #: ``game`` (``VectorGame.play_by_tables``) and changed in place as learner seats change
    table_of: np.ndarray
    #: per slot, the learner's seat (-1 at slots of other sizes): the kernel stops for the
    #: opponents once it holds no cards
    watched: np.ndarray


class PagadoresVecEnv(VecEnv):
    """``num_envs`` learner-vs-opponents games in lock-step (see the module docstring)."""

    render_mode = None

    def __init__(self, num_envs: int, num_players: int | Sequence[int] = 2,
                 cards: int | Sequence[int] = 10, opponents: Opponents = ("random",),
                 learner_seat: int | str = "random", reward: str = "win",
                 seed: int | None = None) -> None:
        num_envs = check_int("num_envs", num_envs, 1)
        seed = check_seed(seed)
        setup = tables(num_players, cards, opponents, learner_seat)
        self.sizes = setup.sizes
        self.num_players = self.sizes[0] if len(self.sizes) == 1 else self.sizes
        self.cards = setup.cards
        self.learner_seat = setup.learner_seat
        self.reward = check_scheme(reward)
        self.opponents = setup.opponents  # per table size, one policy per other seat
        # one size draws no sizes and its seats as it always did, so its runs stay the same
        self._one_size = len(self.opponents) == 1
        # one act_batch call per distinct policy object per round of opponent decisions
        self._policies = distinct([p for seated in self.opponents.values() for p in seated])
        self._hooks = GameHooks(self._policies)
        # per size, [learner seat, seat]: the index in _policies of the opponent there (-1:
        # the learner's own seat)
        self._group_at = {n: _by_learner_seat(np.array([
            next(g for g, p in enumerate(self._policies) if p is q) for q in seated]), n)
            for n, seated in self.opponents.items()}
        # opponents that declare table_facts are played inside the kernel (vector.tables);
        # per size, [learner seat, seat]: the table row of the policy there (-1: none)
        self._decision_tables, table_row = seat_tables(self._policies)
        self._seat_tables = {n: np.where(group >= 0, table_row[group], -1)
                             for n, group in self._group_at.items()}
        self._tables: dict[int, _Table] = {}
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

    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        """SB3's ``seed``: the next ``reset`` reseeds everything from ``seed`` (None: a random
        one). A seed other than None or an integer ≥ 0 raises ``ValueError`` here, leaving
        the env and its pending seed as they were, rather than at that reset."""
        return super().seed(check_seed(seed))

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
        for table in self._tables.values():
            if table.rows.size:
                table.game.step(self._actions[table.rows], table.rows)
        self._run(rewards, dones, infos)
        return self._observe(), rewards, dones, infos

    def action_masks(self) -> np.ndarray:
        """``(num_envs, 2)`` bool ``[stop, throw again]``: every game waits at a decision."""
        masks = np.zeros((self.num_envs, 2), bool)
        for table in self._tables.values():
            masks[table.rows] = table.game.decision[table.rows, None]
        return masks

    @property
    def games(self) -> dict[int, VectorGame]:
        """The ``VectorGame`` of each table size (rows of slots at another size sit idle)."""
        return {n: table.game for n, table in self._tables.items()}

    @property
    def game(self) -> VectorGame:
        """The one ``VectorGame`` of a single table size (``games`` has one per size)."""
        if len(self._tables) > 1:
            raise AttributeError(f"with several table sizes ({list(self.sizes)}) each has its "
                                 "own VectorGame: see games")
        return next(iter(self._tables.values())).game

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
        ``P`` distinct opponents get parts ``0 … P-1`` (``core.opponents.reseed_opponents``, as in
        the Gym env), the learner seats part ``P``, the dice part ``P + 1``, the table sizes
        part ``P + 2`` (``gym_env.size_rng``)."""
        reseed_opponents(self._policies, seed)
        count = len(self._policies)
        self.seat_rng = spawned_rng(seed, count)
        self.dice_rng = spawned_rng(seed, count + 1)
        self.size_rng = size_rng(seed, self._policies)

    def _start(self) -> None:
        """New games everywhere, each waiting for its learner's first decision."""
        self.size = self._draw_sizes(self.num_envs)  # per slot: its game's table size
        self.learner = self._draw_seats(self.size)
        self.acted = np.zeros(self.num_envs, bool)  # has the learner decided this episode?
        # every size gets a row per slot, so a slot changes size without moving
        self._tables = {n: _Table(VectorGame(self.num_envs, n, self.cards, self.dice_rng,
                                             auto_reset=False), self._slots_at(n),
                                  np.full((self.num_envs, n), -1, np.int64),
                                  np.full(self.num_envs, -1, np.int64))
                        for n in self.opponents}
        self._play_by_tables(np.arange(self.num_envs))
        if len(self._decision_tables):
            for table in self._tables.values():
                table.game.play_by_tables(self._decision_tables, table.table_of, table.watched)
            for table in self._tables.values():
                table.game.advance(table.rows)  # the opponents' first decisions
        self._hooks.start_games(np.arange(self.num_envs))
        self._run(np.zeros(self.num_envs, np.float32), np.zeros(self.num_envs, bool),
                  [{} for _ in range(self.num_envs)])

    def _draw_sizes(self, count: int) -> np.ndarray:
        if self._one_size:
            return np.full(count, self.sizes[0], np.int64)
        return draw_sizes(self.size_rng, self.sizes, count)

    def _draw_seats(self, sizes: np.ndarray) -> np.ndarray:
        if self.learner_seat != "random":
            return np.full(sizes.size, int(self.learner_seat), np.int64)
        if self._one_size:
            return self.seat_rng.integers(0, self.sizes[0], size=sizes.size)
        return self.seat_rng.integers(0, sizes)

    def _slots_at(self, n: int) -> np.ndarray:
        return np.flatnonzero(self.size == n)

    def _run(self, rewards: np.ndarray, dones: np.ndarray, infos: list[dict[str, Any]]) -> None:
        """Finish learner episodes and let opponents play until every game waits for its
        learner."""
        while True:
            ended = _joined([self._ended(table) for table in self._tables.values()])
            if ended.size:
                self._end_episodes(ended, rewards, dones, infos)
            deciding = {n: rows for n, table in self._tables.items()
                        if (rows := self._opponent_rows(table)).size}
            if not deciding:
                if not ended.size:
                    return
                continue
            self._opponents_act(deciding)

    def _ended(self, table: _Table) -> np.ndarray:
        """The table's slots whose learner's episode is over: the game is, or it is out."""
        rows, game = table.rows, table.game
        return rows[game.done[rows] | (game.cards[rows, self.learner[rows]] == 0)]

    def _opponent_rows(self, table: _Table) -> np.ndarray:
        """The table's slots where an opponent must decide while the learner still plays (a
        game that restarted may have put its learner out before it decided: that slot restarts
        again first, however far the kernel took it)."""
        rows, game = table.rows, table.game
        learner = self.learner[rows]
        return rows[game.decision[rows] & (game.seat[rows] != learner)
                    & (game.cards[rows, learner] > 0)]

    def _end_episodes(self, rows: np.ndarray, rewards: np.ndarray, dones: np.ndarray,
                      infos: list[dict[str, Any]]) -> None:
        """Pay the learners whose episode just ended and start new games in those slots."""
        learner = self.learner[rows]
        size = self.size[rows]
        place, shared, final_obs = self._outcomes(rows, learner, size)
        for k, i in enumerate(rows.tolist()):
            if self.acted[i]:  # games without a learner decision are not episodes
                dones[i] = True
                rewards[i] = final_reward(self.reward, int(place[k]), int(size[k]),
                                          int(shared[k]))
                infos[i].update(terminal_observation=final_obs[k], placement=int(place[k]),
                                learner_seat=int(learner[k]), num_players=int(size[k]))
        episodes = self.acted[rows]  # before the slots restart and their opponents redraw
        self._hooks.end_games(rows[episodes], place[episodes])
        self.acted[rows] = False
        self.size[rows] = size = self._draw_sizes(rows.size)
        self.learner[rows] = self._draw_seats(size)
        for n, table in self._tables.items():
            if not self._one_size:
                table.rows = self._slots_at(n)
        self._play_by_tables(rows)
        for n, table in self._tables.items():
            mine = rows[size == n]
            if mine.size:
                table.game.reset_games(mine)
        self._hooks.start_games(rows)

    def _outcomes(self, rows: np.ndarray, learner: np.ndarray,
                  size: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per ended game: the learner's place, how many seats share it, and the learner's
        final observation."""
        if self._one_size:
            return _outcomes(self.game, rows, learner)
        place = np.zeros(rows.size, np.int64)
        shared = np.zeros(rows.size, np.int64)
        final_obs = np.zeros((rows.size, OBS_SIZE), np.float32)
        for n, table in self._tables.items():
            mine = size == n
            if mine.any():
                place[mine], shared[mine], final_obs[mine] = _outcomes(table.game, rows[mine],
                                                                       learner[mine])
        return place, shared, final_obs

    def _play_by_tables(self, rows: np.ndarray) -> None:
        """Tell each size's kernel which seats of the slots ``rows`` it plays by table (their
        sizes and learner seats drawn anew); rows at other sizes sit idle and are not read."""
        for n, table in self._tables.items():
            mine = rows[self.size[rows] == n]
            table.table_of[mine] = self._seat_tables[n][self.learner[mine]]
            table.watched[mine] = self.learner[mine]

    def _opponents_act(self, deciding: dict[int, np.ndarray]) -> None:
        """The opponents' decisions at the slots ``deciding`` of each table size: one call per
        distinct policy across all sizes (the observation has the same shape at every size),
        told the slots as game ids."""
        parts: list[list[np.ndarray]] = [[], [], [], []]  # slots, seats, groups, observations
        for n, rows in deciding.items():
            game = self._tables[n].game
            seat = game.seat[rows]
            group = self._group_at[n][self.learner[rows], seat]
            for part, value in zip(parts, (rows, seat, group, game.observations(rows)),
                                   strict=True):
                part.append(value)
        rows, seat, group, obs = map(_joined, parts)
        masks = np.ones((rows.size, 2), bool)
        actions = np.zeros(rows.size, np.int64)
        for k, policy in enumerate(self._policies):
            mine = group == k
            if mine.any():
                actions[mine] = self._hooks.game_actions(policy, rows[mine], seat[mine],
                                                         obs[mine], masks[mine])
        start = 0
        for n, rows in deciding.items():
            self._tables[n].game.step(actions[start:start + rows.size], rows)
            start += rows.size

    def _observe(self) -> np.ndarray:
        if self._one_size:
            return self.game.observations(np.arange(self.num_envs), self.learner)
        obs = np.zeros((self.num_envs, OBS_SIZE), np.float32)
        for table in self._tables.values():
            obs[table.rows] = table.game.observations(table.rows, self.learner[table.rows])
        return obs


def _outcomes(game: VectorGame, rows: np.ndarray,
              learner: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For the ended games ``rows`` of ``game``: the place of each one's ``learner``, how many
    seats share it, and the learner's final observation."""
    places = game.placements(rows)
    place = places[np.arange(rows.size), learner]
    shared = (places == place[:, None]).sum(axis=1)
    return place, shared, game.observations(rows, learner)


def _by_learner_seat(per_other_seat: np.ndarray, n: int) -> np.ndarray:
    """``[learner seat, seat]`` at a table of ``n``: ``per_other_seat[k]`` in the ``k``-th other
    seat (counting from seat 0 and skipping the learner's), -1 in the learner's own."""
    seats = np.arange(n)
    learner = seats[:, None]
    other = np.minimum(seats - (seats > learner), n - 2)  # the learner's own: any k, masked
    return np.where(seats == learner, -1, per_other_seat[other])


def _joined(parts: list[np.ndarray]) -> np.ndarray:
    """``parts`` end to end (the one part itself, without a copy, at a single table size)."""
    return parts[0] if len(parts) == 1 else np.concatenate(parts)
