"""``pagadores nashconv``: how far a profile of agents is from equilibrium, exactly — every
seat's win probability under the profile, what its best response would win instead, the gain, and
their sum, NashConv (``pagadores_env.pagadores.solver.nash_conv`` does the work). Its one solver
pass reports its positions as it goes (``main.add_progress_options``)."""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence

from pagadores_env.core.checks import check_int
from pagadores_env.pagadores.rules import MAX_CARDS, MAX_PLAYERS, MIN_PLAYERS
from pagadores_env.pagadores.solver import NashConv, nash_conv

from .main import add_progress_options, agents_help, fail, progress_of


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
    add_progress_options(parser)
    args = parser.parse_args(argv)
    profile = args.agents[0] if len(args.agents) == 1 else args.agents
    began = time.perf_counter()
    try:
        n = check_int("--players", args.players, MIN_PLAYERS, MAX_PLAYERS)
        cards = check_int("--cards", args.cards, 1, MAX_CARDS)
        with progress_of(args).solver_phase("NashConv") as progress:
            result = nash_conv(profile, n, cards, progress=progress)
    except ValueError as err:
        fail(parser, err)
    print(f"{n} players, {cards} cards each, {' '.join(args.agents)} (exact; seat 0 insteeks "
          "first):")
    print(nash_conv_table(result, args.agents))
    print(f"computed in {time.perf_counter() - began:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
