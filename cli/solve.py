"""``pagadores solve``: solve (or load from the cache) the two-player game and print its value
and the time taken (``pagadores_env.solver`` does the work)."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

from pagadores_env.rules import MAX_CARDS
from pagadores_env.solver import cache_path, cached, solve_two_player


def main(argv: Sequence[str] | None = None) -> int:
    """Solve (or load) the two-player game and print its value and the time taken. A cache
    that cannot be written is an error (exit 2) after the value is printed: caching is half
    of what this command is for."""
    parser = argparse.ArgumentParser(
        prog="pagadores solve",
        description="Solve two-player Dados de Pagadores exactly (optimal play by both) and "
                    "cache the solution in $PAGADORES_CACHE (default ~/.cache/pagadores_env); "
                    "a damaged cache file is solved again.")
    parser.add_argument("--cards", type=int, default=MAX_CARDS,
                        help=f"cards per player, 1–{MAX_CARDS} (default {MAX_CARDS})")
    parser.add_argument("--force", action="store_true",
                        help="solve again even if a cached solution exists")
    args = parser.parse_args(argv)
    if not 1 <= args.cards <= MAX_CARDS:
        parser.error(f"--cards must be 1–{MAX_CARDS}, got {args.cards}")
    path = cache_path(args.cards)
    start = time.perf_counter()
    solution = None if args.force else cached(args.cards, path)
    how, failure = "loaded from the cache", None
    if solution is None:
        solution, how = solve_two_player(args.cards), "solved now"
        try:
            solution.save(path)
        except OSError as err:
            failure = err
    elapsed = time.perf_counter() - start
    print(f"2 players, {args.cards} cards each, optimal play by both:")
    print(f"  first insteker (seat 0) wins with probability {solution.value:.10f} "
          f"({solution.value:.4f})")
    print(f"  solve time {solution.solve_seconds:.3f} s ({how}; this command took "
          f"{elapsed:.3f} s)")
    if failure is not None:
        print(f"{parser.prog}: error: cannot write the cache file {path}: {failure} "
              "(set PAGADORES_CACHE to a writable folder)", file=sys.stderr)
        return 2
    print(f"  cache file {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
