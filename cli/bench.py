"""Benchmarks that print how fast things run: ``pagadores bench [--json] [--section S]``.

Each section is a function ``(options) -> dict`` returning ``{"title", "columns", "rows",
"summary", "notes"}``: ``rows`` are dicts printed as a table, ``summary`` holds the flat numbers
that ``--json`` prints (merged over sections into one object). Sections:

=========  ==============================================================================
aec        agent steps/s of every game's PettingZoo env (pagadores_v1, perudo_v1, paye_v1,
           pasch_v1; 2/4/6 players, wrapped and raw) against PettingZoo's tictactoe_v3
           (``bench_aec``)
gym        learner steps/s of every game's Gymnasium env (Pagadores-v1, Perudo-v1, Paye-v1,
           Pasch-v1; 2/4/6 players) against its default scripted opponent (``bench_gym``)
vector     decisions/s of the batch engine at batch 1/64/4096 against the scalar
           engine and the AEC env (``bench_vector``)
evaluate   seconds for 100,000 heuristic games with the batch evaluator
sb3        MaskablePPO training steps/s on the batch VecEnv and on DummyVecEnv(Pagadores-v1)
solver     positions, seconds and peak memory of the equilibrium solve at 3 and 4 players,
           1–10 cards (``bench_solver``); only when asked for: the full report takes about
           half an hour and several GB
=========  ==============================================================================

``--json`` includes ``aec_agent_steps_per_s`` (Pagadores) and ``GAME_aec_agent_steps_per_s``
of the other games (``perudo_``, ``paye_``, ``pasch_``; 4 players, wrapped),
``GAME_gym_steps_per_s`` of every game (4 players), ``vector_decisions_per_s`` (batch 4096, 4
players) and ``sb3_env_share`` (the fraction of MaskablePPO's ``learn()`` time the batch
VecEnv takes).

``--out FILE`` also writes the tables, with the command that printed them and what ran it, as a
results file the documentation quotes (``reports.results_document``; ``docs/results/
solver_scaling.md`` is the solver section's).

``--baseline FILE`` compares with an earlier run: FILE holds what ``--json`` printed then (on
another commit, say), and a last table puts each number of both runs side by side.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pagadores_env.core.atomic import write_atomic
from pagadores_env.pagadores.rules import MAX_CARDS, MAX_PLAYERS, MIN_PLAYERS

from .bench_aec import aec_section
from .bench_gym import gym_section
from .bench_solver import solver_section
from .bench_vector import evaluate_section, sb3_section, vector_section
from .main import check_ours, check_out

#: name → section function; sections run in this order.
SECTIONS: dict[str, Callable[[argparse.Namespace], dict[str, Any]]] = {
    "aec": aec_section, "gym": gym_section, "vector": vector_section,
    "evaluate": evaluate_section, "sb3": sb3_section, "solver": solver_section,
}
#: The sections run without --section (the solver's report is long: run it by name).
DEFAULT_SECTIONS = ("aec", "gym", "vector", "evaluate", "sb3")


def format_table(section: dict[str, Any]) -> str:
    """A section's rows as an aligned text table under its title, then its notes."""
    columns = section["columns"]
    cells = [columns] + [[str(row[c]) for c in columns] for row in section["rows"]]
    widths = [max(len(line[i]) for line in cells) for i in range(len(columns))]
    lines = [section["title"]]
    lines += ["  ".join(cell.ljust(w) for cell, w in zip(line, widths, strict=True)).rstrip()
              for line in cells]
    lines += section.get("notes", [])
    return "\n".join(lines)


def baseline_section(before: dict[str, Any], after: dict[str, Any], name: str) -> dict[str, Any]:
    """The numbers of two ``--json`` summaries side by side, for the keys both have (a dict
    of numbers, such as ``vector_rates``, counts as one number per entry)."""
    before, after = _flat(before), _flat(after)
    rows = [{"number": key, "before": f"{before[key]:,}", "after": f"{after[key]:,}",
             "after / before": f"{after[key] / before[key]:.2f}x" if before[key] else "n/a"}
            for key in sorted(before.keys() & after.keys())
            if _is_number(before[key]) and _is_number(after[key])]
    return {"title": f"Against the baseline {name} (before) and this run (after)",
            "columns": ["number", "before", "after", "after / before"], "rows": rows,
            "summary": {}, "notes": []}


