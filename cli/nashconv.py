"""``pagadores nashconv``: how far a profile of agents is from equilibrium, exactly — every
seat's win probability under the profile, what its best response would win instead, the gain, and
their sum, NashConv (``pagadores_env.pagadores.solver.nash_conv`` does the work). Its one solver
pass reports its positions as it goes (``main.add_progress_options``).

With ``--approximate`` (any table, also where the solver cannot go) each seat's best response
is learned instead and its gain measured in paired games: a lower bound with its 95% CI
(``pagadores_train.learners.approximate``)."""

from __future__ import annotations

import argparse
import dataclasses
import json
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path

from pagadores_env.core.atomic import write_atomic
from pagadores_env.core.checks import check_int
from pagadores_env.pagadores.rules import MAX_CARDS, MAX_PLAYERS, MIN_PLAYERS
from pagadores_env.pagadores.solver import NashConv, nash_conv
from pagadores_env.pagadores.solver.passes import BACKENDS
from pagadores_train.learners.approximate import (
    BUDGET,
    GAMES,
    ApproximateNashConv,
    approximate_nash_conv,
)
from pagadores_train.settings import count_argument

from .main import add_progress_options, agents_help, check_out, fail, progress_of, write_outputs
from .usage import Usage

#: The options of ``--approximate`` and their defaults.
APPROXIMATE_ONLY = {"budget": BUDGET, "games": GAMES, "seed": 0, "score_exactly": False}


def nash_conv_table(result: NashConv, agents: Sequence[str]) -> str:
    """Per seat: its agent, its value under the profile, its best response's and the gain;
    then the total (10 decimals)."""
    names = list(agents) * len(result.values) if len(agents) == 1 else list(agents)
    width = max(len("agent"), *map(len, names))
    lines = [f"seat  {'agent':<{width}}  {'value':>12}  {'best response':>13}  {'gain':>12}"]
    for seat, (name, value, best, gain) in enumerate(zip(
            names, result.values, result.best_responses, result.gains, strict=True)):
        lines.append(f"{seat:<4}  {name:<{width}}  {value:12.10f}  {best:13.10f}  {gain:12.10f}")
    lines.append(f"NashConv (sum of the gains; 0 = equilibrium): {result.total:.10f}")
    return "\n".join(lines)


