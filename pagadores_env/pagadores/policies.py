"""Pagadores' own capabilities of the policy protocol (``core.policies``), for the exact solver
(``solver.response``, and the multi-player sweeps through it): a Pagadores policy follows
``core.policies.Policy`` with this game's observation row and its ``[stop allowed,
throw-again allowed]`` mask, and may also offer these. Like the protocol's other capabilities,
each is a ``runtime_checkable`` Protocol found by ``isinstance``, which looks for the method's
name only.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np

from ..core.policies import register_game
from .observation import ObsFields

GAME = register_game("pagadores")  # the registry's namespace of Pagadores' players


@runtime_checkable
class SupportsThrowProbabilities(Protocol):
    """A stochastic policy that states its probability of throwing again, so the exact solver
    evaluates its mixture rather than one draw of it (``solver.response.policy_table`` makes a
    table of probabilities for it)."""

    def throw_probabilities(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Per row of ``obs`` (observations ``[B, OBS_SIZE]``) and ``mask`` (``[B, 2]``), the
        probability in [0, 1] that it throws again."""


@runtime_checkable
class SupportsActFields(Protocol):
    """A policy that reads its observations through ``observation.decode``: the exact solver
    hands it the decoded integers instead of writing observation rows for it to read back.
    A ``SupportsThrowProbabilities`` policy is asked for its probabilities instead."""

    def act_fields(self, fields: ObsFields, mask: np.ndarray) -> np.ndarray:
        """``act_batch`` on decoded observations: ``fields`` with one leading axis of rows."""


@runtime_checkable
class DeclaresPositionAnswers(Protocol):
    """A policy whose batched answers about one card position come from tables it builds for
    that position (a search player solves the round's position once and looks every row up)
    says so with ``position_answers = True``: its rows cost a lookup, not a query, so the
    exact passes' limit on policy queries (``solver.cost.MAX_ROWS``) does not count them;
    what bounds its time is the positions it builds."""

    position_answers: bool


def answers_by_position(policy: object) -> bool:
    """Whether ``policy`` declares ``position_answers = True`` (``DeclaresPositionAnswers``)."""
    return isinstance(policy, DeclaresPositionAnswers) and bool(policy.position_answers)
