"""``pagadores``: the command line of pagadores-env.

Subcommands: ``play`` (you against agents in the terminal), ``evaluate`` and ``tournament``
(agents against agents, with confidence intervals), and ``train``, ``bench``, ``solve``,
``nashconv``, ``best-response``, ``exact``, ``benchmark`` and ``serve`` (the web page),
which hand their arguments to the
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
from collections.abc import Callable, Collection, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

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
    "serve": ("pagadores_cli.serve", "play, watch and replay in the browser (needs the web "
              "extra; see: pagadores serve -h)"),
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


#: What ``--game``'s help says of how the games are played, for ``evaluate`` and ``tournament``.
PLAYED = ("Pagadores runs on its compiled kernel with exact columns, the others through their "
          "engines, Monte Carlo")


def add_game_options(cmd: argparse.ArgumentParser, own: Collection[str] = (),
                     about: str = PLAYED) -> None:
    """``--game`` (its help ending in ``about``) and every game's table options as flags
    (``core.games``: ``--cards``, ``--dice``, ``--variant``, ``--faces``, ``--rounds``,
    ``--hand``, ``--blocks``), each read by ``game_options`` for the game chosen; the flags
    in ``own`` are left to the command, which defines them itself (with default None)."""
    from pagadores_env.core.games import GAME_SPECS

    cmd.add_argument("--game", choices=list(GAME_SPECS), default="pagadores",
                     help="the game, and whose players the AGENTs name: "
                          + ", ".join(f"{name} ({spec.title})"
                                      for name, spec in GAME_SPECS.items())
                          + f"; {about}")
    for name, owners in _options_by_name().items():
        if name in own:
            continue
        cmd.add_argument(f"--{name}", metavar=name.upper(), help="; ".join(
            f"--game {spec.name}: {option.help} (default {_shown(option.default)})"
            for spec, option in owners))


def _options_by_name() -> dict[str, list[tuple[Any, Any]]]:
    """Every game's table options by flag name, with the games that take them."""
    from pagadores_env.core.games import GAME_SPECS

    found: dict[str, list[tuple[Any, Any]]] = {}
    for spec in GAME_SPECS.values():
        for option in spec.options:
            found.setdefault(option.name, []).append((spec, option))
    return found


def _shown(value: Any) -> str:
    return "the game's own" if value is None else (
        ",".join(map(str, value)) if isinstance(value, list) else str(value))


def game_options(args: argparse.Namespace, own: Collection[str] = ()) -> dict[str, Any]:
    """The table options given on the command line for ``--game``, parsed and checked by the
    game (a new game of them is made), as a dict by option name; ``ValueError`` in one line
    naming the flag for a flag of another game or a value the game refuses. The flags in
    ``own`` (``add_game_options``) are the command's to read: only refused for another
    game."""
    from pagadores_env.core.games import game_spec

    spec = game_spec(args.game)
    mine = {option.name: option for option in spec.options}
    given = {}
    for name, owners in _options_by_name().items():
        text = getattr(args, name, None)
        if text is None:
            continue
        if name not in mine:
            games = " or ".join(f"--game {owner.name}" for owner, _ in owners)
            takes = ", ".join(f"--{o}" for o in mine) or "no table options"
            raise ValueError(f"--{name} is for {games}, not --game {args.game} (it takes "
                             f"{takes})")
        if name in own:
            continue
        try:
            given[name] = mine[name].parse(text)
        except ValueError as err:
            raise ValueError(f"--{name}: {err}") from None
    players = getattr(args, "players", None)
    try:
        spec.start(spec.min_players if players is None else players, **given)
    except ValueError as err:  # the game names its keywords: name the flags instead
        message = str(err)
        for option in spec.options:
            if message.startswith(f"{option.argument} "):
                message = f"--{option.name}{message[len(option.argument):]}"
        raise ValueError(message.replace("num_players", "--players")) from None
    return given


