"""``pagadores bench``: each section runs and prints its numbers (the numbers are not judged:
no test asserts a time). The AEC section plays PettingZoo's tictactoe_v3, which needs pygame."""

from __future__ import annotations

import json

import pytest

from pagadores_cli import bench
from pagadores_cli.bench_vector import vector_decisions


def test_bench_main_prints_the_headline_json(capsys):
    assert bench.main(["--section", "aec", "--json", "--seconds", "0.02", "--rounds", "1"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["aec_agent_steps_per_s"] > 0
    assert set(result["aec_rates"]) >= {f"pagadores_v1/{n}p/{s}" for n in (2, 4, 6)
                                        for s in ("env()", "raw_env")}


def test_bench_table_lists_every_case(capsys):
    assert bench.main(["--section", "aec", "--seconds", "0.02", "--rounds", "1"]) == 0
    out = capsys.readouterr().out
    assert out.count("pagadores_v1") == 6 and "steps/s" in out


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
