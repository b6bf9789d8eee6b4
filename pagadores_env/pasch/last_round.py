"""The last round of a game of Pasch at 2 or 3 players, exactly (X9.2).

In the last round every seat holds one card, so the cards are known and their play is forced
(X8.3); the seats then take their dice turns in order from the starter. A seat's turn ends at
a class (``rules``: beside the board, or one of the 36 fields in the order of X7.1), and the
classes in placing order fix the ranking (a later disc on an equal field lies on top, X7.1),
hence the share-out (X7.2), the final scores and each seat's **share of the win**: 1/k for
each of k seats with the most points, 0 for the others (X1.4, ``core.rewards.win_share``).

So the round is a perfect-information game with chance, solved backwards one turn at a time
(``pasch.turn``): the last seat's turn for every combination of the earlier classes at once,
its start values are the payoffs of the seat before it, and so on to the starter.

- ``last_round(scores, last_cards, blocks_left, starter)``: each seat's share of the win in
  the subgame-perfect equilibrium (every seat maximises its own share; ties within 1e-12 go
  to the lowest action id, X9.2). ``solve_last_round`` returns the solved ``LastRound``,
  whose ``act`` is the equilibrium's action anywhere in the round, for a player.
- ``exact_evaluate(players, ...)``: each seat's share when ``players`` (one policy per seat,
  or one for all) play the round; a policy is asked once about every decision of the round
  it could meet — its observation also shows the blocks the seats before it kept, so the
  earlier seats' blocks are part of those decisions. A policy offering
  ``action_probabilities`` (``core.policies.SupportsActionProbabilities``) is measured as
  that mixture; any other by its ``act_batch`` answers.
- ``nash_conv(players, ...)``: the sum over seats of what each could gain by its best
  response while the others play on: 0 exactly at an equilibrium.

Sizes are checked before any work (``MAX_ASKED`` decisions to ask about, and the memory of
``core.memory.memory_limit``); a position that does not fit is refused in one line.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from ..core.memory import memory_limit
from ..core.policies import Policy, SupportsActionProbabilities, batch_actions
from .engine import Game
from .observation import Facts, ObsFields, facts, write
from .rules import (
    CARD_VALUES,
    CLASSES,
    DEFAULT_HAND,
    DICE_ACTIONS,
    HAND_INDEX,
    HANDS,
    HIGHEST_CARD,
    LOWEST_CARD,
    MAX_BLOCKS,
    MAX_THROWS,
    REL_STOP,
    Actions,
    check_blocks,
    check_dice,
    share_out,
)
from .turn import Given, H, Level, levels, solve_turn, tables

PLAYERS = (2, 3)  # X9.2
#: The most decisions (states a policy is asked about) an evaluation takes on, about a
#: minute with a scripted player: beyond it a position is refused, as asking would take long.
MAX_ASKED = 12_000_000
CHUNK_ROWS = 1 << 16  # observation rows asked at once
CHUNK_VALUES = 1 << 20  # values of one candidate array in one pass of a turn (8 MB)
#: What one pass of a turn holds at most: its candidate actions' arrays and the levels kept.
TURN_BYTES = 64 * CHUNK_VALUES * 8
_CHOOSE_PHASE, _BLOCKS_PHASE = 1, 2  # observation.PHASES indices


@dataclass(frozen=True)
class Position:
    """A last round (X9.2): the scores before it, each seat's last card and blocks left, and
    the seat that starts it."""

    scores: tuple[int, ...]
    cards: tuple[int, ...]
    blocks: tuple[int, ...]
    starter: int

    @property
    def n(self) -> int:
        """Players."""
        return len(self.scores)

    @property
    def order(self) -> tuple[int, ...]:
        """The seats in turn order from the starter (X2.1)."""
        return tuple((self.starter + k) % self.n for k in range(self.n))


def check_position(scores: Any, last_cards: Any, blocks_left: Any, starter: Any) -> Position:
    """The position, checked; ``ValueError`` in one line naming what is wrong."""
    def whole(value: Any) -> bool:
        return not isinstance(value, bool) and isinstance(value, int | np.integer)

    if isinstance(scores, str) or not isinstance(scores, Sequence) or len(scores) not in PLAYERS \
            or not all(whole(s) for s in scores):
        raise ValueError(f"scores must be 2 or 3 whole numbers, one per seat: the last round is "
                         f"solved exactly at 2 or 3 players (X9.2), got {scores!r}")
    n = len(scores)
    if isinstance(last_cards, str) or not isinstance(last_cards, Sequence) \
            or len(last_cards) != n or not all(whole(c) and LOWEST_CARD <= c <= HIGHEST_CARD
                                               for c in last_cards):
        raise ValueError(f"last_cards must be {n} cards, each a whole number from {LOWEST_CARD} "
                         f"to {HIGHEST_CARD} (X1.3), got {last_cards!r}")
    if not whole(starter) or not 0 <= starter < n:
        raise ValueError(f"starter must be a seat 0–{n - 1}, got {starter!r}")
    return Position(tuple(int(s) for s in scores), tuple(int(c) for c in last_cards),
                    check_blocks(blocks_left, n), int(starter))


def final_shares(position: Position) -> np.ndarray:
    """Each seat's share of the win (X1.4) for every combination of the seats' classes in
    turn order, the starter's most significant: ``(37 ** n, n)``."""
    n, order = position.n, position.order
    combos = np.indices((CLASSES,) * n).reshape(n, -1).T
    ranked = np.argsort(-(combos * n + np.arange(n)), axis=1)  # X7.1: later on top of equal
    codes = ranked @ (n ** np.arange(n))
    shares = np.zeros((len(combos), n))
    for code in np.unique(codes):
        stages = ranked[np.argmax(codes == code)]
        seats = [order[k] for k in stages]
        taken = share_out(seats, [position.cards[s] for s in seats])  # X7.2
        final = [position.scores[s] + sum(taken[s]) for s in range(n)]  # X7.3
        won = [s for s in range(n) if final[s] == max(final)]
        shares[np.ix_(codes == code, won)] = 1.0 / len(won)
    return shares


