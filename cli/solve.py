"""``pagadores solve``: solve (or load from the cache) the equilibrium of a table and print every
seat's win probability, the time taken and where it is cached
(``pagadores_env.pagadores.solver`` does the work). At two players it is the zero-sum solution
and also prints the game value. A solve at 3+ players reports its positions as it goes
(``main.add_progress_options``).

With ``--game paye``: each seat's share of the win in Paye's dobbelspel's equilibrium
(``pagadores_env.paye.exact.start_values``, Y8.1: the base game at 2–4 players, the expansion
at 2), with the time and peak memory it took; the size is checked against the memory this
process may use before any work. With ``--game pasch``: the single turn's best chance of
ending at or above each field of the board, or of the one ``--goal`` (X9.1,
``pagadores_env.pasch.exact``), and with ``--scores`` a last round's equilibrium (X9.2)."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from contextlib import suppress
from pathlib import Path
from typing import Any, NamedTuple

from pagadores_env.core.checks import check_int
from pagadores_env.pagadores.rules import MAX_CARDS, MAX_PLAYERS, MIN_PLAYERS
from pagadores_env.pagadores.solver import Solution, cache_path, cached, solve, solve_two_player
from pagadores_env.pagadores.solver.equilibrium import cache_path as equilibrium_path
from pagadores_train.progress import Reporter

from .exact_tables import (
    ABOUT,
    PAGADORES,
    check_covered,
    named_options,
    paye_table,
    refuse_flags,
)
from .main import add_game_options, add_progress_options, fail, game_options, progress_of
from .usage import Usage

#: The flags of one game's solve alone (``exact_tables.refuse_flags``).
OWNERS = {"--force": PAGADORES, "--goal": ("pasch",), "--scores": ("pasch",),
          "--last-cards": ("pasch",), "--blocks-left": ("pasch",), "--starter": ("pasch",)}
#: Pasch's last-round flags as the position's keywords (``pasch.exact.last_round``).
LAST_ROUND = {"scores": "--scores", "last_cards": "--last-cards",
              "blocks_left": "--blocks-left", "starter": "--starter"}


def per_seat(values: Sequence[float]) -> str:
    """Every seat's win probability on one line, seat 0 first (10 decimals)."""
    return "  ".join(f"seat {seat} {value:.10f}" for seat, value in enumerate(values))


class _Solved(NamedTuple):
    values: tuple[float, ...]  # per seat at the start, seat 0 insteeking first
    seconds: float  # the solve's own time (as stored, when loaded)
    positions: int | None  # (cards, insteker) positions; None at 2 players
    how: str
    path: Path
    failure: OSError | None  # why the cache could not be written


def _two_players(cards: int, force: bool) -> _Solved:
    path = cache_path(cards)
    solution = None if force else cached(cards, path)
    how, failure = "loaded from the cache", None
    if solution is None:
        solution, how = solve_two_player(cards), "solved now"
        try:
            solution.save(path)
        except OSError as err:
            failure = err
    return _Solved((solution.value, 1 - solution.value), solution.solve_seconds, None, how,
                   path, failure)


def _more_players(n: int, cards: int, force: bool, progress: Reporter) -> _Solved:
    """Like ``solver.solve`` with its cache, but saying whether it loaded and whether the
    cache was written (``solve`` only warns); a solve reports its positions to
    ``progress``."""
    path = equilibrium_path(n, (cards,) * n)
    solution, how, failure = None, "loaded from the cache", None
    if not force:
        with suppress(FileNotFoundError, ValueError):  # missing, damaged or stale: solve
            solution = Solution.load(path)
    if solution is None:
        with progress.solver_phase("solving") as callback:
            solution = solve(n, cards, cache=False, progress=callback)
        how = "solved now"
        try:
            solution.save(path)
        except OSError as err:
            failure = err
    return _Solved(solution.win_probabilities(), solution.seconds, len(solution.positions),
                   how, path, failure)


