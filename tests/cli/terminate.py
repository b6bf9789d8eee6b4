"""Ending a ``pagadores`` command as ``timeout``, SLURM and ``docker stop`` do: SIGTERM to its
process (``terminate_when``), for the tests that it saves and stops as on Ctrl-C."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

from tests.processes import within


def terminate_when(argv: list[str], marker: str, folder: Path,
                   seconds: float = 300) -> tuple[int, str, str]:
    """Run ``pagadores argv`` in a subprocess, send it SIGTERM (what ``timeout``, SLURM and
    ``docker stop`` send) once its output (stdout or stderr) holds ``marker``, and return its
    exit status, stdout and stderr (kept in ``folder``)."""
    out, err = folder / "stdout.txt", folder / "stderr.txt"
    with out.open("wb") as stdout, err.open("wb") as stderr:
        process = subprocess.Popen([sys.executable, "-m", "pagadores_cli.main", *argv],
                                   stdout=stdout, stderr=stderr)
        try:
            said = within(seconds, lambda: marker in out.read_text() + err.read_text())
            assert said, f"no {marker!r} within {seconds} s: {err.read_text()[-2000:]}"
            process.send_signal(signal.SIGTERM)
            code = process.wait(timeout=seconds)
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
    return code, out.read_text(), err.read_text()
