"""``core.pool``: work in spawned processes; each worker's part of the memory."""

from __future__ import annotations

import os

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
