"""Reading processes from /proc (Linux), for the tests that kill a command outright and check
that nothing it started works on for nobody (``core.pool.end_with_parent``)."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

#: Whether this system shows processes in /proc (the tests that read them skip without it).
HAS_PROC = Path("/proc/self/stat").exists()


def children(parent: int, marker: bytes) -> list[int]:
    """The pids of ``parent``'s child processes whose command line holds ``marker``."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            ppid = int(stat.read_text().rsplit(")", 1)[1].split()[1])
            cmdline = (stat.parent / "cmdline").read_bytes()
        except (OSError, IndexError, ValueError):  # gone while we looked
            continue
        if ppid == parent and marker in cmdline:
            found.append(int(stat.parent.name))
    return found


def running(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie has ended)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def within(seconds: float, condition: Callable[[], Any]) -> Any:
    """``condition()``'s first true result within ``seconds`` (polled), else its last."""
    deadline = time.monotonic() + seconds
    while not (result := condition()) and time.monotonic() < deadline:
        time.sleep(0.2)
    return result


def kill_once_started(command: Sequence[str], marker: bytes, seconds: float) -> list[int]:
    """Run ``command``, kill it outright (SIGKILL: no chance to stop anything it started) once
    it has children whose command line holds ``marker`` (within ``seconds``), and return
    those children's pids; fails if it started none."""
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        started = within(seconds, lambda: children(process.pid, marker))
        assert started, f"{command[2]} started no process with {marker!r}"
    finally:
        process.kill()
        process.wait()
    return started
