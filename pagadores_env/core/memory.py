"""How much memory this process may use, read before any big work so that what cannot fit
is refused at once in one line instead of growing until the machine kills it.

The limit is the least of the machine's memory, the control group's limit (a container's or a
batch scheduler's ``memory.max``) and the address space ``ulimit -v`` leaves, less a margin
(``SHARE``), and, in a worker of a pool, that worker's part (``core.pool.memory_part``). Every
game's exact yardstick and the search players' budgets size themselves by it.
"""

from __future__ import annotations

import os
from pathlib import Path

from .pool import memory_part

#: Of the memory this process may use, the share a solve's arrays may take: the rest is the
#: margin for the interpreter, numpy's and numba's compiled code, the policies and
#: fragmentation.
SHARE = 0.75
#: Where Linux says a control group's memory limit (cgroup v2, then v1), relative to the
#: group's folder; "max" or a huge number means none.
CGROUP_FILES = (("/sys/fs/cgroup", "memory.max"),
                ("/sys/fs/cgroup/memory", "memory.limit_in_bytes"))


def memory_limit() -> int:
    """Bytes a solve may use: ``SHARE`` of the least of what this process may have — the
    machine's memory (16 GB if unknown), its control group's limit (a container's or a batch
    scheduler's ``memory.max``), and the address space it is allowed (``ulimit -v``) less
    what it already maps — and, in a worker of a pool of several (``core.pool``), its part
    of that (``core.pool.memory_part``): the workers share the machine."""
    try:
        limits = [os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")]
    except (ValueError, OSError, AttributeError):
        limits = [64 * 10**9 // 3]
    limits += [group for group in (cgroup_limit(),) if group is not None]
    try:
        import resource  # POSIX only

        allowed = resource.getrlimit(resource.RLIMIT_AS)[0]
        if allowed != resource.RLIM_INFINITY:
            limits.append(max(0, allowed - mapped_bytes()))
    except (ImportError, ValueError, OSError):
        pass
    return int(SHARE * min(limits) * memory_part())


def cgroup_limit(proc: str = "/proc/self/cgroup") -> int | None:
    """The memory limit of this process's control group in bytes, or None if it has none
    (or this is no Linux)."""
    try:
        lines = Path(proc).read_text().splitlines()
    except OSError:
        return None
    groups = dict(line.split(":", 2)[1:] for line in lines if line.count(":") >= 2)
    found = []
    for (root, name), key in zip(CGROUP_FILES, ("", "memory"), strict=True):
        if key not in groups:
            continue
        try:
            text = (Path(root + groups[key].rstrip("/")) / name).read_text().strip()
        except OSError:
            continue
        if text.isdigit() and int(text) < 1 << 60:  # "max" or ~2**63: no limit
            found.append(int(text))
    return min(found, default=None)


def mapped_bytes() -> int:
    """The address space this process maps now (``VmSize``), 0 if unknown."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0
