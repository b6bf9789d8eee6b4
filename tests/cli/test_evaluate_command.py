"""``pagadores evaluate``: the exact columns computed or left out on request (issue 10); how
they are computed is tested in ``tests/train/test_evaluate_exact.py``."""

from __future__ import annotations

import pytest

from pagadores_cli.main import main

LINEUP = ["sensible", "random", "stop-first"]


def test_the_command_line_computes_or_skips_on_request(capsys) -> None:
    assert main(["evaluate", *LINEUP, "--players", "3", "--cards", "2", "--games", "30",
                 "--exact"]) == 0
    assert "exact win" in capsys.readouterr().out
    assert main(["evaluate", *LINEUP, "--players", "3", "--cards", "2", "--games", "30",
                 "--no-exact"]) == 0
    out = capsys.readouterr().out
    assert "exact win" not in out and "exact:" not in out
    with pytest.raises(SystemExit) as exit_:
        main(["evaluate", *LINEUP, "--players", "3", "--exact", "--no-exact"])
    assert exit_.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err
