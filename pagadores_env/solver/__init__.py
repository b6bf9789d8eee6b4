"""The exact solver: optimal two-player play, best responses and exploitability.

``solve_two_player(cards)`` solves every two-player position by backward induction over card
counts (see ``model``); ``load_or_solve`` caches the result on disk (``cache_path``);
``best_response``, ``evaluate`` and ``exploitability`` measure any policy exactly on the
observations the environment gives it; ``multi.best_response_multi`` is the exact best
response of one seat against fixed opponents at 3–4-player tables (not imported here, so that
``python -m pagadores_env.solver.multi`` runs it cleanly). ``main`` is the
``pagadores solve`` command (also ``python -m pagadores_env.solver``).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

from ..engine import MAX_CARDS
from .decisions import Decision, decision_from_game, decode_batch, encode_decisions
from .model import PolicyTable, Tables, backward
from .response import (
    BestResponse,
    Match,
    TablePolicy,
    best_response,
    evaluate,
    exploitability,
    policy_table,
)
from .two_player import (
    TwoPlayerSolution,
    cache_dir,
    cache_path,
    cached,
    load_or_solve,
    solve_two_player,
)

__all__ = [
    "BestResponse", "Decision", "Match", "PolicyTable", "TablePolicy", "Tables",
    "TwoPlayerSolution",
    "backward", "best_response", "cache_dir", "cache_path", "cached",
    "decision_from_game", "decode_batch", "encode_decisions", "evaluate", "exploitability",
    "load_or_solve", "main", "policy_table", "solve_two_player",
]


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
