"""How an exact evaluation or NashConv is computed: which passes of ``sweep.Sweep``, and where
they run.

A **plan** is ONE pass holding every variant side by side (the profile, every seat's best
response against it, other profiles to evaluate) when that fits the limits and takes at most
``ONE_PASS_BYTES``: each policy is then asked about each decision once. Else it is one pass
per seat with cards, holding the
profile and that seat's best response with that seat's value alone (``Sweep``'s
``tracked``: at 4 players with 10 cards about 4.7 GB a pass instead of 45 GB in one), and one
pass for the other profiles if there are any. Every pass is checked against the limits
before any work (``cost.check_size``).

The per-seat passes are independent, so they can run side by side: ``workers`` spawned
processes on this machine (``core.pool``; as many as its memory holds at once), or Ray tasks
(``backend="ray"``, on a local Ray or the cluster at ``address``; each task declares the
memory its pass needs, so Ray never puts two on a node that cannot hold both). Every pass
computes the same numbers wherever it runs. A pass that runs elsewhere rebuilds its players
from the profiles, so those must be agent specs (strings) there.
"""

from __future__ import annotations

import pickle
import shutil
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from ...core.checks import check_int
from ...core.policies import (
    Policy,
    check_tables,
    make_policy,
    reads_lowest_only,
    takes_parameter,
)
from ...core.pool import in_pool
from ..policies import answers_by_position
from ..vector.tables import decision_table
from . import results_cache
from .answer_book import AnswerBook, bookable, record, record_shard
from .cost import SHARE, check_size, memory_limit, solve_cost, table_cards
from .multi_kampen import Cards
from .sweep import Progress, Sweep, positions

#: What a variant plays: ("profile", 0), ("response", seat) (that seat's best response
#: against the profile) or ("lineup", i) (the ``i``-th other profile).
Label = tuple[str, int]
#: Where passes run.
BACKENDS = ("local", "ray")
#: A pass in another process reports its progress this many times.
REPORTS = 100
#: The most one pass of every variant may take before the plan splits it per seat even
#: where it fits: the per-seat passes ask every policy again, but each keeps a fraction of
#: the values (an exact evaluation at 4 players with 10 cards: 9.1 GB in one pass, 2.4 GB a
#: seat), so a big table stays within a 16 GB machine beside what else runs there.
ONE_PASS_BYTES = 8 * 2**30


#: One agent (spec string or policy) for every seat, or a list with one per seat.
Profile = str | Policy | Sequence[str | Policy]


def profile_players(profile: Profile, num_players: int, cards: int | Sequence[int],
                    check: bool = True, share: bool = False) -> list[Policy]:
    """One policy per seat: ``profile`` is one agent (spec string or policy) for every seat,
    given alone or as a list of one, or a list with one per seat. Specs are built per seat
    (``seat=`` goes to players that take it); with ``share``, one spec given for every seat
    whose player takes no ``seat`` is built once and sits at every seat (what a pass wants:
    it asks players about rows only, and one object at every seat is asked each distinct
    observation once, ``answer_book.shared_by_turning``). With ``check`` every player is
    asked whether it covers the table (``check_tables``; for a player such as
    ``equilibrium`` that is a solve)."""
    entries: list[str | Policy] = ([profile] if isinstance(profile, (str, Policy))
                                   else list(profile))
    one = len(entries) == 1
    if one:
        entries *= num_players
    if len(entries) != num_players:
        raise ValueError(f"a profile is one agent for every seat or {num_players} agents "
                         f"(one per seat), got {len(entries)}")
    if share and one and isinstance(entries[0], str) and not takes_parameter(entries[0],
                                                                              "seat"):
        players = [make_policy(entries[0])] * num_players
    else:
        players = [make_policy(e, seat=seat) for seat, e in enumerate(entries)]
    if check:
        check_tables(players, num_players, cards)
    return players


@dataclass(frozen=True)
class Pass:
    """One ``Sweep`` of a plan: what its variants play and the seats whose values it
    computes, with the bytes its arrays take (``cost.solve_cost``)."""

    labels: tuple[Label, ...]
    tracked: tuple[int, ...]
    bytes: int


