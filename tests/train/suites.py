"""Benchmark suites on disk, shared by the benchmark's tests (``tests/train``) and those of the
``pagadores benchmark`` command (``tests/cli``). Needs pyyaml (the ``train`` extra)."""

from __future__ import annotations

from pathlib import Path

import yaml

#: The smoke suite: 2 algorithms x 2 tasks x 2 seeds of tiny trials.
SMOKE = Path(__file__).resolve().parents[2] / "configs" / "benchmark" / "smoke.yaml"
#: A valid one-trial suite and its task, for the refusals to change one key of.
GOOD = {"tasks": ["t"], "seeds": [0], "algorithms": {"A2C": {"n_envs": 2}}}
TASK = {"num_players": 2, "cards": 3, "opponents": ["sensible"], "budget": 64,
        "score": "exact-best-response"}


def write_suite(folder: Path, suite: dict, task: dict | None = None) -> Path:
    (folder / "tasks").mkdir(parents=True, exist_ok=True)
    (folder / "tasks" / "t.yaml").write_text(yaml.safe_dump(task or TASK))
    path = folder / "suite.yaml"
    path.write_text(yaml.safe_dump(suite) if isinstance(suite, dict) else suite)
    return path
