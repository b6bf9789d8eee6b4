"""Independent pieces of work in a pool of spawned processes that end with the command: the
benchmark's trials, the approximate NashConv's seats.

``spawn`` (not ``fork``): a worker starts clean, without the command's threads, torch state
or open files. Each worker watches the process that started it and ends once it is gone
(``end_with_parent``): a command killed outright (``kill``, out of memory) cannot shut its
pool down, and its workers would otherwise work on for nobody.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from typing import Any, TypeVar

#: How often a pool worker checks that the command that started it still runs (seconds).
PARENT_POLL_S = 1.0

Result = TypeVar("Result")


def in_pool(call: Callable[..., Result], arguments: Sequence[tuple[Any, ...]], workers: int
            ) -> Iterator[Result]:
    """``call(*args)`` for every ``args`` of ``arguments`` in ``workers`` spawned processes,
    yielded as they finish. Ctrl-C or a failure drops the calls not yet started and waits
    for those running (what they wrote is written atomically)."""
    if not arguments:
        return
    pool = ProcessPoolExecutor(max_workers=workers,
                               mp_context=multiprocessing.get_context("spawn"),
                               initializer=end_with_parent, initargs=(os.getpid(),))
    try:
        running = {pool.submit(call, *args) for args in arguments}
        while running:
            ready, running = wait(running, return_when=FIRST_COMPLETED)
            for future in ready:
                yield future.result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def end_with_parent(parent: int) -> None:
    """Pool initializer: end this worker once the process that started it is gone (module
    docstring)."""
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_POLL_S)
        os._exit(1)

    threading.Thread(target=watch, name="end-with-parent", daemon=True).start()
