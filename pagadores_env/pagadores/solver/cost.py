"""How big an exact multi-player solve is, known before it starts, and the limits it must fit.

A pass of ``sweep`` over a table visits every card position below the start (two seats with
cards at least) once per insteker. Its work is the round-state arrays of each position
(``scores.ScoreStates``: ``42 * 2 ** j`` states per role in the lowest-score view, ``42 ** j``
when policies read every score) and the observation rows it asks fixed policies about. Both
explode with the players, so ``check_size`` counts them exactly by card total and seats with
cards (without enumerating positions) and refuses a table beyond ``MAX_ROWS`` or the memory
limit at once, naming the limit — never a run that eats all memory.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

# The process's memory limit has its home in the core, which every game's yardstick sizes
# itself by; its names stay importable from here, where they were first.
from ...core.memory import CGROUP_FILES as CGROUP_FILES
from ...core.memory import SHARE as SHARE
from ...core.memory import cgroup_limit as cgroup_limit
from ...core.memory import mapped_bytes as mapped_bytes
from ...core.memory import memory_limit as memory_limit
from ..observation import OBS_SIZE
from ..rules import MAX_CARDS, MAX_PLAYERS, MIN_PLAYERS, check_table
from .model import NS
from .multi_rows import THROWN, decision_keys
from .scores import ScoreStates
from .sweep import BATCH_ROWS, SPECIAL_REACH, round_keys

#: Passes that would ask policies more observation rows than this are refused: about 70
#: minutes of CPU at the ~0.7 M rows/s measured for heuristics and for a 64x64 network at
#: four seats. Per-seat passes ask them once for all (``answer_book``), shared among the
#: workers; this lets in 4 players with 10 cards (2.4e9 rows), 5 with 5 and 6 with 3.
MAX_ROWS = 3 * 10**9
_FLOAT = 8
#: Arrays alive at once while a round role is filled (stop, again, the difference, after,
#: its choices), as multiples of that role's after-throw array.
_TEMPORARIES = 6


def table_cards(num_players: int, cards: int | Sequence[int]) -> tuple[int, ...]:
    """The start cards per seat of a valid table (``rules.check_table``)."""
    return check_table(num_players, cards)[1]


#: Kept values (a solve's every position) above this many bytes live in files in the cache
#: folder instead of memory (``sweep.Kept.empty``): written as the pass goes, their pages
#: handed back, they weigh on memory only while the solution is saved, when the pass's own
#: arrays are gone (4 players with 10 cards: 4.8 GB kept beside 6 GB of pass).
KEPT_IN_MEMORY = 1 << 30


@dataclass(frozen=True)
class SolveCost:
    """What a pass takes at a table."""

    positions: int  #: (cards, insteker) positions solved
    rows: int  #: observation rows fixed policies are asked
    bytes: int  #: peak memory of the arrays, estimated from their shapes
    kept_on_disk: bool = False  #: the kept values live in files (``KEPT_IN_MEMORY``)

    def fits(self, limit: int | None = None) -> bool:
        """Whether the pass is within ``MAX_ROWS`` and the memory limit."""
        return self.rows <= MAX_ROWS and self.bytes <= (limit or memory_limit())


@cache
def _sizes(m: int, full: bool) -> tuple[list[int], list[int]]:
    """States per role of an ``m``-role round and the reachable ones (``ScoreStates``
    without building its arrays for big full views)."""
    if full:
        return [NS**j for j in range(m + 1)], [len(THROWN) ** j for j in range(m + 1)]
    states = ScoreStates(m, False)
    return states.size, [int(r.sum()) for r in states.reachable]


def _per_position(m: int, full: bool, variants: int, columns: int, asked: bool
                  ) -> tuple[int, int, int, int]:
    """For one (cards, insteker) position with ``m`` seats holding cards: rows asked (all
    roles, if ``asked``), bytes kept (``keep``), bytes stored for specials, working bytes;
    ``columns`` values (tracked seats) per variant."""
    size, reach = _sizes(m, full)
    value = variants * columns * _FLOAT
    rows = sum(len(decision_keys(j)) * reach[j] * len(THROWN) for j in range(m)) if asked else 0
    states = sum(size[j] for j, _, _ in round_keys(m))
    kept = (states + (1 << m)) * value
    stored = states * value  # per special
    choices = sum(len(decision_keys(j)) * size[j] * NS * _FLOAT for j in range(m)) if asked else 0
    working = _TEMPORARIES * size[m - 1] * NS * value + kept + choices + size[m] * value
    return rows, kept, stored, working


def solve_cost(start: Sequence[int], full: bool = False, variants: int = 1,
               asked: bool = False, keep: bool = False, tracked: int | None = None
               ) -> SolveCost:
    """The cost of a ``sweep.Sweep`` pass from ``start``: ``full`` score view, ``variants``
    side by side, fixed policies ``asked`` at every role, every position's values kept,
    ``tracked`` seats' values computed (default: every seat's)."""
    n = len(start)
    columns = n if tracked is None else tracked
    counts: Counter[tuple[int, int]] = Counter({(0, 0): 1})  # (card total, seats with cards)
    for most in start:
        grown: Counter[tuple[int, int]] = Counter()
        for (total, alive), count in counts.items():
            for c in range(most + 1):
                grown[(total + c, alive + (c > 0))] += count
        counts = grown
    positions = rows = kept = working = 0
    stored: Counter[int] = Counter()
    for (total, alive), count in counts.items():
        if alive >= 2:
            asked_rows, keep_bytes, store_bytes, work = _per_position(alive, full, variants,
                                                                      columns, asked)
            positions += count * alive
            rows += count * alive * asked_rows
            kept += count * alive * keep_bytes if keep else 0
            stored[total] += count * alive * store_bytes
            working = max(working, work)
    # sweep._Store keeps a special's values this many card totals below the current one
    reaches = [y * (n - 1) for y in SPECIAL_REACH]
    store = max((sum(stored[t] for reach in reaches for t in range(top - reach, top + 1))
                 for top in stored), default=0)
    batch = BATCH_ROWS * OBS_SIZE * (_FLOAT + 4) if asked else 0
    if kept > KEPT_IN_MEMORY:  # in files: resident while the solution is written out
        return SolveCost(positions, rows, max(store + working + batch, kept), True)
    return SolveCost(positions, rows, kept + store + working + batch)


def within_limits(full: bool = False, asked: bool = False, keep: bool = True,
                  variants: int = 1, tracked: int | None = None, asking: float = 1.0) -> str:
    """The tables with equal cards that fit, in words, e.g. "2–3 players with up to 10
    cards each, 4 players with up to 6 cards each"."""
    most: dict[int, int] = {}
    for n in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        most[n] = 0
        while most[n] < MAX_CARDS:
            cost = solve_cost((most[n] + 1,) * n, full, variants if variants else n + 1,
                              asked, keep, tracked)
            if not SolveCost(cost.positions, round(cost.rows * asking), cost.bytes).fits():
                break
            most[n] += 1
    groups: list[list[int]] = []  # runs of player counts with the same card limit
    for n in (n for n in most if most[n]):
        if groups and most[groups[-1][-1]] == most[n] and groups[-1][-1] == n - 1:
            groups[-1].append(n)
        else:
            groups.append([n])
    return ", ".join(f"{g[0]}{f'–{g[-1]}' if len(g) > 1 else ''} players with up to "
                     f"{most[g[0]]} card{'s' if most[g[0]] > 1 else ''} each"
                     for g in groups) or "none"


