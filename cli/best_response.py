"""``pagadores best-response``: the exact best response of one seat against scripted
opponents at 2–4-player tables (``pagadores_env.pagadores.solver.multi`` does the work and sets the
size limits). Its solver pass reports its positions as it goes
(``main.add_progress_options``)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from pagadores_env.core.checks import check_int
from pagadores_env.core.policies import make_policy
from pagadores_env.pagadores.rules import MAX_CARDS, MAX_PLAYERS, MIN_PLAYERS
from pagadores_env.pagadores.solver.cost import (
    MAX_ROWS,
    check_size,
    memory_limit,
    table_cards,
    within_limits,
)
from pagadores_env.pagadores.solver.multi import best_response_multi

from .main import add_progress_options, fail, progress_of


def main(argv: Sequence[str] | None = None) -> int:
    """Print the hero's exact best-response value against scripted opponents and the time.
    Bad options and tables too big to solve (``check_size``) are one-line errors (exit 2,
    ``main.fail``) before any work."""
    parser = argparse.ArgumentParser(
        prog="pagadores best-response",
        description="Exact best response of one seat against fixed opponent policies: the "
                    "most the hero can win against them, with every seat starting with the "
                    f"same cards. Tables beyond {MAX_ROWS:.0e} opponent queries or "
                    f"{memory_limit() / 1e9:.0f} GB are refused; within the limits for "
                    f"scripted opponents: {within_limits(asked=True, keep=False)}.")
    parser.add_argument("--players", type=int, default=3,
                        help=f"players at the table, {MIN_PLAYERS}–{MAX_PLAYERS} (default 3)")
    parser.add_argument("--cards", type=int, default=MAX_CARDS,
                        help=f"starting cards of every player, 1–{MAX_CARDS} "
                             f"(default {MAX_CARDS})")
    parser.add_argument("--hero-seat", type=int, default=0,
                        help="the seat that best-responds, 0 to players − 1; seat 0 insteeks "
                             "the first round (default 0)")
    parser.add_argument("--opponent", default="sensible",
                        help="policy spec for every other seat (default: sensible)")
    add_progress_options(parser)
    args = parser.parse_args(argv)
    try:
        check_int("--players", args.players, MIN_PLAYERS, MAX_PLAYERS)
        check_int("--cards", args.cards, 1, MAX_CARDS)
        check_int("--hero-seat", args.hero_seat, 0, args.players - 1)
        # before any policy is built; scripted opponents read the scores only via the lowest
        check_size(table_cards(args.players, args.cards), asked=True, what="best-respond at")
        # seat= for players that need it (the equilibrium at 4+ players)
        others = [s for s in range(args.players) if s != args.hero_seat]
        opponents = [make_policy(args.opponent, seed=k, seat=seat)
                     for k, seat in enumerate(others)]
        with progress_of(args).solver_phase("best response") as progress:
            result = best_response_multi(opponents, args.players, args.cards, args.hero_seat,
                                         progress=progress)
    except ValueError as err:
        fail(parser, err)
    print(f"{args.players} players, {args.cards} cards each, hero seat {args.hero_seat} vs "
          f"{args.opponent}: hero wins with probability {result.value:.10f}")
    print(f"  {len(result.values)} positions, {result.rows_asked} observation rows asked, "
          f"{result.seconds:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
