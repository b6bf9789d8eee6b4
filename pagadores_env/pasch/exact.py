"""The exact yardstick of Pasch (X9).

**The single turn** (X9.1): ``best_chance(goal, blocks)`` is the largest probability that a
fresh turn (three throws, then ``blocks`` action blocks) ends at or above the field ``goal``
(``(row, column)``, rows by name, ordered as X7.1; an equal field counts as reached, since
the new disc lies on top of the old one, X6.4). ``best_policy(goal, blocks)`` is a policy
that achieves it, as a table over the 252 sorted hands (``TurnPolicy``): it throws again and
spends a block only where that raises its chance (ties within 1e-12 go to stopping and
placing, then to the lowest action). Both come from the backward induction of
``pasch.turn``, which solves all 37 goals at once in well under a second.

**The last round** (X9.2, at 2 or 3 players; ``pasch.last_round``): ``last_round(scores,
last_cards, blocks_left, starter)`` is each seat's share of the win in the round's
subgame-perfect equilibrium, ``solve_last_round`` the equilibrium itself (its actions, for
a player), ``exact_evaluate(players, ...)`` each seat's share when given players play the
round, and ``nash_conv(players, ...)`` how much the seats together could gain by deviating
alone. ``ResponsePolicy(policy)`` is the best response to a policy in a last round at 2
players (``starter_response`` as the starter, the equilibrium as the second seat), the
opponent a learner trains against to lower its last-round NashConv.
``action_values(obs, mask)`` reads a decision of a last round from what its player sees and
gives each legal action's exact share of the win for that player (the page's exact hints).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core.policies import BasePolicy, Policy, batch_actions
from .last_round import (
    PLAYERS,
    LastRound,
    exact_evaluate,
    last_round,
    nash_conv,
    seen_last_round,
    solve_last_round,
    solve_seen,
    starter_response,
)
from .observation import decode
from .rules import (
    CLASSES,
    DEFAULT_HAND,
    DICE_ACTIONS,
    HAND_INDEX,
    MAX_BLOCKS,
    MAX_THROWS,
    check_dice,
    check_field,
    class_field,
    hand_indices,
)
from .turn import solve_turn

__all__ = ["EquilibriumPolicy", "LastRound", "ResponsePolicy", "TurnPolicy", "action_values",
           "best_chance", "best_policy", "chance_table", "exact_evaluate", "last_round",
           "nash_conv", "solve_last_round", "starter_response"]


def _check_blocks(blocks: Any) -> int:
    if isinstance(blocks, bool) or not isinstance(blocks, int | np.integer) \
            or not 0 <= blocks <= MAX_BLOCKS:
        raise ValueError(f"blocks must be a whole number 0–{MAX_BLOCKS} (X1.3), got {blocks!r}")
    return int(blocks)


@functools.cache
def _solved(blocks: int) -> tuple[np.ndarray, dict[Any, np.ndarray]]:
    """Every goal's chance and thrifty policy with ``blocks`` blocks: one backward pass with
    a column per goal class (37 columns)."""
    goals = np.arange(CLASSES)
    U = (goals[:, None] >= goals[None, :]).astype(float)[:, None, None, :]
    solution = solve_turn(U, blocks, None, thrifty=True, keep=True)
    chances = np.minimum(solution.start[0], 1.0)  # sums of probabilities may pass 1 by 1 ulp
    return chances, {level: c[:, 0, :] for level, c in solution.choices.items()}


def chance_table(blocks: int = 0) -> np.ndarray:
    """``best_chance`` of every goal class (0 beside the board, then the 36 fields in the
    order of X7.1), read-only: ``(37,)``."""
    chances = _solved(_check_blocks(blocks))[0].copy()
    chances.flags.writeable = False
    return chances


def best_chance(goal: Any, blocks: int = 0) -> float:
    """The largest probability that a fresh turn with ``blocks`` blocks ends at or above the
    field ``goal`` (module docstring)."""
    return float(chance_table(blocks)[check_field(goal)])


@dataclass(frozen=True)
class TurnPolicy:
    """The single-turn policy reaching ``goal`` with the largest probability, ``chance``
    (``best_policy``). ``act`` gives its relative dice action (X8.1: add the hand's number
    of card values C for the action id)."""

    goal: tuple[str, int]
    blocks: int
    chance: float
    #: relative action after throw t (index t - 1) per sorted hand (``rules.HANDS`` order)
    choose: np.ndarray
    #: relative action with b blocks left (index b) per sorted hand, after the throws
    spend: np.ndarray

    def act(self, dice: Sequence[int], throws: int, blocks_left: int) -> int:
        """The relative action with the sorted ``dice`` after ``throws`` throws (1–3; after
        throws 1 and 2 it stops or throws again, X3.2) and ``blocks_left`` blocks (at most
        the policy's ``blocks``; from a stop on, it spends blocks or places, X4)."""
        hand = HAND_INDEX[check_dice(dice)]
        if isinstance(throws, bool) or throws not in range(1, MAX_THROWS + 1):
            raise ValueError(f"throws must be 1–{MAX_THROWS}, got {throws!r}")
        if isinstance(blocks_left, bool) or blocks_left not in range(self.blocks + 1):
            raise ValueError(f"this policy plays 0–{self.blocks} blocks left, got "
                             f"{blocks_left!r}: ask best_policy(goal, blocks) for more")
        if throws < MAX_THROWS:
            return int(self.choose[throws - 1, hand])
        return int(self.spend[blocks_left, hand])

    def after_stop(self, dice: Sequence[int], blocks_left: int) -> int:
        """The relative action once the player has stopped (its blocks phase, X4)."""
        return self.act(dice, MAX_THROWS, blocks_left)


@functools.cache
def _policy(goal: int, blocks: int) -> TurnPolicy:
    chances, choices = _solved(blocks)
    choose = np.stack([choices[("choose", t)][:, goal] for t in (1, 2)])
    spend = np.stack([choices[("blocks", 3, b)][:, goal] for b in range(blocks + 1)])
    for table in (choose, spend):
        table.flags.writeable = False
    return TurnPolicy(class_field(goal), blocks,  # type: ignore[arg-type]  # a field
                      float(chances[goal]), choose, spend)


def best_policy(goal: Any, blocks: int = 0) -> TurnPolicy:
    """The policy achieving ``best_chance(goal, blocks)`` (module docstring)."""
    return _policy(check_field(goal), _check_blocks(blocks))



def _check_last_round(view: Any) -> None:
    """``ValueError`` unless every row of ``view`` is a dice decision of a last round at 2
    or 3 players, the decisions the equilibrium covers."""
    if not (view.last_round & np.isin(view.players, PLAYERS) & (view.phase >= 1)).all():
        raise ValueError("the equilibrium plays the dice decisions of a last round at 2 or "
                         "3 players (X9.2) only")


def action_values(obs: np.ndarray, mask: np.ndarray) -> dict[int, float]:
    """Each legal action's exact share of the win for the seat to play, at one observation
    of a dice decision of a last round at 2 or 3 players (``mask`` its legal actions), once
    it takes that action and every choice after it is the round's equilibrium (X9.2,
    ``LastRound.action_values``); ``ValueError`` in one line at any other decision."""
    legal = np.flatnonzero(np.asarray(mask))
    view = decode(np.asarray(obs)[None])
    _check_last_round(view)
    seen = seen_last_round(view)
    turn = int(seen.turn[0])
    context = [int(c) for c in np.unravel_index(int(seen.context[0]), (CLASSES,) * turn)]
    solved = solve_seen(seen.position[0].tolist())
    values = solved.action_values(context, view.dice[0].tolist(), int(view.throws[0]),
                                  int(seen.blocks[0]), bool(view.phase[0] == 1))
    first = np.asarray(mask).shape[-1] - DICE_ACTIONS  # C, the hand's card values (X8.1)
    mover = solved.position.order[turn]  # the observer, in its own slots
    return {int(action): values[int(action) - first][mover] for action in legal}


class EquilibriumPolicy(BasePolicy):
    """The last round's subgame-perfect equilibrium (X9.2) as a player: from each
    observation of a last round at 2 or 3 players it reads the position (scores before the
    round, last cards, blocks left, starter, in the observer's slots: the equilibrium does
    not depend on how seats are numbered) and the discs placed so far, solves the round
    (``solve_last_round``, kept for positions met again) and plays its action. A row of any
    other decision raises ``ValueError``."""

    name = "equilibrium"

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        """The equilibrium's action for one observation."""
        return int(self.act_batch(np.asarray(obs)[None], np.asarray(mask)[None])[0])

    def act_batch(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The equilibrium's actions for rows of observations, one solve per position and
        discs placed (``LastRound.table``)."""
        view = decode(obs)
        first = np.asarray(mask).shape[-1] - DICE_ACTIONS  # C, the hand's card values (X8.1)
        phase = view.phase
        _check_last_round(view)
        seen = seen_last_round(view)
        # one group per position, turn and blocks: its contexts are solved in one pass
        group = np.ascontiguousarray(np.column_stack([seen.position, seen.turn, seen.blocks]))
        as_bytes = group.view(np.dtype((np.void, group.itemsize * group.shape[1]))).ravel()
        _, firsts, inverse = np.unique(as_bytes, return_index=True, return_inverse=True)
        rows = np.where(phase == 1, view.throws - 1, MAX_THROWS - 1 + seen.blocks)
        hands = hand_indices(view.dice)
        out = np.empty(len(phase), dtype=np.int64)
        for u, first_row in enumerate(firsts):
            at = inverse.reshape(-1) == u
            contexts, where = np.unique(seen.context[at], return_inverse=True)
            tables = solve_seen(seen.position[first_row].tolist()).tables(
                int(seen.turn[first_row]), contexts, int(seen.blocks[first_row]))
            out[at] = tables[where.reshape(-1), rows[at], hands[at]]
        return out + first


#: Where ``ResponsePolicy`` reads a position in a ``Seen.position`` row at 2 players: the
#: scores, the last cards and the blocks, each in the observer's slots (observer first).
_SCORES, _CARDS, _BLOCKS = slice(2, 4), slice(5, 7), slice(8, 10)


class ResponsePolicy(BasePolicy):
    """The best response to ``policy`` in a last round at 2 players (X9.2): as the starter
    the exact response to ``policy`` in the second seat (``starter_response``, one table per
    position, solved when first met and kept), as the second seat the equilibrium's turn
    (``EquilibriumPolicy``), which is the best response to any starter. Together the two
    seats' gains are ``policy``'s ``nash_conv`` in that round. Every other decision (the
    cards, earlier rounds, other tables) is ``fallback``'s. ``positions``, if given, are the
    last rounds (``(scores, last_cards, blocks_left, starter)``) it responds in, matched by
    their scores and cards (any blocks); the fallback plays the others, whose solving would
    cost time where a learner trains. ``hand`` is the game's hand (X1.3), as
    ``starter_response`` takes it."""

    name = "last-round-response"

    def __init__(self, policy: Policy, fallback: Policy,
                 positions: Sequence[tuple[Any, Any, Any, int]] | None = None,
                 hand: Sequence[int] = DEFAULT_HAND) -> None:
        super().__init__()
        self.policy, self.fallback, self.hand = policy, fallback, tuple(hand)
        self._equilibrium = EquilibriumPolicy()
        self._matched = None if positions is None else {
            _starter_first(scores, cards, starter) for scores, cards, _, starter in positions}
        self._tables: dict[tuple[int, ...], dict[int, np.ndarray]] = {}

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        """The action at one observation."""
        return int(self.act_batch(np.asarray(obs)[None], np.asarray(mask)[None])[0])

    def act_batch(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The actions at rows of observations (class docstring)."""
        obs, mask = np.atleast_2d(obs), np.atleast_2d(mask)
        view = decode(obs)
        ours = view.last_round & (view.players == 2) & (view.phase >= 1)
        if not ours.any():  # most decisions of whole games: no position to read
            return np.asarray(batch_actions(self.fallback, obs, mask), dtype=np.int64)
        out = np.empty(len(obs), dtype=np.int64)
        seen = seen_last_round(view)
        if self._matched is not None:
            for i in np.flatnonzero(ours):
                p = seen.position[i]
                ours[i] = _starter_first(p[_SCORES], p[_CARDS], int(p[1])) in self._matched
        second = ours & (seen.turn == 1)
        starter = ours & (seen.turn == 0)
        if second.any():
            out[second] = self._equilibrium.act_batch(obs[second], mask[second])
        first = np.asarray(mask).shape[-1] - DICE_ACTIONS  # C, the hand's card values (X8.1)
        hands = hand_indices(view.dice)
        for i in np.flatnonzero(starter):
            p, b = seen.position[i], int(seen.blocks[i])
            row = view.throws[i] - 1 if view.phase[i] == 1 else MAX_THROWS - 1 + b
            out[i] = first + self._table(p, b)[row, hands[i]]
        rest = ~ours
        if rest.any():
            out[rest] = batch_actions(self.fallback, obs[rest], mask[rest])
        return out

    def _table(self, seen: np.ndarray, blocks: int) -> np.ndarray:
        """The starter's table at a ``Seen.position`` row with ``blocks`` blocks left. A table
        solved for more blocks has the same rows for fewer (what is left of a turn depends only
        on the blocks left), and a turn's first decision comes before any block is spent, so
        each position is solved once, with the blocks the starter began with."""
        tables = self._tables.setdefault(
            (*seen[_SCORES], *seen[_CARDS], int(seen[_BLOCKS][1])), {})
        solved = [b for b in tables if b >= blocks]
        if not solved:
            tables[blocks] = starter_response(self.policy, list(seen[_SCORES]),
                                              list(seen[_CARDS]), [blocks, int(seen[_BLOCKS][1])],
                                              0, self.hand)
            solved = [blocks]
        return tables[min(solved)]


def _starter_first(scores: Any, cards: Any, starter: int) -> tuple[int, ...]:
    """A 2-player last round's scores and cards, the starter's first."""
    order = (starter, 1 - starter)
    return (*(int(scores[s]) for s in order), *(int(cards[s]) for s in order))
