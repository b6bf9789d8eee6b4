"""The exact solver: optimal two-player play, best responses and exploitability.

``solve_two_player(cards)`` solves every two-player position by backward induction over card
counts (see ``model``); ``load_or_solve`` caches the result on disk (``cache_path``);
``best_response``, ``win_probabilities``, ``expected_rounds`` and ``exploitability`` measure
any policy exactly on the observations the environment gives it; ``multi.best_response_multi``
is the exact best response of one seat against fixed opponents at 3–4-player tables. The
``pagadores solve`` and ``pagadores best-response`` commands live in ``pagadores_cli``.
"""

from __future__ import annotations

from .decisions import Decision, decision_from_game, decode_batch, encode_decisions
from .model import PolicyTable, Tables, backward, backward_rounds
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
from .two_player import (
    TwoPlayerSolution,
    cache_dir,
    cache_path,
    cached,
    load_or_solve,
    solve_two_player,
)

__all__ = [
    "BestResponse", "Decision", "Match", "PolicyTable", "TablePolicy", "Tables",
    "TwoPlayerSolution",
    "backward", "backward_rounds", "best_response", "cache_dir", "cache_path", "cached",
    "decision_from_game", "decode_batch", "encode_decisions", "expected_rounds", "exploitability",
    "load_or_solve", "policy_table", "solve_two_player", "win_probabilities",
]
