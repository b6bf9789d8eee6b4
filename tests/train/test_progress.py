"""How long work reports itself (pagadores_train.progress): the reports made, never the time."""

from __future__ import annotations

import io
import re

import pytest

from pagadores_train.progress import LINES, SILENT, Reporter
from tests.lines import TIMES


def _lines(stream: io.StringIO) -> list[str]:
    return stream.getvalue().splitlines()


def test_a_solver_phase_starts_at_the_solvers_first_call_and_steps_by_tenths() -> None:
    stream = io.StringIO()
    with Reporter(bars=False, stream=stream).solver_phase("solving") as progress:
        assert _lines(stream) == []  # nothing before the solver has accepted the table
        for done in range(1, 41):
            progress(done, 40)
    lines = _lines(stream)
    assert lines[0] == "solving: 40 positions"
    step = rf"solving: (\d+)/40 positions {TIMES}"
    steps = [int(m.group(1)) for line in lines[1:-1] if (m := re.fullmatch(step, line))]
    assert steps == [4, 8, 12, 16, 20, 24, 28, 32, 36, 40] == sorted(set(steps))
    assert len(lines) == 12 and re.fullmatch(rf"solving: done {TIMES}", lines[-1])


def test_a_refused_solve_reports_nothing_and_a_stopped_one_says_so() -> None:
    stream = io.StringIO()
    reporter = Reporter(bars=False, stream=stream)
    with pytest.raises(ValueError), reporter.solver_phase("solving"):
        raise ValueError("too big")  # the solver refused before its first call
    assert _lines(stream) == []
    with pytest.raises(KeyboardInterrupt), reporter.solver_phase("solving") as progress:
        progress(1, 5)
        raise KeyboardInterrupt
    assert _lines(stream)[0] == "solving: 5 positions"
    assert re.fullmatch(rf"solving: stopped {TIMES}", _lines(stream)[-1])


def test_a_silent_solver_phase_says_nothing(capsys) -> None:
    with SILENT.solver_phase("solving") as progress:
        progress(1, 1)
    assert capsys.readouterr() == ("", "")
    with LINES.solver_phase("solving") as progress:
        progress(1, 1)
    assert "".join(capsys.readouterr()).splitlines()[0] == "solving: 1 position"


def test_status_lines_say_a_long_steps_note_after_a_quiet_minute(monkeypatch) -> None:
    import pagadores_train.progress as progress
    now = [0.0]
    monkeypatch.setattr(progress.time, "perf_counter", lambda: now[0])
    stream = io.StringIO()
    with Reporter(bars=False, stream=stream).phase("training", 100, "decision") as phase:
        phase.note("backing up 10/500")
        assert len(_lines(stream)) == 1  # only the phase's first line: not quiet long enough
        now[0] = progress.QUIET_SECONDS
        phase.note("backing up 400/500")
        phase.note("backing up 401/500")  # a line was just said
    lines = _lines(stream)
    assert lines[1] == "training: 0/100 decisions (backing up 400/500) [60 s]"
    assert len(lines) == 3 and lines[2].startswith("training: done")


def test_status_lines_say_the_time_left_at_the_pace_so_far(monkeypatch) -> None:
    import pagadores_train.progress as progress
    now = [0.0]
    monkeypatch.setattr(progress.time, "perf_counter", lambda: now[0])
    stream = io.StringIO()
    with Reporter(bars=False, stream=stream).phase("NashConv", 4, "pass") as phase:
        now[0] = 90.0
        phase.step()
        now[0] = 600.0
        phase.step(note="seat 1")
        now[0] = 1200.0
        phase.step(2)
    assert _lines(stream)[1:] == ["NashConv: 1/4 passes [90 s, about 4.5 min left]",
                                  "NashConv: 2/4 passes (seat 1) [10.0 min, about 10.0 min left]",
                                  "NashConv: 4/4 passes [20.0 min]", "NashConv: done [20.0 min]"]


def test_games_in_lock_step_say_the_decisions_played_while_they_go_on(monkeypatch) -> None:
    # the games of a chunk end late: a quiet minute is filled with the decisions played
    import pagadores_train.progress as progress
    from pagadores_train.evaluation.evaluate import evaluate_agents

    monkeypatch.setattr(progress, "QUIET_SECONDS", 0.0)
    stream = io.StringIO()
    evaluate_agents(["sensible", "random"], num_players=3, num_games=30, cards=2,
                    exact=False, progress=Reporter(bars=False, stream=stream))
    noted = [line for line in _lines(stream) if "decisions played)" in line]
    assert noted and all(line.startswith("evaluate: ") for line in noted)
    counts = [int(re.search(r"\(([\d,]+) decisions", line)[1].replace(",", ""))
              for line in noted]
    assert counts == sorted(counts) and counts[-1] > 30
