"""``pagadores nashconv``: how far a profile of agents is from equilibrium, exactly — every
seat's win probability under the profile, what its best response would win instead, the gain, and
their sum, NashConv (``pagadores_env.pagadores.solver.nash_conv`` does the work). Its one solver
pass reports its positions as it goes (``main.add_progress_options``).

With ``--approximate`` (any table, also where the solver cannot go) each seat's best response
is learned instead and its gain measured in paired games: a lower bound with its 95% CI
(``pagadores_train.learners.approximate``).

With ``--game paye``: Paye's dobbelspel's exact NashConv (``pagadores_env.paye.exact``, Y8.1:
the base game at 2–4 players, the expansion at 2; at 2 players also the exploitability,
NashConv / 2), every seat moving first alike, or with ``--approximate`` at any table its
approximate one, a MaskablePPO best response per seat (``pagadores_train.learners.
approximate_engine``). With ``--game pasch``: the last-round NashConv (X9.2) averaged over
the last rounds of ``--games`` seeded ``greedy``-against-``greedy`` games
(``pagadores_train.evaluation.pasch``, the training runs' measure)."""

from __future__ import annotations

import argparse
import dataclasses
import json
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

from pagadores_env.core.atomic import write_atomic
from pagadores_env.core.checks import check_int
from pagadores_env.pagadores.rules import MAX_CARDS, MAX_PLAYERS, MIN_PLAYERS
from pagadores_env.pagadores.solver import NashConv, nash_conv
from pagadores_env.pagadores.solver.passes import BACKENDS
from pagadores_env.paye.exact import NashConv as PayeNashConv
from pagadores_train.evaluation.pasch import GAMES as PASCH_GAMES
from pagadores_train.evaluation.pasch import LastRoundNashConv, last_round_nash_conv
from pagadores_train.learners.approximate import (
    BUDGET,
    GAMES,
    ApproximateNashConv,
    approximate_nash_conv,
)
from pagadores_train.learners.approximate_engine import ENGINE_BUDGET, approximate_game
from pagadores_train.settings import count_argument

from .exact_tables import (
    ABOUT,
    PAGADORES,
    check_covered,
    exact_profile,
    named_options,
    paye_table,
    refuse_flags,
)
from .main import (
    add_game_options,
    add_progress_options,
    agents_help,
    check_out,
    fail,
    game_options,
    progress_of,
    write_outputs,
)
from .usage import Usage

#: The options of ``--approximate`` (those of Pasch's exact NashConv too: ``PASCH_TOO``).
APPROXIMATE_ONLY = ("budget", "games", "seed", "score_exactly")
PASCH_TOO = ("games", "seed")
#: The flags of Pagadores' exact passes alone (``exact_tables.refuse_flags``).
OWNERS = {"--backend": PAGADORES, "--address": PAGADORES, "--no-cache": PAGADORES}


class Gains(Protocol):
    """What ``nash_conv_table`` reads of a NashConv (Pagadores' solver's or Paye's)."""

    total: float
    gains: tuple[float, ...]
    values: tuple[float, ...]
    best_responses: tuple[float, ...]


