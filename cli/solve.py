"""``pagadores solve``: solve (or load from the cache) the equilibrium of a table and print every
seat's win probability, the time taken and where it is cached
(``pagadores_env.pagadores.solver`` does the work). At two players it is the zero-sum solution
and also prints the game value. A solve at 3+ players reports its positions as it goes
(``main.add_progress_options``)."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from contextlib import suppress
from pathlib import Path
from typing import NamedTuple

from pagadores_env.core.checks import check_int
from pagadores_env.pagadores.rules import MAX_CARDS, MAX_PLAYERS, MIN_PLAYERS
from pagadores_env.pagadores.solver import Solution, cache_path, cached, solve, solve_two_player
from pagadores_env.pagadores.solver.equilibrium import cache_path as equilibrium_path
from pagadores_train.progress import Reporter

from .main import add_progress_options, fail, progress_of


def per_seat(values: Sequence[float]) -> str:
    """Every seat's win probability on one line, seat 0 first (10 decimals)."""
    return "  ".join(f"seat {seat} {value:.10f}" for seat, value in enumerate(values))


class _Solved(NamedTuple):
    values: tuple[float, ...]  # per seat at the start, seat 0 insteeking first
    seconds: float  # the solve's own time (as stored, when loaded)
    positions: int | None  # (cards, insteker) positions; None at 2 players
    how: str
    path: Path
    failure: OSError | None  # why the cache could not be written


def _two_players(cards: int, force: bool) -> _Solved:
    path = cache_path(cards)
    solution = None if force else cached(cards, path)
    how, failure = "loaded from the cache", None
    if solution is None:
        solution, how = solve_two_player(cards), "solved now"
        try:
            solution.save(path)
        except OSError as err:
            failure = err
    return _Solved((solution.value, 1 - solution.value), solution.solve_seconds, None, how,
                   path, failure)


def _more_players(n: int, cards: int, force: bool, progress: Reporter) -> _Solved:
    """Like ``solver.solve`` with its cache, but saying whether it loaded and whether the
    cache was written (``solve`` only warns); a solve reports its positions to
    ``progress``."""
    path = equilibrium_path(n, (cards,) * n)
    solution, how, failure = None, "loaded from the cache", None
    if not force:
        with suppress(FileNotFoundError, ValueError):  # missing, damaged or stale: solve
            solution = Solution.load(path)
    if solution is None:
        with progress.solver_phase("solving") as callback:
            solution = solve(n, cards, cache=False, progress=callback)
        how = "solved now"
        try:
            solution.save(path)
        except OSError as err:
            failure = err
    return _Solved(solution.win_probabilities(), solution.seconds, len(solution.positions),
                   how, path, failure)


def main(argv: Sequence[str] | None = None) -> int:
    """Solve (or load) a table's equilibrium and print its values and the time taken. Bad
    options and tables beyond the solver's limits end in one line and exit status 2 before
    any work (``main.fail``). A cache that cannot be written is an error (exit 2) after the
    values are printed: caching is half of what this command is for."""
    parser = argparse.ArgumentParser(
        prog="pagadores solve",
        description="Solve Dados de Pagadores exactly: the subgame-perfect equilibrium, in "
                    "which every seat takes the action that maximises its own win probability "
                    "(stopping on a tie); at 2 players that is optimal play by both. The "
                    "solution is cached in $PAGADORES_CACHE (default ~/.cache/pagadores_env); "
                    "a damaged cache file is solved again. Tables beyond the solver's limits "
                    "are refused before any work.")
    parser.add_argument("--players", type=int, default=2,
                        help=f"players at the table, {MIN_PLAYERS}–{MAX_PLAYERS} (default 2)")
    parser.add_argument("--cards", type=int, default=MAX_CARDS,
                        help=f"cards per player, 1–{MAX_CARDS} (default {MAX_CARDS})")
    parser.add_argument("--force", action="store_true",
                        help="solve again even if a cached solution exists")
    add_progress_options(parser)
    args = parser.parse_args(argv)
    began = time.perf_counter()
    try:
        n = check_int("--players", args.players, MIN_PLAYERS, MAX_PLAYERS)
        cards = check_int("--cards", args.cards, 1, MAX_CARDS)
        done = _two_players(cards, args.force) if n == 2 else \
            _more_players(n, cards, args.force, progress_of(args))
    except ValueError as err:
        fail(parser, err)
    elapsed = time.perf_counter() - began
    if n == 2:
        value = done.values[0]
        print(f"2 players, {cards} cards each, optimal play by both:")
        print(f"  first insteker (seat 0) wins with probability {value:.10f} ({value:.4f})")
    else:
        print(f"{n} players, {cards} cards each, equilibrium play (each seat maximises its "
              "own win probability):")
    print(f"  win probability per seat (seat 0 insteeks first): {per_seat(done.values)}")
    solved = "" if done.positions is None else f"{done.positions:,} positions, "
    print(f"  solve time {done.seconds:.3f} s ({solved}{done.how}; this command took "
          f"{elapsed:.3f} s)")
    if done.failure is not None:
        print(f"{parser.prog}: error: cannot write the cache file {done.path}: "
              f"{done.failure.strerror or done.failure} "
              "(set PAGADORES_CACHE to a writable folder)", file=sys.stderr)
        return 2
    print(f"  cache file {done.path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
