"""``pagadores best-response``: the exact best response of one seat against scripted
opponents at 2–4-player tables (``pagadores_env.pagadores.solver.multi`` does the work and sets the
size limits). Its solver pass reports its positions as it goes
(``main.add_progress_options``).

With ``--game paye``: the hero seat's exact best response in Paye's dobbelspel against the
other seats playing their AGENTs (``pagadores_env.paye.exact.best_response``, Y8.1: the base
game at 2–4 players, the expansion at 2), beside what the hero's own agent wins there, every
seat moving first alike; the size is checked against the memory this process may use before
any work."""

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

from .exact_tables import ABOUT, check_covered, exact_profile, paye_table
from .main import add_game_options, add_progress_options, fail, game_options, progress_of
from .usage import Usage


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
    parser.add_argument("agents", nargs="*", metavar="AGENT",
                        help="with --game paye: the profile, one agent for every seat or one "
                             "per seat (the hero's own is what its best response is compared "
                             "with); without, --opponent in every seat")
    parser.add_argument("--players", type=int, default=None,
                        help=f"players at the table, {MIN_PLAYERS}–{MAX_PLAYERS} (default 3)")
    parser.add_argument("--cards", type=int, default=None,
                        help=f"starting cards of every player, 1–{MAX_CARDS} "
                             f"(default {MAX_CARDS})")
    add_game_options(parser, own=("cards",), about=ABOUT)
    parser.add_argument("--hero-seat", type=int, default=0,
                        help="the seat that best-responds, 0 to players − 1; seat 0 insteeks "
                             "the first round (default 0)")
    parser.add_argument("--opponent", default=None,
                        help="policy spec for every other seat (default: sensible)")
    add_progress_options(parser)
    args = parser.parse_args(argv)
    try:
        check_covered("best-response", args.game)
        if args.game == "paye":
            print(_paye(args))
            return 0
        if args.agents:
            raise ValueError("AGENT is for --game paye (Pagadores' best response plays against "
                             "--opponent in every other seat)")
        args.opponent = args.opponent or "sensible"
        args.players = 3 if args.players is None else args.players
        args.cards = MAX_CARDS if args.cards is None else args.cards
        check_int("--players", args.players, MIN_PLAYERS, MAX_PLAYERS)
        check_int("--cards", args.cards, 1, MAX_CARDS)
        check_int("--hero-seat", args.hero_seat, 0, args.players - 1)
        game_options(args, own=("cards",))  # a flag of another game: one line
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


def _paye(args: argparse.Namespace) -> str:
    """The hero's exact best response in Paye's dobbelspel (module docstring)."""
    from pagadores_env.paye.exact import best_response

    table = paye_table(args, players=3)
    hero = check_int("--hero-seat", args.hero_seat, 0, table.players - 1)
    if args.agents and args.opponent is not None:
        raise ValueError("give the profile as AGENTs or --opponent (the same agent in every "
                         "seat), not both")
    agents = args.agents or [args.opponent or "sensible"]
    profile = exact_profile("paye", agents, table.players)
    usage = Usage()
    with progress_of(args).solver_phase("best response", unit="turn") as progress:
        found = best_response(profile, hero, table.players, progress=progress,
                              **table.keywords())
    own = agents[hero] if len(agents) > 1 else agents[0]
    return "\n".join([
        f"{table.text()}, {' '.join(agents)}, hero seat {hero} (every seat moving first "
        "alike, Y2.1):",
        f"  the hero's share of the win with its best response {found.value:.10f}, with "
        f"{own} {found.profile_value:.10f} (gain {found.gain:.10f})",
        f"  {usage.line(decimals=3)}"])


if __name__ == "__main__":
    raise SystemExit(main())