def main(argv: Sequence[str] | None = None) -> int:
    """Solve (or load) a table's equilibrium and print its values and the time taken. Bad
    options and tables beyond the solver's limits end in one line and exit status 2 before
    any work (``main.fail``). A cache that cannot be written is an error (exit 2) after the
    values are printed: caching is half of what this command is for."""
    parser = argparse.ArgumentParser(
        prog="pagadores solve",
        description="Solve Dados de Pagadores exactly: the subgame-perfect equilibrium, in "
                    "which every seat takes the action that maximises its own win probability "
                    "(stopping on a tie); at 2 players that is optimal play by both. The "
                    "solution is cached in $PAGADORES_CACHE (default ~/.cache/pagadores_env); "
                    "a damaged cache file is solved again. Tables beyond the solver's limits "
                    "are refused before any work. With --game paye: each seat's share of the "
                    "win in the equilibrium of Paye's dobbelspel (the base game at 2–4 "
                    "players, the expansion at 2; Y8), its time and peak memory, the size "
                    "checked against the memory this process may use first. With --game "
                    "pasch: the single turn's best chance of ending at or above each field "
                    "(X9.1), or of --goal's, and with --scores a last round's equilibrium "
                    "(X9.2).")
    parser.add_argument("--players", type=int, default=None,
                        help=f"players at the table, {MIN_PLAYERS}–{MAX_PLAYERS} (default 2)")
    parser.add_argument("--cards", type=int, default=None,
                        help=f"cards per player, 1–{MAX_CARDS} (default {MAX_CARDS})")
    parser.add_argument("--force", action="store_true", default=None,
                        help="solve again even if a cached solution exists")
    add_game_options(parser, own=("cards",), about=ABOUT)
    pasch = parser.add_argument_group("--game pasch")
    pasch.add_argument("--goal", metavar="ROW,COLUMN",
                       help="one field of the board, such as 'full house,3' (rows: pair, two "
                            "pairs, triple, full house, four, five; columns 1–6): its best "
                            "chance alone, to 10 decimals")
    pasch.add_argument("--scores", metavar="S0,S1[,S2]",
                       help="a last round (X9.2, 2 or 3 players): the scores before it, one "
                            "per seat; prints its equilibrium's share of the win per seat")
    pasch.add_argument("--last-cards", metavar="C0,C1[,C2]",
                       help="with --scores: each seat's last card, from the hand")
    pasch.add_argument("--blocks-left", metavar="B",
                       help="with --scores: blocks left, one count for every seat or one per "
                            "seat (default --blocks)")
    pasch.add_argument("--starter", metavar="SEAT",
                       help="with --scores: the seat that starts the round (default 0)")
    add_progress_options(parser)
    args = parser.parse_args(argv)
    began = time.perf_counter()
    try:
        refuse_flags(args, OWNERS)
        check_covered("solve", args.game)
        if args.game != "pagadores":
            print(_solve_paye(args) if args.game == "paye" else _solve_pasch(args))
            return 0
        n = check_int("--players", 2 if args.players is None else args.players, MIN_PLAYERS,
                      MAX_PLAYERS)
        cards = check_int("--cards", MAX_CARDS if args.cards is None else args.cards, 1,
                          MAX_CARDS)
        game_options(args, own=("cards",))  # a flag of another game: one line
        done = _two_players(cards, bool(args.force)) if n == 2 else \
            _more_players(n, cards, bool(args.force), progress_of(args))
    except ValueError as err:
        fail(parser, err)
    elapsed = time.perf_counter() - began
    if n == 2:
        value = done.values[0]
        print(f"2 players, {cards} cards each, optimal play by both:")
        print(f"  first insteker (seat 0) wins with probability {value:.10f} ({value:.4f})")
    else:
        print(f"{n} players, {cards} cards each, equilibrium play (each seat maximises its "
              "own win probability):")
    print(f"  win probability per seat (seat 0 insteeks first): {per_seat(done.values)}")
    solved = "" if done.positions is None else f"{done.positions:,} positions, "
    print(f"  solve time {done.seconds:.3f} s ({solved}{done.how}; this command took "
          f"{elapsed:.3f} s)")
    if done.failure is not None:
        print(f"{parser.prog}: error: cannot write the cache file {done.path}: "
              f"{done.failure.strerror or done.failure} "
              "(set PAGADORES_CACHE to a writable folder)", file=sys.stderr)
        return 2
    print(f"  cache file {done.path}")
    return 0


