"""Benchmark sections of the batch engine, run through ``pagadores bench``.

``vector``
    Decisions per second of ``VectorGame.step`` with uniformly random actions at batch 1, 64
    and 4096 for 2, 4 and 6 players (10 cards, auto-reset, so games run on forever); each
    step resolves all chance until every game waits at a decision again. The scalar
    ``engine.Game`` driven the same way (random decisions, dice from a generator) is the
    baseline, and so are the agent steps per second of the PettingZoo AEC env
    (``bench_aec.drive_aec``, 4 players; every agent step counts there, dead steps too).
    ``vector_decisions_per_s`` is batch 4096, 4 players; ``vector_vs_aec`` its ratio to the
    AEC rate.
``evaluate``
    Seconds for ``evaluate_batch`` to play 100,000 games heuristic vs heuristic.
``sb3``
    Environment steps per second of ``MaskablePPO.learn`` on ``PagadoresVecEnv`` and on a
    ``DummyVecEnv`` of ``Pagadores-v1`` with the same settings (the network's cost included),
    and of each env alone stepped with random learner actions. ``sb3_env_share`` is the
    fraction of ``learn()``'s time the ``PagadoresVecEnv`` takes (learn rate / env-only rate).

Each case runs in several short rounds and the best round counts, so a busy machine disturbs
the numbers less.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from pagadores_env import pagadores_v1
from pagadores_env.pagadores.engine import Game
from pagadores_env.pagadores.rules import THROWS
from pagadores_env.pagadores.vector import VectorGame, evaluate_batch

from .bench_aec import drive_aec

BATCHES = (1, 64, 4096)
PLAYERS = (2, 4, 6)
HEADLINE = (4096, 4)  # vector_decisions_per_s


Runner = Callable[[float], tuple[int, float, float]]


def best_rate(run: Runner, seconds: float, rounds: int) -> tuple[float, float]:
    """The best of ``rounds`` runs of ``seconds / rounds`` each, per wall-clock second and per
    CPU second of this process; ``run`` returns (count, wall s, CPU s)."""
    results = [run(seconds / rounds) for _ in range(rounds)]
    return (max(count / wall for count, wall, _ in results),
            max(count / cpu for count, _, cpu in results))


def timed(body: Callable[[], int], seconds: float) -> tuple[int, float, float]:
    """Repeat ``body`` (returning a count) for ``seconds``; (count, wall s, CPU s)."""
    count = 0
    start, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        count += body()
    return count, time.perf_counter() - start, time.process_time() - cpu


def vector_decisions(batch: int, players: int, seed: int) -> Runner:
    """A runner stepping a ``VectorGame`` with random actions for a given time."""
    game = VectorGame(batch, players, 10, seed)
    rng = np.random.default_rng(seed)

    def sixteen_steps() -> int:
        for row in rng.integers(0, 2, size=(16, batch)):
            game.step(row)  # every game waits at a decision (auto-reset)
        return 16 * batch

    return lambda seconds: timed(sixteen_steps, seconds)


def scalar_decisions(players: int, seed: int) -> Runner:
    """The same workload on the scalar engine: one ``Game`` at a time."""
    rng = np.random.default_rng(seed)

    def one_game() -> int:
        game = Game(players, 10)
        dice = rng.integers(0, len(THROWS), size=4096).tolist()
        choices = rng.integers(0, 2, size=4096).tolist()
        decisions = k = 0
        while not game.is_terminal():
            if game.decision:
                game.apply_action(choices[k % 4096])
                decisions += 1
            else:
                game.apply_throw(THROWS[dice[k % 4096]])
            k += 1
        return decisions

    return lambda seconds: timed(one_game, seconds)


def vector_section(options: argparse.Namespace) -> dict[str, Any]:
    """Decisions per second of the batch engine against the scalar engine."""
    rows, rates, cpu_rates = [], {}, {}
    for players in PLAYERS:
        scalar, scalar_cpu = best_rate(scalar_decisions(players, options.seed),
                                       options.seconds, options.rounds)
        rates[f"scalar/{players}p"] = round(scalar)
        cpu_rates[f"scalar/{players}p"] = round(scalar_cpu)
        rows.append({"engine": "engine.Game", "players": players, "batch": 1,
                     "decisions/s": f"{scalar:,.0f}", "per CPU s": f"{scalar_cpu:,.0f}",
                     "vs scalar": "1.0x"})
        for batch in BATCHES:
            rate, cpu = best_rate(vector_decisions(batch, players, options.seed),
                                  options.seconds, options.rounds)
            rates[f"vector/{players}p/{batch}"] = round(rate)
            cpu_rates[f"vector/{players}p/{batch}"] = round(cpu)
            rows.append({"engine": "VectorGame", "players": players, "batch": batch,
                         "decisions/s": f"{rate:,.0f}", "per CPU s": f"{cpu:,.0f}",
                         "vs scalar": f"{rate / scalar:.1f}x"})
    batch, players = HEADLINE
    headline = rates[f"vector/{players}p/{batch}"]
    aec_env = pagadores_v1.env(num_players=players)
    aec = max(drive_aec(aec_env, options.seconds / options.rounds, options.seed + r)
              ["agent_steps_per_s"] for r in range(options.rounds))
    rows.append({"engine": "pagadores_v1.env() agent steps", "players": players, "batch": 1,
                 "decisions/s": f"{aec:,.0f}", "per CPU s": "n/a", "vs scalar": "n/a"})
    return {
        "title": "Decisions per second, random actions, 10 cards (best of "
                 f"{options.rounds} rounds of {options.seconds / options.rounds:.2f} s)",
        "columns": ["engine", "players", "batch", "decisions/s", "per CPU s", "vs scalar"],
        "rows": rows,
        "summary": {
            "vector_decisions_per_s": headline,
            "vector_decisions_per_cpu_s": cpu_rates[f"vector/{players}p/{batch}"],
            "vector_vs_scalar": round(headline / rates[f"scalar/{players}p"], 1),
            "vector_vs_aec": round(headline / aec, 1),
            "vector_rates": rates,
            "vector_cpu_rates": cpu_rates,
        },
        "notes": [],
    }


EVAL_CASES = ((("sensible", "threshold:min_points=100"), 2),
              (("sensible", "stop-first", "threshold:min_points=100", "random"), 4))


def evaluate_section(options: argparse.Namespace) -> dict[str, Any]:
    """Seconds for 100,000 games of heuristics with ``evaluate_batch``."""
    rows, summary = [], {}
    for lineup, players in EVAL_CASES:
        result = evaluate_batch(list(lineup), players, options.games, seed=options.seed)
        rows.append({"lineup": " vs ".join(lineup), "games": f"{options.games:,}",
                     "seconds": f"{result['seconds']:.2f}",
                     "CPU seconds": f"{result['cpu_seconds']:.2f}",
                     "win rates": " ".join(f"{w:.3f}" for w in result["win_rate"])})
        summary[f"evaluate_{players}p_seconds"] = round(result["seconds"], 2)
        summary[f"evaluate_{players}p_cpu_seconds"] = round(result["cpu_seconds"], 2)
    return {"title": "evaluate_batch: whole games, seats rotated",
            "columns": ["lineup", "games", "seconds", "CPU seconds", "win rates"], "rows": rows,
            "summary": summary, "notes": []}


def env_steps_per_s(env: Any, seconds: float, seed: int) -> float:
    """Learner steps per second of a VecEnv stepped with random actions (no network)."""
    rng = np.random.default_rng(seed)
    env.reset()
    steps = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        env.step(rng.integers(0, 2, size=env.num_envs))
        steps += env.num_envs
    return steps / (time.process_time() - start)


def sb3_section(options: argparse.Namespace) -> dict[str, Any]:
    """MaskablePPO steps per second on the batch VecEnv and on DummyVecEnv(Pagadores-v1),
    and the environments alone."""
    import gymnasium as gym
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    import pagadores_env  # noqa: F401  (registers Pagadores-v1)
    from pagadores_env.pagadores.vec_env import PagadoresVecEnv
    from pagadores_train.run.algorithms import without_log_files

    envs, players, steps, n_steps = options.envs, 4, options.sb3_steps, 64
    settings = {"num_players": players, "cards": 10, "opponents": "sensible"}
    makers = {
        "PagadoresVecEnv": ("sb3_vec_env", lambda: PagadoresVecEnv(envs, seed=options.seed,
                                                                   **settings)),
        "DummyVecEnv(Pagadores-v1)": ("sb3_dummy_vec_env", lambda: DummyVecEnv(
            [lambda: gym.make("Pagadores-v1", **settings)] * envs)),
    }
    rows, summary, shares = [], {}, {}
    for name, (key, make) in makers.items():
        env = make()
        alone = env_steps_per_s(env, options.seconds, options.seed)
        model = without_log_files(MaskablePPO("MlpPolicy", env, n_steps=n_steps,
                                              batch_size=envs * n_steps, n_epochs=1,
                                              seed=options.seed, device="cpu"))
        model.learn(envs * n_steps)  # warm-up: first rollout and update
        start = time.perf_counter()
        model.learn(steps, reset_num_timesteps=False)
        rate = steps / (time.perf_counter() - start)
        rows.append({"env": name, "envs": envs, "learn steps/s": f"{rate:,.0f}",
                     "env-only steps/s": f"{alone:,.0f}"})
        summary[f"{key}_steps_per_s"] = round(rate)
        summary[f"{key}_env_only_steps_per_s"] = round(alone)
        shares[name] = min(rate / alone, 1.0)
    summary["sb3_vec_env_speedup"] = round(summary["sb3_vec_env_steps_per_s"]
                                           / summary["sb3_dummy_vec_env_steps_per_s"], 2)
    summary["sb3_env_share"] = round(shares["PagadoresVecEnv"], 3)
    return {"title": f"MaskablePPO.learn steps/s ({players} players vs 'sensible', {envs} envs, "
                     f"n_steps={n_steps}, one epoch, CPU); env-only: random learner actions",
            "columns": ["env", "envs", "learn steps/s", "env-only steps/s"], "rows": rows,
            "summary": summary,
            "notes": [f"{name}: the env takes about {share:.0%} of learn()'s time"
                      for name, share in shares.items()]}
