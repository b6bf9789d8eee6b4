"""The solver's scaling report, ``pagadores bench --section solver``.

For each player count (``--players``, default 3 and 4) and card count ``--min-cards`` (default
1) to ``--max-cards`` (default 10): the positions the equilibrium solve visits, its seconds and
its peak memory (``solver.solve(cache=False)``, so nothing is read from or written to the
cache), and the same for the exact NashConv of a scripted profile (``nash_conv("sensible",
...)``: every seat's best response in one pass, or one pass per seat where one does not fit,
run side by side with ``--workers``). Each computation runs in a fresh Python process: its peak
resident set (``ru_maxrss``) is that one computation's plus the interpreter's and numpy's,
never an earlier row's; with workers, the process's peak plus ``--workers`` times its largest
worker's (``usage``: a bound, as the workers need not peak together). The estimate beside it is
``cost.solve_cost``, the figure ``check_size`` holds against the limit for the solve. A player
count stops at the first card count ``check_size`` refuses the solve, with the refusal's line:
the row above it is the largest card count that fits this machine; a NashConv refused where the
solve fits says so in its cells and in a note; ``--no-nashconv`` measures the solve alone
(for a row whose NashConv was measured apart). A row can take an hour: each computation says on
standard error when it starts (with the solve's estimate) and what it measured when it ends (a
NashConv with its value, also in ``--json``'s ``nashconv_<n>p_<cards>c``), so
a long report shows its progress while standard output keeps the table (or ``--json``'s line).

Run one alone with ``python -m pagadores_cli.bench_solver PLAYERS CARDS [--nashconv]
[--workers N]`` (one JSON line); the report passes ``--parent`` its own process id, so a row
ends with a report killed outright (``kill -9``, out of memory) as pool workers do.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from collections.abc import Sequence
from typing import Any

from pagadores_env.core.pool import end_with_parent
from pagadores_env.pagadores.solver import check_size, nash_conv, solve

from .usage import peak_bytes

COLUMNS = ["players", "cards", "positions", "solve s", "solve peak MB", "estimate MB",
           "NashConv s", "NashConv peak MB"]
#: The profile whose NashConv the report measures: scripted, so the pass asks no network.
PROFILE = "sensible"


def measure(num_players: int, cards: int, nashconv: bool = False, workers: int = 1
            ) -> dict[str, Any]:
    """Solve one table (or its NashConv of ``PROFILE``) in a fresh process: its
    ``positions``, ``nashconv`` (the NashConv's value; ``None`` for a solve), ``seconds``,
    ``peak_bytes`` and ``baseline_bytes`` (the peak before). ``RuntimeError`` with the
    child's last line of stderr if it fails (refused, or killed for want of memory)."""
    done = subprocess.run([sys.executable, "-m", __name__, str(num_players), str(cards),
                           *(["--nashconv", "--workers", str(workers)] if nashconv else []),
                           "--parent", str(os.getpid())],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1]
        what = f"NashConv of {PROFILE}" if nashconv else "solve"
        raise RuntimeError(f"the {what} of {num_players} players with {cards} cards failed: "
                           f"{last}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _say(message: str) -> None:
    """One status line of the report on standard error (standard output holds its table)."""
    print(f"bench solver: {message}", file=sys.stderr, flush=True)


def solver_section(options: argparse.Namespace) -> dict[str, Any]:
    """The scaling table of the equilibrium solve (see the module docstring)."""
    rows: list[dict[str, Any]] = []
    summary: dict[str, Any] = {}
    notes: list[str] = []
    baseline = 0
    for n in options.players:
        for cards in range(options.min_cards, options.max_cards + 1):
            try:
                estimate = check_size((cards,) * n, keep=True).bytes
            except ValueError as refused:
                notes.append(f"{n} players, {cards} cards: refused: {refused}")
                summary[f"solver_{n}p_refused_cards"] = cards
                break
            table = f"{n} players, {cards} card{'s' if cards > 1 else ''}"
            _say(f"{table}: solving (arrays estimated at {estimate / 1e6:,.0f} MB)")
            try:
                row = measure(n, cards)
            except RuntimeError as failed:
                _say(f"{table}: {failed}")
                notes.append(f"{n} players, {cards} cards: {failed}")
                break
            _say(f"{table}: solved in {row['seconds']:.1f} s, peak {row['peak_bytes'] / 1e6:,.0f}"
                 " MB" + (f"; NashConv of {PROFILE} with {options.workers} worker"
                          f"{'s' if options.workers > 1 else ''}" if options.nashconv else ""))
            baseline = max(baseline, row["baseline_bytes"])
            cells = {"players": n, "cards": cards, "positions": f"{row['positions']:,}",
                     "solve s": f"{row['seconds']:.2f}",
                     "solve peak MB": f"{row['peak_bytes'] / 1e6:,.0f}",
                     "estimate MB": f"{estimate / 1e6:,.0f}",
                     "NashConv s": "refused", "NashConv peak MB": "refused"}
            key = f"solver_{n}p_{cards}c"
            summary[f"{key}_seconds"] = round(row["seconds"], 2)
            summary[f"{key}_peak_mb"] = round(row["peak_bytes"] / 1e6)
            summary[f"solver_{n}p_largest_cards_solved"] = cards
            if not options.nashconv:
                cells["NashConv s"] = cells["NashConv peak MB"] = "not run"
                rows.append(cells)
                continue
            try:
                pass_ = measure(n, cards, nashconv=True, workers=options.workers)
            except RuntimeError as failed:  # noted at the first card count only
                _say(f"{table}: {failed}")
                if f"nashconv_{n}p_refused_cards" not in summary:
                    notes.append(f"{n} players, {cards} cards: {failed}")
                    summary[f"nashconv_{n}p_refused_cards"] = cards
            else:
                _say(f"{table}: NashConv {pass_['nashconv']:.10f} in {pass_['seconds']:.1f} s, "
                     f"peak {pass_['peak_bytes'] / 1e6:,.0f} MB")
                cells["NashConv s"] = f"{pass_['seconds']:.2f}"
                cells["NashConv peak MB"] = f"{pass_['peak_bytes'] / 1e6:,.0f}"
                summary[f"nashconv_{n}p_{cards}c"] = pass_["nashconv"]
                summary[f"nashconv_{n}p_{cards}c_seconds"] = round(pass_["seconds"], 2)
                summary[f"nashconv_{n}p_{cards}c_peak_mb"] = round(pass_["peak_bytes"] / 1e6)
            rows.append(cells)
    if not options.nashconv:
        notes.append(f"NashConv of {PROFILE}: not run (--no-nashconv)")
    notes.append(f"peak MB: the peak resident set of the whole fresh process (about "
                 f"{baseline / 1e6:,.0f} MB of it is Python, numpy and the package before "
                 "the work); estimate: the arrays of the solve cost.solve_cost counts, which "
                 "check_size holds against the limit")
    return {"title": f"Equilibrium solve (solve(n, cards, cache=False)) and exact NashConv "
                     f"of {PROFILE} (nash_conv), each in a fresh process",
            "columns": COLUMNS, "rows": rows, "summary": summary, "notes": notes}


def main(argv: Sequence[str] | None = None) -> int:
    """Solve one table and print one JSON line: positions (or the NashConv's value), seconds,
    peak and baseline memory (the row ``measure`` reads)."""
    parser = argparse.ArgumentParser(prog="python -m pagadores_cli.bench_solver",
                                     description="One row of the solver's scaling report.")
    parser.add_argument("players", type=int)
    parser.add_argument("cards", type=int)
    parser.add_argument("--nashconv", action="store_true",
                        help=f"the exact NashConv of {PROFILE} instead of the solve")
    parser.add_argument("--workers", type=int, default=1,
                        help="processes for the NashConv's per-seat passes (default 1)")
    parser.add_argument("--parent", type=int, default=None, metavar="PID",
                        help="end once process PID, the report that started this row, is gone "
                             "(a report killed outright leaves no row computing for nobody)")
    args = parser.parse_args(argv)
    if args.parent is not None:
        end_with_parent(args.parent)
    baseline = peak_bytes()
    began = time.perf_counter()
    positions = total = None  # a NashConv row reports its value; its positions are the solve's
    if args.nashconv:
        total = nash_conv(PROFILE, args.players, args.cards, workers=args.workers).total
    else:
        positions = len(solve(args.players, args.cards, cache=False).positions)
    print(json.dumps({"positions": positions, "nashconv": total,
                      "seconds": time.perf_counter() - began,
                      "peak_bytes": peak_bytes() + (args.workers > 1) * args.workers
                      * peak_bytes(resource.RUSAGE_CHILDREN), "baseline_bytes": baseline}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
