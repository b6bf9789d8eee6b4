"""``core.pool``: work in spawned processes; each worker's part of the memory; Ctrl-C ends
the calls that keep nothing at once."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from pagadores_env.core.pool import MEMORY_PART, in_pool, memory_part
from pagadores_env.pagadores.solver.cost import memory_limit


def test_workers_share_the_memory_of_the_process_that_started_them(monkeypatch) -> None:
    assert MEMORY_PART not in os.environ and memory_part() == 1.0
    parts = list(in_pool(memory_part, [(), (), ()], workers=2))
    assert parts == [0.5, 0.5, 0.5]
    assert MEMORY_PART not in os.environ  # this process keeps all of its own
    whole = memory_limit()
    monkeypatch.setenv(MEMORY_PART, "0.5")  # what a worker of two sees
    assert abs(memory_limit() - whole / 2) <= 1e6  # the size limits scale with it


def test_a_bad_part_counts_as_the_whole(monkeypatch) -> None:
    for text in ("0", "-1", "2", "half"):
        monkeypatch.setenv(MEMORY_PART, text)
        assert memory_part() == 1.0
    monkeypatch.setenv(MEMORY_PART, "0.25")
    assert memory_part() == 0.25


def _sleeper(path: str, seconds: float) -> int:
    """Say this worker's pid in ``path``, then sleep."""
    Path(path).write_text(str(os.getpid()))
    time.sleep(seconds)
    return os.getpid()


def test_leaving_a_pool_of_calls_that_keep_nothing_ends_the_running_ones_at_once(
        tmp_path: Path) -> None:
    quick, slow = tmp_path / "quick", tmp_path / "slow"
    found = in_pool(_sleeper, [(str(quick), 0.0), (str(slow), 120.0)], 2,
                    finish_running=False)
    assert next(found) == int(quick.read_text())
    while not slow.exists():
        time.sleep(0.05)
    began = time.perf_counter()
    found.close()  # what Ctrl-C does to the loop over the results
    assert time.perf_counter() - began < 60  # ended, not waited for (it sleeps 120 s)
    with pytest.raises(ProcessLookupError):  # and reaped
        os.kill(int(slow.read_text()), 0)
