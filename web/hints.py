"""Exact hints: each legal choice's exact win probability (a share of the win, where wins are
shared) for the person to act, with equilibrium play after the choice, wherever the exact
solution is at hand in seconds; elsewhere a one-line reason (``why_not``).

- Dados de Pagadores at 2 players (any cards) and at 3 players up to ``QUICK_CARDS_3P`` cards
  each, or larger once its solution is in the solver's cache (``pagadores solve``):
  ``solver.solve``, ``Solution.action_values``.
- Paye's dobbelspel, the base game at 2 and 3 players and the expansion at 2
  (``paye.exact.action_values``: the solve with every position's values kept), where that
  solve takes at most ``HINT_SECONDS`` by the measured ``PAYE_SECONDS_PER_TURN`` and at most
  ``HINT_BYTES`` by the yardstick's own size estimate, both checked before solving. At 4
  players it takes about 35 seconds and, with the values kept, about 10 GiB: no hints.
- Pasch in the last round at 2 or 3 players (``pasch.exact.action_values``, the round's
  equilibrium, X9.2; a second or two); before it, and at 4–6 players, no exact values exist.

One solve runs at a time (``_SOLVING``), in the server's worker threads, never on its event
loop; solutions are kept in memory once made (here, and by the yardsticks' own caches).
"""

from __future__ import annotations

import threading
from typing import Any

from pagadores_env.pagadores.engine import Game
from pagadores_env.pagadores.solver import Solution, solve
from pagadores_env.pagadores.solver.equilibrium import cache_path
from pagadores_env.pasch import exact as pasch_exact
from pagadores_env.pasch.last_round import PLAYERS as PASCH_PLAYERS
from pagadores_env.pasch.observation import encode as pasch_encode
from pagadores_env.paye import exact as paye_exact
from pagadores_env.paye.expansion import PLAYERS as EXPANSION_PLAYERS
from pagadores_env.paye.expansion import solve_bytes

#: The most cards a seat may start with at 3 players for a solve of seconds (measured: 3.0 s
#: for 6 cards each on one core).
QUICK_CARDS_3P = 6
#: The longest and largest solve a hint may start.
HINT_SECONDS = 10.0
HINT_BYTES = 1 << 30
#: Seconds per turn of a Paye table (rounds × players turns) its values-keeping solve takes,
#: measured on 2 busy cores: 0.23 s for 2 players and 10 rounds, 1.5 s for 3, 3.8 s for the
#: expansion; 4 players from the yardstick's bench (35 s, docs/yardsticks.md).
PAYE_SECONDS_PER_TURN = {("base", 2): 0.012, ("base", 3): 0.05, ("base", 4): 0.9,
                         ("expansion", 2): 0.19}

_SOLVING = threading.Lock()
_SOLUTIONS: dict[tuple[int, ...], Solution] = {}


def why_not(game_name: str, game: Any) -> str | None:
    """Why ``game`` (a game of ``game_name`` in progress) gets no hints now, or None when it
    does."""
    if game_name == "pagadores":
        return _why_not_pagadores(game.num_players, tuple(game.start_cards))
    if game_name == "paye":
        return _why_not_paye(game.variant, game.num_players, game.rounds)
    if game_name == "pasch":
        if game.num_players not in PASCH_PLAYERS:
            return "Pasch's exact values cover the last round at 2 or 3 players (X9.2)"
        if game.round != game.rounds - 1:
            return "Pasch's exact values cover its last round (X9.2): the hints come there"
        return None
    return ("exact hints cover Dados de Pagadores, Paye's dobbelspel and Pasch's last round; "
            "the other games' exact tables are the command line's yardsticks")


def _why_not_pagadores(num_players: int, start: tuple[int, ...]) -> str | None:
    if num_players == 2:
        return None
    if num_players == 3 and (max(start) <= QUICK_CARDS_3P or cache_path(3, start).is_file()):
        return None
    return (f"exact hints need 2 players, or 3 with at most {QUICK_CARDS_3P} cards each "
            f"(larger tables once solved: pagadores solve)")


def _why_not_paye(variant: str, num_players: int, rounds: int) -> str | None:
    """Paye's tables get hints where the yardstick covers them and its solve with the values
    kept is within ``HINT_SECONDS`` and ``HINT_BYTES`` (module docstring)."""
    if variant == "expansion" and num_players != EXPANSION_PLAYERS:
        return f"the expansion's exact values cover {EXPANSION_PLAYERS} players (Y8)"
    if not paye_exact.MIN_EXACT <= num_players <= paye_exact.MAX_EXACT:
        return (f"Paye's exact values cover {paye_exact.MIN_EXACT}–{paye_exact.MAX_EXACT} "
                f"players (Y8.1)")
    turns = rounds * num_players
    seconds = PAYE_SECONDS_PER_TURN[(variant, num_players)] * turns
    need = (solve_bytes(rounds, keep_values=True) if variant == "expansion" else
            paye_exact.pass_bytes(num_players, kept_layers=turns, kept_values=turns))
    if seconds > HINT_SECONDS or need > HINT_BYTES:
        return (f"this table's exact values take about {seconds:.0f} s and "
                f"{need / 2**30:.1f} GiB to compute; a hint takes at most "
                f"{HINT_SECONDS:.0f} s and {HINT_BYTES / 2**30:.0f} GiB")
    return None


def action_values(game_name: str, game: Any) -> dict[int, float]:
    """The acting seat's exact win probability (share of the win) after each legal action of
    ``game`` at a decision (it must pass ``why_not``)."""
    seat = game.current_player
    if game_name == "pagadores":
        assert isinstance(game, Game)
        start = tuple(game.start_cards)
        with _SOLVING:
            if start not in _SOLUTIONS:
                _SOLUTIONS[start] = solve(game.num_players, list(start))
            solution = _SOLUTIONS[start]
        values = solution.action_values(game)
        return {int(action): float(values[action]) for action in game.legal_actions()}
    with _SOLVING:
        if game_name == "paye":
            return {action: shares[seat]
                    for action, shares in paye_exact.action_values(game).items()}
        if game_name == "pasch":
            return pasch_exact.action_values(pasch_encode(game, seat), game.legal_mask())
    raise ValueError(why_not(game_name, game) or f"no exact hints for {game_name}")
