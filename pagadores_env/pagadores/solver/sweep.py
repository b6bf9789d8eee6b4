"""Exact backward induction at any table, for several ways of playing at once.

Every multi-player exact result is this one pass: the equilibrium (every seat maximises its
own win probability), the exact evaluation of a profile of fixed policies, and the best
response of one seat against fixed policies. A **variant** says, per seat, whether that seat
maximises (``True``) or plays a fixed policy (its own, ``False``, or one named for that
variant); one pass carries several variants side by side, so each policy is asked about each
decision once (NashConv needs the profile and every seat's best response; a learner's
NashConv and its lineups against opponents can share one pass). Values are win
probabilities ``[V, n]``: per variant, per seat.

Idea (as ``model`` for two players): every round takes at least one card (R3.5, R4.4), so
positions — card counts and the insteker — are solved in order of the card total, each
from positions with fewer cards. Inside a round the order of play is fixed (a knock-out
ends the round, R6.2), and the state before role ``j``'s ``k``-th throw is the throw limit
``L`` and what the round keeps of the earlier scores (``scores.ScoreStates``): arrays
``[Q_j, V, n]``, filled from the last role back. A special (R4.1) keeps the round going at
fewer cards, so it is looked up in the after-throw values of an earlier-solved position
(``_Store``); a special that empties someone ends the round (R6.2). Values are exact sums
over a throw's 42 strengths. A maximising seat throws again only if that gains it more than
``TIE_TOLERANCE``; otherwise it stops (the fixed tie-break that makes the equilibrium
unique). Kampen is in ``multi_kampen``.
"""

from __future__ import annotations

import ctypes
import mmap
import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import product
from pathlib import Path
from typing import Protocol

import numpy as np

from ...core.policies import Policy, monte_carlo_only
from ..rules import (
    MAX_THROWS,
    PICARO_LOSS,
    ROUND_LOSS,
    next_insteker,
    special_hits,
    throws_allowed,
    turn_order,
)
from ..vector.kernel import TABLE_SHAPE
from ..vector.tables import decision_table
from .model import NS, PENALTY, PICARO, PROB, SPECIALS
from .multi_kampen import Cards, Kampen
from .multi_rows import (
    THROWN,
    decision_fields,
    decision_keys,
    decision_row_chunks,
    lowest_rows,
)
from .response import _ask
from .round_kernel import throw_step
from .scores import ScoreStates, score_states

#: Card positions between two ``release_freed_memory`` calls (and two ``Kept.release``
#: calls while a solve keeps its values in files).
TRIM_EVERY = 64


@cache
def _malloc_trim() -> Callable[[int], int] | None:
    try:
        return ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):  # not glibc
        return None


def release_freed_memory() -> None:
    """Give memory that native code freed back to the system (glibc's ``malloc_trim``; a
    no-op elsewhere). A network asked about millions of rows from several threads leaves
    freed blocks in glibc's per-thread arenas: at 3 players with 10 cards the peak grew to
    6.4 GB without this, under 1 GB with it. The store's special values (``_Store``), freed
    as the pass moves on, sit in glibc's heap the same way: a 4-player 10-card solve still
    held 6.2 GB of them while writing its solution."""
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


#: Rows per ``act_batch`` call.
BATCH_ROWS = 1 << 18
#: A round state key: (role, throw limit (0 for the insteker), throws used).
Key = tuple[int, int, int]
#: ``progress(done, total)`` after each solved card position.
Progress = Callable[[int, int], None]


def round_keys(m: int) -> list[Key]:
    """Every round state key of an ``m``-role round, in the order ``Sweep`` fills them (the
    last role first, later throws first): the insteker's throws 1–3 (R3.2), a follower's
    throws 1…L for each limit L (R3.4)."""
    keys = []
    for j in range(m - 1, -1, -1):
        for limit in ([0] if j == 0 else range(1, MAX_THROWS + 1)):
            keys += [(j, limit, k) for k in range(throws_allowed(limit), 0, -1)]
    return keys


class Book(Protocol):
    """Recorded answers a pass reads instead of asking (``answer_book.AnswerBook``)."""

    def answers(self, cards: Cards, insteker: int, seat: int) -> np.ndarray | None:
        """``[keys, rows]``: ``seat``'s answers at every decision of its role there."""


