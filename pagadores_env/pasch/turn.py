"""One dice turn as a one-player problem (X9.1): the transition tables over the 252 sorted
hands of five dice, and backward induction over a turn for many payoff columns at once.

A turn's states are the sorted hand (252), the throws used and the blocks left. Its levels,
from the last decided to the first: **blocks** ``(t, b)`` after ``t`` throws with ``b`` blocks
left (X4: rethrow, raise or lower one die, or place, X6), then **choose** ``t = 2`` and
``t = 1`` (stop, or throw a non-empty subset again, X3.2). A turn starts with a throw of all
five dice (X3.1).

Throwing dice again depends only on the dice kept: ``Tables.keep_dist[k]`` is the distribution
of the resulting sorted hand when the multiset ``KEEPS[k]`` (0–4 dice) is kept and the rest
thrown, so one matrix product gives the expected value of every kept multiset, and
``subset_keep``/``reroll_keep`` name the multiset each action keeps.

``solve_turn`` works on a payoff array ``U`` of shape ``(CLASSES, L, X, P)``: the payoff of
placing at each class (``rules``: 0 beside, then the fields in the order of X7.1) with ``b``
blocks left (``L`` = blocks + 1, or 1 when blocks left do not matter), in ``X`` contexts,
for ``P`` columns. The mover maximises its own column (``mover``) and takes the whole
column vector of its choice, or, with ``mover=None``, every column chooses for itself (many
goals at once). Where ``given`` says what a player does (action probabilities per level),
the turn follows it instead (policy evaluation).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from .rules import (
    CLASSES,
    DICE,
    DICE_ACTIONS,
    FACES,
    HAND_INDEX,
    HANDS,
    OUTCOMES,
    REL_PLACE,
    REL_PLACE_LOW,
    REL_REROLL,
    REL_STOP,
    SUBSETS,
    dice_actions,
    placement_classes,
    subset_positions,
)

H = len(HANDS)  # 252
TOL = 1e-12  # values this close are ties (X9.2): the first action in the tie order wins
#: Every multiset of 0–4 dice that can be kept, sorted.
KEEPS: tuple[tuple[int, ...], ...] = tuple(
    k for size in range(DICE) for k in
    itertools.combinations_with_replacement(range(1, FACES + 1), size))
KEEP_INDEX = {keep: i for i, keep in enumerate(KEEPS)}

#: A level of a turn: ``("choose", t)`` after throw t = 1, 2; ``("blocks", t, b)``.
Level = tuple[str, int] | tuple[str, int, int]
#: What a player does at a level: ``(H, X, DICE_ACTIONS)`` probabilities over the relative
#: dice actions, or ``(H, X)`` relative actions (a deterministic player).
Given = Callable[[Level], np.ndarray]


@dataclass(frozen=True)
class Tables:
    """The transition tables of a turn (module docstring); -1 marks an action that is not
    there (a 6 raised, a 1 lowered, no second column)."""

    keep_dist: np.ndarray  #: (len(KEEPS), H) resulting hand when a multiset is kept
    subset_keep: np.ndarray  #: (H, 31) the kept multiset of throwing subset m again (m - 1)
    reroll_keep: np.ndarray  #: (H, 5) the kept multiset of a block's rethrow of die i
    raise_to: np.ndarray  #: (H, 5) the hand after raising die i
    lower_to: np.ndarray  #: (H, 5) the hand after lowering die i
    place: np.ndarray  #: (H, 2) the classes of placing and of placing in the lower column
    fresh: np.ndarray  #: (H,) the first throw of all five dice (X3.1)
    block_masks: np.ndarray  #: (H, 49) bool: the legal relative dice actions with blocks left
    last_masks: np.ndarray  #: (H, 49) bool: the legal ones without blocks


def _without(hand: tuple[int, ...], positions: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(d for i, d in enumerate(hand) if i not in positions)


@functools.cache
def tables() -> Tables:
    """The tables, built once (a few milliseconds)."""
    keep_dist = np.zeros((len(KEEPS), H))
    for k, keep in enumerate(KEEPS):
        for thrown, p in OUTCOMES[DICE - len(keep)]:
            keep_dist[k, HAND_INDEX[tuple(sorted(keep + thrown))]] += p
    subset_keep = np.array([[KEEP_INDEX[_without(h, subset_positions(m))]
                             for m in range(1, SUBSETS + 1)] for h in HANDS])
    reroll_keep = np.array([[KEEP_INDEX[_without(h, (i,))] for i in range(DICE)]
                            for h in HANDS])

    def moved(step: int) -> np.ndarray:
        return np.array([[HAND_INDEX[tuple(sorted((*_without(h, (i,)), h[i] + step)))]
                          if 1 <= h[i] + step <= FACES else -1 for i in range(DICE)]
                         for h in HANDS])

    place = np.array([(c[0], c[1] if len(c) == 2 else -1)
                      for c in (placement_classes(h) for h in HANDS)])
    masks = np.zeros((2, H, DICE_ACTIONS), dtype=bool)
    for blocks in (0, 1):
        for i, h in enumerate(HANDS):
            masks[blocks, i, list(dice_actions(h, blocks, False))] = True
    return Tables(keep_dist, subset_keep, reroll_keep, moved(1), moved(-1), place,
                  keep_dist[KEEP_INDEX[()]], masks[1], masks[0])


def levels(blocks: int, per_throw: bool) -> list[Level]:
    """A turn's levels in the order they are solved (module docstring); with ``per_throw``
    the blocks levels are told apart by the throws used, which a player's observation shows
    (else one blocks level per ``b``, written with ``t = 3``, serves every ``t``)."""
    throws = (1, 2, 3) if per_throw else (3,)
    return ([("blocks", t, b) for b in range(blocks + 1) for t in throws]
            + [("choose", 2), ("choose", 1)])


#: One action at a level: its relative id, its values ``(H, X, P)`` (computed when needed)
#: and where it is legal (``(H,)``, None for everywhere).
Candidate = tuple[int, Callable[[], np.ndarray], np.ndarray | None]


def _pick(candidates: list[Candidate], mover: int | None,
          order: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """The best candidate per state (ties within ``TOL`` to the first in ``order``) and the
    index of the candidate chosen. The mover's column decides (``mover``), else each
    column."""
    values = [compute() for _, compute, _ in candidates]

    def own(k: int) -> np.ndarray:
        v = values[k] if mover is None else values[k][..., mover]
        mask = candidates[k][2]
        if mask is None:
            return v
        return np.where(mask.reshape((H,) + (1,) * (v.ndim - 1)), v, -np.inf)

    best = functools.reduce(np.maximum, (own(k) for k in order))
    choice = np.full(best.shape, -1)
    for k in order:
        choice[(choice < 0) & (own(k) >= best - TOL)] = k
    out = np.zeros_like(values[0])
    for k in order:
        where = choice == k
        np.copyto(out, values[k], where=where if mover is None else where[..., None])
    return out, choice


def _follow(candidates: list[Candidate], answer: np.ndarray) -> np.ndarray:
    """The expected value when a player answers ``answer``: ``(H, X)`` relative actions or
    ``(H, X, 49)`` probabilities; only the actions it takes are computed."""
    out: np.ndarray | None = None
    for rel, compute, _ in candidates:
        weight = (answer == rel) if answer.ndim == 2 else answer[..., rel]
        if weight.any():
            term = weight[..., None] * compute()
            out = term if out is None else out + term
    assert out is not None  # every state takes some action
    return out


@dataclass
class TurnSolution:
    """What ``solve_turn`` found: ``start`` the value of a fresh turn ``(X, P)``; with
    ``keep``, per level the relative action chosen ``(H, X)`` (or ``(H, X, P)`` with
    ``mover=None``), -1 where a level was followed (``given``); with ``explain``, per level
    each relative action's values ``(H, X, P)`` once it is taken, NaN where it is not legal
    (the numbers the choice was made by)."""

    start: np.ndarray
    choices: dict[Level, np.ndarray]
    values: dict[Level, dict[int, np.ndarray]] = field(default_factory=dict)


def solve_turn(U: np.ndarray, blocks: int, mover: int | None, *, thrifty: bool = False,
               given: Given | None = None, keep: bool = False,
               explain: bool = False) -> TurnSolution:
    """Backward induction over one turn with ``blocks`` blocks (module docstring). Ties go
    to the lowest action id (X9.2), or, ``thrifty``, to stopping and placing first (spend no
    throw or block that does not raise the value), then to the lowest. ``explain`` keeps
    every action's values at every level (``TurnSolution.values``)."""
    t = tables()
    L, X, P = U.shape[1:]
    per_throw = given is not None
    choices: dict[Level, np.ndarray] = {}
    explained: dict[Level, dict[int, np.ndarray]] = {}
    after: dict[tuple[int, int], np.ndarray] = {}  # blocks levels by (t, b)
    choose: dict[int, np.ndarray] = {}  # choose levels by t

    def decide(level: Level, candidates: list[Candidate]) -> np.ndarray:
        if given is not None:
            if keep:
                choices[level] = np.full((H, X), -1)
            return _follow(candidates, given(level))
        rel = [c[0] for c in candidates]
        if explain:
            explained[level] = {a: _legal_only(compute(), mask) for a, compute, mask in candidates}
        first = [k for k, a in enumerate(rel) if a in (REL_STOP, REL_PLACE)] if thrifty else []
        order = first + [k for k in range(len(rel)) if k not in first]
        out, choice = _pick(candidates, mover, order)
        if keep:
            choices[level] = np.asarray(rel)[choice]
        return out

    def expected(values: np.ndarray) -> np.ndarray:
        """Expected values of every kept multiset: (len(KEEPS), X, P)."""
        return (t.keep_dist @ values.reshape(H, -1)).reshape(len(KEEPS), X, P)

    def gather(values: np.ndarray, index: np.ndarray) -> Callable[[], np.ndarray]:
        return lambda: values[index]

    second = t.place[:, 1] >= 0
    for level in levels(blocks, per_throw):
        candidates: list[Candidate] = []
        if level[0] == "choose":
            throws = level[1]
            kept = expected(after[(3, blocks)] if throws == 2 else choose[2])
            candidates = [(m, gather(kept, t.subset_keep[:, m]), None) for m in range(SUBSETS)]
            stop = after[(throws if per_throw else 3, blocks)]
            candidates.append((REL_STOP, gather(stop, np.arange(H)), None))
            choose[throws] = decide(level, candidates)
            continue
        throws, b = level[1], level[2]  # type: ignore[misc]  # a blocks level
        at = U[:, min(b, L - 1)]  # (CLASSES, X, P): placing with b blocks left
        if b:
            prev = after[(throws, b - 1)]
            kept = expected(prev)
            candidates += [(REL_REROLL + i, gather(kept, t.reroll_keep[:, i]), None)
                           for i in range(DICE)]
            for base, to in ((REL_REROLL + DICE, t.raise_to), (REL_REROLL + 2 * DICE, t.lower_to)):
                candidates += [(base + i, gather(prev, np.maximum(to[:, i], 0)), to[:, i] >= 0)
                               for i in range(DICE)]
        candidates += [(REL_PLACE, gather(at, t.place[:, 0]), None),
                       (REL_PLACE_LOW, gather(at, np.maximum(t.place[:, 1], 0)), second)]
        after[(throws, b)] = decide(level, candidates)
    start = (t.fresh @ choose[1].reshape(H, -1)).reshape(X, P)
    return TurnSolution(start, choices, explained)


def _legal_only(values: np.ndarray, mask: np.ndarray | None) -> np.ndarray:
    """``values`` ``(H, X, P)`` with NaN at the hands where the action is not legal."""
    if mask is None:
        return values
    return np.where(mask[:, None, None], values, np.nan)


def goal_payoffs(goal_classes: np.ndarray) -> np.ndarray:
    """``U`` for reaching goals: 1 for placing at or above each goal class (a column per
    goal), else 0: ``(CLASSES, 1, 1, len(goals))``."""
    return (np.arange(CLASSES)[:, None] >= np.asarray(goal_classes)[None, :]).astype(
        float)[:, None, None, :]
