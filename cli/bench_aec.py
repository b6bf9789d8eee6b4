"""Benchmark section ``aec`` (run through ``pagadores bench``).

Agent steps per second of the PettingZoo AEC envs of every game of the table of games
(``pagadores_v1``, ``perudo_v1``, ``paye_v1``, ``pasch_v1``: each game's entry module
``pagadores_env.GAME_v1``), driven the way learners drive them — ``agent_iter()``,
``last()``, a uniformly random legal action from the action mask (``None`` for a terminated
agent), ``step()`` — over full games, for 2, 4 and 6 players, through the full wrapper
stack (``env()``) and raw (``raw_env``). PettingZoo's own ``tictactoe_v3`` driven by the same
loop is the anchor the env is compared with. Every ``step()`` counts, dead steps included.
Each case runs in several short rounds interleaved with the others, and the best round
counts, so a busy machine disturbs all cases alike.
"""

from __future__ import annotations

import argparse
import importlib
import random
import time
from collections.abc import Callable
from functools import partial
from types import ModuleType
from typing import Any

import numpy as np

from pagadores_env.core.games import GAME_SPECS

AEC_PLAYERS = (2, 4, 6)
#: ``aec_agent_steps_per_s`` is Pagadores' wrapped 4-player rate, ``GAME_aec_agent_steps_per_s``
#: another game's
HEADLINE_PLAYERS = 4
#: ``Driver``: plays whole games of an env until ``seconds`` have passed (``drive_aec``).
Driver = Callable[[Any, float, int], dict[str, float]]


def aec_module(game: str) -> ModuleType:
    """The PettingZoo entry module of ``game`` (``pagadores_env.GAME_v1``: ``env``,
    ``raw_env``)."""
    return importlib.import_module(f"pagadores_env.{game}_v1")


def drive_aec(env: Any, seconds: float, seed: int) -> dict[str, float]:
    """Play whole games with random legal actions until ``seconds`` have passed."""
    pick = random.Random(seed)
    env.reset(seed=seed)
    steps = games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _agent in env.agent_iter():
            obs, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                action = None
            else:
                legal = np.flatnonzero(obs["action_mask"])
                action = int(legal[pick.randrange(len(legal))])
            env.step(action)
            steps += 1
        games += 1
        if time.perf_counter() >= deadline:
            break
        env.reset()
    elapsed = time.perf_counter() - start
    return {"agent_steps": steps, "games": games, "seconds": elapsed,
            "agent_steps_per_s": steps / elapsed}


def _tictactoe() -> Callable[[], Any]:
    """PettingZoo's tictactoe_v3 ``env`` factory (raises ImportError if it cannot load)."""
    from pettingzoo.classic import tictactoe_v3  # needs pygame

    return tictactoe_v3.env


def best_of_rounds(cases: dict[str, Callable[[], Any]], seconds: float, rounds: int,
                   seed: int, drive: Driver = drive_aec) -> dict[str, dict[str, float]]:
    """Run every case ``rounds`` times for ``seconds / rounds`` each with ``drive``,
    interleaved; keep each case's fastest round (and its total steps and games over all
    rounds)."""
    envs = {name: make() for name, make in cases.items()}
    best: dict[str, dict[str, float]] = {}
    for r in range(rounds):
        for name, env in envs.items():
            result = drive(env, seconds / rounds, seed + r)
            kept = best.setdefault(name, {**result, "total_steps": 0, "total_games": 0})
            if result["agent_steps_per_s"] > kept["agent_steps_per_s"]:
                kept.update(result)
            kept["total_steps"] += result["agent_steps"]
            kept["total_games"] += result["games"]
    return best


def aec_section(options: argparse.Namespace) -> dict[str, Any]:
    """Agent steps per second of every game's AEC env (2/4/6 players, env() and raw_env)
    and tictactoe_v3."""
    cases: dict[str, Callable[[], Any]] = {}
    meta: dict[str, tuple[str, int, str]] = {}
    for game in GAME_SPECS:
        env_name, module = f"{game}_v1", aec_module(game)
        for players in AEC_PLAYERS:
            for stack, factory in (("env()", module.env), ("raw_env", module.raw_env)):
                name = f"{env_name}/{players}p/{stack}"
                cases[name] = partial(factory, num_players=players)
                meta[name] = (env_name, players, stack)
    anchor_error = None
    try:
        cases["tictactoe_v3"] = _tictactoe()
        meta["tictactoe_v3"] = ("tictactoe_v3", 2, "env()")
    except ImportError as err:
        anchor_error = f"tictactoe_v3 not measured: {err} (it needs pygame, not installed)"
    results = best_of_rounds(cases, options.seconds, options.rounds, options.seed)
    anchor = results.get("tictactoe_v3", {}).get("agent_steps_per_s")
    rows = []
    for name, result in results.items():
        env_name, players, stack = meta[name]
        rate = result["agent_steps_per_s"]
        rows.append({
            "env": env_name, "players": players, "stack": stack,
            "steps/s": f"{rate:,.0f}",
            "steps/game": f"{result['total_steps'] / result['total_games']:.1f}",
            "vs tictactoe": f"{rate / anchor:.2f}x" if anchor else "n/a",
        })
    rates = {name: round(result["agent_steps_per_s"]) for name, result in results.items()}
    summary = {
        "aec_agent_steps_per_s": rates[f"pagadores_v1/{HEADLINE_PLAYERS}p/env()"],
        **{f"{game}_aec_agent_steps_per_s": rates[f"{game}_v1/{HEADLINE_PLAYERS}p/env()"]
           for game in GAME_SPECS if game != "pagadores"},
        "aec_rates": rates,
        "tictactoe_v3_agent_steps_per_s": round(anchor) if anchor else None,
        "aec_2p_vs_tictactoe": round(rates["pagadores_v1/2p/env()"] / anchor, 2)
        if anchor else None,
    }
    notes = [anchor_error] if anchor_error else []
    return {
        "title": (f"AEC agent steps per second (random legal actions over full games; best "
                  f"of {options.rounds} rounds of {options.seconds / options.rounds:.2f} s)"),
        "columns": ["env", "players", "stack", "steps/s", "steps/game", "vs tictactoe"],
        "rows": rows, "summary": summary, "notes": notes,
    }
