"""``pagadores bench``: each section runs and prints its numbers (the numbers are not judged:
no test asserts a time). The AEC section plays PettingZoo's tictactoe_v3, which needs pygame."""

from __future__ import annotations

import json

import gymnasium
import pytest

from pagadores_cli import bench
from pagadores_cli.bench_gym import drive_gym
from pagadores_cli.bench_vector import vector_decisions

GAMES = ("pagadores", "perudo", "paye", "pasch")
GYM_IDS = ("Pagadores-v1", "Perudo-v1", "Paye-v1", "Pasch-v1")


def test_bench_main_prints_the_headline_json(capsys):
    assert bench.main(["--section", "aec", "--json", "--seconds", "0.02", "--rounds", "1"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["aec_agent_steps_per_s"] > 0
    assert all(result[f"{game}_aec_agent_steps_per_s"] > 0 for game in GAMES[1:])
    assert set(result["aec_rates"]) >= {f"{game}_v1/{n}p/{s}" for game in GAMES
                                        for n in (2, 4, 6) for s in ("env()", "raw_env")}


def test_bench_table_lists_every_case(capsys):
    assert bench.main(["--section", "aec", "--seconds", "0.02", "--rounds", "1"]) == 0
    out = capsys.readouterr().out
    assert all(out.count(f"{game}_v1 ") == 6 for game in GAMES) and "steps/s" in out


def test_bench_gym_reports_every_games_gymnasium_env(capsys: pytest.CaptureFixture[str]) -> None:
    """``make bench``'s gym section: each game's Gymnasium env at 2, 4 and 6 players, in the
    table and in the JSON, Paye's and Pasch's beside the others."""
    assert bench.main(["--section", "gym", "--json", "--seconds", "0.02", "--rounds", "1"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert all(result[f"{game}_gym_steps_per_s"] > 0 for game in GAMES)
    assert set(result["gym_rates"]) == {f"{env}/{n}p" for env in GYM_IDS for n in (2, 4, 6)}
    assert all(rate > 0 for rate in result["gym_rates"].values())
    assert bench.main(["--section", "gym", "--seconds", "0.02", "--rounds", "1"]) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines()[2:]]
    assert [(row[0], row[1], row[2]) for row in rows] == [
        (env, str(n), opponent) for env, opponent in zip(
            GYM_IDS, ("sensible", "probabilistic", "sensible", "greedy"), strict=True)
        for n in (2, 4, 6)]


def test_drive_gym_counts_the_learners_steps_over_whole_episodes() -> None:
    """Paye's base game at 2 players gives the learner one decision a turn for at most 10
    rounds (Y2.2, Y3.1): whole episodes of 1–10 learner steps, whatever the opponent does."""
    env = gymnasium.make("Paye-v1", num_players=2, opponents=["sensible"])
    result = drive_gym(env, 0.05, seed=0)
    assert result["games"] >= 1
    assert result["games"] <= result["agent_steps"] <= 10 * result["games"]
    assert result["agent_steps_per_s"] == result["agent_steps"] / result["seconds"]


def test_bench_measures_the_aec_speed_anchor(capsys: pytest.CaptureFixture[str]) -> None:
    """``make bench``'s reference: PettingZoo's tictactoe_v3 driven by the same loop."""
    pytest.importorskip("pygame")
    assert bench.main(["--section", "aec", "--json", "--seconds", "0.02", "--rounds", "1"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["tictactoe_v3_agent_steps_per_s"] > 0 and result["aec_2p_vs_tictactoe"] > 0


def test_bench_vector_reports_numbers(capsys: pytest.CaptureFixture[str]) -> None:
    """The benchmark script runs and prints its summary as JSON (numbers not judged here)."""
    assert bench.main(["--section", "evaluate", "--games", "300", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["evaluate_2p_seconds"] > 0 and summary["evaluate_4p_cpu_seconds"] > 0
    count, wall, cpu = vector_decisions(8, 3, seed=0)(0.01)
    assert count % (16 * 8) == 0 and count > 0 and wall > 0 and cpu >= 0
