"""The exact solver: the equilibrium at 2–4 players, exact evaluation, NashConv, best responses.

``solve(num_players, cards)`` gives the subgame-perfect equilibrium of a table (each seat
maximises its own win probability; see ``equilibrium``), ``exact_evaluate`` every seat's
exact win probability under any profile of policies and ``nash_conv`` how far a profile is
from equilibrium. ``cost.check_size`` refuses a table beyond memory or time at once.

``solve_two_player(cards)`` solves every two-player position by backward induction over card
counts (see ``model``); ``load_or_solve`` caches the result on disk (``cache_path``);
``best_response``, ``win_probabilities``, ``expected_rounds`` and ``exploitability`` measure
any policy exactly on the observations the environment gives it; ``multi.best_response_multi``
is the exact best response of one seat against fixed opponents at 3–4-player tables. The
``pagadores solve`` and ``pagadores best-response`` commands live in ``pagadores_cli``.
"""

from __future__ import annotations

from .cost import check_size, memory_limit, solve_cost, within_limits
from .decisions import (
    Decision,
    decision_from_game,
    decode_batch,
    encode_decisions,
)
from .equilibrium import (
    NashConv,
    Solution,
    exact_evaluate,
    exact_evaluate_starts,
    nash_conv,
    solve,
)
from .model import PolicyTable, Tables, backward, backward_rounds
from .passes import profile_players
from .response import (
    BestResponse,
    Match,
    TablePolicy,
    best_response,
    expected_rounds,
    exploitability,
    policy_table,
    win_probabilities,
)
from .table_play import SweepPolicy, symmetric
from .two_player import (
    TwoPlayerSolution,
    cache_dir,
    cache_path,
    cached,
    load_or_solve,
    solve_two_player,
)

__all__ = [
    "BestResponse", "Decision", "Match", "NashConv", "PolicyTable", "Solution", "SweepPolicy",
    "TablePolicy", "Tables", "TwoPlayerSolution",
    "backward", "backward_rounds", "best_response", "cache_dir", "cache_path", "cached",
    "check_size", "decision_from_game", "decode_batch", "encode_decisions", "exact_evaluate",
    "exact_evaluate_starts",
    "expected_rounds", "exploitability", "load_or_solve", "memory_limit", "nash_conv",
    "policy_table", "profile_players", "solve", "solve_cost", "solve_two_player", "symmetric",
    "win_probabilities", "within_limits",
]
