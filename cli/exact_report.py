"""``pagadores exact``: the README's exact tables.

At two players (the default): every agent's exact win probability against every other, the
best response's against each, and each agent's exploitability, from the exact yardstick
(``pagadores_train.yardstick``). With ``--players 3`` (or more): every seat's value in the
equilibrium, and for every agent its NashConv when all seats play it and its exact win
probability at seat 0 against ``sensible`` in every other seat (``pagadores_env.solver``).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence

from pagadores_env.checks import check_int
from pagadores_env.policies import check_tables, make_policy, registered_policies
from pagadores_env.rules import MAX_CARDS, MAX_PLAYERS, MIN_PLAYERS
from pagadores_env.solver import exact_evaluate, nash_conv, solve
from pagadores_train.yardstick import DRAWN, decimals, yardstick

from .main import fail

#: Every shipped player of the two-player table, in the README's order (weakest idea first).
SHIPPED = ("random", "stop-first", "always-throw", "threshold", "sensible", "lookahead", "optimal")
#: The players in every seat but the first in the multi-player table.
BASELINE = "sensible"


def pairwise_table(agent_names: Sequence[str] = SHIPPED, cards: int = MAX_CARDS) -> str:
    """A Markdown table: each agent's exact win probability against every other (row against
    column, averaged over who insteeks first), the best response's against each, and each
    agent's exploitability. Stochastic agents are built with seed 0 and marked ``†``."""
    names = list(agent_names)
    if not names:
        raise ValueError("pairwise_table needs at least one agent name")
    sticks = [yardstick(name, cards) for name in names]
    labels = [name + ("" if s.exact else DRAWN) for name, s in zip(names, sticks,
                                                                           strict=True)]
    rows = [["row vs column", *labels, "exploitability"]]
    for i, (label, mine) in enumerate(zip(labels, sticks, strict=True)):
        cells = ["—" if i == j else decimals(mine.against(theirs).win_probability)
                 for j, theirs in enumerate(sticks)]
        rows.append([label, *cells, decimals(mine.exploitability)])
    rows.append(["best response", *(decimals(s.response.win_mean) for s in sticks), "—"])
    lines = ["| " + " | ".join(row) + " |" for row in rows]
    lines.insert(1, "|" + "|".join([":---", *["---:"] * (len(rows[0]) - 1)]) + "|")
    notes = [
        f"Exact two-player win probability of the row agent against the column agent, {cards} "
        "cards each, averaged over who insteeks the first round (solver: "
        "`pagadores_env.solver`). *best response*: the most any player can win against the "
        "column agent. *exploitability*: the best response's win probability against the row "
        "agent − ½ (0 = optimal).",
    ]
    if not all(s.exact for s in sticks):
        notes.append(f"{DRAWN} stochastic: evaluated as the one deterministic table its calls "
                     "drew (seed 0); the solver plays one action per decision state, so the "
                     "exact value of the mixed policy is not available.")
    return "\n".join(lines) + "\n\n" + "\n\n".join(notes)


def shipped_agents() -> list[str]:
    """Every registered player but ``model`` (which needs a file): ``SHIPPED``'s order, then
    the others (such as ``equilibrium``) by name."""
    names = [n for n in registered_policies() if n != "model"]
    return [n for n in SHIPPED if n in names] + sorted(n for n in names if n not in SHIPPED)


def _markdown(rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(row) + " |" for row in rows]
    lines.insert(1, "|" + "|".join([":---", *["---:"] * (len(rows[0]) - 1)]) + "|")
    return lines