def approximate_table(result: ApproximateNashConv, agents: Sequence[str]) -> str:
    """Per seat: its agent, its win under the profile and with its learned response (paired
    games), the gain with its 95% CI, the learner decisions and games; then the total."""
    names = list(agents) * len(result.seats) if len(agents) == 1 else list(agents)
    width = max(len("agent"), *map(len, names))
    lines = [f"seat  {'agent':<{width}}  {'value':>7}  {'response':>8}  {'gain':>8}  "
             f"{'95% CI':>8}  {'decisions':>9}  {'games':>6}"]
    for s in result.seats:
        lines.append(f"{s.seat:<4}  {names[s.seat]:<{width}}  {s.profile_win:7.4f}  "
                     f"{s.response_win:8.4f}  {s.gain:8.5f}  ±{s.half_width:7.5f}  "
                     f"{s.decisions:9,}  {s.games:6,}")
    lines.append(f"approximate NashConv (a lower bound, learned responses): {result.total:.5f} "
                 f"± {result.half_width:.5f} (95% CI), {result.decisions:,} learner decisions")
    share = result.exact_share
    if share is not None:
        lines.append("scored exactly: " + ", ".join(
            f"seat {s.seat} {s.exact_gain:.6f} of {s.best_gain:.6f}" for s in result.seats))
        lines.append(f"the learned responses reach {share:.1%} of the exact NashConv "
                     f"{sum(s.best_gain or 0.0 for s in result.seats):.6f}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Print the exact NashConv of the profile and the time taken. Bad options, agents that
    cannot play the table and tables beyond the solver's limits end in one line and exit
    status 2 before any work (``main.fail``)."""
    parser = argparse.ArgumentParser(
        prog="pagadores nashconv",
        description="Exact NashConv of a profile of agents (OpenSpiel's measure): for every "
                    "seat, its win probability when every seat plays its agent, what the best "
                    "response against the others would win instead, and the gain; NashConv "
                    "is the sum of the gains (0 exactly at an equilibrium). Seat 0 insteeks "
                    "the first round. Tables beyond the solver's limits are refused before "
                    "any work.",
        epilog=agents_help())
    parser.add_argument("agents", nargs="+", metavar="AGENT",
                        help="one agent for every seat, or one per seat in seat order")
    parser.add_argument("--players", type=int, default=3,
                        help=f"players at the table, {MIN_PLAYERS}–{MAX_PLAYERS} (default 3)")
    parser.add_argument("--cards", type=int, default=MAX_CARDS,
                        help=f"cards per player, 1–{MAX_CARDS} (default {MAX_CARDS})")
    approximate = parser.add_argument_group(
        "approximate", "learned best responses, scored in paired games (any table)")
    approximate.add_argument("--approximate", action="store_true",
                             help="learn each seat's best response (the search learner "
                                  "against the others' agents) and measure its gain in "
                                  "paired games: a lower bound of NashConv with its 95%% CI")
    approximate.add_argument("--budget", type=count_argument, default=BUDGET,
                             help=f"learner decisions each seat's response trains on "
                                  f"(default {BUDGET:,})")
    approximate.add_argument("--games", type=count_argument, default=GAMES,
                             help=f"paired games per seat (default {GAMES:,})")
    approximate.add_argument("--seed", type=count_argument, default=0,
                             help="seeds the learners and the games (default 0)")
    approximate.add_argument("--score-exactly", action="store_true",
                             help="also score each learned response exactly, beside the "
                                  "exact best response's gain (tables the solver covers): "
                                  "how much of the exact NashConv the learner reaches")
    parser.add_argument("--workers", type=count_argument, default=1,
                        help="processes side by side, the same result as one (default 1): "
                             "exact, the passes of one seat each a table too big for one "
                             "pass takes (as many as memory holds at once); approximate, "
                             "the seats (each reporting in status lines)")
    parser.add_argument("--backend", choices=BACKENDS, default="local",
                        help="where the exact per-seat passes run: processes here (local, "
                             "the default) or Ray tasks, each declaring its memory (ray)")
    parser.add_argument("--address", metavar="HOST:PORT",
                        help="with --backend ray: the Ray cluster to run on (default: a "
                             "local Ray of --workers CPUs)")
    parser.add_argument("--out", type=Path, metavar="DIR",
                        help="also write nashconv.json and nashconv.md (the table with the "
                             "command and what ran it) here")
    parser.add_argument("--no-cache", dest="cache", action="store_false",
                        help="compute every exact pass anew instead of reading the ones an "
                             "earlier run kept (agent specs only; the cache is keyed by the "
                             "code, the agents and a network's weights: "
                             "pagadores_env.pagadores.solver.results_cache)")
    add_progress_options(parser)
    args = parser.parse_args(argv)
    invocation = shlex.join(["pagadores", "nashconv",
                             *(sys.argv[1:] if argv is None else argv)])
    profile = args.agents[0] if len(args.agents) == 1 else args.agents
    usage = Usage()
    try:
        check_out(args.out, "nashconv")
        given = [f"--{name.replace('_', '-')}" for name, default in APPROXIMATE_ONLY.items()
                 if getattr(args, name) != default]
        if given and not args.approximate:
            raise ValueError(f"{', '.join(given)}: for --approximate only (the exact "
                             f"NashConv learns nothing and plays no games)")
        if args.approximate and (args.backend != "local" or args.address):
            raise ValueError("--backend and --address are for the exact NashConv (the "
                             "approximate one runs its seats in --workers local processes)")
        n = check_int("--players", args.players, MIN_PLAYERS, MAX_PLAYERS)
        cards = check_int("--cards", args.cards, 1, MAX_CARDS)
        if args.approximate:
            found: NashConv | ApproximateNashConv = approximate_nash_conv(
                profile, n, cards, args.budget, args.games, args.seed,
                progress=progress_of(args), workers=args.workers,
                score_exactly=args.score_exactly)
            kind = "approximate: learned best responses, paired games"
            table = approximate_table(found, args.agents)
        else:
            with progress_of(args).solver_phase("NashConv") as progress:
                found = nash_conv(profile, n, cards, progress=progress, workers=args.workers,
                                  backend=args.backend, address=args.address,
                                  cache=args.cache)
            kind = "exact"
            table = nash_conv_table(found, args.agents)
        used = usage.record()
        text = (f"{n} players, {cards} cards each, {' '.join(args.agents)} ({kind}; seat 0 "
                f"insteeks first):\n{table}\n{usage.line(used)}")
        print(text)
        if args.out is not None:
            record = {"players": n, "cards": cards, "agents": args.agents, "kind": kind,
                      **used, "total": found.total,
                      "half_width": getattr(found, "half_width", 0.0),  # exact: none
                      **dataclasses.asdict(found)}
            write_outputs(args.out, "nashconv", invocation, text, {"json": lambda path: (
                write_atomic(path, json.dumps(record, indent=2) + "\n"))})
    except ValueError as err:
        fail(parser, err)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
