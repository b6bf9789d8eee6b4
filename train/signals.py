"""The signals long work stops on as it does on Ctrl-C: SIGINT (Ctrl-C), and SIGTERM, which
``timeout``, SLURM, ``docker stop`` and ``kill`` send to end a program. Shared by every job and
by the command line (``pagadores_cli.main``), so a run ended by its scheduler saves and stops
as a Ctrl-C stops it, instead of dying where it stands (exit 143, the work since its last
checkpoint lost, its ``run.lock`` left behind).

``stopping(defer)``: while inside, in the main thread (where Python delivers signals), either
signal asks ``defer(name)`` whether it holds the stop back (a run finishing its rollout or
iteration records it, says so and stops at the next point where it is whole); if not,
``KeyboardInterrupt`` is raised at once, as Ctrl-C does by default. ``received()`` is the last
one delivered, for the words a command ends with (``ended_by``) and its exit status
(``exit_status``: 128 + the signal's number, as a shell reports it). ``kept()`` puts the
handlers back that a library replaces inside it (``ray.init`` makes SIGTERM an exit of its own).

One limit, Python's: a signal that arrives while numba compiles raises its
``KeyboardInterrupt`` inside a callback of llvmlite's, which swallows it (a Ctrl-C there is
lost the same way); a second signal then stops the work.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

#: The signals that stop long work, and how its messages name them.
STOP_SIGNALS = {signal.SIGINT: "Ctrl-C", signal.SIGTERM: "SIGTERM"}

_received: list[int] = []  # the last stop signal delivered inside ``stopping``, if any


def received() -> int:
    """The stop signal delivered last inside ``stopping`` (SIGINT if none was: Python's own
    Ctrl-C)."""
    return _received[-1] if _received else signal.SIGINT


def ended_by() -> str:
    """How a command that stopped on ``received()`` says so: "interrupted" (Ctrl-C) or
    "terminated by SIGTERM"."""
    signum = received()
    return "interrupted" if signum == signal.SIGINT else f"terminated by {STOP_SIGNALS[signum]}"


def exit_status() -> int:
    """The exit status after stopping on ``received()``: 128 + its number (130 for Ctrl-C,
    143 for SIGTERM), as a shell reports a program the signal ended."""
    return 128 + received()


def never(name: str) -> bool:
    """A ``defer`` that holds nothing back."""
    return False


@contextmanager
def stopping(defer: Callable[[str], bool] = never) -> Iterator[None]:
    """While inside: at SIGINT or SIGTERM ``defer`` is asked (with the signal's name, ``STOP_
    SIGNALS``) whether it holds the stop back; if not, ``KeyboardInterrupt`` is raised at once.
    Only in the main thread; elsewhere the signals keep their effect."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    _received.clear()

    def on_signal(signum: int, frame: Any) -> None:
        _received[:] = [signum]
        if not defer(STOP_SIGNALS[signal.Signals(signum)]):
            raise KeyboardInterrupt

    with kept():
        for signum in STOP_SIGNALS:
            signal.signal(signum, on_signal)
        yield


@contextmanager
def kept() -> Iterator[None]:
    """Put the handlers of the stop signals back as they were when the block ends (in the main
    thread; elsewhere nothing to keep)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {signum: signal.getsignal(signum) for signum in STOP_SIGNALS}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def ignore_in_worker() -> None:
    """Ignore the stop signals in a worker process whose parent handles them (SLURM sends
    SIGTERM to every process of a job, a terminal Ctrl-C to its whole process group): the
    parent saves and closes its workers instead of every worker dying with a traceback."""
    for signum in STOP_SIGNALS:
        signal.signal(signum, signal.SIG_IGN)
