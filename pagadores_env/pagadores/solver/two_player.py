"""The solved two-player game: values, optimal actions, and a cache file on disk."""

from __future__ import annotations

import io
import os
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ...core.atomic import write_atomic
from ..engine import Action
from ..rules import MAX_CARDS, MAX_THROWS
from .decisions import INSTEKER, Decision, check_decisions
from .model import PENALTY, PROB, PolicyTable, Tables, backward
from .npz import open_npz

FORMAT_VERSION = 1
#: Action values closer than this count as equal; the policy then stops (a fixed tie-break).
TIE_TOLERANCE = 1e-12
_ARRAYS = ("win", "kampen", "resolve", "follower_throw", "insteker_throw")


def throws_again(throw: Any, stop: Any, tolerance: float = TIE_TOLERANCE) -> Any:
    """Whether a maximising player throws again, given the values after throwing again and
    after stopping (floats or arrays, elementwise): only if it gains more than
    ``TIE_TOLERANCE``; a tie stops (the fixed tie-break that makes the equilibrium unique).
    Every exact player and pass decides by this; ``round_kernel`` compiles it (and passes
    the tolerance, so that numba's disk cache never holds an old one)."""
    return throw > stop + tolerance


def cache_dir() -> Path:
    """Where solutions are cached: ``$PAGADORES_CACHE`` (when set and not empty) or
    ``~/.cache/pagadores_env``."""
    return Path(os.environ.get("PAGADORES_CACHE") or Path.home() / ".cache" / "pagadores_env")


def cache_path(cards: int = MAX_CARDS) -> Path:
    """The cache file of the two-player solution with ``cards`` cards a side."""
    return cache_dir() / f"two_player_{cards}cards_v{FORMAT_VERSION}.npz"


def greedy_table(tables: Tables) -> PolicyTable:
    """Seat 0's best action at every decision of ``tables`` (True = throw again), as insteker
    (seat 0 insteeks, index 0) and as follower (seat 1 insteeks, index 1)."""
    table = PolicyTable.empty(tables.cards)
    for t in range(1, MAX_THROWS):
        stop = tables.follower_throw[0, :, :, t, :, 1]
        table.insteker[:, :, t] = throws_again(tables.insteker_throw[0, :, :, t + 1, None], stop)
    for limit in range(2, MAX_THROWS + 1):
        for u in range(1, limit):
            throw = tables.follower_throw[1, :, :, limit, :, u + 1, None]
            table.follower[:, :, limit, :, u] = throws_again(throw, tables.resolve[1])
    return table


def seat0_values(tables: Tables, decisions: np.ndarray) -> np.ndarray:
    """Seat 0's win probability ``[B, 2]`` after STOP and THROW at decisions ``[B, 7]``
    (``Decision`` fields) that seat 0 faces: as insteker (seat 0 insteeks) or as follower
    (seat 1 insteeks)."""
    role, mine, other, used, s, limit, score = np.asarray(decisions, dtype=np.int64).T
    ins = role == INSTEKER
    a = np.where(ins, mine, other)  # the tables index (insteker cards, follower cards)
    b = np.where(ins, other, mine)
    values = np.empty((len(role), 2))
    values[ins, 0] = tables.follower_throw[0, a[ins], b[ins], used[ins], s[ins], 1]
    values[ins, 1] = tables.insteker_throw[0, a[ins], b[ins], used[ins] + 1]
    f = ~ins
    values[f, 0] = tables.resolve[1, a[f], b[f], score[f], s[f]]
    values[f, 1] = tables.follower_throw[1, a[f], b[f], limit[f], score[f], used[f] + 1]
    return values