@dataclass
class Position:
    """What a solved position (card counts, insteker) keeps: the value before every throw
    (``before[key]``: ``[Q_j, V, n]``) and the round's end per set of lowest holders
    (``settle``: ``[2 ** m, V, n]``, R3.5, R5)."""

    before: dict[Key, np.ndarray]
    settle: np.ndarray


@cache
def layout(m: int, full: bool) -> tuple[dict[Key, slice], int]:
    """Where each round state's values lie in the flat row of an ``m``-role position
    (``Kept``), and the row's length; the settle table comes last."""
    sizes = score_states(m, full).size
    at, places = 0, {}
    for key in round_keys(m):
        places[key] = slice(at, at + sizes[key[0]])
        at += sizes[key[0]]
    return places, at + (1 << m)


class Kept(Mapping[tuple[Cards, int], Position]):
    """Every solved position's values, as :class:`Position` views into one array per number
    of seats with cards (``arrays[m]``: ``[positions, row, V, n]``, rows laid out by
    ``layout``; ``rows[(cards, insteker)] = (m, p)``): no per-position arrays to allocate
    or to copy when saved."""

    def __init__(self, full: bool, arrays: dict[int, np.ndarray],
                 rows: dict[tuple[Cards, int], tuple[int, int]]) -> None:
        self.full = full
        self.arrays = arrays
        self.rows = rows

    @classmethod
    def empty(cls, start: Cards, full: bool, variants: int, columns: int | None = None,
              folder: Path | None = None) -> Kept:
        """Room for every position of a pass from ``start`` (pages are touched as filled),
        ``columns`` values (tracked seats, ``Sweep``) per variant: every seat's by default.
        With ``folder`` the arrays live in files there, deleted as soon as they are made
        (gone with the arrays), so ``release`` can hand their pages back to the system."""
        rows: dict[tuple[Cards, int], tuple[int, int]] = {}
        counts: dict[int, int] = {}
        for cards in positions(start):
            m = sum(1 for c in cards if c)
            for insteker in (s for s, c in enumerate(cards) if c):
                rows[(cards, insteker)] = (m, counts.get(m, 0))
                counts[m] = counts.get(m, 0) + 1
        width = len(start) if columns is None else columns
        shapes = {m: (count, layout(m, full)[1], variants, width) for m, count in counts.items()}
        if folder is None:
            return cls(full, {m: np.empty(shape) for m, shape in shapes.items()}, rows)
        folder.mkdir(parents=True, exist_ok=True)
        arrays: dict[int, np.ndarray] = {}
        for m, shape in shapes.items():
            with tempfile.TemporaryFile(dir=folder) as handle:  # unlinked: nothing left over
                arrays[m] = np.memmap(handle, np.float64, "w+", shape=shape)
        return cls(full, arrays, rows)

    def release(self) -> None:
        """Hand the pages of file-backed arrays (``empty(folder=…)``) back to the system:
        what was written stays in the file (and the page cache) and is read again when
        needed, so the values a solve keeps do not add to its resident memory."""
        for array in self.arrays.values():
            mapped = getattr(array, "_mmap", None)
            if mapped is not None:
                mapped.madvise(mmap.MADV_DONTNEED)

    def put(self, key: tuple[Cards, int], before: dict[Key, np.ndarray], settle: np.ndarray
            ) -> None:
        """Keep a solved position's values in its row."""
        m, p = self.rows[key]
        places, width = layout(m, self.full)
        row = self.arrays[m][p]
        for state, where in places.items():
            row[where] = before[state]
        row[width - (1 << m):] = settle

    def __getitem__(self, key: tuple[Cards, int]) -> Position:
        m, p = self.rows[key]
        places, width = layout(m, self.full)
        row = self.arrays[m][p]
        return Position({state: row[where] for state, where in places.items()},
                        row[width - (1 << m):])

    def __iter__(self) -> Iterator[tuple[Cards, int]]:
        return iter(self.rows)

    def __len__(self) -> int:
        return len(self.rows)