def nash_conv_table(result: Gains, agents: Sequence[str]) -> str:
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
        epilog=agents_help(every_game=True))
    parser.add_argument("agents", nargs="+", metavar="AGENT",
                        help="one agent for every seat, or one per seat in seat order")
    parser.add_argument("--players", type=int, default=None,
                        help=f"players at the table, {MIN_PLAYERS}–{MAX_PLAYERS} (default 3; "
                             "with --game pasch 2)")
    parser.add_argument("--cards", type=int, default=None,
                        help=f"cards per player, 1–{MAX_CARDS} (default {MAX_CARDS})")
    add_game_options(parser, own=("cards",), about=ABOUT)
    approximate = parser.add_argument_group(
        "approximate", "learned best responses, scored in paired games (any table)")
    approximate.add_argument("--approximate", action="store_true",
                             help="learn each seat's best response (the search learner "
                                  "against the others' agents) and measure its gain in "
                                  "paired games: a lower bound of NashConv with its 95%% CI")
    approximate.add_argument("--budget", type=count_argument, default=None,
                             help=f"learner decisions each seat's response trains on "
                                  f"(default {BUDGET:,}; with the other games MaskablePPO "
                                  f"timesteps, default {ENGINE_BUDGET:,})")
    approximate.add_argument("--games", type=count_argument, default=None,
                             help=f"paired games per seat (default {GAMES:,}); with --game "
                                  f"pasch also without --approximate: the greedy games whose "
                                  f"last rounds are averaged (default {PASCH_GAMES:,})")
    approximate.add_argument("--seed", type=count_argument, default=None,
                             help="seeds the learners and the games (default 0); with --game "
                                  "pasch the greedy games too")
    approximate.add_argument("--score-exactly", action="store_true",
                             help="also score each learned response exactly, beside the "
                                  "exact best response's gain (tables the solver covers): "
                                  "how much of the exact NashConv the learner reaches")
    parser.add_argument("--workers", type=count_argument, default=1,
                        help="processes side by side, the same result as one (default 1): "
                             "exact, the passes of one seat each a table too big for one "
                             "pass takes (as many as memory holds at once); approximate, "
                             "the seats (each reporting in status lines)")
    parser.add_argument("--backend", choices=BACKENDS, default=None,
                        help="where the exact per-seat passes run: processes here (local, "
                             "the default) or Ray tasks, each declaring its memory (ray)")
    parser.add_argument("--address", metavar="HOST:PORT",
                        help="with --backend ray: the Ray cluster to run on (default: a "
                             "local Ray of --workers CPUs)")
    parser.add_argument("--out", type=Path, metavar="DIR",
                        help="also write nashconv.json and nashconv.md (the table with the "
                             "command and what ran it) here")
    parser.add_argument("--no-cache", action="store_true", default=None,
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
        check_covered("nashconv", args.game)
        refuse_flags(args, OWNERS)
        allowed = PASCH_TOO if args.game == "pasch" else ()
        given = [f"--{name.replace('_', '-')}" for name in APPROXIMATE_ONLY
                 if getattr(args, name) not in (None, False) and name not in allowed]
        if given and not args.approximate:
            raise ValueError(f"{', '.join(given)}: for --approximate only (the exact "
                             f"NashConv learns nothing and plays no games)")
        if args.approximate and (args.backend not in (None, "local") or args.address):
            raise ValueError("--backend and --address are for the exact NashConv (the "
                             "approximate one runs its seats in --workers local processes)")
        if args.game != "pagadores":
            if args.workers != 1 and not args.approximate:
                raise ValueError(f"--workers is for --approximate with --game {args.game} "
                                 "(its exact NashConv is one pass)")
            header, found, table, record = (_paye(args) if args.game == "paye"
                                            else _pasch(args))
            used = usage.record()
            text = f"{header}\n{table}\n{usage.line(used, decimals=3)}"
            print(text)
            if args.out is not None:
                _write(args, invocation, text, {**record, **used}, found)
            return 0
        n = check_int("--players", 3 if args.players is None else args.players, MIN_PLAYERS,
                      MAX_PLAYERS)
        cards = check_int("--cards", MAX_CARDS if args.cards is None else args.cards, 1,
                          MAX_CARDS)
        game_options(args, own=("cards",))  # a flag of another game: one line
        if args.approximate:
            found: NashConv | ApproximateNashConv | LastRoundNashConv = approximate_nash_conv(
                profile, n, cards, BUDGET if args.budget is None else args.budget,
                GAMES if args.games is None else args.games,
                0 if args.seed is None else args.seed, progress=progress_of(args),
                workers=args.workers, score_exactly=args.score_exactly)
            kind = "approximate: learned best responses, paired games"
            table = approximate_table(found, args.agents)
        else:
            with progress_of(args).solver_phase("NashConv") as progress:
                found = nash_conv(profile, n, cards, progress=progress, workers=args.workers,
                                  backend=args.backend or "local", address=args.address,
                                  cache=not args.no_cache)
            kind = "exact"
            table = nash_conv_table(found, args.agents)
        used = usage.record()
        text = (f"{n} players, {cards} cards each, {' '.join(args.agents)} ({kind}; seat 0 "
                f"insteeks first):\n{table}\n{usage.line(used)}")
        print(text)
        if args.out is not None:
            record = {"players": n, "cards": cards, "agents": args.agents, "kind": kind,
                      **used}
            _write(args, invocation, text, record, found)
    except ValueError as err:
        fail(parser, err)
    return 0


def _write(args: argparse.Namespace, invocation: str, text: str, record: dict[str, Any],
           found: NashConv | PayeNashConv | ApproximateNashConv | LastRoundNashConv) -> None:
    """``nashconv.json`` (``record``, the total, its half-width and the result's fields) and
    ``nashconv.md`` (``text`` with its command) into ``--out``."""
    total = found.mean if isinstance(found, LastRoundNashConv) else found.total
    record = {**record, "total": total,
              "half_width": getattr(found, "half_width", 0.0),  # exact: none
              **dataclasses.asdict(found)}
    write_outputs(args.out, "nashconv", invocation, text, {"json": lambda path: (
        write_atomic(path, json.dumps(record, indent=2) + "\n"))})


def _approximate(args: argparse.Namespace, players: int, options: dict[str, Any]
                 ) -> ApproximateNashConv:
    """The approximate NashConv of a game without a compiled kernel
    (``learners.approximate_engine``)."""
    return approximate_game(
        args.game, args.agents, players, options,
        ENGINE_BUDGET if args.budget is None else args.budget,
        GAMES if args.games is None else args.games, 0 if args.seed is None else args.seed,
        progress=progress_of(args), workers=args.workers, score_exactly=args.score_exactly)


def _paye(args: argparse.Namespace) -> tuple[str, Any, str, dict[str, Any]]:
    """Paye's NashConv of ``args.agents``: its heading, result, table and JSON record."""
    if args.approximate:
        n = 3 if args.players is None else args.players
        args.players = n
        options = named_options(args)
        found = _approximate(args, n, options)
        heading = (f"Paye's dobbelspel, {n} players, {options['variant']} game, "
                   f"{options['rounds']} rounds, {' '.join(args.agents)} (approximate: "
                   "MaskablePPO best responses, paired games on the same dice):")
        record = {"game": "paye", "players": n, "options": options, "agents": args.agents,
                  "kind": "approximate"}
        return heading, found, approximate_table(found, args.agents), record
    from pagadores_env.paye.exact import nash_conv as paye_nash_conv

    table = paye_table(args, players=3, beyond="; --approximate learns best responses at any "
                                              "table")
    profile = exact_profile("paye", args.agents, table.players)
    with progress_of(args).solver_phase("NashConv", unit="turn") as progress:
        exact = paye_nash_conv(profile, table.players, progress=progress, **table.keywords())
    text = nash_conv_table(exact, args.agents)
    if table.players == 2:
        text += (f"\nexploitability (NashConv / 2: the best response's share less 1/2; 0 = "
                 f"optimal play): {exact.total / 2:.10f}")
    heading = (f"{table.text()}, {' '.join(args.agents)} (exact, Y8.1; every seat moving "
               "first alike, Y2.1):")
    record = {"game": "paye", "players": table.players,
              "options": {"variant": table.variant, "faces": table.dice,
                          "rounds": table.rounds}, "agents": args.agents, "kind": "exact"}
    return heading, exact, text, record


def _pasch(args: argparse.Namespace) -> tuple[str, Any, str, dict[str, Any]]:
    """Pasch's last-round NashConv of ``args.agents`` (or with ``--approximate`` its
    approximate NashConv): its heading, result, table and JSON record."""
    n = 2 if args.players is None else args.players
    args.players = n
    options = named_options(args)
    table = f"Pasch, {n} players, hand {','.join(map(str, options['hand']))}, " \
            f"{options['blocks']} blocks"
    if args.approximate:
        found = _approximate(args, n, options)
        record = {"game": "pasch", "players": n, "options": options, "agents": args.agents,
                  "kind": "approximate"}
        return (f"{table}, {' '.join(args.agents)} (approximate: MaskablePPO best responses, "
                "paired games on the same dice):", found,
                approximate_table(found, args.agents), record)
    games = PASCH_GAMES if args.games is None else args.games
    seed = 0 if args.seed is None else args.seed
    profile = exact_profile("pasch", args.agents, n)
    last = last_round_nash_conv(profile, n, games, seed, options, acting=False)
    heading = (f"{table}, {' '.join(args.agents)} (exact last rounds, X9.2: the mean over the "
               f"last rounds of {games:,} greedy-against-greedy games, seed {seed}, "
               f"{last.distinct:,} of them different):")
    text = f"last-round NashConv (0 = an equilibrium in every last round): {last.mean:.10f}"
    record = {"game": "pasch", "players": n, "options": options, "agents": args.agents,
              "kind": "exact last rounds"}
    return heading, last, text, record


if __name__ == "__main__":
    raise SystemExit(main())
