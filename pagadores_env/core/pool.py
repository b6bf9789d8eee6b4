"""Independent pieces of work in a pool of spawned processes that end with the command: the
benchmark's trials, the approximate NashConv's seats, the exact passes of one seat each.

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
#: How often the command hands on what its workers report while they run (seconds).
LISTEN_S = 0.5
#: The environment variable telling a worker which part of the machine's memory is its own:
#: ``in_pool`` gives each of its workers its own part of the part it has (1 outside pools).
MEMORY_PART = "PAGADORES_MEMORY_PART"


def memory_part() -> float:
    """This process's part of the memory (``MEMORY_PART``; 1 unless a pool set it): what
    the size limits and the search players' budgets scale by, so the workers of a pool
    together stay within what one process may use."""
    try:
        part = float(os.environ.get(MEMORY_PART, "1"))
    except ValueError:
        return 1.0
    return part if 0 < part <= 1 else 1.0


Result = TypeVar("Result")


def in_pool(call: Callable[..., Result], arguments: Sequence[tuple[Any, ...]], workers: int,
            listen: Callable[[Any], object] | None = None, finish_running: bool = True
            ) -> Iterator[Result]:
    """``call(*args)`` for every ``args`` of ``arguments`` in ``workers`` spawned processes,
    yielded as they finish. With ``listen``, each call gets one more argument, a queue: what
    it puts there is handed to ``listen`` in this process while the calls run (their
    progress). Each worker's part of the memory is this process's divided among them
    (``memory_part``), so memory limits hold for the pool as a whole. Ctrl-C or a failure
    drops the calls not yet started and waits for those running (what they wrote is
    written atomically), or, with ``finish_running`` False (calls that keep nothing but
    their result), stops them at once."""
    if not arguments:
        return
    context = multiprocessing.get_context("spawn")
    inherited = os.environ.get(MEMORY_PART)
    os.environ[MEMORY_PART] = repr(memory_part() / min(workers, len(arguments)))
    manager = context.Manager() if listen is not None else None
    queue = manager.Queue() if manager is not None else None
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=context,
                               initializer=end_with_parent, initargs=(os.getpid(),))
    finished = False
    try:
        extra = () if queue is None else (queue,)
        running = {pool.submit(call, *args, *extra) for args in arguments}
        while running:
            ready, running = wait(running, timeout=LISTEN_S, return_when=FIRST_COMPLETED)
            _drain(queue, listen)
            for future in ready:
                yield future.result()
        _drain(queue, listen)
        finished = True
    finally:
        if not finished and not finish_running:  # their results would be dropped anyway
            for process in list(getattr(pool, "_processes", {}).values()):
                process.terminate()
        pool.shutdown(wait=True, cancel_futures=True)
        if manager is not None:
            manager.shutdown()
        if inherited is None:
            os.environ.pop(MEMORY_PART, None)
        else:
            os.environ[MEMORY_PART] = inherited


def _drain(queue: Any, listen: Callable[[Any], object] | None) -> None:
    """Hand everything in ``queue`` to ``listen``."""
    while queue is not None and listen is not None and not queue.empty():
        listen(queue.get())


def end_with_parent(parent: int) -> None:
    """Pool initializer: end this worker once the process that started it is gone (module
    docstring)."""
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_POLL_S)
        os._exit(1)

    threading.Thread(target=watch, name="end-with-parent", daemon=True).start()
