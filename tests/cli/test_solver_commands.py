"""The exact solver's commands: ``pagadores solve`` (the two-player game value, through its
cache) and ``pagadores best-response`` (its one-line errors, help and answer). The solvers
themselves are tested in ``tests/solver``."""

from __future__ import annotations

import pytest

from pagadores_cli import best_response as cli_best_response
from pagadores_cli.best_response import main as best_response_main
from pagadores_cli.solve import main
from pagadores_env.pagadores.solver import (
    TwoPlayerSolution,
    cache_path,
    cost,
    load_or_solve,
    solve_two_player,
)
from tests.solver.caches import DAMAGES

#: The memory limit of a 16 GB machine (3/4 of it), so the limits named below do not depend
#: on the machine running the tests.
LIMIT = 12 * 10**9


@pytest.fixture(autouse=True)
def _private_cache(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("PAGADORES_CACHE", str(tmp_path / "cache"))


@pytest.fixture(params=sorted(DAMAGES))
def damaged_cache(request) -> int:
    """A 3-card cache file we wrote, then damaged as ``request.param`` says."""
    TwoPlayerSolution.save(solve_two_player(3), cache_path(3))
    DAMAGES[request.param](cache_path(3))
    return 3


@pytest.fixture
def fixed_memory(monkeypatch) -> None:
    monkeypatch.setattr(cost, "memory_limit", lambda: LIMIT)
    monkeypatch.setattr(cli_best_response, "memory_limit", lambda: LIMIT)


# --------------------------------------------------------------------- pagadores solve
def test_solve_command_resolves_an_unreadable_cache(damaged_cache, capsys) -> None:
    assert main(["--cards", str(damaged_cache)]) == 0
    assert "solved now" in capsys.readouterr().out
    TwoPlayerSolution.load(cache_path(damaged_cache))  # readable again


def test_solve_command_with_an_unwritable_cache_is_a_one_line_error(tmp_path, monkeypatch,
                                                                    capsys) -> None:
    blocker = tmp_path / "a file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("PAGADORES_CACHE", str(blocker / "cache"))
    assert main(["--cards", "2"]) == 2
    captured = capsys.readouterr()
    assert f"{solve_two_player(2).value:.10f}" in captured.out  # the result is still shown
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("pagadores solve: error: cannot write")
    assert "PAGADORES_CACHE" in lines[0]
    assert blocker.read_text() == "not a folder"
    with pytest.warns(UserWarning, match="could not cache"):  # the library still answers
        assert load_or_solve(2).value == solve_two_player(2).value


def test_main_prints_the_game_value(capsys) -> None:
    assert main(["--cards", "2"]) == 0
    out = capsys.readouterr().out
    assert f"{solve_two_player(2).value:.10f}" in out
    assert "solved now" in out
    assert main(["--cards", "2"]) == 0
    assert "loaded from the cache" in capsys.readouterr().out


# --------------------------------------------------------------------- pagadores best-response
@pytest.mark.parametrize(("args", "message"), [
    (["--players", "6", "--cards", "3"],
     "6 players with 3 cards each is too big to best-respond at exactly"),
    (["--hero-seat", "7"], "--hero-seat must be an integer 0–2, got 7"),
    (["--players", "7"], "--players must be an integer 2–6, got 7"),
    (["--cards", "0"], "--cards must be an integer 1–10, got 0"),
    (["--opponent", "optimal"], "'optimal' plays 2-player games only"),
    (["--opponent", "nobody"], "unknown policy 'nobody'"),
])
def test_command_line_errors_are_one_line(args, message, capsys, fixed_memory) -> None:
    with pytest.raises(SystemExit) as exit_:
        best_response_main(args)
    assert exit_.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("pagadores best-response: error: ") and message in err[-1]
    assert all(line.startswith("usage:") or line.startswith(" ") for line in err[:-1])


def test_command_line_options_have_help(capsys, fixed_memory) -> None:
    with pytest.raises(SystemExit):
        best_response_main(["--help"])
    out = capsys.readouterr().out
    for option in ("--players", "--cards", "--hero-seat", "--opponent"):
        line = next(line for line in out.splitlines() if line.strip().startswith(option))
        assert len(line.split()) > 2 or option == "--hero-seat", line  # help text follows
    assert "players at the table" in out and "the seat that best-responds" in out
    # the limits for scripted opponents, which read the scores only through the lowest
    assert cost.within_limits(asked=True) in " ".join(out.split())
    assert "2–4 players with up to 10 cards each" in " ".join(out.split())


def test_command_line_prints_the_value(capsys) -> None:
    assert best_response_main(["--players", "3", "--cards", "1", "--opponent", "stop-first"]) == 0
    out = capsys.readouterr().out
    assert "3 players, 1 cards each, hero seat 0 vs stop-first: hero wins with probability" in out
