"""The table arguments of Pagadores' single-agent envs (the Gymnasium env ``gym_env`` and the
SB3 VecEnv ``vec_env``), checked in one place: the table sizes a game draws from (``gym_env``'s
"Table sizes"), the start cards, the learner's seat and the opponents seated at each size, and
the seeded stream the sizes are drawn from.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from ..core.opponents import Opponents, check_learner_seat, distinct, seat_opponents
from ..core.policies import Policy, make_policy
from ..core.seeding import spawned_rng
from .aec import check_cards
from .rules import MAX_PLAYERS, MIN_PLAYERS


class Tables(NamedTuple):
    """An env's table arguments, checked together for every table size its games may draw
    (``tables``)."""

    #: the sizes a game draws from, uniformly over the entries: ``(n,)`` for one size
    sizes: tuple[int, ...]
    cards: int | tuple[int, ...]
    learner_seat: int | str
    #: per distinct size, ascending: one policy per other seat (``core.opponents.seat_opponents``)
    opponents: dict[int, list[Policy]]


def tables(num_players: int | Sequence[int], cards: int | Sequence[int], opponents: Opponents,
           learner_seat: int | str) -> Tables:
    """Check the table arguments both envs take (module docstring, "Table sizes").

    With one size (an integer, or a list naming one size only) they mean what they always
    meant. With several sizes: ``cards`` must be one count, ``core.opponents`` a single entry (ONE
    policy object, seated in every other seat at every size, so its seeds and per-game hooks
    do not depend on the size), ``learner_seat`` ``"random"`` or a seat every size has.
    Raises ``ValueError`` in one line naming the argument and what it allows.
    """
    sizes = _listed_sizes(num_players)
    if len(set(sizes)) == 1:
        n = sizes[0]
        cards = check_cards(n, cards)  # also validates an integer num_players
        return Tables((int(n),), cards, check_learner_seat(learner_seat, n),
                      {int(n): seat_opponents(opponents, n, cards)})
    several = f"when num_players lists several table sizes ({list(sizes)})"
    if isinstance(cards, Sequence) and not isinstance(cards, str):
        raise ValueError(f"cards must be one count for every seat {several}, got {list(cards)}")
    cards = check_cards(MIN_PLAYERS, cards)
    learner_seat = check_learner_seat(learner_seat, min(sizes),
                                      name=f"learner_seat {several}")
    entries = [opponents] if isinstance(opponents, str | Policy) else list(opponents)
    if len(entries) != 1:
        raise ValueError(f"opponents must be a single policy, shared by every other seat, "
                         f"{several}; got {len(entries)}")
    policy = make_policy(entries[0])
    return Tables(sizes, cards, learner_seat,
                  {n: seat_opponents(policy, n, cards) for n in sorted(set(sizes))})


def _listed_sizes(num_players: Any) -> tuple[Any, ...]:
    """``num_players`` as a tuple of sizes: a list is checked here, one value by the engine
    (``check_cards``), whose message names it."""
    if not isinstance(num_players, Sequence) or isinstance(num_players, str):
        return (num_players,)
    sizes = tuple(num_players)
    if not sizes or not all(isinstance(n, int | np.integer) and not isinstance(n, bool)
                            and MIN_PLAYERS <= n <= MAX_PLAYERS for n in sizes):
        raise ValueError(f"num_players must be {MIN_PLAYERS}–{MAX_PLAYERS} or a non-empty list "
                         f"of table sizes {MIN_PLAYERS}–{MAX_PLAYERS}, got {list(num_players)}")
    return tuple(int(n) for n in sizes)


def draw_sizes(rng: np.random.Generator, sizes: Sequence[int], count: int) -> np.ndarray:
    """``count`` table sizes, each drawn uniformly over the entries of ``sizes``."""
    return np.asarray(sizes)[rng.integers(0, len(sizes), size=count)]


def size_rng(seed: int | None, opponents: Sequence[Policy]) -> np.random.Generator:
    """The generator of the games' table sizes: part ``P + 2`` of ``seed``
    (``core.seeding.spawned_rng``), ``P`` being the number of distinct opponents (parts
    ``0 … P-1``; the VecEnv's learner seats and dice are parts ``P`` and ``P + 1``), so the
    existing streams are untouched and a seeded Gym env and a seeded VecEnv draw the same
    sizes."""
    return spawned_rng(seed, len(distinct(opponents)) + 2)
