"""``pagadores exact``: the README's table of exact two-player win probabilities of every
agent against every other, the best response's against each, and each agent's
exploitability, from the exact yardstick (``pagadores_train.yardstick``).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

from pagadores_env.rules import MAX_CARDS
from pagadores_train.yardstick import DRAWN, decimals, yardstick

#: Every shipped player, in the README's order (weakest idea first).
SHIPPED = ("random", "stop-first", "always-throw", "threshold", "sensible", "lookahead", "optimal")


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


def main(argv: Sequence[str] | None = None) -> int:
    """Print ``pairwise_table`` (Markdown on stdout, the time taken on stderr)."""
    parser = argparse.ArgumentParser(
        prog="pagadores exact",
        description="Exact two-player win probabilities and exploitability of agents, as a "
                    "Markdown table.")
    parser.add_argument("agents", nargs="*", default=list(SHIPPED), metavar="AGENT",
                        help=f"agent specs (default: {' '.join(SHIPPED)})")
    parser.add_argument("--cards", type=int, default=MAX_CARDS,
                        help=f"cards per player, 1–{MAX_CARDS} (default {MAX_CARDS})")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    try:
        text = pairwise_table(args.agents, args.cards)
    except ValueError as err:
        parser.error(str(err))
    print(text)
    print(f"computed in {time.perf_counter() - start:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
