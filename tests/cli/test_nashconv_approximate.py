"""``pagadores nashconv``: ``--approximate`` (``pagadores_train.learners.approximate`` does the work
and is tested in ``tests/train/test_approximate.py``) and ``--out``."""

from __future__ import annotations

import pytest

from pagadores_cli.nashconv import main as nashconv_main
from tests.lines import untimed


@pytest.mark.slow
def test_the_command_prints_each_seats_gain_with_its_ci(capsys) -> None:
    assert nashconv_main(["sensible", "--players", "2", "--cards", "2", "--approximate",
                          "--budget", "50", "--games", "20"]) == 0
    out = capsys.readouterr().out
    assert "approximate NashConv (a lower bound" in out
    assert out.count("sensible") >= 3 and "±" in out


def test_score_exactly_adds_the_exact_gains_and_the_share_reached(capsys) -> None:
    assert nashconv_main(["sensible", "--players", "2", "--cards", "2", "--approximate",
                          "--budget", "40", "--games", "10", "--score-exactly",
                          "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "scored exactly: seat 0 " in out and ", seat 1 " in out
    assert "of the exact NashConv" in out


def test_a_bad_budget_is_refused_in_one_line(capsys) -> None:
    with pytest.raises(SystemExit) as stop:
        nashconv_main(["sensible", "--players", "2", "--approximate", "--budget", "0"])
    assert stop.value.code == 2
    err = capsys.readouterr().err.strip()
    assert "budget must be" in err and "\n" not in err


def test_out_writes_the_result_and_the_table_with_its_command(tmp_path, capsys) -> None:
    import json

    from pagadores_env.pagadores.solver import nash_conv

    argv = ["sensible", "--players", "3", "--cards", "2", "--out", str(tmp_path / "nc"),
            "--no-progress"]
    assert nashconv_main(argv) == 0
    out = capsys.readouterr().out
    record = json.loads((tmp_path / "nc" / "nashconv.json").read_text())
    exact = nash_conv("sensible", 3, 2)
    assert record["total"] == exact.total and record["gains"] == list(exact.gains)
    assert record["kind"] == "exact" and record["players"] == 3
    document = (tmp_path / "nc" / "nashconv.md").read_text()
    assert f"`pagadores nashconv {' '.join(argv)}`" in document
    assert f"{exact.total:.10f}" in document and f"{exact.total:.10f}" in out


def test_an_out_that_is_a_file_is_refused_before_any_work(tmp_path, capsys) -> None:
    blocker = tmp_path / "results"
    blocker.write_text("user data")
    with pytest.raises(SystemExit) as stop:
        nashconv_main(["sensible", "--players", "3", "--cards", "2", "--approximate",
                       "--out", str(blocker)])
    assert stop.value.code == 2
    captured = capsys.readouterr()
    assert "is a file, not a folder" in captured.err and captured.out == ""
    assert blocker.read_text() == "user data"


def test_options_of_the_approximate_one_are_refused_without_it(capsys) -> None:
    with pytest.raises(SystemExit) as stop:
        nashconv_main(["sensible", "--players", "2", "--cards", "2", "--budget", "20"])
    assert stop.value.code == 2
    captured = capsys.readouterr()
    assert "--budget: for --approximate only" in captured.err and captured.out == ""


def test_ray_is_for_the_exact_passes_only(capsys) -> None:
    with pytest.raises(SystemExit) as stop:
        nashconv_main(["sensible", "--players", "2", "--cards", "2", "--approximate",
                       "--backend", "ray"])
    assert stop.value.code == 2
    assert "--backend and --address are for the exact NashConv" in capsys.readouterr().err


def test_exact_passes_side_by_side_print_the_same_table(capsys) -> None:
    def table() -> list[str]:  # the printed result, without the times it took
        return [line for line in capsys.readouterr().out.splitlines()
                if "computed in" not in line and untimed(line) == line]

    # --no-cache: both compute (the second would read the first's passes)
    assert nashconv_main(["sensible", "--players", "3", "--cards", "2", "--no-progress",
                          "--no-cache"]) == 0
    alone = table()
    assert nashconv_main(["sensible", "--players", "3", "--cards", "2", "--workers", "2",
                          "--no-progress", "--no-cache"]) == 0
    assert table() == alone and any("NashConv (sum" in line for line in alone)


def test_the_exact_nashconv_reads_what_an_earlier_run_kept_unless_told_not_to(capsys) -> None:
    def run(*extra: str) -> tuple[str, list[str]]:
        assert nashconv_main(["lookahead", "--players", "3", "--cards", "3", "--no-progress",
                              *extra]) == 0
        out, err = capsys.readouterr()  # the status lines are on stderr
        passes = [line for line in err.splitlines() if line.startswith("NashConv: ")]
        return "\n".join(line for line in out.splitlines() if "computed in" not in line), passes

    table, passes = run()
    assert passes  # computed: its progress lines
    assert run() == (table, [])  # read from the results cache: the same table, no pass
    assert run("--no-cache")[1]  # computed again


def test_score_exactly_is_refused_without_approximate(capsys) -> None:
    with pytest.raises(SystemExit) as stop:
        nashconv_main(["sensible", "--players", "2", "--cards", "2", "--score-exactly"])
    assert stop.value.code == 2
    assert "--score-exactly: for --approximate only" in capsys.readouterr().err
