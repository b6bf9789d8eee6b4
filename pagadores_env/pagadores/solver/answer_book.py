"""A profile's answers at every decision of a table, asked once and read by every pass.

NashConv beyond one pass runs one ``Sweep`` per seat (``passes``), and each pass asks the
profile's players about every decision of the table again: at 4 players with 10 cards that
is 2.4e9 rows a pass, and for a search player (``pagadores_agents.search.player``) a round search
at each of the 58,400 positions a pass. An **answer book** asks them once: the positions
are shared out among the workers (``record``, in any order: a deterministic player's
answer at a position does not depend on what it was asked before), each writes its share
as packed bits (about 300 MB for the whole 4-player 10-card table), and the passes look
the answers up (``Sweep(..., book=)``) instead of asking.

Only deterministic players are booked: a player with a decision table is looked up anyway,
and one that declares its throw probabilities (``SupportsThrowProbabilities``) has no
single answer to keep. The values are the same as asking (the same answers, the same sums).

An observation is written from the acting seat's view (slot 0 is the actor, the others
clockwise from it, R7.1), so when one player object sits at every seat of a table with equal
cards, a seat's questions at a position are seat 0's at that position turned round to put
the seat first (``turned``): the book then asks seat 0 alone (``shared_by_turning``), one
question in ``n`` — each distinct observation once.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ...core.policies import Policy
from ..policies import SupportsThrowProbabilities
from ..rules import turn_order
from ..vector.tables import decision_table
from .multi_kampen import Cards
from .multi_rows import decision_keys, lowest_rows
from .scores import score_states
from .sweep import Progress, Sweep, positions

#: A book entry's key: (position index in ``sweep.positions``, insteker, seat).
Entry = tuple[int, int, int]


def bookable(player: bool | Policy) -> bool:
    """Whether ``player`` is asked by a pass and has one answer per decision to keep."""
    return (not isinstance(player, bool) and decision_table(player) is None
            and not isinstance(player, SupportsThrowProbabilities))


def shared_by_turning(players: Sequence[bool | Policy], start: Cards) -> bool:
    """Whether seat 0's answers serve every seat (module docstring): one bookable player
    object at every seat of a table with the same cards at every seat."""
    return (len(set(start)) == 1 and bookable(players[0])
            and all(p is players[0] for p in players))


def turned(cards: Cards, insteker: int, seat: int) -> tuple[Cards, int]:
    """The position as seen from ``seat``: the cards and insteker with ``seat`` renumbered
    0 and the others clockwise from it (``core.seats.CLOCKWISE``)."""
    return cards[seat:] + cards[:seat], (insteker - seat) % len(cards)


class AnswerBook:
    """Recorded answers, per (position, insteker, seat): every decision of that seat's role
    there, the ``decision_keys`` in order, each over ``lowest_rows``, as one bit array; with
    ``turning`` (``shared_by_turning``) seat 0's alone, read for every seat."""

    def __init__(self) -> None:
        self.entries: dict[Entry, tuple[np.ndarray, int, int]] = {}  # → (bytes, at, bits)
        self._index: dict[Cards, int] = {}
        self.turning = False

    def bind(self, start: Cards, players: Sequence[bool | Policy]) -> AnswerBook:
        """Key positions by their index at the table ``start`` (``sweep.positions``), for
        the book of ``players`` (one per seat, as ``record`` was given)."""
        self._index = {cards: i for i, cards in enumerate(positions(start))}
        self.turning = shared_by_turning(players, start)
        return self

    def answers(self, cards: Cards, insteker: int, seat: int) -> np.ndarray | None:
        """``[keys, rows]`` booleans: the seat's recorded answers at this position (None if
        the book does not hold them)."""
        if self.turning:
            (cards, insteker), seat = turned(cards, insteker, seat), 0
        found = self.entries.get((self._index.get(cards, -1), insteker, seat))
        if found is None:
            return None
        data, at, bits = found
        role = turn_order(cards, insteker).index(seat)
        flat = np.unpackbits(data[at:at + (bits + 7) // 8], count=bits).astype(bool)
        return flat.reshape(len(decision_keys(role)), -1)

    def add_shard(self, data: np.ndarray, index: np.ndarray) -> None:
        """Take a shard's entries: ``index`` rows (position, insteker, seat, byte offset,
        bits) into ``data``."""
        for pos, insteker, seat, at, bits in index.tolist():
            self.entries[(pos, insteker, seat)] = (data, at, bits)

    @classmethod
    def load(cls, folder: Path, start: Cards, players: Sequence[bool | Policy]) -> AnswerBook:
        """The shards ``record`` wrote into ``folder`` for ``players``, memory-mapped."""
        book = cls().bind(start, players)
        for index_file in sorted(folder.glob("*.index.npy")):
            data = np.load(index_file.with_name(index_file.name.replace(".index", ".data")),
                           mmap_mode="r")
            book.add_shard(data, np.load(index_file))
        return book


def record(players: Sequence[bool | Policy], start: Cards, part: int = 0, parts: int = 1,
           progress: Progress | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Ask ``players`` (one per seat; those not ``bookable`` are skipped; seat 0 alone if
    it answers for all, ``shared_by_turning``) about every decision of the ``part``-th of
    ``parts`` shares of the positions at the table ``start``: the shard as (packed answers,
    index rows for ``AnswerBook.add_shard``)."""
    n = len(start)
    booked = {seat: p for seat, p in enumerate(players) if bookable(p)
              and not (seat and shared_by_turning(players, start))}
    sweep = Sweep(start, [[booked.get(s, True) for s in range(n)]], {}, full=False)
    which = {seat: i for seat, p in booked.items() for i, q in enumerate(sweep.policies)
             if q is p}
    every = positions(start)
    mine = range(part, len(every), parts)
    chunks: list[np.ndarray] = []
    index: list[tuple[int, int, int, int, int]] = []
    at = 0
    for done, i in enumerate(mine, 1):
        cards = every[i]
        for insteker in (s for s in range(n) if cards[s]):
            order = turn_order(cards, insteker)
            states = score_states(len(order), False)
            for role, seat in enumerate(order):
                if seat not in which:
                    continue
                asked = sweep.ask(cards, order, role, states, [which[seat]])[which[seat]]
                reachable, strengths = lowest_rows(states, role)
                flat = np.concatenate([asked[key][reachable, strengths]
                                       for key in decision_keys(role)]) > 0.5
                packed = np.packbits(flat)
                chunks.append(packed)
                index.append((i, insteker, seat, at, len(flat)))
                at += len(packed)
        if progress is not None:
            progress(done, len(mine))
    data = np.concatenate(chunks) if chunks else np.zeros(0, np.uint8)
    return data, np.array(index, dtype=np.int64).reshape(-1, 5)


def write_shard(folder: Path, part: int, shard: tuple[np.ndarray, np.ndarray]) -> None:
    """Save a shard into ``folder`` atomically (temporary files, then renamed)."""
    for name, array in zip(("data", "index"), shard, strict=True):
        final = folder / f"shard{part}.{name}.npy"
        handle, temporary = tempfile.mkstemp(dir=folder, suffix=".tmp")
        with os.fdopen(handle, "wb") as out:
            np.save(out, array)
        os.replace(temporary, final)


def record_shard(players_of: Any, start: Cards, part: int, parts: int, folder: str,
                 queue: Any = None) -> int:
    """``record`` in a worker: the players built there (``players_of()``), the shard
    written into ``folder``; ``(part, done, total)`` on ``queue`` as it goes."""
    def told(done: int, total: int) -> None:
        if queue is not None and (done == total or done % max(1, total // 100) == 0):
            queue.put((part, done, total))

    write_shard(Path(folder), part, record(players_of(), start, part, parts, told))
    return part
