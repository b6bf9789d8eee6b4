"""What a command's work cost, for the line its results end with: wall time, CPU (this
process's and that of the worker processes it waited for, such as a pool's per-seat passes)
and peak resident memory (this process's and its largest worker's).

The operating system keeps one peak for all the children a process waited for, the largest
one's, so a run of ``--workers N`` held at most this process's peak plus ``N`` times its
largest worker's at once. Ray's workers are not this process's children: a run on Ray counts
this process only.
"""

from __future__ import annotations

import resource
import sys
import time
from dataclasses import dataclass, field


def peak_bytes(who: int = resource.RUSAGE_SELF) -> int:
    """Peak resident memory in bytes of this process (``RUSAGE_SELF``) or of its largest
    waited-for child (``RUSAGE_CHILDREN``); Linux reports kB, macOS bytes."""
    peak = resource.getrusage(who).ru_maxrss
    return peak if sys.platform == "darwin" else peak * 1024


def _cpu_seconds() -> float:
    return sum(usage.ru_utime + usage.ru_stime for usage in
               map(resource.getrusage, (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)))


@dataclass(frozen=True)
class Usage:
    """The clocks at the start of the work (``Usage()``); ``record`` and ``line`` measure
    from there."""

    began: float = field(default_factory=time.perf_counter)
    cpu: float = field(default_factory=_cpu_seconds)

    def record(self) -> dict[str, float]:
        """``seconds``, ``cpu_seconds``, ``peak_bytes`` and ``worker_peak_bytes`` (0 without
        workers) so far."""
        return {"seconds": time.perf_counter() - self.began,
                "cpu_seconds": _cpu_seconds() - self.cpu,
                "peak_bytes": peak_bytes(), "worker_peak_bytes":
                peak_bytes(resource.RUSAGE_CHILDREN)}

    def line(self, used: dict[str, float] | None = None, decimals: int = 1) -> str:
        """``computed in 12.3 s (24.1 s of CPU); peak memory 0.4 GB, its largest worker
        3.4 GB``: of ``used`` (a ``record``), or so far; ``decimals`` more for work of
        fractions of a second."""
        used = used or self.record()
        d = decimals
        worker = (f", its largest worker {used['worker_peak_bytes'] / 1e9:.{d}f} GB"
                  if used["worker_peak_bytes"] else "")
        return (f"computed in {used['seconds']:.{d}f} s ({used['cpu_seconds']:.{d}f} s of "
                f"CPU); peak memory {used['peak_bytes'] / 1e9:.{d}f} GB{worker}")