def multiplayer_table(num_players: int = 3, cards: int = MAX_CARDS,
                      agent_names: Sequence[str] | None = None,
                      log: Callable[[str], None] | None = None) -> str:
    """Markdown tables of a ``num_players`` table with ``cards`` each, seat 0 insteeking
    first: every seat's equilibrium value, then per agent (default: ``shipped_agents()``) its
    NashConv when every seat plays it and its win probability at seat 0 against ``BASELINE``
    in every other seat. An agent that cannot play the table is left out with a note saying
    why; ``log`` hears each agent's time."""
    n = check_int("num_players", num_players, 3, MAX_PLAYERS)
    names = shipped_agents() if agent_names is None else list(agent_names)
    say = log or (lambda _: None)
    began = time.perf_counter()
    spe = solve(n, cards).win_probabilities()
    say(f"equilibrium solved in {time.perf_counter() - began:.1f} s")
    lines = _markdown([["", *(f"seat {s}" for s in range(n))],
                       ["equilibrium (SPE)", *map(decimals, spe)]])
    against = f"{n - 1} × {BASELINE}" if n > 2 else BASELINE
    rows = [["agent", "NashConv (every seat plays it)", f"win at seat 0 vs {against}"]]
    left_out = []
    for name in names:
        try:
            check_tables([make_policy(name, seat=0)], n, cards)
        except ValueError as err:
            left_out.append(f"`{name}` is not in the table: {err}.")
            continue
        began = time.perf_counter()
        conv = nash_conv(name, n, cards).total
        win = exact_evaluate([name, *[BASELINE] * (n - 1)], n, cards)[0]
        rows.append([name, decimals(conv), decimals(win)])
        say(f"{name}: {time.perf_counter() - began:.1f} s")
    others = ", ".join([f'"{BASELINE}"'] * (n - 1))
    notes = [
        f"Exact, {n} players with {cards} cards each, seat 0 insteeking the first round "
        f"(solver: `pagadores_env.solver`; fair share {decimals(1 / n)}). *equilibrium "
        "(SPE)*: every seat's win probability when each maximises its own (`solve`). "
        "*NashConv*: the sum over seats of what a seat would gain by switching to its best "
        "response while the others keep playing the agent (0 = equilibrium; `nash_conv`). "
        f"*win at seat 0*: `exact_evaluate([agent, {others}], {n}, {cards})[0]`; stochastic "
        "agents are evaluated as their exact mixture.",
        *left_out,
    ]
    return "\n".join([*lines, "", *_markdown(rows)]) + "\n\n" + "\n\n".join(notes)


def main(argv: Sequence[str] | None = None) -> int:
    """Print ``pairwise_table`` or, with ``--players`` 3 or more, ``multiplayer_table``
    (Markdown on stdout; the time taken, per agent at 3+ players, on stderr). Bad options
    end in one line and exit status 2 (``main.fail``)."""
    parser = argparse.ArgumentParser(
        prog="pagadores exact",
        description="The README's exact tables, in Markdown. At 2 players: every agent's "
                    "win probability against every other and its exploitability. At 3+ "
                    "players: every seat's equilibrium value, and per agent its NashConv "
                    f"when every seat plays it and its win probability at seat 0 against "
                    f"{BASELINE} in the other seats (minutes at 3 players with 10 cards).")
    parser.add_argument("agents", nargs="*", metavar="AGENT",
                        help=f"agent specs (default at 2 players: {' '.join(SHIPPED)}; at 3+: "
                             "every registered agent but model)")
    parser.add_argument("--players", type=int, default=2,
                        help=f"players at the table, {MIN_PLAYERS}–{MAX_PLAYERS} (default 2)")
    parser.add_argument("--cards", type=int, default=MAX_CARDS,
                        help=f"cards per player, 1–{MAX_CARDS} (default {MAX_CARDS})")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    try:
        n = check_int("--players", args.players, MIN_PLAYERS, MAX_PLAYERS)
        cards = check_int("--cards", args.cards, 1, MAX_CARDS)
        if n == 2:
            text = pairwise_table(args.agents or SHIPPED, cards)
        else:
            text = multiplayer_table(n, cards, args.agents or None,
                                     log=lambda line: print(line, file=sys.stderr))
    except ValueError as err:
        fail(parser, err)
    print(text)
    print(f"computed in {time.perf_counter() - start:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