@dataclass(frozen=True)
class Plan:
    """The passes for ``profiles`` at the table ``start`` (module docstring)."""

    profiles: tuple[Any, ...]
    start: Cards
    full: bool
    best_responses: bool
    passes: tuple[Pass, ...]
    #: the players seated and checked here, by label (passes elsewhere seat their own)
    played: dict[Label, tuple[bool | Policy, ...]] = field(compare=False, repr=False,
                                                          default_factory=dict)


def seat_profiles(profiles: Sequence[Any], start: Cards, best_responses: bool
                  ) -> tuple[dict[Label, tuple[bool | Policy, ...]], list[Policy]]:
    """Every variant's seats (a policy, or True where that seat best-responds) by label, and
    every player seated (``equilibrium.profile_players``)."""
    n = len(start)
    seated = [profile_players(profile, n, start, check=False, share=True)
              for profile in profiles]
    played: dict[Label, tuple[bool | Policy, ...]] = {("profile", 0): tuple(seated[0])}
    if best_responses:
        played |= {("response", hero): tuple(True if s == hero else seated[0][s]
                                             for s in range(n)) for hero in range(n)}
    played |= {("lineup", i): tuple(players) for i, players in enumerate(seated[1:])}
    return played, [player for players in seated for player in players]


def plan(profiles: Sequence[Any], num_players: int, cards: int | Sequence[int],
         best_responses: bool, what: str) -> Plan:
    """The passes that compute every seat's value under each of ``profiles`` (the first
    first) and, with ``best_responses``, every seat's best response against the first
    (module docstring); ``ValueError`` naming the limits, with ``what`` in it, before any
    work if a pass does not fit."""
    start = table_cards(num_players, cards)
    n = len(start)
    played, every = seat_profiles(profiles, start, best_responses)
    full = not all(reads_lowest_only(p) for p in every)
    # looked up, not asked: decision tables, and players answering from their own tables
    asking = sum(decision_table(p) is None and not answers_by_position(p)
                 for p in every) / len(every)
    groups = [(tuple(played), tuple(range(n)))]
    one = solve_cost(start, full, len(played), asked=True)
    if not one.fits() or one.bytes > ONE_PASS_BYTES:
        mine: tuple[Label, ...] = (("profile", 0),)
        groups = [(mine + ((("response", s),) if best_responses else ()), (s,))
                  for s in range(n) if start[s]]
        others = tuple(label for label in played if label[0] == "lineup")
        groups += [(others, tuple(range(n)))] if others else []
    passes = tuple(Pass(labels, tracked, check_size(
        start, full=full, variants=len(labels), asked=True, what=what, tracked=len(tracked),
        asking=asking).bytes) for labels, tracked in groups)
    check_tables(every, n, start)  # after the size: a player's check may itself solve
    return Plan(tuple(profiles), start, full, best_responses, passes, played)