#: Per special (in ``SPECIALS`` order) the cards it takes at most from each other player
#: (R4.1): its values are needed this many card totals below a position, times the others.
SPECIAL_REACH = tuple(int(PENALTY[y]) for y in SPECIALS)


def by_special(kept: np.ndarray) -> list[np.ndarray | None]:
    """A round state's ``[Q_j, 3, V, n]`` after-throw values at the special strengths as one
    ``[Q_j, V, n]`` array per special (``_Store``), copied so each can be freed alone."""
    return [kept[:, idx].copy() for idx in range(kept.shape[1])]


@dataclass
class _Store:
    """After-throw values at the three special strengths, per solved position and round
    state — what a special thrown at more cards lands on (R4.1), one array per special.
    Each is kept only while a position with more cards can still reach it: a special of
    penalty ``y`` takes at most ``y`` cards from each other player, so its values at card
    total ``t`` go once the pass is past ``t + y·(n−1)`` (a Puerta's after 3 totals at 4
    players, a Celebro's after 9: 21 of the 30 per-total arrays the widest reach kept)."""

    others: int
    by_total: dict[int, list[tuple[Cards, int]]] = field(default_factory=dict)
    slices: dict[tuple[Cards, int], dict[Key, list[np.ndarray | None]]] = field(
        default_factory=dict)
    dropped: dict[int, set[int]] = field(default_factory=dict)  # per total, specials gone

    def put(self, cards: Cards, insteker: int, slices: dict[Key, np.ndarray]) -> None:
        self.slices[(cards, insteker)] = {key: by_special(kept) for key, kept in slices.items()}
        self.by_total.setdefault(sum(cards), []).append((cards, insteker))

    def forget_below(self, total: int) -> None:
        for old in list(self.by_total):
            gone = {idx for idx, y in enumerate(SPECIAL_REACH) if old < total - y * self.others}
            if len(gone) == len(SPECIAL_REACH):
                for key in self.by_total.pop(old):
                    del self.slices[key]
                self.dropped.pop(old, None)
            elif gone - self.dropped.get(old, set()):
                for key in self.by_total[old]:
                    for arrays in self.slices[key].values():
                        for idx in gone:
                            arrays[idx] = None
                self.dropped[old] = gone


def lost(cards: Cards, seat: int, count: int) -> tuple[Cards, int]:
    """The next round's position once ``seat`` loses ``count`` cards (``Sweep.lose``)."""
    after = list(cards)
    after[seat] -= min(count, after[seat])  # R1.4
    left = tuple(after)
    return left, next_insteker(left, [seat])


def positions(start: Cards) -> list[Cards]:
    """Every card position with at most ``start`` cards per seat and two seats with cards,
    fewest cards first (the order the pass needs)."""
    every = product(*(range(c + 1) for c in start))
    return sorted((c for c in every if sum(1 for x in c if x) >= 2), key=sum)


def fixed_policies(variants: Sequence[Sequence[bool | Policy]], players: Mapping[int, Policy],
                   n: int) -> tuple[list[Policy], np.ndarray]:
    """The distinct fixed policies of ``Sweep``'s variants (by identity) and which one each
    seat plays in each variant, ``[V, n]`` indices into them (-1 where it maximises)."""
    policies: list[Policy] = []
    plays = np.full((len(variants), n), -1)
    for v, row in enumerate(variants):
        if len(row) != n:
            raise ValueError(f"each variant names all {n} seats, got {len(row)} entries")
        for seat, entry in enumerate(row):
            if isinstance(entry, (bool, np.bool_)) and entry:
                continue
            policy = players[seat] if isinstance(entry, (bool, np.bool_)) else entry
            if monte_carlo_only(policy):
                raise ValueError(f"{getattr(policy, 'name', policy)!r} plays Monte Carlo "
                                 f"only: an exact pass would ask it about millions of "
                                 f"decisions (evaluate it with exact columns off)")
            known = [i for i, p in enumerate(policies) if p is policy]
            if not known:
                policies.append(policy)
            plays[v, seat] = known[0] if known else len(policies) - 1
    return policies, plays


