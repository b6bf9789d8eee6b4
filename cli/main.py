"""``pagadores``: the command line of pagadores-env.

Subcommands: ``play`` (you against agents in the terminal), ``evaluate`` and ``tournament``
(agents against agents, with confidence intervals), and ``train``, ``bench``, ``solve``,
``nashconv``, ``best-response`` and ``exact``, which hand their arguments to the
``main(argv)`` of the module in ``DELEGATED`` (so ``pagadores train --help`` shows the
trainer's own options).
Heavy modules (torch, stable-baselines3) are imported only by the subcommand that needs them.

The command line speaks in single lines on stderr: bad input is ``pagadores <cmd>: error:
...`` with exit status 2, Ctrl-C ends with one line and status 130 (for every subcommand,
unless it says more itself, as ``train`` does), SIGTERM (what ``timeout``, SLURM and ``docker
stop`` send) the same way with "terminated by SIGTERM" and status 143
(``pagadores_train.signals``), and a warning (such as an unwritable solver
cache) is ``pagadores <cmd>: warning: ...`` in every subcommand, delegated or not.

The commands that run long work (``evaluate``, ``tournament``, ``solve``, ``nashconv``,
``exact``, ``best-response``) report it alike (``add_progress_options``): progress bars on
stderr when it is a terminal by default, ``--no-progress`` for status lines instead (one per
step of each phase, for logs; on stderr too, so that stdout holds only the results a user may
redirect to a file), and ``--progress`` for bars even off a terminal (what it meant before
bars became the default, kept so that older scripts still run).
"""

from __future__ import annotations

import argparse
import importlib
import os
import shlex
import sys
import textwrap
import warnings
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from pagadores_env.core.atomic import WriteError
from pagadores_train.signals import ended_by, exit_status, stopping

if TYPE_CHECKING:
    from pagadores_train.progress import Reporter

#: Subcommands whose arguments go untouched to another module's ``main(argv)``.
DELEGATED = {
    "train": ("pagadores_cli.train",
              "train an agent from a YAML config, any kind of run: SB3 (with self-play), "
              "RLlib, search (see: pagadores train -h)"),
    "bench": ("pagadores_cli.bench", "measure speed; --section solver: the exact solver's "
              "scaling (see: pagadores bench -h)"),
    "solve": ("pagadores_cli.solve",
              "solve a table exactly: every seat's equilibrium win probability "
              "and the time (see: pagadores solve -h)"),
    "nashconv": ("pagadores_cli.nashconv",
                 "exact NashConv of agents at a table: what each seat gains by its best "
                 "response (see: pagadores nashconv -h)"),
    "best-response": ("pagadores_cli.best_response",
                      "exact best response of one seat against fixed opponents at a table "
                      "(see: pagadores best-response -h)"),
    "exact": ("pagadores_cli.exact_report",
              "the exact yardstick's tables: 2-player win probabilities and exploitability; "
              "with --players 3, equilibrium values and NashConv (see: pagadores exact -h)"),
    "benchmark": ("pagadores_cli.benchmark", "run a benchmark suite (algorithms × tasks × "
                  "seeds) locally or on Ray, aggregated with rliable (see: pagadores "
                  "benchmark -h)"),
}

#: How the help shows the players that take parameters, per game; the others appear by name.
SPEC_EXAMPLES = {"pagadores": {"threshold": "threshold:min_points=100",
                               "model": "model:path=runs/default/model.zip"},
                 "perudo": {"probabilistic": "probabilistic:dudo_below=0.5",
                            "model": "model:path=runs/perudo_2p/model.zip"}}


def agents_help(every_game: bool = False) -> str:
    """The help's list of agent specs, read from the policy registry so it lists every
    registered player (a player added later cannot be left out): Pagadores' players, or with
    ``every_game`` (for the commands that take ``--game``) each game's, named by game."""
    from pagadores_env.core.policies import GAMES

    if not every_game:
        return f"agent specs: {_specs('pagadores')}"
    return "agent specs: " + "; ".join(f"with --game {game}: {_specs(game)}" for game in GAMES)


