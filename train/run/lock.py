"""One run per folder: the lock a training run or a benchmark suite holds on its folder.

``hold_run_folder(folder)`` is held for the whole run. It creates ``folder/run.lock`` (and the
folder, if missing), takes an exclusive ``flock`` on it and writes who holds it: host, process
id, the process's start time and the command line. Another run on the same folder is refused
in one line naming that host, process and folder (``RunError``).

Why both a ``flock`` and the written holder: the kernel drops a ``flock`` when its process
dies however it dies (``kill -9`` included), so on one host a lock is never stale. A lock
file whose ``flock`` is free but which names a process of this host is what a killed run
left: it is taken over, with one line saying so. One that names another host may belong to a
run that is still going there (a shared file system, a Ray cluster's nodes) whose ``flock``
does not reach this host: it is only taken over with ``force`` (``--force``).

The lock file is removed when the run ends (also on an exception or Ctrl-C). A run refused or
failing before it starts leaves the folder as it found it: a folder the lock created is
removed again if nothing else was written into it.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import socket
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

LOCK = "run.lock"


class FolderInUse(ValueError):
    """The folder is held by another run (the message names it)."""


class CannotCreate(ValueError):
    """The folder cannot be created (the message says why): no run can hold it."""


def why_not(folder: Path, err: OSError) -> str:
    """Why ``folder`` could not be created (``err``), in words: the nearest part of its path
    that is there being a file, else the system's reason."""
    existing = folder
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if existing.exists() and not existing.is_dir():
        return f"{existing} is a file, not a folder"
    return err.strerror or str(err)


def process_start(pid: int) -> str | None:
    """When process ``pid`` started, as the kernel counts it (``/proc/<pid>/stat``, field 22),
    so a reused process id is not taken for the process that wrote a lock; None where there
    is no such process (or no ``/proc``)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat.rpartition(")")[2].split()[19]


def holder() -> dict[str, Any]:
    """This process, as a lock file records its holder."""
    return {"host": socket.gethostname(), "pid": os.getpid(),
            "started": process_start(os.getpid()),
            "since": time.strftime("%Y-%m-%d %H:%M:%S"),
            "command": " ".join(sys.argv)}


def alive(record: dict[str, Any]) -> bool:
    """Whether the process a lock record names still runs on this host."""
    pid = record.get("pid")
    if not isinstance(pid, int) or pid <= 0:
        return False
    start = process_start(pid)
    if start is not None:
        return record.get("started") in (None, start)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def describe(record: dict[str, Any]) -> str:
    """Who a lock record names, for a message."""
    since = f" since {record['since']}" if record.get("since") else ""
    return f"process {record.get('pid', '?')} on host {record.get('host', '?')}{since}"


def _read(fd: int) -> dict[str, Any] | None:
    """The record in an open lock file; None if it is empty or unreadable (a lock a run died
    writing: nobody to name)."""
    os.lseek(fd, 0, os.SEEK_SET)
    data = b""
    while chunk := os.read(fd, 65536):
        data += chunk
    try:
        record = json.loads(data.decode())
    except (UnicodeDecodeError, ValueError):
        return None
    return record if isinstance(record, dict) else None


def _acquire(path: Path, force: bool, what: str,
             say: Callable[[str], None]) -> int:
    """Open and lock ``path``; the file descriptor. ``FolderInUse`` if another run holds it."""
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as err:
            if err.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                os.close(fd)
                raise
            record = _read(fd) or {}
            os.close(fd)
            raise FolderInUse(f"{what} {path.parent} is in use by {describe(record)}; wait "
                              "for that run to end or use another folder") from None
        try:
            if os.stat(path).st_ino != os.fstat(fd).st_ino:  # removed by its holder meanwhile
                os.close(fd)
                continue
        except FileNotFoundError:
            os.close(fd)
            continue
        record = _read(fd)
        if record is not None and record.get("pid") != os.getpid():
            if record.get("host") != socket.gethostname() and not force:
                os.close(fd)
                raise FolderInUse(
                    f"{what} {path.parent} is locked by {describe(record)}, which this host "
                    "cannot check; if that run is gone, pass --force to take the folder over")
            if record.get("host") == socket.gethostname() and alive(record) and not force:
                # alive but without its flock: a run of a version before this lock
                os.close(fd)
                raise FolderInUse(f"{what} {path.parent} is in use by {describe(record)}; "
                                  "wait for that run to end or use another folder")
            say(f"{path.parent}: took over the lock left by {describe(record)} "
                f"({'forced' if force else 'that process is gone'})")
        os.ftruncate(fd, 0)
        os.lseek(fd, 0, os.SEEK_SET)
        os.write(fd, json.dumps(holder(), indent=2).encode())
        os.fsync(fd)
        return fd


@contextlib.contextmanager
def hold_run_folder(folder: Path, force: bool = False, what: str = "run folder",
                    say: Callable[[str], None] = print,
                    option: str = "--output-dir") -> Iterator[None]:
    """Hold ``folder`` for the duration of the ``with`` block (module docstring); raises
    ``FolderInUse`` (a ``ValueError``) if another run holds it, before anything is written
    except the lock itself, or ``CannotCreate`` if the folder cannot be created (a file on
    its path). ``what`` names the folder in messages, ``option`` the command line's option
    that places it."""
    folder = Path(folder)
    created = not folder.exists()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:  # a file on the way, a read-only or missing file system
        raise CannotCreate(f"cannot create the {what} {folder}: {why_not(folder, err)}; pick "
                           f"another {option}") from None
    path = folder / LOCK
    try:
        fd = _acquire(path, force, what, say)
    except BaseException:
        if created:
            with contextlib.suppress(OSError):
                folder.rmdir()
        raise
    try:
        yield
    finally:
        with contextlib.suppress(OSError):
            path.unlink()  # while still holding it: a waiting run then retries on a new file
        os.close(fd)
        if created:
            with contextlib.suppress(OSError):
                folder.rmdir()  # only if the run wrote nothing into it
