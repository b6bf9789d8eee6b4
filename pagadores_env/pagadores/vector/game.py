"""Many games of Dados de Pagadores in one packed array, advanced by a compiled rules kernel.

``VectorGame`` holds ``batch`` games of one table size, one row of a packed ``int16`` state per
game (the layout and ``kernel.STATE_DTYPE`` are ``kernel``'s), and applies the rules R1–R7 with
the numba-compiled functions of ``kernel``: the same state machine as the scalar
``engine.Game``, the same decisions, and — checked throw by throw by
``tests/pagadores/test_vector_differential.py`` — the same transitions. The familiar per-game arrays
(``cards``, ``phase``, ``seat``, ...) are views of the packed state's columns.

A game is at a *chance node* (its current seat is about to throw), a *decision node* (R3.6:
stop or throw again) or *over*. ``advance()`` takes every game at a chance node on, game after
game in row order, until each sits at a decision node (or is over); ``step(actions)`` applies
decisions and advances. With ``auto_reset`` a finished game is recorded (``pop_finished``) and
started again from its start position at once, so a learner always finds a decision.

Dice are one seeded stream of ordered outcomes, drawn in blocks by ``draw_dice`` (each block
the SplitMix64 sequence from one draw of the ``np.random.Generator``) and thrown in order;
overriding that one method is how the differential test feeds both engines the same throws. The
kernel compiles on first use (a few seconds) and is cached on disk for later processes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from ..engine import Phase
from ..observation import OBS_SIZE
from ..rules import MAX_CARDS, MAX_PLAYERS, MIN_PLAYERS, NUM_OUTCOMES, THROWS
from . import kernel
from .kernel import (
    ALIVE,
    CARDS,
    CURRENT,
    DECISION,
    ELIMINATIONS,
    INSTEKER,
    KAMPEN_SCORE,
    LIMIT,
    LOW,
    LOWEST,
    MEMBERS,
    OUT,
    OUT_ROUND,
    OVER,
    PHASE,
    ROUND_NO,
    SCORE,
    SCORED,
    SEAT,
    START_FIRST,
    START_WIDTH,
    THROWS_USED,
    TODO,
    WIDTH,
    WINNER,
)

PHASES = (Phase.ROUND, Phase.KAMPEN, Phase.OVER)  # the kernel's phases, named as Phase does

#: The sorted dice of each ordered outcome 0…215 (``rules.ordered_index``), for tests and logs.
SORTED_DICE = tuple(t.dice for t in THROWS)

_F32 = np.float32
_MASKS = 1 << MAX_PLAYERS
_BITS = (np.arange(_MASKS)[:, None] >> np.arange(MAX_PLAYERS)) & 1  # mask -> 0/1 per seat
_NO_ACTIONS = np.zeros(0, np.int64)
_NO_TABLES = np.zeros((0, kernel.TABLE_SIZE), np.uint8)


class Finished(NamedTuple):
    """Games that ended, one entry each (a game slot may appear twice if it ended twice).

    ``obs`` holds the final observation of each game's ``observer`` seat (all zeros without an
    observer); ``placements`` is per seat, 1 = winner, as ``Game.placements``."""

    rows: np.ndarray
    winner: np.ndarray
    placements: np.ndarray
    rounds: np.ndarray
    cards: np.ndarray
    obs: np.ndarray


class VectorGame:
    """``batch`` games of ``num_players`` seats (R1.1) played in lock-step.

    ``cards`` is one count for everyone (1–10), one count per seat, or a ``(batch, num_players)``
    array of per-game start positions (0–10 each, at least two seats with cards per game);
    ``first_insteker`` is one seat or one per game (R3.1). ``seed`` seeds the dice generator
    that ``draw_dice`` reads (a subclass may override ``draw_dice`` to choose the dice, as the
    differential test does). ``observer`` (one seat or one per game) is whose final observation
    ``pop_finished`` reports. After construction every game is at its first decision node
    (or over, without ``auto_reset``).
    """

    def __init__(self, batch: int, num_players: int, cards: int | Sequence[int] | np.ndarray = 10,
                 seed: int | np.random.Generator | None = None, *,
                 first_insteker: int | Sequence[int] | np.ndarray = 0, auto_reset: bool = True,
                 observer: int | Sequence[int] | np.ndarray | None = None) -> None:
        if not isinstance(batch, (int, np.integer)) or isinstance(batch, bool) or batch < 1:
            raise ValueError(f"batch must be a positive integer, got {batch!r}")
        if (not isinstance(num_players, (int, np.integer)) or isinstance(num_players, bool)
                or not MIN_PLAYERS <= num_players <= MAX_PLAYERS):
            raise ValueError(
                f"num_players must be an integer {MIN_PLAYERS}–{MAX_PLAYERS}, got {num_players!r}"
            )
        self.batch = b = int(batch)
        self.num_players = n = int(num_players)
        self.start_cards = _start_cards(b, n, cards)
        self.first_insteker = _seats(b, n, first_insteker, "first_insteker")
        if not self.start_cards[np.arange(b), self.first_insteker].all():
            raise ValueError("first_insteker must be a seat that has cards in every game")
        self.observer = None if observer is None else _seats(b, n, observer, "observer")
        self.auto_reset = bool(auto_reset)
        kernel.check_caches()  # a damaged disk cache compiles again (once per process)
        self.rng = np.random.default_rng(seed)
        # what a restart copies per game (R1.1, R3.1), in the kernel's layout
        self._starts = np.zeros((b, START_WIDTH), np.int64)
        self._starts[:, CARDS:CARDS + n] = self.start_cards
        self._starts[:, START_FIRST] = self.first_insteker
        self._masks = 1 << n
        self._bits = _BITS[:self._masks, :n]
        self._state = state = np.zeros((b, WIDTH), kernel.STATE_DTYPE)
        # Views of the state's columns, per game or (game, seat).
        self.cards = state[:, CARDS:CARDS + n]
        self.out = state[:, OUT:OUT + n]  # elimination batch (1-based) per seat, 0 = still in
        self.out_round = state[:, OUT_ROUND:OUT_ROUND + n]  # the round a seat went out in
        self.kampen_scores = state[:, KAMPEN_SCORE:KAMPEN_SCORE + n]  # R5.1, for who threw
        self._scores = state[:, SCORE:SCORE + n]  # round scores (R3.3), valid where ``scored``
        self.eliminations = state[:, ELIMINATIONS]
        self.round = state[:, ROUND_NO]
        self.phase = state[:, PHASE]
        self.insteker = state[:, INSTEKER]  # -1 once over (R6.3)
        self.seat = state[:, SEAT]  # current player: thrower or decider; -1 once over
        self.throw_limit = state[:, LIMIT]  # R3.2; 0 while the insteker has not fixed it
        self.throws = state[:, THROWS_USED]  # throws used this turn
        self.current = state[:, CURRENT]  # ordered outcome of the turn's last throw, or -1
        # seat sets as bitmasks: who holds cards; who has a score this round; who plays this
        # round or kampen; who of those has not finished (the current player included); who
        # holds the lowest score so far, and that score
        self.alive = state[:, ALIVE]
        self.scored = state[:, SCORED]
        self.members = state[:, MEMBERS]
        self.todo = state[:, TODO]
        self.lowest = state[:, LOWEST]
        self.low = state[:, LOW]
        self.winner = state[:, WINNER]  # -1 until over
        self._rows = np.arange(b)
        # the dice not thrown yet are _dice[_cursor[0]:]; the games finished since the last
        # pop_finished are in the full buffers of _full, then _done_*[:_cursor[1]]
        self._dice = np.zeros(0, np.uint8)
        self._block = min(max(4 * b, 256), 1 << 16)
        self._cursor = np.zeros(2, np.int64)
        self._room = max(b, 1024) if self.auto_reset else 0
        self._done_rows = np.zeros(self._room, np.int64)
        self._done_states = np.zeros((self._room, WIDTH), kernel.STATE_DTYPE)
        self._full: list[tuple[np.ndarray, np.ndarray]] = []
        self._popped = 0
        # seats the kernel plays itself (play_by_tables): none yet
        self._tables = _NO_TABLES
        self._table_of = np.zeros((b, n), np.int64)
        self._watched = np.zeros(b, np.int64)
        self.reset_games(self._rows)

    # ------------------------------------------------------------------ queries
    @property
    def state(self) -> np.ndarray:
        """The packed state itself, ``(batch, kernel.WIDTH)``, one row per game in the layout
        of ``kernel`` (for tests and tools that read a game at once; change it at your
        peril)."""
        return self._state

    @property
    def decision(self) -> np.ndarray:
        """Per game: waiting at a decision node (R3.6)."""
        return self._state[:, DECISION] == 1

    @property
    def done(self) -> np.ndarray:
        """Per game: over (only ever true without ``auto_reset``)."""
        return self.phase == OVER

    @property
    def decision_seat(self) -> np.ndarray:
        """Per game: the seat that must decide, -1 where no decision is pending."""
        return np.where(self.decision, self.seat, -1)

    @property
    def scores(self) -> np.ndarray:
        """``(batch, num_players)`` round scores as strengths, -1 where none yet (R3.3)."""
        return np.where(self._bits[self.scored] == 1, self._scores, -1)

    @property
    def games_finished(self) -> int:
        """Games that ended so far (``auto_reset``)."""
        return self._popped + len(self._full) * self._room + int(self._cursor[1])

    def chance_rows(self) -> np.ndarray:
        """Indices of the games at a chance node (someone is about to throw)."""
        return np.flatnonzero((self.phase != OVER) & ~self.decision)

    def action_masks(self) -> np.ndarray:
        """``(batch, 2)`` bool: ``[stop, throw again]`` legal (both at a decision node, R3.6)."""
        return np.repeat(self.decision[:, None], 2, axis=1)

    def placements(self, rows: np.ndarray | None = None) -> np.ndarray:
        """Place per seat (1 = winner; seats knocked out together share a place), as
        ``Game.placements``; meaningful for games that are over."""
        return self._placements(self._block_of(rows))

    def snapshot(self, i: int) -> dict[str, Any]:
        """Game ``i``'s observable state in exactly the form of ``Game.snapshot()``."""
        over = self.phase[i] == OVER
        return {
            "cards": self.cards[i].tolist(),
            "round": int(self.round[i]),
            "phase": PHASES[self.phase[i]],
            "insteker": None if over else int(self.insteker[i]),
            "current_player": int(self.seat[i]),
            "throw_limit": int(self.throw_limit[i]) or None,
            "throws": int(self.throws[i]),
            "decision": bool(self.decision[i]),
            "winner": int(self.winner[i]) if over else None,
        }

    def observations(self, rows: np.ndarray | None = None,
                     seats: np.ndarray | None = None) -> np.ndarray:
        """``(len(rows), OBS_SIZE)`` float32, row k equal to ``observation.encode(game, seat)``
        for game ``rows[k]`` and observer ``seats[k]`` (default: every game, current seat)."""
        rows = self._checked_rows(rows)
        if seats is None:
            seats = self.seat[rows]
        else:
            seats = np.asarray(seats)
            if seats.shape != rows.shape or (seats.size and (
                    seats.dtype.kind not in "iu" or seats.min() < 0
                    or seats.max() >= self.num_players)):
                raise ValueError(f"seats must be one seat 0–{self.num_players - 1} per row")
        return self._observe(self._state, rows, seats)

    # ------------------------------------------------------------------ inputs
    def step(self, actions: np.ndarray | Sequence[int], rows: np.ndarray | None = None) -> None:
        """Apply decisions (0 = stop, 1 = throw again; R3.2, R3.4) and advance.

        Without ``rows``, ``actions`` has one entry per game and is read only where a decision
        is pending; with ``rows`` (games at decision nodes) it has one entry per row. Bad input
        raises ``ValueError`` before anything changes."""
        actions = np.asarray(actions)
        if rows is None:
            if actions.shape != (self.batch,):
                raise ValueError(f"actions must have shape ({self.batch},), got {actions.shape}")
            rows = self._rows
        else:
            rows = np.asarray(rows)
            if rows.ndim != 1 or actions.shape != rows.shape:
                raise ValueError(f"actions must have shape {rows.shape} (one per row), got "
                                 f"{actions.shape}")
            if rows.size and (rows.dtype.kind not in "iu" or rows.min() < 0
                              or rows.max() >= self.batch or not self.decision[rows].all()
                              or np.bincount(rows, minlength=self.batch).max() > 1):
                raise ValueError(
                    "rows must be distinct games at decision nodes (decision_seat >= 0)"
                )
            rows = np.ascontiguousarray(rows, np.int64)
        self._run(rows, self._checked(actions, rows), act=True)

    def advance(self, rows: np.ndarray | None = None) -> None:
        """Throw for every game at a chance node until all sit at decision nodes (or are over;
        with ``auto_reset``, finished games are recorded and restarted). ``rows``, if given,
        must include every game at a chance node (it saves a scan of the batch)."""
        self._run(self._checked_rows(rows), _NO_ACTIONS, act=False)

    def play_by_tables(self, tables: np.ndarray, table_of: np.ndarray,
                       watched: np.ndarray) -> None:
        """From now on the kernel makes some seats' decisions itself: seat ``s`` of game ``g``
        decides by ``tables[table_of[g, s]]`` where that index is >= 0 (``vector.tables``:
        ``uint8`` rows of ``kernel.TABLE_SIZE`` answers), while the seat ``watched[g]`` (if >= 0)
        holds cards; ``step`` and ``advance`` then stop only at the other decisions. The
        arrays are kept, not copied: the caller may change ``table_of`` and ``watched`` in place
        (the kernel does not check bounds: keep them in range). Games already waiting at such
        a seat's decision go on at the next ``advance``. ``ValueError`` for arrays of the
        wrong shape, type or range."""
        b, n = self.batch, self.num_players
        tables, table_of, watched = map(np.asarray, (tables, table_of, watched))
        if (tables.dtype != np.uint8 or tables.ndim != 2 or tables.shape[1] != kernel.TABLE_SIZE
                or not np.isin(tables, (0, 1)).all()):
            raise ValueError(f"tables must be uint8 rows of {kernel.TABLE_SIZE} answers, each 0 "
                             "or 1 (vector.tables.decision_table)")
        if (table_of.dtype != np.int64 or table_of.shape != (b, n) or table_of.min() < -1
                or table_of.max() >= len(tables)):
            raise ValueError(f"table_of must be an int64 ({b}, {n}) array of table rows "
                             f"-1–{len(tables) - 1} (-1: the seat is not played by a table)")
        if watched.dtype != np.int64 or watched.shape != (b,) or watched.min() < -1 \
                or watched.max() >= n:
            raise ValueError(f"watched must be an int64 ({b},) array of seats -1–{n - 1}")
        self._tables, self._table_of, self._watched = tables, table_of, watched

    def reset_games(self, rows: np.ndarray) -> None:
        """Start the games in ``rows`` again from their start positions and advance them."""
        rows = self._checked_rows(rows)
        kernel.restart_rows(self._state, rows, self._starts, self.num_players)
        self.advance(rows)

    def pop_finished(self) -> Finished:
        """The games that ended since the last call (``auto_reset`` only), in order."""
        count = int(self._cursor[1])
        parts = [*self._full, (self._done_rows[:count], self._done_states[:count])]
        rows = np.concatenate([part[0] for part in parts])
        block = np.concatenate([part[1] for part in parts])
        self._full, self._cursor[1] = [], 0
        count = rows.size
        self._popped += count
        n = self.num_players
        if self.observer is None:
            obs = np.zeros((count, OBS_SIZE), _F32)
        else:
            obs = self._observe(block, np.arange(count), self.observer[rows])
        wide = block.astype(np.int64)  # the record's numbers, safe to add up
        return Finished(rows, wide[:, WINNER], self._placements(wide), wide[:, ROUND_NO],
                        wide[:, CARDS:CARDS + n], obs)

    def draw_dice(self, row: int, count: int) -> np.ndarray:
        """The next ordered outcomes (``rules.ordered_index``) of the dice stream, used in order;
        game ``row`` throws first. They are the bytes below 216 of ``count`` random bytes
        (``kernel.random_words`` from one 64-bit draw of ``rng``, ``kernel.keep_outcomes``), so
        throws are uniform (R7.2). An override gives ordered outcomes 0…215, at least one and at
        most ``count``: one at a time, it sees every throw."""
        words = np.empty((count + 7) // 8, np.uint64)
        kernel.random_words(self.rng.integers(0, 2**64, dtype=np.uint64), words)
        dice = words.view(np.uint8)[:count]
        return dice[:kernel.keep_outcomes(dice)]

    # ------------------------------------------------------------------ internals
    def _run(self, rows: np.ndarray, actions: np.ndarray, act: bool) -> None:
        """The kernel's ``run`` over ``rows``, refilling its dice and growing its buffer of
        finished games whenever it asks."""
        first = 0
        while True:
            first, status = kernel.run(self._state, rows, actions, act, first, self._starts,
                                       self._dice, self._cursor, self._done_rows,
                                       self._done_states, self.auto_reset, self.num_players,
                                       self._tables, self._table_of, self._watched)
            if status == kernel.DONE:
                return
            if status == kernel.NEED_DICE:
                self._dice = self._checked_dice(self.draw_dice(int(rows[first]), self._block))
                self._cursor[0] = 0
            else:  # NEED_ROOM: set the full buffers aside (copying them would cost more)
                self._full.append((self._done_rows, self._done_states))
                self._done_rows = np.zeros(self._room, np.int64)
                self._done_states = np.zeros((self._room, WIDTH), kernel.STATE_DTYPE)
                self._cursor[1] = 0

    def _checked_rows(self, rows: np.ndarray | None) -> np.ndarray:
        """``rows`` (default: every game) as the kernel reads them; ``ValueError`` unless they
        are game indices (the kernel does not check bounds)."""
        if rows is None:
            return self._rows
        rows = np.asarray(rows)
        if rows.ndim != 1 or (rows.size and (rows.dtype.kind not in "iu" or rows.min() < 0
                                             or rows.max() >= self.batch)):
            raise ValueError(f"rows must be a list of game indices 0–{self.batch - 1}")
        return np.ascontiguousarray(rows, np.int64)

    def _checked(self, actions: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """``actions`` as int64 for the kernel, after checking that every one a game at a
        decision node reads is 0 or 1."""
        if actions.dtype == np.int64:
            actions = np.ascontiguousarray(actions)
            bad = kernel.bad_action(self._state, rows, actions) >= 0
        else:
            legal = (actions == 0) | (actions == 1)
            bad = bool((~legal & self.decision[rows]).any())
            actions = np.where(legal, actions, 0).astype(np.int64)
        if bad:
            raise ValueError(f"actions must be 0 (stop) or 1 (throw again), got "
                             f"{np.unique(actions).tolist()}")
        return actions

    def _checked_dice(self, dice: Any) -> np.ndarray:
        """The dice of ``draw_dice`` as the kernel reads them. The own generator's need no
        check; an override's must be 1 to ``_block`` ordered outcomes, else ``ValueError``
        (before any of them is thrown)."""
        if getattr(self.draw_dice, "__func__", None) is not VectorGame.draw_dice:
            dice = np.asarray(dice)
            if (dice.ndim != 1 or not 1 <= dice.size <= self._block
                    or dice.dtype.kind not in "iu" or dice.min() < 0
                    or dice.max() >= NUM_OUTCOMES):
                raise ValueError(f"dice must be 1 to {self._block} ordered outcomes "
                                 f"0–{NUM_OUTCOMES - 1}")
            dice = dice.astype(np.uint8)
        return dice

    def _block_of(self, rows: np.ndarray | None) -> np.ndarray:
        """The state rows of the games ``rows`` (default: all), as an ``int64`` copy."""
        block = self._state if rows is None else self._state.take(rows, axis=0)
        return block.astype(np.int64)

    def _placements(self, block: np.ndarray) -> np.ndarray:
        n = self.num_players
        out = block[:, OUT:OUT + n]
        batch = np.where(out == 0, block[:, ELIMINATIONS, None] + 1, out)
        return 1 + (batch[:, None, :] > batch[:, :, None]).sum(axis=2)

    def _observe(self, state: np.ndarray, rows: np.ndarray, seats: np.ndarray) -> np.ndarray:
        """Observation rows for the games ``rows`` of ``state`` (rows of the packed state),
        each seen by its seat of ``seats``."""
        obs = np.zeros((len(rows), OBS_SIZE), _F32)
        kernel.observe(state, np.ascontiguousarray(rows, np.int64),
                       np.ascontiguousarray(seats, np.int64), self.num_players, obs)
        return obs


def _start_cards(batch: int, n: int, cards: Any) -> np.ndarray:
    allowed = (f"one count 1–{MAX_CARDS}, {n} per-seat counts, or a ({batch}, {n}) array of "
               f"counts 0–{MAX_CARDS} with at least two seats above 0 per game")
    try:
        arr = np.asarray(cards)
        ok = arr.dtype.kind in "iu"
    except (TypeError, ValueError):
        ok = False
    if not ok:
        raise ValueError(f"cards must be {allowed}; got {cards!r}")
    if arr.ndim == 0:
        if not 1 <= arr <= MAX_CARDS:
            raise ValueError(f"cards must be {allowed}; got {cards!r}")
        arr = np.full(n, arr)
    if arr.shape not in ((n,), (batch, n)):
        raise ValueError(f"cards must be {allowed}; got shape {arr.shape}")
    arr = np.broadcast_to(arr, (batch, n)).astype(np.int64)
    if arr.min() < 0 or arr.max() > MAX_CARDS or ((arr > 0).sum(axis=1) < 2).any():
        raise ValueError(f"cards must be {allowed}; got {cards!r}")
    return arr


def _seats(batch: int, n: int, value: Any, name: str) -> np.ndarray:
    arr = np.asarray(value)
    if arr.dtype.kind not in "iu" or arr.shape not in ((), (batch,)) or (
            arr.size and (arr.min() < 0 or arr.max() >= n)):
        raise ValueError(f"{name} must be one seat 0–{n - 1} or one per game ({batch}), "
                         f"got {value!r}")
    return np.broadcast_to(arr, (batch,)).astype(np.int64)