def run_pass(profiles: Sequence[Any], start: Cards, full: bool, best_responses: bool,
             labels: Sequence[Label], tracked: Sequence[int], index: int = 0,
             book: AnswerBook | str | None = None, queue: Any = None,
             progress: Progress | None = None,
             played: dict[Label, tuple[bool | Policy, ...]] | None = None
             ) -> dict[int, np.ndarray]:
    """One pass: every first insteker's ``[labels, tracked]`` values at the start (what
    ``Measured`` reads), with the players ``played`` (seated and checked, ``plan``), or
    seated and checked here for a pass in another process; the profile's answers read from
    ``book`` (``answer_book``: the book, or the folder of its shards) where it has them.
    ``progress`` hears of it here; a pass elsewhere puts ``(index, done, total)`` on
    ``queue`` about ``REPORTS`` times instead."""
    if played is None:
        played = checked_profiles(profiles, start, best_responses)
    if queue is not None:
        def progress(done: int, total: int) -> None:
            if done == total or done % max(1, total // REPORTS) == 0:
                queue.put((index, done, total))

    if isinstance(book, str):
        book = AnswerBook.load(Path(book), start, played[("profile", 0)])
    sweep = Sweep(start, [played[label] for label in labels], {}, full=full,
                  tracked=tuple(tracked), book=book, booked=played[("profile", 0)])
    sweep.run(progress)
    return {first: sweep.win[(start, first)] for first, count in enumerate(start) if count}


def checked_profiles(profiles: Sequence[Any], start: Cards, best_responses: bool
                     ) -> dict[Label, tuple[bool | Policy, ...]]:
    """``seat_profiles``' variants, every player checked as ``plan`` checks them (a player
    may solve its table): what a pass or a book in another process plays."""
    played, every = seat_profiles(profiles, start, best_responses)
    check_tables(every, len(start), start)
    return played


def profile_seats(profiles: Sequence[Any], start: Cards) -> tuple[bool | Policy, ...]:
    """The first profile's players, one per seat, seated and checked here."""
    return checked_profiles(profiles[:1], start, False)[("profile", 0)]


class Measured:
    """The values a plan's passes computed, found by what a variant plays and the seat."""

    def __init__(self, chosen: Plan, wins: Sequence[dict[int, np.ndarray] | None],
                 cached: int = 0) -> None:
        self.start = chosen.start
        self.passes = len(chosen.passes)
        self.cached = cached  # passes read from the results cache
        self.found: dict[tuple[Label, int], tuple[Pass, dict[int, np.ndarray]]] = {}
        for part, won in zip(chosen.passes, wins, strict=True):
            assert won is not None  # every pass was read or computed
            for label in part.labels:
                for seat in part.tracked:
                    self.found.setdefault((label, seat), (part, won))

    def value(self, label: Label, seat: int, first: int) -> float:
        """``seat``'s win probability in the variant ``label`` when ``first`` insteeks first
        (0 for a seat without cards)."""
        if not self.start[seat]:
            return 0.0
        part, won = self.found[(label, seat)]
        return float(won[first][part.labels.index(label), part.tracked.index(seat)])

    def values(self, label: Label, first: int) -> tuple[float, ...]:
        """Every seat's ``value``."""
        return tuple(self.value(label, seat, first) for seat in range(len(self.start)))

    def starts(self, label: Label) -> dict[int, tuple[float, ...]]:
        """``values`` per first insteker (the seats with cards)."""
        return {seat: self.values(label, seat) for seat, count in enumerate(self.start)
                if count}


def measure(profiles: Sequence[Any], num_players: int, cards: int | Sequence[int],
            best_responses: bool, progress: Progress | None = None, workers: int = 1,
            backend: str = "local", address: str | None = None, cache: bool = False
            ) -> Measured:
    """The plan for ``profiles`` (``plan``), its passes run one after the other, in
    ``workers`` processes, or as Ray tasks (module docstring); with ``cache``, passes kept
    by an earlier call are read, and those computed now kept (``results_cache``)."""
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {', '.join(BACKENDS)}, got {backend!r}")
    check_int("workers", workers, 1, 256)
    if address is not None and backend != "ray":
        raise ValueError("address is for backend='ray' (a Ray cluster to run the passes on)")
    chosen = plan(profiles, num_players, cards, best_responses,
                  "compute NashConv of" if best_responses else "evaluate")
    keys = _keys(chosen) if cache else [None] * len(chosen.passes)
    wins = [results_cache.load(key) if key else None for key in keys]
    todo = [k for k in range(len(chosen.passes)) if wins[k] is None]
    # the profile's answers asked once for every pass (``answer_book``; a Ray cluster's
    # nodes would not see the book's files, so there every pass asks)
    booking = (backend == "local" and len(todo) >= 2 and not chosen.full
               and any(bookable(p) for p in chosen.played[("profile", 0)]))
    parts = len(todo) + booking  # the book takes about a pass's time
    folder = tempfile.mkdtemp(prefix="pagadores-answers-") if booking else None
    try:
        book: AnswerBook | str | None = None
        if booking:
            book = _book(chosen, folder, workers, _part(progress, 0, parts))
        return _measure(chosen, wins, keys, todo, book, workers, backend, address,
                        _part(progress, int(booking), parts, len(todo)))
    finally:
        if folder is not None:  # created above, holding nothing but the book
            shutil.rmtree(folder, ignore_errors=True)


def _book(chosen: Plan, folder: str | None, workers: int, progress: Progress | None
          ) -> AnswerBook | str:
    """The profile's answers at every decision (``answer_book``), in this process (one
    worker: the book in memory) or shared out among ``workers`` processes (the folder of
    their shards)."""
    players = chosen.played[("profile", 0)]
    side_by_side = min(workers, max(1, memory_limit() // max(
        part.bytes for part in chosen.passes)))
    if side_by_side <= 1 or folder is None:
        data, index = record(players, chosen.start, progress=progress)
        book = AnswerBook().bind(chosen.start, players)
        book.add_shard(data, index)
        return book
    _check_sendable(chosen.profiles)
    done: dict[int, tuple[int, int]] = {}

    def heard(message: tuple[int, int, int]) -> None:
        part, count, total = message
        done[part] = (count, total)
        if progress is not None:
            progress(sum(c for c, _ in done.values()), len(positions(chosen.start)))

    rebuild = partial(profile_seats, chosen.profiles, chosen.start)
    jobs = [(rebuild, chosen.start, k, side_by_side, folder) for k in range(side_by_side)]
    for _ in in_pool(record_shard, jobs, side_by_side, heard, finish_running=False):
        pass
    return folder


