"""Benchmark section ``gym`` (run through ``pagadores bench``).

Learner steps per second of every game's Gymnasium env (``Pagadores-v1``, ``Perudo-v1``,
``Paye-v1``, ``Pasch-v1``: ``GameSpec.gym_id`` of the table of games) as ``gymnasium.make``
gives it, at 2, 4 and 6 players against the game's default scripted opponent
(``GameSpec.opponent``, which plays every other seat), the learner choosing uniformly among
the legal actions of ``info["action_mask"]``, over whole episodes (reset at each end). A step
is one learner decision with everything up to its next one: the opponents' decisions and all
the throws in between, so the rate is what a single-env SB3 learner is fed at most. Cases run
in interleaved rounds and the best round counts (``bench_aec.best_of_rounds``).
``GAME_gym_steps_per_s`` is a game's 4-player rate; ``gym_rates`` has every case.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from functools import partial
from typing import Any

import gymnasium
import numpy as np

from pagadores_env.core.games import GAME_SPECS

from .bench_aec import AEC_PLAYERS, HEADLINE_PLAYERS, best_of_rounds


def drive_gym(env: gymnasium.Env, seconds: float, seed: int) -> dict[str, float]:
    """Play whole episodes of ``env`` with random legal learner actions until ``seconds``
    have passed (``bench_aec.drive_aec``'s result keys: the learner is the one agent)."""
    pick = random.Random(seed)
    _obs, info = env.reset(seed=seed)
    steps = games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        legal = np.flatnonzero(info["action_mask"])
        _obs, _reward, terminated, truncated, info = env.step(
            int(legal[pick.randrange(len(legal))]))
        steps += 1
        if terminated or truncated:
            games += 1
            if time.perf_counter() >= deadline:
                break
            _obs, info = env.reset()
    elapsed = time.perf_counter() - start
    return {"agent_steps": steps, "games": games, "seconds": elapsed,
            "agent_steps_per_s": steps / elapsed}


def gym_section(options: argparse.Namespace) -> dict[str, Any]:
    """Learner steps per second of every game's Gymnasium env (2/4/6 players)."""
    cases: dict[str, Callable[[], Any]] = {}
    meta: dict[str, tuple[str, int, str]] = {}
    for spec in GAME_SPECS.values():
        for players in AEC_PLAYERS:
            name = f"{spec.gym_id}/{players}p"
            cases[name] = partial(gymnasium.make, spec.gym_id, num_players=players,
                                  opponents=[spec.opponent])
            meta[name] = (spec.gym_id, players, spec.opponent)
    results = best_of_rounds(cases, options.seconds, options.rounds, options.seed,
                             drive=drive_gym)
    rows = [{"env": meta[name][0], "players": meta[name][1], "opponents": meta[name][2],
             "steps/s": f"{result['agent_steps_per_s']:,.0f}",
             "steps/game": f"{result['total_steps'] / result['total_games']:.1f}"}
            for name, result in results.items()]
    rates = {name: round(result["agent_steps_per_s"]) for name, result in results.items()}
    summary: dict[str, Any] = {
        f"{game}_gym_steps_per_s": rates[f"{spec.gym_id}/{HEADLINE_PLAYERS}p"]
        for game, spec in GAME_SPECS.items()}
    summary["gym_rates"] = rates
    return {
        "title": (f"Gymnasium learner steps per second (random legal learner actions over "
                  f"full episodes, the game's scripted opponent in the other seats; best of "
                  f"{options.rounds} rounds of {options.seconds / options.rounds:.2f} s)"),
        "columns": ["env", "players", "opponents", "steps/s", "steps/game"],
        "rows": rows, "summary": summary, "notes": [],
    }