def check_size(start: Sequence[int], full: bool = False, variants: int = 1,
               asked: bool = False, keep: bool = False, what: str = "solve",
               tracked: int | None = None, asking: float = 1.0) -> SolveCost:
    """``solve_cost`` of the pass, or ``ValueError`` at once if it is beyond the limits;
    ``asking`` is the share of the seats whose policies are asked (a policy with a decision
    table is looked up instead, ``sweep.Sweep``: its rows cost no query)."""
    cost = solve_cost(start, full, variants, asked, keep, tracked)
    cost = SolveCost(cost.positions, round(cost.rows * asking), cost.bytes, cost.kept_on_disk)
    if not cost.fits():
        n = len(start)
        each = "card" if start[0] == 1 else "cards"
        table = (f"{start[0]} {each} each" if len(set(start)) == 1
                 else f"cards {', '.join(map(str, start))}")
        limit = memory_limit()
        over = []
        if cost.rows > MAX_ROWS:
            over.append(f"{cost.rows:.1e} policy queries (limit {MAX_ROWS:.0e})")
        if cost.bytes > limit:
            over.append(f"about {cost.bytes / 1e9:.1f} GB of arrays (limit {limit / 1e9:.1f} "
                        f"GB, 3/4 of the memory this process may use)")
        raise ValueError(
            f"{n} players with {table} is too big to {what} exactly: {' and '.join(over)}; "
            f"within the limits: "
            f"{within_limits(full, asked, keep, variants, tracked, asking)}")
    return cost
