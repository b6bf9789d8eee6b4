"""Decision tables: scripted players the kernel plays itself, at the cost of an engine step.

A policy whose decisions depend only on the facts of ``kernel.TABLE_SHAPE`` — whether it fixes
the throw limit (R3.2), its throws used, its throw's strength, the score to beat (R3.5),
whether it holds its last card, whether another seat does — says so with the class attribute
``table_facts = True`` (``core.policies.DeclaresTableFacts``). ``decision_table(policy)`` asks
its ``act_batch`` once about every combination of those facts and keeps the answers; the
batch engine then looks that seat's decisions up inside the kernel instead of stopping for
them (``VectorGame.play_by_tables``): the VecEnv's opponents and the batch evaluator's players
cost no more than the throws around them. The players' ``act``/``act_batch`` stay the one home
of their logic; ``tests/pagadores/test_decision_tables.py`` checks that each table answers as
its ``act_batch`` does on the observations of real play at every table size.

The question asked about an entry is an observation of a 3-seat table (``encode_batch``): me
with 1 card or ``MAX_CARDS``, the next seat with 1 or ``MAX_CARDS`` holding the score to beat
(if any), the last seat with ``MAX_CARDS`` and no score; the insteker is me while I fix the
limit, else the next seat with the limit fixed at ``MAX_THROWS``. A player that reads anything
else must not declare ``table_facts``.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np

from ...core.policies import BasePolicy, DeclaresTableFacts, Policy, batch_actions
from ..observation import ObsFields, encode_batch
from ..rules import MAX_CARDS, MAX_THROWS
from .kernel import TABLE_SHAPE, TABLE_SIZE

_SEATS = 3  # me, another seat, and one more that has no score


@functools.cache
def questions() -> np.ndarray:
    """``(TABLE_SIZE, OBS_SIZE)``: the observation asked about each table entry, in the order
    of ``TABLE_SHAPE``'s indices (see the module docstring); built once, read-only."""
    setting, used, strength, to_beat, my_last, other_last = (
        axis.ravel() for axis in np.indices(TABLE_SHAPE))
    cards = np.full((TABLE_SIZE, _SEATS), MAX_CARDS)
    cards[:, 0] = np.where(my_last == 1, 1, MAX_CARDS)
    cards[:, 1] = np.where(other_last == 1, 1, MAX_CARDS)
    scores = np.full((TABLE_SIZE, _SEATS), -1)
    scores[:, 1] = to_beat - 1  # -1: nobody has a score yet
    throws_used = used + 1
    limit = np.where(setting == 1, 0, MAX_THROWS)
    fields = ObsFields(players=np.asarray(_SEATS), cards=cards,
                       insteker=np.where(setting == 1, 0, 1), scores=scores,
                       to_throw=np.zeros(_SEATS, np.int64), throw_limit=limit,
                       throws_used=throws_used, throws_left=MAX_THROWS - throws_used,
                       my_strength=strength)
    asked = encode_batch(fields)
    asked.flags.writeable = False
    return asked


def decision_table(policy: Policy) -> np.ndarray | None:
    """``policy``'s answer (0 stop, 1 throw again) to every entry of ``TABLE_SHAPE``, as
    ``uint8``, if it declares ``table_facts = True`` (``core.policies.DeclaresTableFacts``);
    else ``None``. ``ValueError`` if it answers anything but 0 or 1."""
    facts = (policy.table_facts if isinstance(policy, DeclaresTableFacts)
             else BasePolicy.table_facts)
    if not facts:
        return None
    masks = np.ones((TABLE_SIZE, 2), bool)  # R3.6: both actions are legal at a decision
    answers = np.asarray(batch_actions(policy, questions(), masks))
    if answers.shape != (TABLE_SIZE,) or not np.isin(answers, (0, 1)).all():
        raise ValueError(f"{policy!r} declares table_facts but answered something other than "
                         "one 0 or 1 per question")
    return answers.astype(np.uint8)


def seat_tables(policies: Sequence[Policy]) -> tuple[np.ndarray, np.ndarray]:
    """The decision tables of ``core.policies`` stacked ``(tables, TABLE_SIZE)``, and per policy
    its row there, -1 for a policy without one."""
    stacked: list[np.ndarray] = []
    index = []
    for policy in policies:
        table = decision_table(policy)
        index.append(-1 if table is None else len(stacked))
        if table is not None:
            stacked.append(table)
    tables = np.stack(stacked) if stacked else np.zeros((0, TABLE_SIZE), np.uint8)
    return tables, np.array(index, np.int64)