def _measure(chosen: Plan, wins: list[dict[int, np.ndarray] | None],
             keys: Sequence[str | None],
             todo: list[int], book: AnswerBook | str | None, workers: int, backend: str,
             address: str | None, progress: Progress | None) -> Measured:
    """``measure``'s passes ``todo`` run (with the profile's answers from ``book``)."""
    jobs = [(chosen.profiles, chosen.start, chosen.full, chosen.best_responses, part.labels,
             part.tracked, k, book if isinstance(book, str) else None)
            for k, part in enumerate(chosen.passes) if k in todo]

    def found(k: int, won: dict[int, np.ndarray]) -> None:
        wins[k] = won
        key = keys[k]
        if key:
            results_cache.save(key, won)

    side_by_side = min(workers, len(jobs), max(1, memory_limit() // max(
        part.bytes for part in chosen.passes)))
    if backend == "local" and side_by_side <= 1:
        for i, job in enumerate(jobs):
            found(job[6], run_pass(*job[:7], book=book, progress=_part(progress, i, len(jobs)),
                                   played=chosen.played))
        return Measured(chosen, wins, len(chosen.passes) - len(jobs))
    _check_sendable(chosen.profiles)
    if backend == "ray":
        from ...integrations.ray_passes import ray_passes

        done = ray_passes(indexed_pass, jobs, max(p.bytes for p in chosen.passes) / SHARE,
                          workers,
                          address, _part(progress, 0, 1), len(positions(chosen.start)))
    else:
        done = _pool(jobs, side_by_side, progress)
    for k, won in done:
        found(k, won)
    return Measured(chosen, wins, len(chosen.passes) - len(jobs))


def _keys(chosen: Plan) -> list[str | None]:
    """Each pass's key in the results cache (None where it cannot be cached)."""
    players = [p for seats in chosen.played.values() for p in seats if p is not True]
    return [results_cache.pass_key(chosen.profiles, players, chosen.start, chosen.full,
                                   chosen.best_responses, part.labels, part.tracked)
            for part in chosen.passes]


def indexed_pass(*job: Any) -> tuple[int, dict[int, np.ndarray]]:
    """``run_pass`` with its index beside its values (passes finish in any order)."""
    return job[6], run_pass(*job)


def _pool(jobs: list[tuple[Any, ...]], workers: int, progress: Progress | None
          ) -> Iterator[tuple[int, dict[int, np.ndarray]]]:
    """The passes in ``workers`` spawned processes, their progress told as one."""
    done = [0] * len(jobs)

    def heard(message: tuple[int, int, int]) -> None:
        index, count, total = message
        done[index] = count
        if progress is not None:
            progress(sum(done), total * len(jobs))

    return in_pool(indexed_pass, jobs, workers, heard, finish_running=False)


def _part(progress: Progress | None, k: int, parts: int, count: int = 1
          ) -> Progress | None:
    """``progress`` for ``count`` equal parts from the ``k``-th of ``parts`` (passes, or the
    answer book), told as one."""
    if progress is None:
        return None
    return lambda done, total: progress(k * total // count + done, parts * total // count)


def _check_sendable(profiles: Sequence[Any]) -> None:
    """``ValueError`` unless ``profiles`` can go to another process (agent specs can)."""
    try:
        pickle.dumps(profiles)
    except Exception as err:  # what pickling a policy object raises varies
        raise ValueError(f"passes in other processes rebuild the players from the profiles, "
                         f"which must be agent specs (such as 'sensible'); {err}") from None
