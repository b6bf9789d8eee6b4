"""Batch evaluation: many games of fixed policies on ``VectorGame``, seats rotated.

``evaluate_batch(["sensible", "random"], num_players=2, num_games=100_000)`` plays every game
to its end (no auto-reset, so long games are not cut off) with each decision made by the
policy sitting in the deciding seat, through its ``act_batch``. Game ``j`` seats lineup
entry ``k`` in seat ``(k + j) % num_players``, so every policy plays every seat equally often
and the first-insteker advantage (R3.1) cancels out.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..policies import Policy, make_policy
from .game import VectorGame


def evaluate_batch(policies: Sequence[str | Policy], num_players: int, num_games: int,
                   seed: int | None = 0, cards: int | Sequence[int] = 10,
                   chunk: int = 65_536) -> dict[str, Any]:
    """Play ``num_games`` games of the lineup ``policies`` (one per seat, rotated per game).

    Returns per lineup entry ``win_rate`` and ``mean_place`` (1 = winner), the
    ``win_rate_by_seat`` matrix (entry × seat), ``mean_rounds``, ``games``, and the wall-clock
    ``seconds`` and ``cpu_seconds`` it took.
    """
    if len(policies) != num_players:
        raise ValueError(f"policies must list one policy per seat ({num_players}), "
                         f"got {len(policies)}")
    if not isinstance(num_games, int) or num_games < 1:
        raise ValueError(f"num_games must be a positive integer, got {num_games!r}")
    if not isinstance(chunk, int) or chunk < 1:
        raise ValueError(f"chunk must be a positive integer, got {chunk!r}")
    seeds = np.random.SeedSequence(seed).spawn(num_players + 1)
    players = [make_policy(p, seed=int(s.generate_state(1)[0]))
               for p, s in zip(policies, seeds, strict=False)]
    dice_rng = np.random.default_rng(seeds[-1])
    n = num_players
    wins = np.zeros((n, n), np.int64)  # lineup entry × seat
    seated = np.zeros((n, n), np.int64)
    place_sum = np.zeros(n, np.int64)
    rounds = 0
    start, cpu = time.perf_counter(), time.process_time()
    for first in range(0, num_games, chunk):
        size = min(chunk, num_games - first)
        game_ids = first + np.arange(size)
        # entry_of[i, s]: the lineup entry in seat s of game i
        entry_of = (np.arange(n)[None, :] - game_ids[:, None]) % n
        vg = VectorGame(size, n, cards, dice_rng, auto_reset=False)
        _play_out(vg, players, entry_of)
        winner_entry = entry_of[np.arange(size), vg.winner]
        np.add.at(wins, (winner_entry, vg.winner), 1)
        np.add.at(seated, (entry_of.ravel(), np.tile(np.arange(n), size)), 1)
        np.add.at(place_sum, entry_of.ravel(), vg.placements().ravel())
        rounds += int(vg.round.sum())
    per_entry = seated.sum(axis=1)
    return {
        "policies": [str(p) for p in policies],
        "num_players": n,
        "games": num_games,
        "win_rate": (wins.sum(axis=1) / per_entry).tolist(),
        "mean_place": (place_sum / per_entry).tolist(),
        "win_rate_by_seat": (wins / np.maximum(seated, 1)).tolist(),
        "mean_rounds": rounds / num_games,
        "seconds": time.perf_counter() - start,
        "cpu_seconds": time.process_time() - cpu,
    }


def _play_out(vg: VectorGame, players: list[Policy], entry_of: np.ndarray) -> None:
    """Let the seated policies decide until every game is over."""
    while True:
        rows = np.flatnonzero(vg.decision)
        if not rows.size:
            return
        who = entry_of[rows, vg.seat[rows]]
        obs = vg.observations(rows)
        actions = np.zeros(rows.size, np.int64)
        masks = np.ones((rows.size, 2), bool)  # R3.6: both actions legal at every decision
        for k, player in enumerate(players):
            mine = who == k
            if mine.any():
                actions[mine] = _act_batch(player, obs[mine], masks[mine])
        vg.step(actions, rows)


def _act_batch(player: Policy, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
    if hasattr(player, "act_batch"):
        return np.asarray(player.act_batch(obs, masks))
    return np.array([player.act(o, m) for o, m in zip(obs, masks, strict=True)])