def build_parser() -> argparse.ArgumentParser:
    agents = agents_help(every_game=True)
    parser = argparse.ArgumentParser(
        prog="pagadores", description="Dados de Pagadores: play, evaluate, train and solve.",
        epilog=agents, formatter_class=_HelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    play = sub.add_parser("play", help="play against agents in the terminal",
                          description="Play in the terminal: s = stop, t = throw again, "
                                      "? = rules summary, q = quit; with --game perudo: "
                                      "a bid as QxF (3x5), d = dudo; with the other games: "
                                      "an action's number as listed.", epilog=agents,
                          formatter_class=_HelpFormatter)
    play.add_argument("opponents", nargs="*", metavar="AGENT",
                      help="one agent reused in every other seat, or one per other seat "
                           "(default: the game's own, sensible in Pagadores)")
    add_game_options(play)
    play.add_argument("--players", type=int, default=2, help="players at the table, 2–6")
    play.add_argument("--seat", type=int, default=0, help="your seat (0 insteeks first)")
    play.add_argument("--seed", type=int, help="seed the dice and the agents")
    play.set_defaults(run=run_play)

    for name, helptext in (("evaluate", "agent under test against opponents"),
                           ("tournament", "round-robin of 2-player matches")):
        cmd = sub.add_parser(name, help=helptext, epilog=agents,
                             description=_DESCRIPTIONS[name], formatter_class=_HelpFormatter)
        cmd.add_argument("agents", nargs="+", metavar="AGENT")
        add_game_options(cmd)
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
    from pagadores_env.core.games import game_spec

    try:
        options = _check_counts(args)
        spec = game_spec(args.game)
        opponents = args.opponents or [spec.opponent]
        if args.game == "pagadores":
            from .play import play

            play(opponents, num_players=args.players, human_seat=args.seat,
                 cards=options.get("cards", 10), seed=args.seed)
        elif args.game == "perudo":
            from .play_perudo import play as play_perudo

            play_perudo(opponents, num_players=args.players, human_seat=args.seat,
                        dice=options.get("dice", 5), seed=args.seed)
        else:
            from .play_engine import play as play_engine

            play_engine(spec, opponents, args.players, options, human_seat=args.seat,
                        seed=args.seed)
    except KeyboardInterrupt:
        print("\ngame abandoned", file=sys.stderr)  # the prompt line is still open
        return exit_status()
    return 0


def run_evaluate(args: argparse.Namespace) -> int:
    check_out(args.out, "evaluate")
    options = _check_counts(args)
    if args.game != "pagadores":  # the games without a kernel: their engines, Monte Carlo
        from pagadores_train.evaluation.engine import evaluate_game

        if args.exact:
            raise ValueError(f"--exact is for --game pagadores, not --game {args.game} "
                             "(its evaluation is Monte Carlo)")
        result = evaluate_game(args.game, args.agents, num_players=args.players,
                               num_games=args.games, seed=args.seed, options=options,
                               progress=progress_of(args))
        return _report(result, args, "evaluate")
    from pagadores_train.evaluation.evaluate import evaluate_agents

    result = evaluate_agents(args.agents, num_players=args.players, num_games=args.games,
                             seed=args.seed, cards=options.get("cards", 10),
                             progress=progress_of(args),
                             exact=False if args.no_exact else args.exact or None)
    return _report(result, args, "evaluate")


def run_tournament(args: argparse.Namespace) -> int:
    check_out(args.out, "tournament")
    options = _check_counts(args)
    if args.game != "pagadores":
        from pagadores_train.evaluation.engine import tournament_game

        result = tournament_game(args.game, args.agents, num_games=args.games, seed=args.seed,
                                 options=options, progress=progress_of(args))
    else:
        from pagadores_train.evaluation.tournament import tournament

        result = tournament(args.agents, num_games=args.games, seed=args.seed,
                            cards=options.get("cards", 10), progress=progress_of(args))
    return _report(result, args, "tournament")


def _check_counts(args: argparse.Namespace) -> dict[str, Any]:
    """The table options of ``--game`` (``game_options``), after the counts every command
    takes, each checked against the game and named by its flag (the functions they are
    handed to name their parameters: ``num_players``)."""
    from pagadores_env.core.checks import check_int
    from pagadores_env.core.games import game_spec

    spec = game_spec(args.game)
    counts = {"--players": (getattr(args, "players", None), spec.min_players, spec.max_players),
              "--games": (getattr(args, "games", None), 1, None),
              "--seed": (args.seed, 0, None)}
    for flag, (value, low, high) in counts.items():
        if value is not None:
            check_int(flag, value, low, high)
    if hasattr(args, "seat"):
        check_int("--seat", args.seat, 0, args.players - 1)
    return game_options(args)


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