def _solve_chunked(U: np.ndarray, blocks: int, mover: int, **kwargs: Any) -> np.ndarray:
    """``solve_turn(...).start`` over the contexts of ``U`` in chunks that fit
    ``CHUNK_VALUES``."""
    X, P = U.shape[2:]
    step = max(1, CHUNK_VALUES // (H * P))
    return np.concatenate([solve_turn(U[:, :, x:x + step], blocks, mover, **kwargs).start
                           for x in range(0, X, step)])


# ---------------------------------------------------------------------- the equilibrium
class LastRound:
    """The last round's equilibrium (``solve_last_round``), solved backwards turn by turn as
    far as it is asked: ``shares`` needs every turn; a seat's ``table`` only the turns after
    it. ``payoffs(j)`` ``(37, 1, 37 ** j, n)`` is each seat's equilibrium share once the j-th
    seat to play places at a class, given the classes before it."""

    def __init__(self, position: Position) -> None:
        check_size(position, 0)
        self.position = position
        self._starts: dict[int, np.ndarray] = {}  # turn j -> its start values (37 ** j, n)
        self._tables: dict[tuple[int, int, int], np.ndarray] = {}

    @property
    def shares(self) -> tuple[float, ...]:
        """Each seat's share of the win in the equilibrium."""
        return tuple(float(v) for v in self._start(0)[0])

    def payoffs(self, j: int) -> np.ndarray:
        """The payoffs of the j-th turn (class docstring)."""
        n = self.position.n
        after = final_shares(self.position) if j == n - 1 else self._start(j + 1)
        return after.reshape(CLASSES ** j, CLASSES, n).transpose(1, 0, 2)[:, None]

    def _start(self, j: int) -> np.ndarray:
        if j not in self._starts:
            mover = self.position.order[j]
            self._starts[j] = _solve_chunked(self.payoffs(j), self.position.blocks[mover], mover)
        return self._starts[j]

    def act(self, context: Sequence[int], dice: Sequence[int], throws: int,
            blocks_left: int, choosing: bool) -> int:
        """The equilibrium's relative dice action (X8.1: add C for the action id) of the
        seat to play after the discs of the classes ``context`` (in placing order), with
        the sorted ``dice`` after ``throws`` throws and ``blocks_left`` blocks; ``choosing``
        after throws 1 and 2 (stop or throw again), else its blocks phase."""
        table = self.table(context)
        mover = self.position.order[len(context)]
        if not 0 <= blocks_left <= self.position.blocks[mover]:
            raise ValueError(f"seat {mover} has 0–{self.position.blocks[mover]} blocks in "
                             f"this round, got {blocks_left!r}")
        row = throws - 1 if choosing and throws < MAX_THROWS else MAX_THROWS - 1 + blocks_left
        return int(table[row, HAND_INDEX[check_dice(dice)]])

    def table(self, context: Sequence[int], blocks: int | None = None) -> np.ndarray:
        """The equilibrium's relative dice actions of the seat to play after the discs of
        the classes ``context``, with ``blocks`` blocks at its turn (its position's by
        default; its actions do not depend on how many it started with): row t - 1 after
        throw t = 1, 2 (stop or throw again), row 2 + b in its blocks phase with b blocks
        left; a column per sorted hand (``HANDS``)."""
        j, index = self._context(context)
        return self.tables(j, np.array([index]), blocks)[0]

    def _context(self, context: Sequence[int]) -> tuple[int, int]:
        """The turn ``context`` leads to and its index among that turn's ``37 ** j``
        contexts; ``ValueError`` in one line for classes that are none."""
        j = len(context)
        if not 0 <= j < self.position.n or not all(0 <= c < CLASSES for c in context):
            raise ValueError(f"context must be the classes 0–{CLASSES - 1} of the discs placed "
                             f"before the seat's turn (fewer than {self.position.n}), got "
                             f"{list(context)!r}")
        return j, int(np.ravel_multi_index(tuple(context), (CLASSES,) * j)) if j else 0

    def action_values(self, context: Sequence[int], dice: Sequence[int], throws: int,
                      blocks_left: int, choosing: bool) -> dict[int, tuple[float, ...]]:
        """Each legal relative dice action's value at the decision ``act`` names: every
        seat's share of the win (by seat) once the seat to play takes it and every choice
        after it, its own and the later seats', is the equilibrium's (the numbers ``act``'s
        choice is made by). ``blocks_left`` are the seat's blocks at this decision (0–10;
        only they matter for its own turn)."""
        j, index = self._context(context)
        if isinstance(blocks_left, bool) or not isinstance(blocks_left, int | np.integer) \
                or not 0 <= blocks_left <= MAX_BLOCKS:
            raise ValueError(f"blocks_left must be a whole number 0–{MAX_BLOCKS} (X1.3), got "
                             f"{blocks_left!r}")
        if isinstance(throws, bool) or throws not in range(1, MAX_THROWS + 1):
            raise ValueError(f"throws must be 1–{MAX_THROWS}, got {throws!r}")
        hand = HAND_INDEX[check_dice(dice)]
        mover = self.position.order[j]
        # the seat's blocks are unspent while it throws, so one solve serves every level
        solved = solve_turn(self.payoffs(j)[:, :, [index]], int(blocks_left), mover,
                            explain=True)
        level: Level = (("choose", throws) if choosing and throws < MAX_THROWS
                        else ("blocks", MAX_THROWS, int(blocks_left)))
        return {rel: tuple(float(v) for v in values[hand, 0])
                for rel, values in solved.values[level].items()
                if not np.isnan(values[hand, 0, 0])}

    def tables(self, j: int, indices: np.ndarray, blocks: int | None = None) -> np.ndarray:
        """``table`` for the j-th turn at many contexts at once (``indices`` into its
        ``37 ** j`` contexts): ``(len(indices), 3 + blocks, H)``, the missing ones solved in
        one pass."""
        mover = self.position.order[j]
        blocks = self.position.blocks[mover] if blocks is None else blocks
        if isinstance(blocks, bool) or not 0 <= blocks <= MAX_BLOCKS:
            raise ValueError(f"blocks must be a whole number 0–{MAX_BLOCKS} (X1.3), got "
                             f"{blocks!r}")
        missing = sorted({int(i) for i in indices} - {i for (k, i, b) in self._tables
                                                      if k == j and b == blocks})
        if missing:
            U = self.payoffs(j)[:, :, missing]
            step = max(1, CHUNK_VALUES // (H * self.position.n))
            for x in range(0, len(missing), step):
                choices = solve_turn(U[:, :, x:x + step], blocks, mover, keep=True).choices
                levels_ = [choices[("choose", t)] for t in (1, 2)] + [
                    choices[("blocks", MAX_THROWS, b)] for b in range(blocks + 1)]
                stacked = np.stack(levels_).astype(np.int8)  # relative actions 0–48
                for k, index in enumerate(missing[x:x + step]):
                    table = stacked[:, :, k].copy()
                    table.flags.writeable = False
                    self._tables[(j, index, blocks)] = table
        return np.stack([self._tables[(j, int(i), blocks)] for i in indices])


@functools.lru_cache(maxsize=16)
def _solve(position: Position) -> LastRound:
    return LastRound(position)


def solve_last_round(scores: Sequence[int], last_cards: Sequence[int],
                     blocks_left: int | Sequence[int], starter: int) -> LastRound:
    """The last round's subgame-perfect equilibrium (module docstring); positions recently
    solved are kept."""
    return _solve(check_position(scores, last_cards, blocks_left, starter))


def last_round(scores: Sequence[int], last_cards: Sequence[int],
               blocks_left: int | Sequence[int], starter: int) -> tuple[float, ...]:
    """Each seat's share of the win in the last round's subgame-perfect equilibrium: the
    seats' ``scores`` before it, their ``last_cards`` and ``blocks_left`` (one count for
    all or one per seat), and the seat that starts it (X9.2)."""
    return solve_last_round(scores, last_cards, blocks_left, starter).shares


class Seen(NamedTuple):
    """Decoded observation rows of a last round at 2 or 3 players, as the equilibrium reads
    them, in the observer's slots (the observer is the seat to play): ``position`` is
    ``[n, starter, scores, last cards, blocks]`` (each part 3 long, padded with 0), the
    blocks of the observer and of the seats that have placed written 0, as the turns after
    the observer's do not depend on them; ``turn`` the discs placed so far (the observer's
    turn in the round), ``context`` their classes in placing order as one index into the
    turn's ``37 ** turn`` contexts, ``blocks`` the observer's blocks left."""

    position: np.ndarray
    turn: np.ndarray
    context: np.ndarray
    blocks: np.ndarray


def seen_last_round(view: ObsFields) -> Seen:
    """The rows ``view`` as a ``Seen``; rows at other tables are left zero."""
    rows, most = len(view.players), max(PLAYERS)
    position = np.zeros((rows, 2 + 3 * most), dtype=np.int64)
    turn, context = np.zeros(rows, dtype=np.int64), np.zeros(rows, dtype=np.int64)
    for n in PLAYERS:
        at = view.players == n
        held = np.asarray(CARD_VALUES)[view.hands[at, :n].argmax(axis=-1)]
        placed = view.disc[at, :n] >= 0
        blocks = np.where(placed, 0, view.blocks[at, :n])
        blocks[:, 0] = 0
        position[at, 0], position[at, 1] = n, view.starter[at]
        cards = np.where(view.played[at, :n] > -2, view.played[at, :n], held)
        for part, values in enumerate((view.scores[at, :n], cards, blocks)):
            position[np.ix_(at, 2 + most * part + np.arange(n))] = values
        order = np.argsort(np.where(placed, view.disc_order[at, :n], n), axis=1)
        classes = np.take_along_axis(np.where(placed, view.disc[at, :n], 0), order, axis=1)
        turn[at] = placed.sum(axis=1)
        for k in range(n - 1):  # the classes in placing order, the first most significant
            context[at] = np.where(k < turn[at], context[at] * CLASSES + classes[:, k],
                                   context[at])
    return Seen(position, turn, context, view.blocks[:, 0].astype(np.int64))


def solve_seen(position: Sequence[int]) -> LastRound:
    """The equilibrium of a ``Seen.position`` row (``solve_last_round``)."""
    n, most = position[0], max(PLAYERS)
    part = [list(position[2 + most * k:2 + most * k + n]) for k in range(3)]
    return solve_last_round(part[0], part[1], part[2], position[1])


# ---------------------------------------------------------------------- players in it
class _Stage:
    """Asking the player of one turn about its decisions: the j-th seat to play, after the
    contexts ``(class, blocks kept)`` of the seats before it."""

    def __init__(self, position: Position, base: Facts, actions: Actions, j: int,
                 player: Policy) -> None:
        self.position, self.actions, self.j, self.player = position, actions, j, player
        order = position.order
        self.mover = order[j]
        self.dims = tuple(d for s in order[:j] for d in (CLASSES, position.blocks[s] + 1))
        done = list(order[:j + 1])  # these seats have played their last card
        hands = base.hands.copy()
        hands[:, done] = 0
        has_played = base.has_played.copy()
        has_played[:, done] = 1
        played = base.played.copy()
        played[:, done] = [position.cards[s] for s in done]
        self.base = base._replace(hands=hands, has_played=has_played, played=played,
                                  turn=np.array([self.mover]))

    @property
    def contexts(self) -> int:
        """The contexts of this turn: every (class, blocks kept) of every earlier seat."""
        return int(np.prod(self.dims, dtype=np.int64))

    def ask(self, contexts: np.ndarray, level: Level) -> np.ndarray:
        """The player's answers at ``level`` for every hand and the contexts ``contexts``:
        ``(H, len(contexts))`` relative actions, or ``(H, len(contexts), 49)``
        probabilities."""
        out = []
        per = max(1, CHUNK_ROWS // H)
        for x in range(0, len(contexts), per):
            out.append(self._ask(contexts[x:x + per], level))
        return np.concatenate(out, axis=1)

    def _ask(self, contexts: np.ndarray, level: Level) -> np.ndarray:
        position, n, X = self.position, self.position.n, len(contexts)
        rows = H * X
        blocks = np.tile(np.array(position.blocks), (rows, 1))
        disc, order_of = np.full((rows, n), -1), np.full((rows, n), -1)
        if self.j:
            parts = np.unravel_index(contexts, self.dims)
            for i, seat in enumerate(position.order[:self.j]):
                disc[:, seat] = np.tile(parts[2 * i], H)
                blocks[:, seat] = np.tile(parts[2 * i + 1], H)
                order_of[:, seat] = i
        choosing = level[0] == "choose"
        throws = level[1]
        b = position.blocks[self.mover] if choosing else level[2]  # type: ignore[misc]
        blocks[:, self.mover] = b
        one = self.base
        f = one._replace(
            hands=np.broadcast_to(one.hands, (rows, *one.hands.shape[1:])),
            starter=np.repeat(one.starter, rows), turn=np.repeat(one.turn, rows),
            round=np.repeat(one.round, rows), last_round=np.repeat(one.last_round, rows),
            scores=np.broadcast_to(one.scores, (rows, n)), blocks=blocks,
            played=np.broadcast_to(one.played, (rows, n)),
            has_played=np.broadcast_to(one.has_played, (rows, n)),
            disc=disc, disc_order=order_of, dice=np.repeat(np.array(HANDS), X, axis=0),
            throws=np.full(rows, throws),
            phase=np.full(rows, _CHOOSE_PHASE if choosing else _BLOCKS_PHASE))
        obs = write(f, self.mover)
        legal = np.zeros((H, DICE_ACTIONS), dtype=bool)
        if choosing:
            legal[:, :REL_STOP + 1] = True  # every subset and stop (X3.2)
        else:
            legal[:] = tables().block_masks if b else tables().last_masks
        legal = np.repeat(legal, X, axis=0)
        mask = np.zeros((rows, self.actions.size), dtype=np.int8)
        mask[:, self.actions.dice:] = legal
        answers = self._answers(obs, mask, legal)
        return answers.reshape(H, X, *answers.shape[1:])

    def _answers(self, obs: np.ndarray, mask: np.ndarray, legal: np.ndarray) -> np.ndarray:
        first = self.actions.dice
        if isinstance(self.player, SupportsActionProbabilities):
            probs = np.asarray(self.player.action_probabilities(obs, mask), dtype=np.float64)
            if probs.shape != mask.shape or (probs[:, :first] > 0).any() \
                    or (probs[:, first:] * ~legal > 0).any():
                raise ValueError(f"the player of seat {self.mover} gave probabilities off its "
                                 "legal actions")
            return probs[:, first:]
        acts = np.asarray(batch_actions(self.player, obs, mask), dtype=np.int64) - first
        bad = (acts < 0) | (acts >= DICE_ACTIONS)
        bad[~bad] = ~legal[np.flatnonzero(~bad), acts[~bad]]
        if bad.any():
            raise ValueError(f"the player of seat {self.mover} played the illegal action "
                             f"{int(acts[bad][0]) + first} in the last round")
        return acts


def _players(players: Policy | Sequence[Policy], n: int) -> list[Policy]:
    if isinstance(players, Sequence) and not isinstance(players, str):
        if len(players) != n:
            raise ValueError(f"players must be one policy per seat ({n}) or one for all, got "
                             f"{len(players)}")
        return list(players)
    return [players] * n


def check_size(position: Position, systems: int) -> None:
    """Refuse in one line a round too big to take on: its equilibrium alone
    (``systems=0``), or an evaluation of players in ``systems`` value systems side by side,
    which asks them about every decision (at most ``MAX_ASKED``) and keeps every turn's
    payoffs; either must fit the memory this process may use (``core.memory``)."""
    asked = stored = 0
    for j, seat in enumerate(position.order):
        kept = [position.blocks[s] + 1 if systems else 1 for s in position.order[:j]]
        contexts = int(np.prod([CLASSES * k for k in kept], dtype=np.int64))
        asked += contexts * H * len(levels(position.blocks[seat], True)) if systems else 0
        stored += (max(systems, 1) * contexts * CLASSES * (position.blocks[seat] + 1)
                   * position.n * 8)
    needed, budget = 2 * stored + TURN_BYTES, memory_limit()
    if asked > MAX_ASKED or needed > budget:
        raise ValueError(
            f"the last round at {position.n} players with blocks {list(position.blocks)} has "
            f"{asked:,} decisions to ask the players about and needs {needed / 1e9:.1f} GB; "
            f"at most {MAX_ASKED:,} and {budget / 1e9:.1f} GB are taken on exactly (fewer "
            "blocks make it smaller)")


def _asking(stage: _Stage, contexts: np.ndarray, copies: int) -> Given:
    """What ``stage``'s player does at each level in ``contexts``, for ``copies`` value
    systems side by side (``_sweep``)."""
    def given(level: Level) -> np.ndarray:
        return np.concatenate([stage.ask(contexts, level)] * copies, axis=1)

    return given


def _sweep(players: Policy | Sequence[Policy], position: Position, hand: Sequence[int],
           responders: Sequence[int]) -> np.ndarray:
    """Root values ``(1 + len(responders), n)``: system 0 has every seat play its player;
    system 1 + k has seat ``responders[k]`` play its best response instead."""
    n, order = position.n, position.order
    systems = 1 + len(responders)
    check_size(position, systems)
    seated = _players(players, n)
    if not set(position.cards) <= set(hand):
        raise ValueError(f"last_cards must be cards of the hand {list(hand)} (X1.3), got "
                         f"{list(position.cards)}")
    game = Game(n, hand, position.blocks, hands=[[c] for c in position.cards],
                scores=position.scores, starter=position.starter)
    base = facts(game)
    actions = game.actions
    shares = final_shares(position).reshape((CLASSES,) * n + (n,))
    # the last turn's payoffs over its contexts with blocks: copies along each blocks axis
    expand = shares.reshape(sum(((CLASSES, 1) for _ in range(n - 1)), ()) + (CLASSES, n))
    dims = sum(((CLASSES, position.blocks[s] + 1) for s in order[:-1]), ())
    start = np.broadcast_to(expand, dims + (CLASSES, n)).reshape(1, -1, n)
    start = np.repeat(start, systems, axis=0)  # (systems, contexts x class, n)
    for j in reversed(range(n)):
        mover = order[j]
        stage = _Stage(position, base, actions, j, seated[mover])
        X, L = stage.contexts, (position.blocks[mover] + 1 if j < n - 1 else 1)
        U = start.reshape(systems, X, CLASSES, L, n).transpose(0, 2, 3, 1, 4)
        values = np.empty((systems, X, n))
        follow = [s for s in range(systems) if s == 0 or responders[s - 1] != mover]
        values[follow] = _played(stage, U, follow, position.blocks[mover])
        for s in range(systems):
            if s not in follow:  # the responder's own turn: its best
                values[s] = _solve_chunked(U[s], position.blocks[mover], mover)
        start = values
    return start[:, 0]


def _played(stage: _Stage, U: np.ndarray, systems: Sequence[int], blocks: int) -> np.ndarray:
    """The start values ``(len(systems), X, n)`` of ``stage``'s turn as its player plays it
    (with ``blocks`` blocks), from every context, in the value systems ``systems`` of the
    payoffs ``U`` ``(systems, 37, L, X, n)``; the player is asked once for them all."""
    X, n = U.shape[3], U.shape[4]
    values = np.empty((len(systems), X, n))
    step = max(1, min(CHUNK_ROWS // H, CHUNK_VALUES // (H * n * len(systems))))
    for x in range(0, X, step):
        chunk = np.arange(x, min(X, x + step))
        Uf = np.concatenate([U[s][:, :, chunk] for s in systems], axis=2)
        solved = solve_turn(Uf, blocks, stage.mover,
                            given=_asking(stage, chunk, len(systems))).start
        values[:, x:x + len(chunk)] = solved.reshape(len(systems), len(chunk), n)
    return values


def starter_response(players: Policy | Sequence[Policy], scores: Sequence[int],
                     last_cards: Sequence[int], blocks_left: int | Sequence[int], starter: int,
                     hand: Sequence[int] = DEFAULT_HAND) -> np.ndarray:
    """At 2 players, the starter's best response in the last round to ``players``' second
    seat (one policy per seat, or one for both): ``(3 + blocks, H)`` relative dice actions in
    ``LastRound.table``'s rows (after throws 1 and 2, then the blocks phase with b blocks
    left), one column per sorted hand, for ``blocks`` the starter's ``blocks_left``. The
    second seat's best response to any starter is the equilibrium's own turn (its share
    depends only on the starter's disc), so with this table a best response exists in both
    seats; ``ValueError`` in one line at 3 players, where it is not built."""
    position = check_position(scores, last_cards, blocks_left, starter)
    if position.n != 2:
        raise ValueError(f"the starter's best response is built at 2 players, got "
                         f"{position.n}")
    check_size(position, 1)
    first, second = position.order
    game = Game(2, hand, position.blocks, hands=[[c] for c in position.cards],
                scores=position.scores, starter=position.starter)
    stage = _Stage(position, facts(game), game.actions, 1, _players(players, 2)[second])
    B, X = position.blocks[first], stage.contexts  # X: the starter's (class, blocks kept)
    # the second seat's payoffs by context and its own class: (1, 37, 1, X, 2)
    shares = final_shares(position).reshape(CLASSES, 1, CLASSES, 2)
    U = np.broadcast_to(shares, (CLASSES, B + 1, CLASSES, 2)).reshape(X, CLASSES, 1, 2)
    values = _played(stage, U.transpose(1, 2, 0, 3)[None], [0], position.blocks[second])[0]
    # the starter's payoffs by its class and blocks kept: (37, B + 1, 1, 2)
    choices = solve_turn(values.reshape(CLASSES, B + 1, 1, 2), B, first, keep=True).choices
    rows = [choices[("choose", t)] for t in (1, 2)] + [
        choices[("blocks", MAX_THROWS, b)] for b in range(B + 1)]
    return np.stack(rows)[:, :, 0].astype(np.int8)


def exact_evaluate(players: Policy | Sequence[Policy], scores: Sequence[int],
                   last_cards: Sequence[int], blocks_left: int | Sequence[int], starter: int,
                   hand: Sequence[int] = DEFAULT_HAND) -> list[float]:
    """Each seat's share of the win when ``players`` (one policy per seat in seat order, or
    one for every seat) play the last round (module docstring). ``hand`` is the game's hand
    (X1.3, for the players' action ids and observations; it must hold the last cards)."""
    position = check_position(scores, last_cards, blocks_left, starter)
    return [float(v) for v in _sweep(players, position, hand, ())[0]]


def nash_conv(players: Policy | Sequence[Policy], scores: Sequence[int],
              last_cards: Sequence[int], blocks_left: int | Sequence[int], starter: int,
              hand: Sequence[int] = DEFAULT_HAND) -> float:
    """The sum over seats of the share of the win each could add by its best response in
    the last round while the others play ``players`` (0 at an equilibrium)."""
    position = check_position(scores, last_cards, blocks_left, starter)
    seats = list(range(position.n))
    values = _sweep(players, position, hand, seats)
    return float(sum(values[1 + s, s] - values[0, s] for s in seats))