class Sweep:
    """One backward pass over every position up to ``start`` (see the module docstring).

    ``variants[v][seat]`` is True where that seat maximises in variant ``v``, False where it
    plays its policy in ``players``, or a policy it plays in that variant alone (so one pass
    evaluates several lineups). Each distinct policy (by identity) is asked once per decision
    of a seat, however many variants it plays there in. ``full`` keeps every earlier score
    (needed to ask policies that read them); otherwise only the lowest and its holders.
    ``keep`` keeps every position's values (``positions``, a :class:`Kept`; in files in
    the folder ``kept_in`` if given, ``Kept.empty``), else only the values as each round
    starts (``win``).

    ``tracked`` (default: every seat) are the seats whose win probabilities the pass
    computes: the last axis of its values holds theirs, in that order. A seat that maximises
    in some variant must be tracked (it decides by its own value); the others' values are
    needed only to be reported, so a pass that reports one seat (a best response's, or
    one seat's part of NashConv) carries ``[V, 1]`` instead of ``[V, n]``."""

    def __init__(self, start: Cards, variants: Sequence[Sequence[bool | Policy]],
                 players: Mapping[int, Policy], full: bool, keep: bool = False,
                 tracked: Sequence[int] | None = None, kept_in: Path | None = None,
                 book: Book | None = None, booked: Sequence[bool | Policy] = ()
                 ) -> None:
        self.n = len(start)
        self.start = start
        self.policies, self.plays = fixed_policies(variants, players, self.n)
        self.maximises = self.plays < 0  # [V, n]
        self.tracked = tuple(range(self.n)) if tracked is None else tuple(tracked)
        deciding = [seat for seat in range(self.n) if self.maximises[:, seat].any()]
        if not set(deciding) <= set(self.tracked) or len(set(self.tracked)) != len(
                self.tracked) or not set(self.tracked) <= set(range(self.n)):
            raise ValueError(f"tracked must be distinct seats 0–{self.n - 1} including every "
                             f"seat that maximises ({deciding}), got {list(self.tracked)}")
        #: per seat, where its value lies on the values' last axis (0 for untracked seats,
        #: which never read it: they do not maximise)
        self._column = [self.tracked.index(s) if s in self.tracked else 0
                        for s in range(self.n)]
        #: per fixed policy, its decision table (``vector.tables``) shaped ``TABLE_SHAPE``,
        #: or None: a policy that declares one is answered from it, not asked
        self._tables = [None if (t := decision_table(p)) is None else t.reshape(TABLE_SHAPE)
                        for p in self.policies]
        #: recorded answers (``answer_book``) of the policies ``booked`` (one per seat) play,
        #: read instead of asking them; per seat, the index of its booked policy
        self.book = book
        self._booked = {seat: i for seat, p in enumerate(booked)
                        for i, q in enumerate(self.policies) if q is p}
        #: per seat, the policies it plays in some variant (indices into ``core.policies``)
        self._used = [sorted({int(i) for i in self.plays[:, seat] if i >= 0})
                      for seat in range(self.n)]
        self.full = full
        self.win: dict[tuple[Cards, int], np.ndarray] = {}
        self.positions = Kept.empty(start, full, len(self.maximises), len(self.tracked),
                                    kept_in) if keep else None
        self.store = _Store(self.n - 1)
        self.kampen = Kampen(self.lose, self.hit)
        self.rows_asked = 0
        self._won = np.zeros((self.n, len(self.maximises), len(self.tracked)))
        for column, seat in enumerate(self.tracked):
            self._won[seat, :, column] = 1.0

    # -- values at the end of a round ------------------------------------------------
    def value_at(self, cards: Cards, insteker: int) -> np.ndarray:
        """``[V, n]`` as a round starts, or once the game is over (R1.5); ``[V, t]`` for
        ``t`` tracked seats."""
        alive = [s for s, c in enumerate(cards) if c]
        if len(alive) == 1:
            return self._won[alive[0]]
        return self.win[(cards, insteker)]

    def lose(self, cards: Cards, seat: int, count: int) -> np.ndarray:
        """``seat`` loses ``count`` cards as the round ends and insteeks next (R3.5, R4.4,
        R5.3), or the next seat with cards does if it is out (R6.1)."""
        return self.value_at(*lost(cards, seat, count))

    def hit(self, cards: Cards, thrower: int, group: tuple[int, ...], penalty: int
            ) -> tuple[Cards, np.ndarray | None]:
        """A special by ``thrower`` takes ``penalty`` cards from the rest of ``group``
        (R4.1, R5.2): the cards after it, and the value if it emptied someone (R6.2)."""
        after = list(cards)
        hits = special_hits(cards, thrower, group, penalty)
        for victim, lost in hits:
            after[victim] -= lost
        left = tuple(after)
        emptied = [victim for victim, _ in hits if not left[victim]]
        if not emptied:
            return left, None
        return left, self.value_at(left, next_insteker(left, emptied))

    # -- the pass ------------------------------------------------------------------------
    def run(self, progress: Progress | None = None) -> None:
        """Solve every position, fewest cards first; ``progress(done, total)`` after each."""
        todo = positions(self.start)
        for done, cards in enumerate(todo, 1):
            self.store.forget_below(sum(cards))
            if done % TRIM_EVERY == 0:
                release_freed_memory()  # the store's freed arrays too, not only policies'
                if self.positions is not None:
                    self.positions.release()
            for insteker in (s for s in range(self.n) if cards[s]):
                self.solve_position(cards, insteker)
            if progress is not None:
                progress(done, len(todo))

    def ask(self, cards: Cards, order: tuple[int, ...], role: int, states: ScoreStates,
             asked: Sequence[int]) -> dict[int, dict[tuple[int, int], np.ndarray]]:
        """Each fixed policy ``self.policies[i]`` (``i`` in ``asked``)'s probability of
        throwing again at every decision of ``role`` here, ``[Q_j, 42]`` per (limit, throws
        used); unreachable states and the Picaro (which ends the turn) hold 0. The rows are
        built once for all of them."""
        choices: dict[int, dict[tuple[int, int], np.ndarray]] = {i: {} for i in asked}
        seat = order[role]
        booked = self._booked.get(seat, -1)
        recorded = (self.book.answers(cards, order[0], seat) if self.book is not None
                    and booked in asked and not states.full else None)
        if not states.full:  # the lowest view: one row per reachable state and strength
            reachable, strengths = lowest_rows(states, role)
            # a decision table's facts (``vector.kernel._table_entry``): the score to beat
            # is the state's lowest (R3.5; none before the insteker's), the cards are fixed
            to_beat = reachable >> role if role else -np.ones_like(reachable)
            mine = int(cards[seat] == 1)
            other = int(any(c == 1 for s, c in enumerate(cards) if s != seat))
        for k, (limit, used) in enumerate(decision_keys(role)):
            asking = [i for i in asked if (self._tables[i] is None or states.full)
                      and not (recorded is not None and i == booked)]
            fields = None if states.full or not asking else decision_fields(
                self.n, cards, order, role, limit, used, states.scores[role][reachable],
                strengths)
            for i in asked:
                full = np.zeros((states.size[role], NS))
                table = self._tables[i]
                if recorded is not None and i == booked:  # asked once, for every pass
                    full[reachable, strengths] = recorded[k]
                    choices[i][(limit, used)] = full
                    continue
                if table is not None and not states.full:  # looked up, not asked
                    answers = table[int(role == 0), used - 1, strengths, to_beat + 1, mine,
                                    other]
                    full[reachable, strengths] = answers
                elif fields is None:  # every score: the grid's rows, piece by piece
                    answers = np.concatenate([_ask(self.policies[i], rows) for rows in
                                              decision_row_chunks(self.n, cards, order, role,
                                                                  limit, used, BATCH_ROWS)])
                    grid = full.reshape((NS,) * (role + 1))
                    grid[(slice(PICARO + 1, None),) * (role + 1)] = answers.reshape(
                        (len(THROWN),) * (role + 1))
                else:
                    answers = _ask(self.policies[i], fields=fields)
                    full[reachable, strengths] = answers
                self.rows_asked += len(answers)
                choices[i][(limit, used)] = full
        return choices

    def _throws(self, asked: dict[int, dict[tuple[int, int], np.ndarray]], seat: int,
                state: tuple[int, int]) -> np.ndarray | float:
        """What seat ``seat``'s fixed policies throw at ``state`` per variant, ``[Q_j, 42,
        V]`` (or ``[Q_j, 42, 1]`` when one policy serves every variant; 0 when none does),
        for ``np.where`` beside the maximising variants' choice."""
        used = self._used[seat]
        if not used:
            return 0.0
        if len(used) == 1:
            return asked[used[0]][state][..., None]
        stacked = np.stack([asked[i][state] for i in used], axis=-1)
        return stacked[..., [used.index(i) if i >= 0 else 0 for i in self.plays[:, seat]]]

    def _settle(self, cards: Cards, order: tuple[int, ...]) -> np.ndarray:
        """``[2 ** m, V, n]``: the round's end when the roles in the mask share the lowest
        score: one of them loses a card (R3.5), several play kampen in round order (R5.1)."""
        m = len(order)
        table = np.zeros((1 << m, *self._won.shape[1:]))
        for mask in range(1, 1 << m):
            tied = tuple(s for r, s in enumerate(order) if mask >> r & 1)
            table[mask] = (self.lose(cards, tied[0], ROUND_LOSS) if len(tied) == 1
                           else self.kampen.value(cards, tied))
        return table

    def landing(self, left: Cards, insteker: int, key: Key, idx: int, kept: np.ndarray
                ) -> np.ndarray:
        """``[Q_j, V, n]``: where the ``idx``-th special thrown at round state ``key`` lands
        when it leaves ``left`` cards (R4.1, R4.3): the after-throw values of the position
        at ``left`` with the same insteker, solved before (``kept`` is this position's at
        the special strengths, ``[Q_j, 3, V, n]``, for searches that approximate the
        landing by it)."""
        landed = self.store.slices[(left, insteker)][key][idx]
        assert landed is not None  # kept while a position with more cards can reach it
        return landed

    def solve_position(self, cards: Cards, insteker: int) -> Position:
        """Solve one round position: every round state's values, from the last role back
        (returned, and kept in ``positions`` when the sweep keeps them)."""
        order = turn_order(cards, insteker)
        m = len(order)
        states = score_states(m, self.full)
        asked = {j: self.ask(cards, order, j, states, self._used[seat])
                 for j, seat in enumerate(order) if self._used[seat]}
        settle = self._settle(cards, order)
        final = settle[states.holders]
        before: dict[Key, np.ndarray] = {}
        slices: dict[Key, np.ndarray] = {}
        for j in range(m - 1, -1, -1):
            seat = order[j]
            maximise = self.maximises[:, seat]  # [V]
            picaro = PROB[PICARO] * self.lose(cards, seat, PICARO_LOSS)  # R4.4
            specials = [(idx, y, self.hit(cards, seat, order, int(PENALTY[y])))  # R4.1
                        for idx, y in enumerate(SPECIALS)]
            nxt = states.next[j]
            for limit in ([0] if j == 0 else range(1, MAX_THROWS + 1)):
                top = throws_allowed(limit)
                for k in range(top, 0, -1):
                    key = (j, limit, k)
                    # the insteker's stop fixes the limit at k (R3.2); with no throws
                    # left the throw is the score (R3.6)
                    stop = final if j == m - 1 else before[(j + 1, limit or k, 1)]
                    fixed = 0.0 if k == top else self._throws(asked.get(j, {}), seat,
                                                              (limit, k))
                    plain, kept = throw_step(
                        stop, nxt, None if k == top else before[(j, limit, k + 1)],
                        self._column[seat], maximise, fixed)
                    slices[key] = kept
                    value = picaro + plain
                    for idx, y, (left, ended) in specials:  # R4.2: every throw counts
                        landed = (ended if ended is not None
                                  else self.landing(left, insteker, key, idx, kept))
                        value = value + PROB[y] * landed
                    before[key] = value
        self.win[(cards, insteker)] = before[(0, 0, 1)][0]
        self.store.put(cards, insteker, slices)
        if self.positions is not None:
            self.positions.put((cards, insteker), before, settle)
        return Position(before, settle)
