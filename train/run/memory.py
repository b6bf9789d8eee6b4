"""What a training run needs of memory, measured, and the check every trainer makes before it
touches its run folder (``check_memory``), so that a limit too small for training is refused
at once in one line instead of a run dying halfway, after taking over its folder (under
``ulimit -v 1000000`` a run died in OpenBLAS's "Memory allocation still failed after 10
retries, giving up", or in a ``MemoryError`` deep in an evaluation).

The numbers are ``pagadores train configs/default.yaml`` (the main job: MaskablePPO on 64 batch
envs, evaluations with the exact yardstick) measured on Linux with Python 3.11 and torch's CPU
build: without a limit it peaked at 1.24 GB of address space (``VmPeak``) and 0.62 GB resident
(``VmHWM``, what ``/usr/bin/time -v`` reports as its maximum resident set); under ``ulimit -v``
it ran at 1,203,125 kB and failed at 1,187,500 kB (bisected), in its first evaluation's exact
yardstick. The imports alone (torch, stable-baselines3, numba) map 0.84 GB. The limits below
round those up; a bigger network, more environments or a bigger table need more.
"""

from __future__ import annotations

import math
import os

from pagadores_env.core.memory import cgroup_limit

from .folder import RunError

#: Address space a training process needs (bytes; ``ulimit -v`` counts KiB): the measured
#: minimum (1.23 GB) rounded up.
ADDRESS_SPACE = 1_300_000_000
#: Memory a training process needs resident (bytes): the measured peak (0.62 GB) rounded up.
RESIDENT = 700_000_000


def address_space_allowed() -> int | None:
    """The address space this process may map (``ulimit -v``, in bytes); None if unlimited
    (or unknown: no POSIX ``resource``)."""
    try:
        import resource
    except ImportError:
        return None
    allowed = resource.getrlimit(resource.RLIMIT_AS)[0]
    return None if allowed == resource.RLIM_INFINITY else allowed


def memory_allowed() -> int | None:
    """The memory this process may keep resident: the least of the machine's and its control
    group's (a container's or a batch scheduler's ``memory.max``); None if unknown."""
    try:
        machine: int | None = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        machine = None
    found = [limit for limit in (machine, cgroup_limit()) if limit is not None]
    return min(found, default=None)


def check_memory() -> None:
    """``RunError`` in one line if this process may have less than a training run needs
    (``ADDRESS_SPACE``, ``RESIDENT``): checked before a run touches its folder."""
    allowed = address_space_allowed()
    if allowed is not None and allowed < ADDRESS_SPACE:
        raise RunError(
            f"this process may map {allowed / 1e9:.2f} GB (ulimit -v {allowed // 1024}), less "
            f"than the {ADDRESS_SPACE / 1e9:.1f} GB of address space a training run needs; "
            f"raise the limit (ulimit -v {math.ceil(ADDRESS_SPACE / 1024)} or more) or lift "
            "it (ulimit -v unlimited)")
    memory = memory_allowed()
    if memory is not None and memory < RESIDENT:
        raise RunError(
            f"this process may keep {memory / 1e9:.2f} GB in memory (the machine's or its "
            f"container's limit), less than the {RESIDENT / 1e9:.1f} GB a training run needs")