def _flat(summary: dict[str, Any]) -> dict[str, Any]:
    """``summary`` with each dict value's entries as keys ``name[entry]``."""
    flat = {}
    for key, value in summary.items():
        if isinstance(value, dict):
            flat.update({f"{key}[{entry}]": v for entry, v in value.items()})
        else:
            flat[key] = value
    return flat


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _read_baseline(path: str) -> dict[str, Any]:
    """The summary an earlier ``--json`` run printed to ``path``; ValueError if unreadable."""
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, ValueError) as err:
        raise ValueError(f"--baseline {path}: cannot read it as JSON ({err})") from None
    if not isinstance(data, dict):
        raise ValueError(f"--baseline {path}: must hold the JSON object that --json prints")
    return data


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="pagadores bench",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true",
                        help="print one JSON object with every section's summary")
    parser.add_argument("--section", action="append", choices=sorted(SECTIONS),
                        help="run only this section (repeatable; default: "
                             f"{', '.join(DEFAULT_SECTIONS)})")
    parser.add_argument("--seconds", type=float, default=3.0,
                        help="time per measured case, split over the rounds (default 3)")
    parser.add_argument("--rounds", type=int, default=3,
                        help="interleaved rounds per case; the best counts (default 3)")
    parser.add_argument("--games", type=int, default=100_000,
                        help="games per lineup in the evaluate section (default 100000)")
    parser.add_argument("--envs", type=int, default=256,
                        help="environments for the sb3 section (default 256)")
    parser.add_argument("--sb3-steps", type=int, default=32_768,
                        help="measured MaskablePPO steps per env kind (default 32768)")
    parser.add_argument("--seed", type=int, default=0, help="seed for dice and actions")
    parser.add_argument("--baseline", metavar="FILE",
                        help="an earlier run's --json output: print both runs' numbers side "
                             "by side (in the tables; --json prints this run's alone)")
    parser.add_argument("--out", type=Path, metavar="FILE",
                        help="also write the tables to FILE (Markdown: the tables with the "
                             "command and what ran it, the form the docs quote)")
    parser.add_argument("--players", type=int, nargs="+", default=[3, 4],
                        help="player counts of the solver section (default: 3 4)")
    parser.add_argument("--workers", type=int, default=1,
                        help="processes for the per-seat NashConv passes of the solver "
                             "section (default 1; peak memory then counts each worker)")
    parser.add_argument("--no-nashconv", dest="nashconv", action="store_false",
                        help="solver section: measure the solve alone (a row whose NashConv "
                             "was measured apart, its cells say 'not run')")
    parser.add_argument("--min-cards", type=int, default=1,
                        help="smallest card count of the solver section (default 1: a long "
                             "row can be measured alone)")
    parser.add_argument("--max-cards", type=int, default=MAX_CARDS,
                        help=f"largest card count of the solver section, 1–{MAX_CARDS} "
                             f"(default {MAX_CARDS})")
    options = parser.parse_args(argv)
    if options.seconds <= 0 or min(options.rounds, options.games, options.envs,
                                   options.workers) < 1:
        parser.error("--seconds must be > 0 and --rounds, --games, --envs, --workers at "
                     "least 1")
    if not all(MIN_PLAYERS <= n <= MAX_PLAYERS for n in options.players):
        parser.error(f"--players must be player counts {MIN_PLAYERS}–{MAX_PLAYERS}, got "
                     f"{' '.join(map(str, options.players))}")
    if not 1 <= options.max_cards <= MAX_CARDS:
        parser.error(f"--max-cards must be 1–{MAX_CARDS}, got {options.max_cards}")
    if not 1 <= options.min_cards <= options.max_cards:
        parser.error(f"--min-cards must be 1–{options.max_cards} (--max-cards), got "
                     f"{options.min_cards}")
    if options.out is not None:
        try:  # checked before any section runs, so a long report is not lost at the end
            check_out(options.out.parent)
        except ValueError as err:
            parser.error(str(err).replace("--out ", "--out's folder ", 1))
        try:
            check_ours(options.out)
        except ValueError as err:
            parser.error(str(err))
    if options.baseline is not None:
        try:  # read before any section runs, so a bad file costs no measuring time
            options.baseline_summary = _read_baseline(options.baseline)
        except ValueError as err:
            parser.error(str(err))
    return options


def main(argv: list[str] | None = None) -> int:
    options = parse_args(argv)
    names = options.section or list(DEFAULT_SECTIONS)
    results = {name: SECTIONS[name](options) for name in names}
    summary: dict[str, Any] = {}
    for section in results.values():
        summary.update(section["summary"])
    if options.json:
        print(json.dumps(summary, sort_keys=True))
        return 0
    if options.baseline is not None:
        results["baseline"] = baseline_section(options.baseline_summary, summary,
                                               options.baseline)
    tables = "\n\n".join(format_table(section) for section in results.values())
    print(tables)
    if options.out is not None:
        from pagadores_train.run.reports import results_document  # imports torch: only here

        invocation = shlex.join(["pagadores", "bench", *(sys.argv[1:] if argv is None
                                                          else argv)])
        try:
            write_atomic(options.out, results_document("bench", f"`{invocation}`", tables))
        except OSError as err:
            raise ValueError(f"--out {options.out}: {err}") from None
        print(f"wrote {options.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