def _specs(game: str) -> str:
    """``game``'s registered players, those with parameters as an example spec, or else as
    the spec form of the parameters they need (``rllib:path=RUN_FOLDER``)."""
    from pagadores_env.core.policies import registered_policies, spec_form

    examples = SPEC_EXAMPLES.get(game, {})
    return ", ".join(examples.get(name) or spec_form(name, game)
                     for name in registered_policies(game))


_DESCRIPTIONS = {
    "evaluate": "The first AGENT is under test; the others fill the other seats (one per seat, "
                "or one reused). Seats rotate so nobody profits from starting.",
    "tournament": "Every pair of AGENTs plays --games two-player games; prints the win-rate "
                  "matrix and Bradley–Terry ratings with 95% intervals, best first, and the "
                  "ranks the intervals allow (agents sharing ranks are not told apart).",
}


class _HelpFormatter(argparse.HelpFormatter):
    """argparse's help, with descriptions and epilogs wrapped at spaces only, so an agent's
    name (``stop-first``) or spec is never cut in two."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return textwrap.fill(" ".join(text.split()), width, initial_indent=indent,
                             subsequent_indent=indent, break_on_hyphens=False,
                             break_long_words=False)


def build_parser() -> argparse.ArgumentParser:
    from pagadores_env.core.policies import GAMES

    agents = agents_help(every_game=True)
    parser = argparse.ArgumentParser(
        prog="pagadores", description="Dados de Pagadores: play, evaluate, train and solve.",
        epilog=agents, formatter_class=_HelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    play = sub.add_parser("play", help="play against agents in the terminal",
                          description="Play in the terminal: s = stop, t = throw again, "
                                      "? = rules summary, q = quit; with --game perudo: "
                                      "a bid as QxF (3x5), d = dudo.", epilog=agents,
                          formatter_class=_HelpFormatter)
    play.add_argument("opponents", nargs="*", metavar="AGENT",
                      help="one agent reused in every other seat, or one per other seat "
                           "(default: sensible; with --game perudo: probabilistic)")
    play.add_argument("--game", choices=GAMES, default="pagadores",
                      help="the game: pagadores, or perudo (bids as QxF, d dudo)")
    play.add_argument("--dice", type=int, default=5, help="perudo: starting dice, 1–5")
    play.add_argument("--players", type=int, default=2, help="players at the table, 2–6")
    play.add_argument("--seat", type=int, default=0, help="your seat (0 insteeks first)")
    play.add_argument("--cards", type=int, default=10, help="starting cards, 1–10")
    play.add_argument("--seed", type=int, help="seed the dice and the agents")
    play.set_defaults(run=run_play)

    for name, helptext in (("evaluate", "agent under test against opponents"),
                           ("tournament", "round-robin of 2-player matches")):
        cmd = sub.add_parser(name, help=helptext, epilog=agents,
                             description=_DESCRIPTIONS[name], formatter_class=_HelpFormatter)
        cmd.add_argument("agents", nargs="+", metavar="AGENT")
        monte_carlo = " (perudo: Monte Carlo only, through the Perudo engine)"
        cmd.add_argument("--game", choices=GAMES, default="pagadores",
                         help="the game whose players the AGENTs name"
                              + (monte_carlo if name == "evaluate" else ""))
        cmd.add_argument("--dice", type=int, default=5, help="perudo: starting dice, 1–5")
        if name == "evaluate":
            cmd.add_argument("--players", type=int, default=2, help="players per game, 2–6")
            exact = cmd.add_mutually_exclusive_group()
            exact.add_argument("--no-exact", action="store_true",
                               help="skip the solver's exact columns (on by default for 2 "
                                    "players, and at 3+ when quick)")
            exact.add_argument("--exact", action="store_true",
                               help="exact columns at 3+ players whenever the solver covers "
                                    "the table, however long (minutes at 3 players, 10 cards)")
        cmd.add_argument("--games", type=int, default=1000,
                         help="games (per pair), rounded up to whole seat rotations (a "
                              "multiple of the players) and said so under the table")
        cmd.add_argument("--seed", type=int, default=0)
        cmd.add_argument("--cards", type=int, default=10, help="starting cards, 1–10")
        cmd.add_argument("--out", type=Path, metavar="DIR",
                         help=f"also write {name}.csv, {name}.json, {name}.png and "
                              f"{name}.md (the table with the command and what ran it) here")
        add_progress_options(cmd)
        cmd.set_defaults(run=run_evaluate if name == "evaluate" else run_tournament)

    for name, (_, helptext) in DELEGATED.items():
        sub.add_parser(name, help=helptext, add_help=False)
    return parser


def run_play(args: argparse.Namespace) -> int:
    """Play one game; Ctrl-C abandons it with one line and exit status 130."""
    from .play import play

    try:
        _check_game_options(args)
        if args.game == "perudo":
            from .play_perudo import play as play_perudo

            play_perudo(args.opponents or ["probabilistic"], num_players=args.players,
                        human_seat=args.seat, dice=args.dice, seed=args.seed)
        else:
            play(args.opponents or ["sensible"], num_players=args.players,
                 human_seat=args.seat, cards=args.cards, seed=args.seed)
    except KeyboardInterrupt:
        print("\ngame abandoned", file=sys.stderr)  # the prompt line is still open
        return exit_status()
    return 0


def run_evaluate(args: argparse.Namespace) -> int:
    from pagadores_train.evaluation.evaluate import evaluate_agents

    check_out(args.out, "evaluate")
    _check_game_options(args)
    if args.game == "perudo":
        from pagadores_train.evaluation.perudo import evaluate_perudo

        _pagadores_only(args, "--exact", args.exact, "Perudo is Monte Carlo only")
        result = evaluate_perudo(args.agents, num_players=args.players, num_games=args.games,
                                 seed=args.seed, dice=args.dice, progress=progress_of(args))
        return _report(result, args, "evaluate")
    result = evaluate_agents(args.agents, num_players=args.players, num_games=args.games,
                             seed=args.seed, cards=args.cards, progress=progress_of(args),
                             exact=False if args.no_exact else args.exact or None)
    return _report(result, args, "evaluate")


def run_tournament(args: argparse.Namespace) -> int:
    from pagadores_train.evaluation.tournament import tournament

    check_out(args.out, "tournament")
    _check_game_options(args)
    if args.game == "perudo":
        from pagadores_train.evaluation.perudo import tournament_perudo

        result = tournament_perudo(args.agents, num_games=args.games, seed=args.seed,
                                   dice=args.dice, progress=progress_of(args))
    else:
        result = tournament(args.agents, num_games=args.games, seed=args.seed,
                            cards=args.cards, progress=progress_of(args))
    return _report(result, args, "tournament")


def _check_game_options(args: argparse.Namespace) -> None:
    """``ValueError`` if the hand option of the other game is given (``--cards`` is
    Pagadores', ``--dice`` Perudo's), or a count is out of its game's range, named by its
    flag (the functions it is handed to name their parameters: ``num_players``)."""
    if args.game == "perudo":
        _pagadores_only(args, "--cards", args.cards != 10, "use --dice")
    else:
        _pagadores_only(args, "--dice", args.dice != 5, "use --cards", perudo=True)
    from pagadores_env.core.checks import check_int
    from pagadores_env.pagadores import rules
    from pagadores_env.perudo import rules as perudo_rules

    game = perudo_rules if args.game == "perudo" else rules
    counts = {"--players": (getattr(args, "players", None), game.MIN_PLAYERS, game.MAX_PLAYERS),
              "--games": (getattr(args, "games", None), 1, None),
              "--seed": (args.seed, 0, None)}
    if args.game == "perudo":
        counts["--dice"] = (args.dice, 1, perudo_rules.MAX_DICE)
    else:
        counts["--cards"] = (args.cards, 1, rules.MAX_CARDS)
    for flag, (value, low, high) in counts.items():
        if value is not None:
            check_int(flag, value, low, high)
    if hasattr(args, "seat"):
        check_int("--seat", args.seat, 0, args.players - 1)


def _pagadores_only(args: argparse.Namespace, option: str, given: bool, instead: str,
                    perudo: bool = False) -> None:
    """``ValueError`` if ``option`` (given) does not belong to ``--game``: ``--cards`` and
    ``--exact`` are Pagadores', ``--dice`` Perudo's (``perudo=True``)."""
    if given:
        owner = "perudo" if perudo else "pagadores"
        raise ValueError(f"{option} is for --game {owner}, not --game {args.game} ({instead})")


#: What ``write_outputs`` may write beside a stem's results file, ``STEM.md``.
OUTPUT_EXTENSIONS = ("csv", "json", "png")


def check_out(out: Path | None, stem: str | None = None) -> None:
    """``ValueError`` if ``--out`` can neither be nor become a folder we can write into, or
    holds ``stem``'s files (``write_outputs``) that pagadores did not write (``check_ours``),
    checked before any game is played (so a long run is not lost at the end)."""
    if out is None:
        return
    existing = out
    while not existing.exists():  # the nearest part of the path that is there
        existing = existing.parent
    if not existing.is_dir():
        raise ValueError(f"--out {out}: {existing} is a file, not a folder")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise ValueError(f"--out {out}: {existing} is not writable")
    if stem is not None:
        check_ours(out / f"{stem}.md", [out / f"{stem}.{ext}" for ext in OUTPUT_EXTENSIONS])


def check_ours(document: Path, beside: Sequence[Path] = ()) -> None:
    """``ValueError`` unless ``document`` and the files ``beside`` it are new or ``document``
    is a results file pagadores wrote (``reports.is_results_document``; then those beside it
    are its run's): a command never replaces a file it did not write."""
    there = [path for path in (document, *beside) if path.exists()]
    if not there:
        return
    from pagadores_train.run.reports import is_results_document  # imports torch: only here

    try:
        ours = document.is_file() and is_results_document(document.read_text(errors="replace"))
    except OSError:
        ours = False
    if not ours:
        raise ValueError(f"--out: {there[0]} is there and pagadores did not write it (no "
                         f"results file {document.name} of ours); pick a new name or folder")


def _report(result: object, args: argparse.Namespace, stem: str) -> int:
    """Print the result's table and write its CSV, JSON, plot and results file into
    ``args.out`` (``write_outputs``)."""
    table = result.table()  # type: ignore[attr-defined]
    print(table)
    if args.out is not None:
        writers = {ext: getattr(result, "plot" if ext == "png" else f"to_{ext}")
                   for ext in OUTPUT_EXTENSIONS}
        write_outputs(args.out, stem, args.invocation, table, writers)
    return 0


def write_outputs(out: Path, stem: str, invocation: str, table: str,
                  writers: dict[str, Callable[[Path], object]]) -> None:
    """Write ``stem.EXT`` into ``out`` by each of ``writers`` and ``stem.md``, the printed
    ``table`` with the command that printed it (``reports.results_document``: the form the
    documentation quotes); each file atomically. A failed write is a ``ValueError``, the
    files already there stay."""
    from pagadores_env.core.atomic import write_atomic
    from pagadores_train.run.reports import results_document

    try:
        out.mkdir(parents=True, exist_ok=True)
        for ext, writer in writers.items():
            writer(out / f"{stem}.{ext}")
        write_atomic(out / f"{stem}.md", results_document(stem, f"`{invocation}`", table))
    except OSError as err:  # a full disk, a read-only folder
        reason = err.line if isinstance(err, WriteError) else f"cannot write into it: {err}"
        raise ValueError(f"--out {out}: {reason}") from None
    print(f"wrote {', '.join(f'{out / stem}.{ext}' for ext in [*writers, 'md'])}",
          file=sys.stderr)


def add_progress_options(parser: argparse.ArgumentParser) -> None:
    """``--no-progress`` and ``--progress`` (exclusive; see the module docstring), read by
    ``progress_of``."""
    how = parser.add_mutually_exclusive_group()
    how.add_argument("--no-progress", dest="progress", action="store_const", const="lines",
                     help="status lines instead of progress bars, one per step of each phase "
                          "(tenth of the games, solver pass, pair): for logs. By default "
                          "bars are drawn when stderr is a terminal")
    how.add_argument("--progress", dest="progress", action="store_const", const="bars",
                     help="progress bars even when stderr is not a terminal (bars are the "
                          "default; this option is kept for older scripts)")


def progress_of(args: argparse.Namespace) -> Reporter:
    """The ``Reporter`` the progress options ask for: status lines (``--no-progress``), bars
    (``--progress``, or by default on a terminal), else nothing. Bars need tqdm (the
    ``train`` extra): without it, status lines stand in."""
    from pagadores_train.progress import BARS, LINES, SILENT

    if args.progress == "lines":
        return LINES
    if args.progress != "bars" and not sys.stderr.isatty():
        return SILENT
    try:
        import tqdm  # noqa: F401  (only whether it is there)
    except ImportError:
        return LINES
    return BARS


def fail(parser: argparse.ArgumentParser, err: Exception | str) -> NoReturn:
    """Exit with status 2 and the one line ``<prog>: error: <err>`` on stderr: how a
    delegated command refuses bad input it finds after parsing (argparse's own ``error``
    would print the usage lines first)."""
    parser.exit(2, f"{parser.prog}: error: {err}\n")


def _one_line_warning(command: str) -> Callable[..., None]:
    """``warnings.showwarning`` for the command line: one line on stderr, no source line,
    each message once (an unwritable cache is met by every solve that tries to write it)."""
    shown: set[str] = set()

    def show(message: Warning | str, *_: object, **__: object) -> None:
        if str(message) not in shown:
            shown.add(str(message))
            print(f"pagadores {command}: warning: {message}", file=sys.stderr)

    return show


def _dispatch(argv: list[str]) -> tuple[str, Callable[[], int | None]]:
    """The subcommand ``argv`` names and the call that runs it (help and usage errors from
    argparse exit here already)."""
    if argv and argv[0] in DELEGATED:
        module = importlib.import_module(DELEGATED[argv[0]][0])
        return argv[0], partial(module.main, argv[1:])
    args = build_parser().parse_args(argv)
    args.invocation = shlex.join(["pagadores", *argv])
    return args.command, partial(args.run, args)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``pagadores`` console script. Bad input exits with status 2 and
    a message saying what was wrong; every subcommand's warnings are one line each."""
    command, run = _dispatch(list(sys.argv[1:] if argv is None else argv))
    try:
        # restores the warnings machinery afterwards; SIGTERM stops as Ctrl-C does
        with warnings.catch_warnings(), stopping():
            warnings.showwarning = _one_line_warning(command)
            return run() or 0
    except ValueError as err:
        print(f"pagadores {command}: error: {err}", file=sys.stderr)
        return 2
    except MemoryError:  # the size checks leave room, but other programs may take it
        print(f"pagadores {command}: error: out of memory (other programs took what the size "
              f"check counted on, or a limit on this process is lower than it can see); "
              f"nothing it had written is lost", file=sys.stderr)
        return 1
    except KeyboardInterrupt:  # a delegated command may say more itself (train does)
        print(f"\npagadores {command}: {ended_by()}", file=sys.stderr)
        return exit_status()


if __name__ == "__main__":
    sys.exit(main())
