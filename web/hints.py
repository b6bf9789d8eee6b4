"""Exact hints: each legal choice's exact win probability, where the exact solution is at hand
in seconds. That is Dados de Pagadores at 2 players (any cards) and at 3 players up to 6 cards
each, or larger once its solution is in the solver's cache (``pagadores solve``); the
probabilities are those of equilibrium play after the choice (``solver.solve``,
``Solution.action_values``), so a player sees what every decision cost. The other games get
no hints on the page (their exact tables are for the command line's yardsticks), and say so.

One solve runs at a time (``_SOLVING``), in the server's worker threads, never on its event
loop; a solution is kept in memory once made.
"""

from __future__ import annotations

import threading
from typing import Any

from pagadores_env.pagadores.engine import Game
from pagadores_env.pagadores.solver import Solution, solve
from pagadores_env.pagadores.solver.equilibrium import cache_path

#: The most cards a seat may start with at 3 players for a solve of seconds (measured: 3.0 s
#: for 6 cards each on one core).
QUICK_CARDS_3P = 6

_SOLVING = threading.Lock()
_SOLUTIONS: dict[tuple[int, ...], Solution] = {}


def why_not(game_name: str, num_players: int, start: tuple[int, ...]) -> str | None:
    """Why a table gets no hints, or None when it does."""
    if game_name != "pagadores":
        return "exact hints are shown for Dados de Pagadores only"
    if num_players == 2:
        return None
    if num_players == 3 and (max(start) <= QUICK_CARDS_3P or cache_path(3, start).is_file()):
        return None
    return (f"exact hints need 2 players, or 3 with at most {QUICK_CARDS_3P} cards each "
            f"(larger tables once solved: pagadores solve)")


def action_values(game: Any) -> dict[int, float]:
    """The acting seat's exact win probability after each legal action of the Pagadores
    ``game`` at a decision (the table must pass ``why_not``)."""
    assert isinstance(game, Game)
    start = tuple(game.start_cards)
    with _SOLVING:
        if start not in _SOLUTIONS:
            _SOLUTIONS[start] = solve(game.num_players, list(start))
        solution = _SOLUTIONS[start]
    values = solution.action_values(game)
    return {int(action): float(values[action]) for action in game.legal_actions()}
