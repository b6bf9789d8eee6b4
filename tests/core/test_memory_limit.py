"""The memory a solve may use is the least this process may have: the machine's, its control
group's (a container's or batch scheduler's ``memory.max``), its address space (``ulimit
-v``) less what it maps already; ``SHARE`` of it (the rest is the margin). Its home is
``core.memory``; Pagadores' solver re-exports it from ``solver.cost``, where it was first."""

from __future__ import annotations

import subprocess
import sys

import pytest

from pagadores_env.core import memory
from pagadores_env.pagadores.solver import cost


@pytest.mark.parametrize(("proc", "where", "text", "expected"), [
    ("0::/job\n", ("v2", "memory.max"), "4000000000\n", 4_000_000_000),
    ("0::/job\n", ("v2", "memory.max"), "max\n", None),
    ("4:memory:/job\n0::/\n", ("v1", "memory.limit_in_bytes"), "2000000000\n", 2_000_000_000),
    ("4:memory:/job\n", ("v1", "memory.limit_in_bytes"), "9223372036854771712\n", None),
    ("1:cpu:/job\n", ("v1", "memory.limit_in_bytes"), "2000000000\n", None),  # no memory group
])
def test_the_control_groups_limit_is_read(proc, where, text, expected, tmp_path,
                                          monkeypatch) -> None:
    roots = {"v2": tmp_path / "v2", "v1": tmp_path / "v1"}
    monkeypatch.setattr(memory, "CGROUP_FILES", ((str(roots["v2"]), "memory.max"),
                                               (str(roots["v1"]), "memory.limit_in_bytes")))
    folder = roots[where[0]] / "job"
    folder.mkdir(parents=True)
    (folder / where[1]).write_text(text)
    (tmp_path / "cgroup").write_text(proc)
    assert memory.cgroup_limit(str(tmp_path / "cgroup")) == expected


def test_the_solvers_cost_module_re_exports_the_core_limit() -> None:
    assert cost.memory_limit is memory.memory_limit and cost.SHARE == memory.SHARE
    assert cost.cgroup_limit is memory.cgroup_limit


def test_a_control_group_below_the_machine_sets_the_limit(monkeypatch) -> None:
    monkeypatch.setattr(memory, "cgroup_limit", lambda: 2 * 10**9)
    assert memory.memory_limit() == int(memory.SHARE * 2 * 10**9)
    monkeypatch.setattr(memory, "cgroup_limit", lambda: None)
    assert memory.memory_limit() > memory.SHARE * 2 * 10**9  # this machine has more


@pytest.mark.skipif(sys.platform != "linux", reason="ulimit -v and /proc are Linux's")
def test_under_ulimit_v_a_table_too_big_is_refused_at_once_in_one_line() -> None:
    """Issue 27: with ``ulimit -v 2000000`` the 4-player 7-card solve was accepted and died
    in a numpy MemoryError traceback; the address space already mapped counts too."""
    done = subprocess.run(
        ["bash", "-c", f"ulimit -v 2000000; exec {sys.executable} -m pagadores_cli.solve "
                       f"--players 4 --cards 7 --force --no-progress"],
        capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "too big to solve exactly" in done.stderr
    assert "Traceback" not in done.stderr