@dataclass(frozen=True)
class TwoPlayerSolution:
    """Optimal play of the two-player game for every position up to ``cards`` cards a side.

    ``tables`` holds the raw values (seat 0 maximises, seat 1 minimises; see
    ``model.Tables``); the methods answer from the acting player's side.
    """

    tables: Tables
    solve_seconds: float

    @property
    def cards(self) -> int:
        """The most cards a side this solution covers."""
        return self.tables.cards

    @property
    def value(self) -> float:
        """The first insteker's win probability with ``cards`` cards each (RULES.md)."""
        return self.win_probability(self.cards, self.cards)

    def win_probability(self, insteker_cards: int, other_cards: int) -> float:
        """The insteker's optimal win probability as a round is about to start."""
        for name, n in (("insteker_cards", insteker_cards), ("other_cards", other_cards)):
            if not (isinstance(n, (int, np.integer)) and 1 <= n <= self.cards):
                raise ValueError(f"{name} must be an integer 1–{self.cards}, got {n!r}")
        return float(self.tables.win[0, insteker_cards, other_cards])

    def action_values(self, *decision: Any, **fields: Any) -> np.ndarray:
        """The acting player's win probability after ``[STOP, THROW]`` with optimal play on,
        for a :class:`Decision` (or its fields: role, my_cards, other_cards, throws_used,
        strength, throw_limit, insteker_score)."""
        one = len(decision) == 1 and not fields
        chosen = decision[0] if one else Decision(*decision, **fields)
        return self.values_batch(np.array([chosen]))[0]

    def best_action(self, *decision: Any, **fields: Any) -> Action:
        """The optimal action at a decision (STOP on a tie within ``TIE_TOLERANCE``)."""
        stop, throw = self.action_values(*decision, **fields)
        return Action.THROW if throws_again(throw, stop) else Action.STOP

    def values_batch(self, decisions: np.ndarray) -> np.ndarray:
        """``action_values`` for many decisions ``[B, 7]`` at once → ``[B, 2]``."""
        return seat0_values(self.tables, check_decisions(decisions, self.cards))

    def actions_batch(self, decisions: np.ndarray) -> np.ndarray:
        """Optimal actions (0 stop, 1 throw again) for decisions ``[B, 7]``."""
        values = self.values_batch(decisions)
        return throws_again(values[:, 1], values[:, 0]).astype(np.int64)

    def policy_table(self) -> PolicyTable:
        """Seat 0's optimal action at every decision, as a :class:`PolicyTable`."""
        return greedy_table(self.tables)

    # -- files ------------------------------------------------------------------------
    def save(self, path: Path | str) -> Path:
        """Write the solution to ``path`` atomically (``core.atomic.write_atomic``: safe with
        parallel writers and interruptions); ``OSError`` if the folder cannot be written."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        buffer = io.BytesIO()
        np.savez_compressed(
            buffer, format_version=FORMAT_VERSION, cards=self.cards, prob=PROB, penalty=PENALTY,
            solve_seconds=self.solve_seconds,
            **{name: getattr(self.tables, name) for name in _ARRAYS})
        return write_atomic(path, buffer.getvalue())

    @classmethod
    def load(cls, path: Path | str) -> TwoPlayerSolution:
        """Read a saved solution: ``FileNotFoundError`` if there is none, ``ValueError`` if
        the file is not a complete one for the current rules (unreadable, truncated, other
        arrays or values than a solve writes)."""
        try:
            with open_npz(path) as data:
                stored = {key: data[key] for key in data.files}
        except FileNotFoundError:
            raise
        except Exception as err:  # the zip, zlib and npy layers each raise their own kinds
            raise ValueError(f"{path} is not a readable solution file: {err}") from None
        expected = ("format_version", "cards", "prob", "penalty", "solve_seconds", *_ARRAYS)
        if set(stored) != set(expected) or _scalar(stored["format_version"]) != FORMAT_VERSION:
            raise ValueError(f"{path} is not a version {FORMAT_VERSION} solution file")
        if not (np.array_equal(stored["prob"], PROB)
                and np.array_equal(stored["penalty"], PENALTY)):
            raise ValueError(f"{path} was solved for different throw tables (rules changed)")
        cards = _scalar(stored["cards"])
        if cards is None or cards not in range(1, MAX_CARDS + 1) or not _values_fit(stored, cards):
            raise ValueError(f"{path} is not a complete solution file (damaged tables)")
        tables = Tables(cards, *(stored[name] for name in _ARRAYS))
        return cls(tables, float(stored["solve_seconds"]))


def _scalar(value: np.ndarray) -> int | None:
    """A stored integer scalar, or None if it is not one."""
    return int(value) if value.shape == () and value.dtype.kind in "iu" else None


def _values_fit(stored: dict[str, np.ndarray], cards: int) -> bool:
    """Whether the value arrays have a solve's shapes and hold probabilities."""
    return all(stored[name].shape == shape and stored[name].dtype == np.float64
               and bool(((stored[name] >= 0) & (stored[name] <= 1)).all())
               for name, shape in Tables.shapes(cards).items())


def solve_two_player(cards: int = MAX_CARDS) -> TwoPlayerSolution:
    """Solve the two-player game exactly for every position with 1…``cards`` cards a side."""
    start = time.perf_counter()
    tables = backward(cards, ("max", "min"))
    return TwoPlayerSolution(tables, time.perf_counter() - start)


def cached(cards: int, path: Path | str | None = None) -> TwoPlayerSolution | None:
    """The solution for ``cards`` cached at ``path`` (default ``cache_path(cards)``), or None
    when there is no readable one for these cards (missing, damaged, stale): it is then
    solved again, since the cache only ever holds files this module wrote."""
    try:
        solution = TwoPlayerSolution.load(cache_path(cards) if path is None else path)
    except (FileNotFoundError, ValueError):
        return None
    return solution if solution.cards == cards else None


def load_or_solve(cards: int = MAX_CARDS, path: Path | str | None = None) -> TwoPlayerSolution:
    """The cached solution at ``path`` (default ``cache_path(cards)``), solving and caching
    it when the file is missing, stale or unreadable. An unwritable cache only warns: the
    solution is still returned."""
    path = cache_path(cards) if path is None else Path(path)
    solution = cached(cards, path)
    if solution is not None:
        return solution
    solution = solve_two_player(cards)
    cache_or_warn(solution.save, path)
    return solution


def cache_or_warn(save: Callable[[Path], object], path: Path) -> None:
    """Cache a solution with ``save(path)``; a failed write (a full disk, a read-only cache)
    only warns, in one line: the solution in hand is good without its cache."""
    try:
        save(path)
    except OSError as err:
        warnings.warn(f"could not cache the solution at {path}: {err.strerror or err}",
                      stacklevel=3)
