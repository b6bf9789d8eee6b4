"""The scripted opponents of a learner (or of a person at the terminal): one place that seats
them and seeds them (and checks the learner's seat), used by the Gymnasium env (``gym_env``),
the VecEnv (``vec_env``) and terminal play, so all of them read the ``opponents`` argument
alike and a seeded Gymnasium env and a seeded VecEnv draw the same opponents' randomness.

``opponents`` is one entry per other seat (in seat order, skipping the learner), or a single
entry (alone or in a one-item list) for every other seat. An entry is a policy spec string
(``"threshold:min_points=100"``) or a policy object. A single entry is ONE policy object
shared by every other seat: the VecEnv then answers all their decisions in one batched call,
and a stochastic opponent draws from one generator.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .policies import Policy, check_tables, make_policy
from .seeding import spawned_seeds

Opponents = Sequence[str | Policy] | str | Policy


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


def seat_opponents(opponents: Opponents, num_players: int,
                   cards: int | Sequence[int]) -> list[Policy]:
    """One policy per other seat of a ``num_players`` table, built from ``opponents`` (see the
    module docstring) and asked whether it can play this table (``policies.check_tables``).
    Raises ``ValueError`` naming a wrong count, an unknown spec or a refused table."""
    entries = [opponents] if isinstance(opponents, str | Policy) else list(opponents)
    needed = num_players - 1
    if len(entries) not in (1, needed):
        allowed = (f"1 policy at {num_players} players (one other seat)" if needed == 1 else
                   f"one policy per other seat ({needed} for {num_players} players) or a "
                   "single one shared by all of them")
        raise ValueError(f"opponents must be {allowed}, got {len(entries)}")
    policies = [make_policy(entry) for entry in entries]
    check_tables(policies, num_players, cards)
    return policies * needed if len(policies) == 1 else policies


def distinct(policies: Sequence[Policy]) -> list[Policy]:
    """The different policy objects of ``policies``, in the order they first sit."""
    return list({id(policy): policy for policy in policies}.values())


def reseed_opponents(policies: Sequence[Policy], seed: int | None) -> None:
    """Reseed the ``k``-th distinct policy object (``distinct``) that has ``reset`` with part
    ``k`` of ``seed`` (``seeding.spawned_seeds``); ``seed=None`` leaves them as they are."""
    if seed is None:
        return
    unique = distinct(policies)
    for policy, child in zip(unique, spawned_seeds(seed, len(unique)), strict=True):
        if hasattr(policy, "reset"):
            policy.reset(child)
