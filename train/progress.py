"""How long work says what it is doing: one mechanism for every phase.

Training, evaluations, exact solver passes, comparisons, benchmark trials and solves all
report through a ``Reporter``. It shows each phase of work either as a tqdm bar on stderr
(``bars=True``, the default of every command) or, with bars off (``--no-progress``, or a run
whose output is a log file), as status lines on stderr too, with the command's other news, so
that stdout holds only its results (a table a user redirects to a file): one when the phase
starts, one per
step (per opponent, per exact pass, per chunk of games), and one when it ends. A phase with
many small steps (a solver sweep reports every position) prints a line each time it passes
another tenth of its total, so a log grows by a bounded number of lines per phase whatever the
table size. ``SILENT`` reports nothing: the default of the library functions, which print
only when asked.

Usage::

    with reporter.phase("final evaluation", total=6, unit="opponent") as phase:
        for opponent in opponents:
            ...
            phase.step(note=opponent)

A solver's ``progress(done, total)`` callback is ``phase.callback`` (absolute progress), or
``reporter.solver_phase(label)``, whose phase starts at the solver's first call: that call
brings the total and comes only once the solver has accepted its arguments, so a refused
table reports nothing before its one-line error. Lines look like ``final evaluation: 2/6
opponents (sensible) [14 s, about 28 s left]``: the time left assumes the steps to come take
as long as the ones done (tqdm's bars say the same); their wording is for people, and tests
count them rather than time them.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, TextIO

#: A phase whose total is at most this prints a line at every step; a longer one at every
#: tenth of its total (and at its last step).
EVERY_STEP = 10
#: Seconds without a status line after which a note says what the step in progress does.
QUIET_SECONDS = 60.0


def plural(unit: str, count: int) -> str:
    """``unit`` with an English plural ending unless ``count`` is 1."""
    if count == 1 or not unit:
        return unit
    return unit + ("es" if unit.endswith(("s", "sh", "ch", "x")) else "s")


@dataclass(frozen=True)
class Reporter:
    """How progress is shown: bars (``bars``), status lines, or nothing (``enabled`` False).
    ``stream`` is where they go (None: standard error, looked up at each write so that
    pytest's capture sees them)."""

    bars: bool = True
    enabled: bool = True
    stream: TextIO | None = None

    def phase(self, label: str, total: int, unit: str = "step") -> Phase:
        """Start reporting one phase of ``total`` steps of ``unit``."""
        if not self.enabled:
            return Phase(label, total, unit, None, None)
        if self.bars:
            from tqdm.auto import tqdm  # tqdm comes with the train extra

            bar = tqdm(total=total, desc=label, unit=unit, dynamic_ncols=True, leave=False,
                       file=self.stream or sys.stderr)
            return Phase(label, total, unit, bar, None)
        return Phase(label, total, unit, None, self)

    @contextmanager
    def solver_phase(self, label: str, unit: str = "position"
                     ) -> Iterator[Callable[[int, int], None]]:
        """A solver ``progress(done, total)`` callback for one pass, whose phase starts at
        its first call (see the module docstring) and ends when the block does."""
        phases: list[Phase] = []

        def update(done: int, total: int) -> None:
            if not phases:
                phases.append(self.phase(label, total, unit))
            phases[0].callback(done, total)

        finished = False
        try:
            yield update
            finished = True
        finally:
            for phase in phases:
                phase.close(finished)

    def say(self, message: str) -> None:
        """One status line, whatever the mode (nothing when disabled)."""
        if self.enabled:
            print(message, file=self.stream or sys.stderr, flush=True)


#: Reports nothing: what library calls default to.
SILENT = Reporter(enabled=False)
#: Status lines instead of bars (``--no-progress``).
LINES = Reporter(bars=False)
#: tqdm bars.
BARS = Reporter()


def reporter(progress: bool | Reporter | None) -> Reporter:
    """A ``Reporter`` from what a caller passed as ``progress``: True bars, False or None
    silence, a ``Reporter`` itself."""
    if isinstance(progress, Reporter):
        return progress
    return BARS if progress else SILENT


@dataclass
class Phase:
    """One phase in progress (``Reporter.phase``): ``step`` after each piece of work,
    ``close`` at the end (a ``with`` block closes it)."""

    label: str
    total: int
    unit: str
    bar: Any
    lines: Reporter | None
    done: int = 0
    start: float = field(default_factory=lambda: time.perf_counter())
    _tenth: int = 0
    _closed: bool = False
    _said: float = field(default_factory=lambda: time.perf_counter())

    def __post_init__(self) -> None:
        if self.lines is not None:
            count = f"{self.total:,} {plural(self.unit, self.total)}" if self.total else "started"
            self.lines.say(f"{self.label}: {count}")

    def __enter__(self) -> Phase:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close(finished=exc_info[0] is None)

    def step(self, n: int = 1, note: str = "") -> None:
        """``n`` more steps are done; ``note`` names what (an opponent, a pass)."""
        self.advance_to(self.done + n, note)

    def advance_to(self, done: int, note: str = "") -> None:
        """The phase has done ``done`` steps in all."""
        done = min(done, self.total) if self.total else done
        if self.bar is not None:
            self.bar.update(done - self.done)
            if note:
                self.bar.set_postfix_str(note, refresh=False)
        self.done = done
        if self.lines is None or not self.total:
            return
        tenth = done * 10 // self.total
        if self.total <= EVERY_STEP or tenth > self._tenth or done == self.total:
            self._tenth = tenth
            self._say(self.lines, note)

    def _say(self, lines: Reporter, note: str) -> None:
        shown = f" ({note})" if note else ""
        seconds = time.perf_counter() - self.start
        left = (f", about {_duration(seconds * (self.total - self.done) / self.done)} left"
                if 0 < self.done < self.total else "")
        lines.say(f"{self.label}: {self.done:,}/{self.total:,} "
                  f"{plural(self.unit, self.total)}{shown} [{_duration(seconds)}{left}]")
        self._said = time.perf_counter()

    def note(self, note: str) -> None:
        """Say what the step in progress is doing: a bar shows it beside its count; status
        lines say it only after ``QUIET_SECONDS`` without a line (a step may take many
        minutes, as a 6-player search iteration does)."""
        if self.bar is not None:
            self.bar.set_postfix_str(note)
        elif (self.lines is not None and self.total
              and time.perf_counter() - self._said >= QUIET_SECONDS):
            self._say(self.lines, note)

    @property
    def callback(self) -> Callable[[int, int], None]:
        """A solver ``progress(done, total)`` callback: absolute progress, whose first call
        may bring the total."""

        def update(done: int, total: int) -> None:
            if total != self.total:
                self.total = total
                if self.bar is not None:
                    self.bar.total = total
                    self.bar.refresh()
            self.advance_to(done)

        return update

    def close(self, finished: bool = True) -> None:
        """End the phase: closes its bar, or says it is done (or stopped) in one line."""
        if self._closed:
            return
        self._closed = True
        if self.bar is not None:
            self.bar.close()
        if self.lines is not None:
            how = "done" if finished else "stopped"
            self.lines.say(f"{self.label}: {how} "
                           f"[{_duration(time.perf_counter() - self.start)}]")


def _duration(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 120 else f"{seconds / 60:.1f} min"
