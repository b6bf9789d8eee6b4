"""``pagadores``: the command line of pagadores-env.

Subcommands: ``play`` (you against agents in the terminal), ``evaluate`` and ``tournament``
(agents against agents, with confidence intervals), and ``train``, ``bench`` and ``solve``,
which hand their arguments to ``train.train``, ``train.bench`` and ``pagadores_env.solver``
(so ``pagadores train --help`` shows the trainer's own options). Heavy modules (torch,
stable-baselines3) are imported only by the subcommand that needs them.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from pathlib import Path

#: Subcommands whose arguments go untouched to another module's ``main(argv)``.
DELEGATED = {
    "train": ("train.train", "train an SB3 agent from a YAML config (see: pagadores train -h)"),
    "bench": ("train.bench", "measure environment speed (see: pagadores bench -h)"),
    "solve": ("pagadores_env.solver",
              "solve the 2-player game exactly: game value and time (see: pagadores solve -h)"),
    "best-response": ("pagadores_env.solver.multi",
                      "exact best response of one seat against fixed opponents at 2–4-player "
                      "tables (see: pagadores best-response -h)"),
    "exact": ("train.exact_report",
              "exact 2-player win probabilities of agents against each other, and their "
              "exploitability (see: pagadores exact -h)"),
}

AGENTS_HELP = ("agent specs: random, stop-first, always-throw, threshold:min_points=100, "
               "sensible, lookahead, model:path=runs/default/model.zip")


_DESCRIPTIONS = {
    "evaluate": "The first AGENT is under test; the others fill the other seats (one per seat, "
                "or one reused). Seats rotate so nobody profits from starting.",
    "tournament": "Every pair of AGENTs plays --games two-player games; prints the win-rate "
                  "matrix and Bradley–Terry ratings.",
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="pagadores", description="Dados de Pagadores: play, evaluate, train and solve.",
        epilog=AGENTS_HELP)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    play = sub.add_parser("play", help="play against agents in the terminal",
                          description="Play in the terminal: s = stop, t = throw again, "
                                      "? = rules summary, q = quit.", epilog=AGENTS_HELP)
    play.add_argument("opponents", nargs="*", default=["sensible"], metavar="AGENT",
                      help="one agent reused in every other seat, or one per other seat "
                           "(default: sensible)")
    play.add_argument("--players", type=int, default=2, help="players at the table, 2–6")
    play.add_argument("--seat", type=int, default=0, help="your seat (0 insteeks first)")
    play.add_argument("--cards", type=int, default=10, help="starting cards, 1–10")
    play.add_argument("--seed", type=int, help="seed the dice and the agents")
    play.set_defaults(run=run_play)

    for name, helptext in (("evaluate", "agent under test against opponents"),
                           ("tournament", "round-robin of 2-player matches")):
        cmd = sub.add_parser(name, help=helptext, epilog=AGENTS_HELP,
                             description=_DESCRIPTIONS[name])
        cmd.add_argument("agents", nargs="+", metavar="AGENT")
        if name == "evaluate":
            cmd.add_argument("--players", type=int, default=2, help="players per game, 2–6")
            cmd.add_argument("--no-exact", action="store_true",
                             help="skip the solver's exact columns (on by default for 2 players)")
        cmd.add_argument("--games", type=int, default=1000, help="games (per pair)")
        cmd.add_argument("--seed", type=int, default=0)
        cmd.add_argument("--cards", type=int, default=10, help="starting cards, 1–10")
        cmd.add_argument("--out", type=Path, metavar="DIR",
                         help=f"also write {name}.csv, {name}.json and {name}.png here")
        cmd.add_argument("--progress", action="store_true", help="show a progress bar")
        cmd.set_defaults(run=run_evaluate if name == "evaluate" else run_tournament)

    for name, (_, helptext) in DELEGATED.items():
        sub.add_parser(name, help=helptext, add_help=False)
    return parser


def run_play(args: argparse.Namespace) -> int:
    from .play import play

    play(args.opponents, num_players=args.players, human_seat=args.seat, cards=args.cards,
         seed=args.seed)
    return 0


def run_evaluate(args: argparse.Namespace) -> int:
    from .evaluate import evaluate

    result = evaluate(args.agents, num_players=args.players, num_games=args.games,
                      seed=args.seed, cards=args.cards, progress=args.progress,
                      exact=False if args.no_exact else None)
    return _report(result, args.out, "evaluate")


def run_tournament(args: argparse.Namespace) -> int:
    from .evaluate import tournament

    result = tournament(args.agents, num_games=args.games, seed=args.seed, cards=args.cards,
                        progress=args.progress)
    return _report(result, args.out, "tournament")


def _report(result: object, out: Path | None, stem: str) -> int:
    """Print the result's table and write its CSV, JSON and plot into ``out``."""
    print(result.table())  # type: ignore[attr-defined]
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        for ext in ("csv", "json", "png"):
            writer = getattr(result, "plot" if ext == "png" else f"to_{ext}")
            writer(out / f"{stem}.{ext}")
        print(f"wrote {out / stem}.csv, .json and .png")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``pagadores`` console script. Bad input exits with status 2 and
    a message saying what was wrong."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in DELEGATED:
        module = importlib.import_module(DELEGATED[argv[0]][0])
        return module.main(argv[1:]) or 0
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except ValueError as err:
        print(f"pagadores {args.command}: error: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
