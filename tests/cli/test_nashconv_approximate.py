"""``pagadores nashconv --approximate`` (``pagadores_train.approximate`` does the work and is
tested in ``tests/train/test_approximate.py``)."""

from __future__ import annotations

import pytest

from pagadores_cli.nashconv import main as nashconv_main


@pytest.mark.slow
def test_the_command_prints_each_seats_gain_with_its_ci(capsys) -> None:
    assert nashconv_main(["sensible", "--players", "2", "--cards", "2", "--approximate",
                          "--budget", "50", "--games", "20"]) == 0
    out = capsys.readouterr().out
    assert "approximate NashConv (a lower bound" in out
    assert out.count("sensible") >= 3 and "±" in out


def test_a_bad_budget_is_refused_in_one_line(capsys) -> None:
    with pytest.raises(SystemExit) as stop:
        nashconv_main(["sensible", "--players", "2", "--approximate", "--budget", "0"])
    assert stop.value.code == 2
    err = capsys.readouterr().err.strip()
    assert "budget must be" in err and "\n" not in err
