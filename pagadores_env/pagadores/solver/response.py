"""Exact best responses, exact evaluations (win probabilities, expected game length) and
exploitability for two-player policies.

A policy (``act(obs, mask)``, or ``act_batch`` for many rows) is turned into a
:class:`~.model.PolicyTable` by asking it about every decision state once, on the very
observation rows ``observation.encode`` gives for those states (``decisions.GRID``), in a
few large ``act_batch`` calls (an SB3 model: a few forward passes). The backward induction
of ``model`` then plays that table exactly.

A stochastic policy is asked once per decision state, so what is evaluated is the
deterministic policy that those calls drew (seed it with ``reset(seed)`` to repeat).

**Exploitability** of a policy π with ``cards`` cards a side is how much a best response
gains over the game value, averaged over the two first-insteker orders::

    exploitability(π) = ½ [BR_first(π) − v] + ½ [BR_second(π) − (1 − v)]

where ``v`` is the optimal first insteker's win probability, ``BR_first`` is the best
response's win probability when it insteeks the first round against π, and ``BR_second``
when π insteeks first. It is ≥ 0, and 0 exactly when π plays optimally wherever a best
response could profit. (The two game values add up to 1, so it equals
``½ (BR_first + BR_second) − ½``.)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ...core.checks import check_int
from ...core.policies import BasePolicy, Policy, batch_actions
from ..observation import OBS_SIZE, ObsFields, encode_batch
from ..policies import SupportsActFields, SupportsThrowProbabilities
from ..rules import MAX_CARDS
from .decisions import (
    GRID,
    INSTEKER,
    decode_batch,
    grid_observations,
    table_actions,
)
from .model import (
    PolicyTable,
    Tables,
    backward,
    backward_rounds,
    check_cards,
)
from .two_player import greedy_table, load_or_solve

#: Rows per ``act_batch`` call (whole card positions are never split).
BATCH_ROWS = 1 << 16


def _ask(policy: Policy, obs: np.ndarray | None = None, fields: ObsFields | None = None
         ) -> np.ndarray:
    """``policy``'s choice at every row: observation rows ``obs``, or their integers
    ``fields`` (passed as they are to a policy with ``act_fields``, ``SupportsActFields``,
    which then skips writing and reading the vectors; encoded for the others). A stochastic
    policy gives its probabilities of throwing again (``SupportsThrowProbabilities``), so its
    mixture is evaluated exactly."""
    mixed = isinstance(policy, SupportsThrowProbabilities)
    if obs is None:
        assert fields is not None  # one of the two is given
        if not mixed and isinstance(policy, SupportsActFields):
            count = len(fields.my_strength)
            return _actions(policy, policy.act_fields(fields, _open(count)), count)
        obs = encode_batch(fields)
    count = len(obs)
    if isinstance(policy, SupportsThrowProbabilities):  # evaluate its mixture exactly
        p = np.asarray(policy.throw_probabilities(obs, _open(count)), dtype=float)
        if p.shape != (count,) or not ((p >= 0) & (p <= 1)).all():
            raise ValueError(f"policy {policy!r} must give each of {count} rows a "
                             f"probability of throwing again in [0, 1]; got shape {p.shape}")
        return p
    return _actions(policy, batch_actions(policy, obs, _open(count)), count)


def _open(count: int) -> np.ndarray:
    """The masks of ``count`` rows at which both actions are legal (R3.6: every decision)."""
    return np.ones((count, 2), dtype=np.int8)


def _actions(policy: Policy, answers: np.ndarray, count: int) -> np.ndarray:
    """``policy``'s ``answers`` to ``count`` rows as booleans (throw again), or ``ValueError``
    unless they are one 0 (stop) or 1 (throw again) per row."""
    actions = np.asarray(answers)
    if actions.shape != (count,) or not np.isin(actions, (0, 1)).all():
        raise ValueError(
            f"policy {policy!r} must answer each of {count} rows with 0 (stop) or "
            f"1 (throw again); got shape {actions.shape}, values {np.unique(actions)[:5]}"
        )
    return actions.astype(bool)


def policy_table(policy: Policy | PolicyTable, cards: int = MAX_CARDS) -> PolicyTable:
    """The policy's action at every two-player decision with 1…``cards`` cards a side."""
    if isinstance(policy, PolicyTable):
        return policy
    cards = check_cards(cards)
    table = PolicyTable.empty(cards, mixed=isinstance(policy, SupportsThrowProbabilities))
    role, used, strength, limit, score = GRID.T
    ins = role == INSTEKER
    positions = [(a, b) for a in range(1, cards + 1) for b in range(1, cards + 1)]
    per_call = max(1, BATCH_ROWS // len(GRID))
    for start in range(0, len(positions), per_call):
        chunk = positions[start:start + per_call]
        obs = np.concatenate([grid_observations(a, b) for a, b in chunk])
        throws = _ask(policy, obs).reshape(len(chunk), len(GRID))
        for (a, b), throw in zip(chunk, throws, strict=True):
            table.insteker[a, b, used[ins], strength[ins]] = throw[ins]
            table.follower[a, b, limit[~ins], score[~ins], used[~ins], strength[~ins]] = \
                throw[~ins]
    return table


class TablePolicy(BasePolicy):
    """Plays a :class:`PolicyTable` from two-player observations (decoded via
    ``observation.decode``); ``ValueError`` for other table sizes."""

    name = "table"

    def __init__(self, table: PolicyTable, seed: int | None = None) -> None:
        super().__init__(seed)
        if table.mixed:
            raise ValueError("a table of probabilities is for exact evaluation; play the "
                             "stochastic policy it came from instead")
        self.table = table

    def check_table(self, num_players: int, cards: int | Sequence[int]) -> None:
        """``ValueError`` unless the table is two-player with at most ``table.cards`` cards a
        seat: the only positions this table holds (``core.policies.check_tables``)."""
        if num_players != 2:
            raise ValueError(f"{self.name!r} plays 2-player games only (the exact solver is "
                             f"two-player), got {num_players} players")
        most = int(np.max(cards))
        if most > self.table.cards:
            raise ValueError(f"{self.name!r} covers up to {self.table.cards} cards a player, "
                             f"got {most}")

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        """The table's action at one observation."""
        return int(self.act_batch(np.reshape(obs, (1, OBS_SIZE)), np.reshape(mask, (1, 2)))[0])

    def act_batch(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The table's actions at rows of observations; a single legal action is taken."""
        obs = np.asarray(obs).reshape(-1, OBS_SIZE)
        legal = np.asarray(mask).reshape(len(obs), 2).astype(bool)
        if not legal.any(axis=1).all():
            raise ValueError("every action mask must allow stop (0) or throw again (1)")
        actions = legal[:, 1].astype(np.int64)  # a single legal action is taken as it is
        both = legal.all(axis=1)
        if both.any():
            actions[both] = table_actions(self.table, decode_batch(obs[both]))
        return actions


@dataclass(frozen=True)
class Match:
    """Exact win probabilities of seat 0's player against seat 1's player."""

    tables: Tables

    @property
    def win_first(self) -> float:
        """Seat 0's player wins, insteeking the first round (``cards`` each)."""
        return float(self.tables.win[0, self.tables.cards, self.tables.cards])

    @property
    def win_second(self) -> float:
        """Seat 0's player wins when the other insteeks the first round."""
        return float(self.tables.win[1, self.tables.cards, self.tables.cards])

    @property
    def win_mean(self) -> float:
        """Averaged over who insteeks first."""
        return 0.5 * (self.win_first + self.win_second)


def win_probabilities(policy: Policy | PolicyTable, opponent: Policy | PolicyTable,
                      cards: int = MAX_CARDS) -> Match:
    """Exact win probabilities of ``policy`` against ``opponent``."""
    return Match(backward(cards, (policy_table(policy, cards), policy_table(opponent, cards))))


def expected_rounds(policy: Policy | PolicyTable, opponent: Policy | PolicyTable,
                    cards: int = MAX_CARDS, first_insteker: int = 0) -> float:
    """The exact mean number of rounds a game lasts with ``cards`` cards a side, seat 0
    playing ``policy``, seat 1 ``opponent`` and ``first_insteker`` insteeking the first round
    (R3.1); kampen belongs to the round it settles (R5.4)."""
    first = check_int("first_insteker", first_insteker, 0, 1)
    tables = (policy_table(policy, cards), policy_table(opponent, cards))
    return float(backward_rounds(cards, tables)[first, cards, cards])


@dataclass(frozen=True)
class BestResponse(Match):
    """A best response against a fixed policy: its exact values and its actions."""

    @property
    def table(self) -> PolicyTable:
        """The best response's action at every decision (True = throw again)."""
        return greedy_table(self.tables)

    def policy(self) -> TablePolicy:
        """The best response as a player (``act`` / ``act_batch`` on observations)."""
        return TablePolicy(self.table)


def best_response(policy: Policy | PolicyTable, cards: int = MAX_CARDS) -> BestResponse:
    """The exact best response (seat 0) against ``policy`` (seat 1)."""
    return BestResponse(backward(cards, ("max", policy_table(policy, cards))))


def exploitability(policy: Policy | PolicyTable, cards: int = MAX_CARDS) -> float:
    """How much a best response wins above the game value (see the module docstring)."""
    response = best_response(policy, cards)
    value = load_or_solve(cards).value
    return 0.5 * (response.win_first - value) + 0.5 * (response.win_second - (1.0 - value))
