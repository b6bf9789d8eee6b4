"""Writing a file so that nobody ever sees half of it.

``write_atomic`` writes the bytes to a temporary file in the same folder (so the final rename
never crosses a file system), flushes them to disk and renames the file over ``path`` with
``os.replace``: a reader sees the old file or the new one, never a truncated one, and an
interrupted write (an exception, Ctrl-C, SIGKILL before the rename) leaves the old file as
it was. The temporary file is created with mode 0666 minus the umask, as ``open`` would
create the file (``tempfile`` would make it 0600, unreadable to the user's other accounts).

A write that fails (a full disk, a read-only or missing folder) raises ``WriteError``: an
``OSError`` whose ``filename`` is the file that was to be written (not the temporary one) and
whose ``line`` says so in one line, for commands to print instead of a traceback.
"""

from __future__ import annotations

import errno
import os
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO


class WriteError(OSError):
    """A file that could not be written (``filename``), and why (``strerror``)."""

    @property
    def line(self) -> str:
        """The failure in one line: which file, in which folder, and why."""
        path = Path(str(self.filename))
        return f"cannot write {path.name} in {path.parent}: {self.strerror or self}"


#: What a write to a full disk, a full quota, a file too large or a read-only file system
#: fails with, whoever wrote (torch, tensorboard, Ray write files of their own).
FULL_OR_READ_ONLY = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EROFS)


def failed_write(err: OSError) -> str | None:
    """``err`` in one line if it is a file that could not be written (a ``WriteError``, or
    another writer's ``FULL_OR_READ_ONLY`` failure), else None (some other ``OSError``)."""
    if isinstance(err, WriteError):
        return err.line
    if err.errno not in FULL_OR_READ_ONLY:
        return None
    where = f" {err.filename}" if err.filename else ""
    return f"cannot write{where}: {err.strerror or err}"


def write_atomic(path: str | Path, data: bytes | str | Callable[[BinaryIO], object]) -> Path:
    """Replace ``path`` with ``data`` (text is written as UTF-8; a function is called with
    the open binary file, for data too big to hold as bytes) in one step; returns the path.

    Raises ``WriteError`` if the folder does not exist or cannot be written (a full disk);
    the temporary file is removed again whatever goes wrong, so a failed write leaves the
    folder as it was.
    """
    path = Path(path)
    payload = data.encode() if isinstance(data, str) else data
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    try:
        _write(tmp, path, payload)
    except WriteError:
        raise
    except OSError as err:
        raise WriteError(err.errno, err.strerror, str(path)) from err
    return path


def _write(tmp: Path, path: Path, payload: bytes | Callable[[BinaryIO], object]) -> None:
    """``write_atomic``'s steps: ``payload`` into ``tmp``, then ``tmp`` renamed to ``path``."""
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(fd, "wb") as handle:
            if callable(payload):
                payload(handle)
            else:
                handle.write(payload)
            handle.flush()
            os.fsync(handle.fileno())  # the bytes are on disk before the name points at them
        os.replace(tmp, path)
    except BaseException:  # also Ctrl-C: never leave the temporary file behind
        tmp.unlink(missing_ok=True)
        raise
