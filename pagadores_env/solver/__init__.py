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
    load_or_solve,
    solve_two_player,
)

__all__ = [
    "BestResponse", "Decision", "Match", "PolicyTable", "TablePolicy", "Tables",
    "TwoPlayerSolution",
    "backward", "best_response", "cache_dir", "cache_path",
    "decision_from_game", "decode_batch", "encode_decisions", "evaluate", "exploitability",
    "load_or_solve", "main", "policy_table", "solve_two_player",
]


def main(argv: Sequence[str] | None = None) -> int:
    """Solve (or load) the two-player game and print its value and the time taken."""
    parser = argparse.ArgumentParser(
        prog="pagadores solve",
        description="Solve two-player Dados de Pagadores exactly (optimal play by both).")
    parser.add_argument("--cards", type=int, default=MAX_CARDS,
                        help=f"cards per player, 1–{MAX_CARDS} (default {MAX_CARDS})")
    parser.add_argument("--force", action="store_true",
                        help="solve again even if a cached solution exists")
    args = parser.parse_args(argv)
    if not 1 <= args.cards <= MAX_CARDS:
        parser.error(f"--cards must be 1–{MAX_CARDS}, got {args.cards}")
    path = cache_path(args.cards)
    start = time.perf_counter()
    solution, how = None, "loaded from the cache"
    if not args.force:
        try:
            solution = TwoPlayerSolution.load(path)
        except (FileNotFoundError, ValueError):
            solution = None
    if solution is None or solution.cards != args.cards:
        solution, how = solve_two_player(args.cards), "solved now"
        solution.save(path)
    elapsed = time.perf_counter() - start
    print(f"2 players, {args.cards} cards each, optimal play by both:")
    print(f"  first insteker (seat 0) wins with probability {solution.value:.10f} "
          f"({solution.value:.4f})")
    print(f"  solve time {solution.solve_seconds:.3f} s ({how}; this command took "
          f"{elapsed:.3f} s)")
    print(f"  cache file {path}")
    return 0
