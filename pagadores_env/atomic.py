"""Writing a file so that nobody ever sees half of it.

``write_atomic`` writes the bytes to a temporary file in the same folder (so the final rename
never crosses a file system), flushes them to disk and renames the file over ``path`` with
``os.replace``: a reader sees the old file or the new one, never a truncated one, and an
interrupted write (an exception, Ctrl-C, SIGKILL before the rename) leaves the old file as
it was. The temporary file is created with mode 0666 minus the umask, as ``open`` would
create the file (``tempfile`` would make it 0600, unreadable to the user's other accounts).
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO


def write_atomic(path: str | Path, data: bytes | str | Callable[[BinaryIO], object]) -> Path:
    """Replace ``path`` with ``data`` (text is written as UTF-8; a function is called with
    the open binary file, for data too big to hold as bytes) in one step; returns the path.

    Raises ``OSError`` if the folder does not exist or cannot be written; the temporary file
    is removed again whatever goes wrong, so a failed write leaves the folder as it was.
    """
    path = Path(path)
    payload = data.encode() if isinstance(data, str) else data
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
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
    return path
