"""``pagadores exact``: the exact yardstick's tables (``docs/yardsticks.md`` describes them).

At two players (the default): every agent's exact win probability against every other, the
best response's against each, and each agent's exploitability, from the exact yardstick
(``pagadores_train.evaluation.yardstick``). With ``--players 3`` (or more): every seat's value in
the equilibrium, and for every agent its NashConv when all seats play it and its exact win
probability at seat 0 against ``sensible`` in every other seat (``pagadores_env.pagadores.solver``).

The default agents are every registered player that plays as its bare name (``model`` and
``rllib`` need a path: ``policies.required_parameters``). At 3+ players an agent that cannot
play the table (``optimal``) is left out with a note saying why, and a list of which none can
is refused in one line before any work. The tabulations (2 players) and solver passes (3+)
report their progress (``main.add_progress_options``).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence

from pagadores_env.core.checks import check_int
from pagadores_env.core.policies import (
    check_tables,
    make_policy,
    monte_carlo_only,
    registered_policies,
    required_parameters,
)
from pagadores_env.pagadores.rules import MAX_CARDS, MAX_PLAYERS, MIN_PLAYERS
from pagadores_env.pagadores.solver import exact_evaluate, nash_conv, solve
from pagadores_train.evaluation.yardstick import DRAWN, decimals, yardstick
from pagadores_train.progress import SILENT, Reporter

from .main import add_progress_options, fail, progress_of
from .usage import Usage

#: Every shipped player of the two-player table, in its row order (weakest idea first).
SHIPPED = ("random", "stop-first", "always-throw", "threshold", "sensible", "lookahead", "optimal")
#: The players in every seat but the first in the multi-player table.
BASELINE = "sensible"


def pairwise_table(agent_names: Sequence[str] = SHIPPED, cards: int = MAX_CARDS,
                   progress: Reporter = SILENT) -> str:
    """A Markdown table: each agent's exact win probability against every other (row against
    column, averaged over who insteeks first), the best response's against each, and each
    agent's exploitability. Stochastic agents are built with seed 0 and marked ``†``.
    ``progress`` hears phase ``tabulating``, one step per agent."""
    names = list(agent_names)
    if not names:
        raise ValueError("pairwise_table needs at least one agent name")
    sticks = []
    with progress.phase("tabulating", len(names), "agent") as phase:
        for name in names:
            sticks.append(yardstick(name, cards))
            phase.step(note=name)
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
        "`pagadores_env.pagadores.solver`). *best response*: the most any player can win "
        "against the column agent. *exploitability*: the best response's win probability "
        "against the row agent − ½ (0 = optimal).",
    ]
    if not all(s.exact for s in sticks):
        notes.append(f"{DRAWN} stochastic: evaluated as the one deterministic table its calls "
                     "drew (seed 0); the solver plays one action per decision state, so the "
                     "exact value of the mixed policy is not available.")
    return "\n".join(lines) + "\n\n" + "\n\n".join(notes)


def shipped_agents() -> list[str]:
    """Every registered player that plays as its bare name (not ``model`` or ``rllib``, which
    need a path: ``policies.required_parameters``) and is not Monte Carlo only
    (``openspiel-mcts``: ``policies.monte_carlo_only``): ``SHIPPED``'s order, then the others
    (such as ``equilibrium``) by name."""
    names = [n for n in registered_policies()
             if not required_parameters(n) and not monte_carlo_only(n)]
    return [n for n in SHIPPED if n in names] + sorted(n for n in names if n not in SHIPPED)


def _markdown(rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(row) + " |" for row in rows]
    lines.insert(1, "|" + "|".join([":---", *["---:"] * (len(rows[0]) - 1)]) + "|")
    return lines


def multiplayer_table(num_players: int = 3, cards: int = MAX_CARDS,
                      agent_names: Sequence[str] | None = None,
                      log: Callable[[str], None] | None = None,
                      progress: Reporter = SILENT) -> str:
    """Markdown tables of a ``num_players`` table with ``cards`` each, seat 0 insteeking
    first: every seat's equilibrium value, then per agent (default: ``shipped_agents()``) its
    NashConv when every seat plays it and its win probability at seat 0 against ``BASELINE``
    in every other seat. An agent that cannot play the table is left out with a note saying
    why; ``ValueError`` (before any solve) for a bad spec or when no agent can play it.
    ``log`` hears each agent's time, ``progress`` the agents' checks (phase ``checking``,
    which for ``equilibrium`` is the table's solve), the equilibrium's solve when that has
    not cached it (phase ``solving``) and the agents' solver passes (phase ``exact``, one
    step per pass)."""
    n = check_int("num_players", num_players, 3, MAX_PLAYERS)
    names = shipped_agents() if agent_names is None else list(agent_names)
    say = log or (lambda _: None)
    playing, left_out = _who_plays(names, n, cards, progress)
    began = time.perf_counter()
    with progress.solver_phase("solving") as callback:
        spe = solve(n, cards, progress=callback).win_probabilities()
    say(f"equilibrium solved in {time.perf_counter() - began:.1f} s")
    lines = _markdown([["", *(f"seat {s}" for s in range(n))],
                       ["equilibrium (SPE)", *map(decimals, spe)]])
    against = f"{n - 1} × {BASELINE}" if n > 2 else BASELINE
    rows = [["agent", "NashConv (every seat plays it)", f"win at seat 0 vs {against}"]]
    with progress.phase("exact", 2 * len(playing), "pass") as phase:
        for name in playing:
            began = time.perf_counter()
            conv = nash_conv(name, n, cards, cache=True).total
            phase.step(note=f"{name}: NashConv")
            win = exact_evaluate([name, *[BASELINE] * (n - 1)], n, cards, cache=True)[0]
            phase.step(note=f"{name}: win vs {BASELINE}")
            rows.append([name, decimals(conv), decimals(win)])
            say(f"{name}: {time.perf_counter() - began:.1f} s")
    others = ", ".join([f'"{BASELINE}"'] * (n - 1))
    notes = [
        f"Exact, {n} players with {cards} cards each, seat 0 insteeking the first round "
        f"(solver: `pagadores_env.pagadores.solver`; fair share {decimals(1 / n)}). *equilibrium "
        "(SPE)*: every seat's win probability when each maximises its own (`solve`). "
        "*NashConv*: the sum over seats of what a seat would gain by switching to its best "
        "response while the others keep playing the agent (0 = equilibrium; `nash_conv`). "
        f"*win at seat 0*: `exact_evaluate([agent, {others}], {n}, {cards})[0]`; stochastic "
        "agents are evaluated as their exact mixture.",
        *left_out,
    ]
    return "\n".join([*lines, "", *_markdown(rows)]) + "\n\n" + "\n\n".join(notes)


def _who_plays(names: Sequence[str], num_players: int, cards: int, progress: Reporter
               ) -> tuple[list[str], list[str]]:
    """The agents of ``names`` that can play the table, and a note for each that cannot
    (``policies.check_tables``: ``optimal`` plays two players only), checked as phase
    ``checking``. ``ValueError`` for a bad spec, and in one line naming every reason when
    none can play (the table would be empty)."""
    policies = [make_policy(name, seat=0) for name in names]  # a bad spec is an error
    playing, left_out, reasons = [], [], []
    with progress.phase("checking", len(names), "agent") as phase:
        for name, policy in zip(names, policies, strict=True):
            try:
                check_tables([policy], num_players, cards)
            except ValueError as err:
                left_out.append(f"`{name}` is not in the table: {err}.")
                reasons.append(str(err))
            else:
                playing.append(name)
            phase.step(note=name)
    if not playing:
        raise ValueError(f"no agent given can play {num_players} players with {cards} cards "
                         f"each: {'; '.join(reasons)}")
    return playing, left_out


def main(argv: Sequence[str] | None = None) -> int:
    """Print ``pairwise_table`` or, with ``--players`` 3 or more, ``multiplayer_table``
    (Markdown on stdout; the time taken, per agent at 3+ players, and with
    ``--no-progress`` the status lines on stderr). Bad options, bad specs and a list of
    agents none of which can play the table end in one line and exit status 2
    (``main.fail``) before any work."""
    parser = argparse.ArgumentParser(
        prog="pagadores exact",
        description="The exact yardstick's tables, in Markdown. At 2 players: every agent's "
                    "win probability against every other and its exploitability. At 3+ "
                    "players: every seat's equilibrium value, and per agent its NashConv "
                    f"when every seat plays it and its win probability at seat 0 against "
                    f"{BASELINE} in the other seats (minutes at 3 players with 10 cards).")
    parser.add_argument("agents", nargs="*", metavar="AGENT",
                        help=f"agent specs (default at 2 players: {' '.join(SHIPPED)}; at 3+: "
                             "every registered agent that needs no path; an agent that "
                             "cannot play the table is left out with a note, and a list of "
                             "which none can is refused)")
    parser.add_argument("--players", type=int, default=2,
                        help=f"players at the table, {MIN_PLAYERS}–{MAX_PLAYERS} (default 2)")
    parser.add_argument("--cards", type=int, default=MAX_CARDS,
                        help=f"cards per player, 1–{MAX_CARDS} (default {MAX_CARDS})")
    add_progress_options(parser)
    args = parser.parse_args(argv)
    usage = Usage()
    try:
        n = check_int("--players", args.players, MIN_PLAYERS, MAX_PLAYERS)
        cards = check_int("--cards", args.cards, 1, MAX_CARDS)
        progress = progress_of(args)  # status lines on stderr: stdout is the document
        if n == 2:
            text = pairwise_table(args.agents or SHIPPED, cards, progress)
        else:
            text = multiplayer_table(n, cards, args.agents or None,
                                     log=lambda line: print(line, file=sys.stderr),
                                     progress=progress)
    except ValueError as err:
        fail(parser, err)
    print(text)
    print(usage.line(), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
