"""The solver's scaling report, ``pagadores bench --section solver``.

For each player count (``--players``, default 3 and 4) and card count 1 to ``--max-cards``
(default 10): the positions the equilibrium solve visits, its seconds and its peak memory
(``solver.solve(cache=False)``, so nothing is read from or written to the cache). Each row
solves in a fresh Python process: its peak resident set (``ru_maxrss``) is that one solve's
plus the interpreter's and numpy's, never an earlier row's. The estimate beside it is
``cost.solve_cost``, the figure ``check_size`` holds against the limit. A player count stops
at the first card count ``check_size`` refuses, with the refusal's line: the row above it is
the largest card count that fits this machine.

Run a row alone with ``python -m pagadores_cli.bench_solver PLAYERS CARDS`` (one JSON line).
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
from collections.abc import Sequence
from typing import Any

from pagadores_env.pagadores.solver import check_size, solve

COLUMNS = ["players", "cards", "positions", "seconds", "peak RSS MB", "estimate MB"]


def peak_rss() -> int:
    """This process's peak resident memory in bytes (Linux reports kB, macOS bytes)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak if sys.platform == "darwin" else peak * 1024


def measure(num_players: int, cards: int) -> dict[str, Any]:
    """Solve one table in a fresh process: its ``positions``, ``seconds``, ``peak_bytes``
    and ``baseline_bytes`` (the peak before solving). ``RuntimeError`` with the child's
    last line of stderr if it fails (for instance killed for want of memory)."""
    done = subprocess.run([sys.executable, "-m", __name__, str(num_players), str(cards)],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1]
        raise RuntimeError(f"the solve of {num_players} players with {cards} cards failed: "
                           f"{last}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def solver_section(options: argparse.Namespace) -> dict[str, Any]:
    """The scaling table of the equilibrium solve (see the module docstring)."""
    rows: list[dict[str, Any]] = []
    summary: dict[str, Any] = {}
    notes: list[str] = []
    baseline = 0
    for n in options.players:
        for cards in range(1, options.max_cards + 1):
            try:
                estimate = check_size((cards,) * n, keep=True).bytes
            except ValueError as refused:
                notes.append(f"{n} players, {cards} cards: refused: {refused}")
                summary[f"solver_{n}p_refused_cards"] = cards
                break
            try:
                row = measure(n, cards)
            except RuntimeError as failed:
                notes.append(f"{n} players, {cards} cards: {failed}")
                break
            baseline = max(baseline, row["baseline_bytes"])
            rows.append({"players": n, "cards": cards, "positions": f"{row['positions']:,}",
                         "seconds": f"{row['seconds']:.2f}",
                         "peak RSS MB": f"{row['peak_bytes'] / 1e6:,.0f}",
                         "estimate MB": f"{estimate / 1e6:,.0f}"})
            key = f"solver_{n}p_{cards}c"
            summary[f"{key}_seconds"] = round(row["seconds"], 2)
            summary[f"{key}_peak_mb"] = round(row["peak_bytes"] / 1e6)
            summary[f"solver_{n}p_largest_cards_solved"] = cards
    notes.append(f"peak RSS: the whole fresh process solving that table (about "
                 f"{baseline / 1e6:,.0f} MB of it is Python, numpy and the package before "
                 "the solve); estimate: the arrays cost.solve_cost counts, which check_size "
                 "holds against the limit")
    return {"title": "Equilibrium solve (solve(n, cards, cache=False)), one fresh process "
                     "per table", "columns": COLUMNS, "rows": rows, "summary": summary,
            "notes": notes}


def main(argv: Sequence[str] | None = None) -> int:
    """Solve one table and print one JSON line: positions, seconds, peak and baseline
    memory (the row ``measure`` reads)."""
    parser = argparse.ArgumentParser(prog="python -m pagadores_cli.bench_solver",
                                     description="One row of the solver's scaling report.")
    parser.add_argument("players", type=int)
    parser.add_argument("cards", type=int)
    args = parser.parse_args(argv)
    baseline = peak_rss()
    solution = solve(args.players, args.cards, cache=False)
    print(json.dumps({"positions": len(solution.positions), "seconds": solution.seconds,
                      "peak_bytes": peak_rss(), "baseline_bytes": baseline}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