def _solve_paye(args: argparse.Namespace) -> str:
    """Paye's equilibrium shares at the table of the flags (module docstring)."""
    from pagadores_env.paye.exact import start_values

    table = paye_table(args, players=2)
    usage = Usage()
    with progress_of(args).solver_phase("solving", unit="turn") as progress:
        values = start_values(table.players, progress=progress, **table.keywords())
    play = "optimal play by both" if table.players == 2 else \
        "equilibrium play (each seat maximises its own share of the win)"
    return "\n".join([
        f"{table.text()}, {play}:",
        f"  share of the win per seat (seat 0 moves first; a first place shared by k counts "
        f"1/k, Y4.4): {per_seat(values)}",
        f"  {usage.line(decimals=3)}"])


def _solve_pasch(args: argparse.Namespace) -> str:
    """Pasch's single-turn chances and, with ``--scores``, a last round's equilibrium
    (module docstring)."""
    from pagadores_env.core.games import int_sequence
    from pagadores_env.pasch.exact import best_chance, chance_table, last_round
    from pagadores_env.pasch.rules import FACES, ROWS, check_field

    if args.players is not None:
        raise ValueError("--players is not for --game pasch: a turn is one player's, and a "
                         "last round has as many players as --scores has scores")
    options = named_options(args)
    blocks = options["blocks"]
    usage = Usage()
    if args.goal is not None:
        row, _, column = args.goal.rpartition(",")
        goal = (row.strip(), int(column) if column.strip().isdigit() else column)
        check_field(goal, "--goal")  # one line naming the rows and columns there are
        lines = [f"Pasch, one dice turn (X9.1), {blocks} blocks: the best chance of ending "
                 f"at or above {goal[0]} {goal[1]} (an equal field counts) is "
                 f"{best_chance(goal, blocks):.10f}"]
    else:
        chances = chance_table(blocks)
        width = max(map(len, ROWS))
        lines = [f"Pasch, one dice turn (X9.1), {blocks} blocks: the best chance of ending at "
                 "or above each field (an equal field counts)",
                 "row \\ column".ljust(width + 2) + "".join(f"{c:>10}" for c in
                                                          range(1, FACES + 1))]
        for r, row in enumerate(ROWS):
            fields = chances[1 + r * FACES:1 + (r + 1) * FACES]
            lines.append(f"{row:<{width + 2}}" + "".join(f"{c:>10.4%}" for c in fields))
    if args.scores is not None:
        given = {"scores": args.scores, "last_cards": args.last_cards,
                 "blocks_left": args.blocks_left if args.blocks_left is not None
                 else str(blocks), "starter": args.starter or "0"}
        position: dict[str, Any] = {}
        for name, text in given.items():
            flag = LAST_ROUND[name]
            if text is None:
                raise ValueError(f"{flag}: give it with --scores (each seat's last card)")
            try:
                values = int_sequence(text)
            except ValueError as err:
                raise ValueError(f"{flag}: {err}") from None
            position[name] = values[0] if name == "starter" or (
                name == "blocks_left" and len(values) == 1) else values
        hand = options["hand"]
        if not set(position["last_cards"]) <= set(hand):
            raise ValueError(f"--last-cards must be cards of the hand {list(hand)} (X1.3, "
                             f"--hand), got {position['last_cards']}")
        try:
            shares = last_round(**position)
        except ValueError as err:  # the library names its keywords: name the flags
            message = str(err)
            for name, flag in {**LAST_ROUND, "blocks": "--blocks-left"}.items():
                if message.startswith(f"{name} "):
                    message = flag + message[len(name):]
            raise ValueError(message) from None
        seats = len(shares)
        lines += [f"Pasch's last round at {seats} players (X9.2): scores "
                  f"{', '.join(map(str, position['scores']))}; last cards "
                  f"{', '.join(map(str, position['last_cards']))}; blocks left "
                  f"{_listed(position['blocks_left'])}; seat {position['starter']} starts; the "
                  "subgame-perfect equilibrium:",
                  f"  share of the win per seat (a first place shared by k counts 1/k, X1.4): "
                  f"{per_seat(shares)}"]
    elif any(getattr(args, name) is not None for name in list(LAST_ROUND)[1:]):
        raise ValueError("--last-cards, --blocks-left and --starter describe a last round: "
                         "give its --scores too")
    return "\n".join([*lines, f"  {usage.line(decimals=3)}"])


def _listed(value: int | list[int]) -> str:
    return ", ".join(map(str, value)) if isinstance(value, list) else str(value)


if __name__ == "__main__":
    raise SystemExit(main())
