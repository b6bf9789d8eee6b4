"""The scripted opponents of a learner (or of a person at the terminal): one place that seats
them and seeds them (and checks the learner's seat), used by every game's Gymnasium env
(``pagadores.gym_env``, ``perudo.gym_env``, ``paye.gym_env``, ``pasch.gym_env``), the VecEnv
(``pagadores.vec_env``) and terminal play, so all of them read the ``opponents`` argument
alike and a seeded Gymnasium env and a seeded VecEnv draw the same opponents' randomness.

``opponents`` is one entry per other seat (in seat order, skipping the learner), or a single
entry (alone or in a one-item list) for every other seat. An entry is a policy spec string
(``"threshold:min_points=100"``) or a policy object. A single entry is ONE policy object
shared by every other seat: the VecEnv then answers all their decisions in one batched call,
and a stochastic opponent draws from one generator.

A policy that plays differently from game to game (a self-play opponent that draws a frozen
snapshot of the learner per game and seat) offers the per-game hooks of the policy protocol
(``policies``): ``new_games`` (``SupportsNewGames``), which the envs call whenever games
start, and ``act_games`` (``SupportsActGames``), which they call instead of
``act``/``act_batch``, so it knows the game and seat of each row. A policy that learns from the
results (a self-play opponent drawing the snapshots the learner loses to more often) also offers
``end_games`` (``SupportsEndGames``), which the envs call where a learner's episode ends,
before the next game starts in that slot; games in which the learner never decided are not
episodes and are not reported. The envs make these calls through ``GameHooks``, made once as
they seat their opponents. The Gym env's one game is game 0, so a seeded Gym env and a seeded
one-game VecEnv make the same calls in the same order.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any

import numpy as np

from .policies import (
    Policy,
    SupportsActGames,
    SupportsEndGames,
    SupportsNewGames,
    SupportsReset,
    Table,
    batch_actions,
    check_tables,
    make_policy,
)
from .rewards import win_share
from .seeding import spawned_seeds

Opponents = Sequence[str | Policy] | str | Policy
#: One seat's decision in one game: ``(obs, mask) -> action`` for one row
#: (``GameHooks.seat_deciders``).
Decide = Callable[[np.ndarray, np.ndarray], Any]


def check_learner_seat(learner_seat: Any, num_players: int,
                       name: str = "learner_seat") -> int | str:
    """Return ``learner_seat`` if it is ``"random"`` (drawn per game) or a seat
    ``0 … num_players-1`` (an integer, not a bool).

    Otherwise raise ``ValueError`` naming the argument (``name``, e.g. a config's key path),
    the seats allowed and the value given.
    """
    if learner_seat != "random" and (
            isinstance(learner_seat, bool) or not isinstance(learner_seat, int | np.integer)
            or not 0 <= learner_seat < num_players):
        raise ValueError(
            f"{name} must be 'random' or a seat 0–{num_players - 1}, got {learner_seat!r}")
    return learner_seat


def seat_opponents(opponents: Opponents, num_players: int, table: Table,
                   game: str = "pagadores") -> list[Policy]:
    """One policy per other seat of a ``num_players`` table, built from ``opponents`` (see the
    module docstring; spec strings name players of ``game``, ``policies.GAMES``) and asked
    whether it can play this table (``policies.check_tables``; ``table`` is what the game says
    of its table beyond its size, ``policies.Table``).
    Raises ``ValueError`` naming a wrong count, an unknown spec or a refused table."""
    entries = [opponents] if isinstance(opponents, str | Policy) else list(opponents)
    needed = num_players - 1
    if len(entries) not in (1, needed):
        allowed = (f"1 policy at {num_players} players (one other seat)" if needed == 1 else
                   f"one policy per other seat ({needed} for {num_players} players) or a "
                   "single one shared by all of them")
        raise ValueError(f"opponents must be {allowed}, got {len(entries)}")
    policies = [make_policy(entry, game=game) for entry in entries]
    check_tables(policies, num_players, table)
    return policies * needed if len(policies) == 1 else policies


def distinct(policies: Sequence[Policy]) -> list[Policy]:
    """The different policy objects of ``policies``, in the order they first sit."""
    return list({id(policy): policy for policy in policies}.values())


def reseed_opponents(policies: Sequence[Policy], seed: int | None) -> None:
    """Reseed the ``k``-th distinct policy object (``distinct``) that has ``reset``
    (``policies.SupportsReset``) with part ``k`` of ``seed`` (``seeding.spawned_seeds``);
    ``seed=None`` leaves them as they are."""
    if seed is None:
        return
    unique = distinct(policies)
    for policy, child in zip(unique, spawned_seeds(seed, len(unique)), strict=True):
        if isinstance(policy, SupportsReset):
            policy.reset(child)


class GameHooks:
    """The per-game hooks (module docstring) of an env's opponents: which of the distinct
    policy objects among ``policies`` offer ``new_games``, ``end_games`` and ``act_games``,
    looked up once, when the env seats them (its opponents are fixed then). A runtime Protocol
    check (``isinstance``) costs microseconds, as much as a game's start in the batch engine
    or a decision in the Gymnasium env, so an env does not repeat it per game or decision."""

    def __init__(self, policies: Sequence[Policy]) -> None:
        unique = distinct(policies)
        self._starting = [p for p in unique if isinstance(p, SupportsNewGames)]
        self._ending = [p for p in unique if isinstance(p, SupportsEndGames)]
        # by id, as ``distinct`` keys them: a policy need not be hashable
        self._per_game = {id(p): p for p in unique if isinstance(p, SupportsActGames)}

    def start_games(self, games: np.ndarray) -> None:
        """Tell each policy that has ``new_games`` (``policies.SupportsNewGames``) that
        ``games`` (game indices) start now, before any decision in them."""
        for policy in self._starting:
            policy.new_games(games)

    def end_games(self, games: np.ndarray, places: np.ndarray,
                  shared: np.ndarray | None = None) -> None:
        """Tell each policy that has ``end_games`` (``policies.SupportsEndGames``) that the
        learner's episodes in ``games`` ended with the learner in ``places`` (1 = winner),
        ``shared`` by that many seats each (default 1: a place of its own). What it hears is
        the learner's share of the win (``rewards.win_share``), as the reward scheme ``win``
        pays it: 1 for a win, 1/k for a first place shared by k seats (Paye's Y4.4, Pasch's
        X1.4), 0 for any other place. In Pagadores and Perudo one player wins (R1.5, P1.3), so
        the share is 1 or 0, and a place shared by a knock-out counts as a loss."""
        if not self._ending:
            return
        places = np.asarray(places)
        counts = np.ones_like(places) if shared is None else np.asarray(shared)
        won = np.array([win_share(int(place), int(k)) for place, k in
                        zip(places.tolist(), counts.tolist(), strict=True)], dtype=np.float64)
        for policy in self._ending:
            policy.end_games(np.asarray(games, dtype=np.int64), won)

    def game_actions(self, policy: Policy, games: np.ndarray, seats: np.ndarray,
                     obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The actions of ``policy`` (one of the seated ones) for rows of ``obs``/``mask``
        taken in ``games`` by ``seats``: its ``act_games`` if it plays per game
        (``policies.SupportsActGames``), else ``policies.batch_actions``."""
        per_game = self._per_game.get(id(policy))
        if per_game is not None:
            return np.asarray(per_game.act_games(games, seats, obs, mask))
        return batch_actions(policy, obs, mask)

    def seat_deciders(self, policy_of: Mapping[int, Policy], game: int) -> dict[int, Decide]:
        """How each seat of ``policy_of`` (seat -> one of the seated policies) takes one
        decision in ``game``: ``game_actions`` on a one-row batch if its policy plays per game,
        else its policy's ``act``."""
        return {seat: partial(_one_row, self._per_game[id(policy)], game, seat)
                if id(policy) in self._per_game else policy.act
                for seat, policy in policy_of.items()}


def _one_row(policy: SupportsActGames, game: int, seat: int, obs: np.ndarray,
             mask: np.ndarray) -> int:
    """``policy.act_games`` on the one row ``obs``/``mask`` taken in ``game`` by ``seat``."""
    return int(policy.act_games(np.array([game]), np.array([seat]), obs[None], mask[None])[0])
