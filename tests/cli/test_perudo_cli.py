"""Perudo on the command line beside Pagadores: ``pagadores tournament --game perudo`` (the
round-robin of ``evaluate.tournament`` with each pair played by ``evaluate_game``) and the
help of ``play``, ``evaluate`` and ``tournament`` naming both games' agents."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import pagadores_train.evaluation.engine
from pagadores_cli.main import main
from pagadores_env.core.policies import _REGISTRY, GAMES, BasePolicy, registered_policies
from pagadores_env.core.seeding import child_seed
from pagadores_train.evaluation.engine import evaluate_game, tournament_game
from pagadores_train.progress import LINES
from tests.lines import TIMES, untimed

AGENTS = ["random", "probabilistic", "bluffer"]


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


# --------------------------------------------------------------------------- tournament
def test_each_cell_is_the_perudo_evaluation_of_its_pair() -> None:
    result = tournament_game("perudo", AGENTS, num_games=21, seed=3, options={"dice": 2})
    assert result.num_games == 22  # rounded up to even: both seats equally often
    assert result.labels == tuple(AGENTS)
    for i in range(3):
        for j in range(i + 1, 3):
            pair = evaluate_game("perudo", [AGENTS[i], AGENTS[j]], 2, 21,
                                 child_seed(3, 2, i, j), {"dice": 2})
            assert (result.wins[i][j], result.wins[j][i]) == (pair.rows[0].wins,
                                                              pair.rows[1].wins)
            assert result.win_rate[i][j] == pair.rows[0].wins / 22
    assert result.wins[1][0] > result.wins[0][1]  # the bidder beats random at 2 dice
    assert result.table().splitlines()[0].startswith(
        "Perudo round-robin, 22 two-player games per pair, dice 2, seed 3;")


def test_a_perudo_evaluation_says_why_it_played_more_games_and_reports_each_tenth(
        capsys: pytest.CaptureFixture[str]) -> None:
    """100 games at 3 players are 102 (whole seat rotations), said under the table; with
    status lines, one as the games start, one per tenth of them finished, one at the end."""
    result = evaluate_game("perudo", ["probabilistic", "random"], 3, 100, options={"dice": 1},
                           progress=LINES)
    assert result.num_games == 102
    assert result.table().splitlines()[-1] == (
        "102 games: 100 rounded up to whole seat rotations of 3 (every agent sits in every "
        "seat equally often)")
    lines = capsys.readouterr().err.splitlines()
    assert lines[0] == "evaluate: 102 games" and re.fullmatch(rf"evaluate: done {TIMES}",
                                                                lines[-1])
    done = [int(re.fullmatch(rf"evaluate: (\d+)/102 games {TIMES}", line)[1])
            for line in lines[1:-1]]
    assert done == sorted(set(done)) and done[-1] == 102 and len(done) <= 10
    assert "rounded up" not in evaluate_game("perudo", ["probabilistic", "random"], 3, 102,
                                             options={"dice": 1}).table()


def test_a_perudo_tournament_reports_one_status_line_per_pair(
        capsys: pytest.CaptureFixture[str]) -> None:
    tournament_game("perudo", AGENTS, num_games=2, options={"dice": 1}, progress=LINES)
    lines = [untimed(line) for line in capsys.readouterr().err.splitlines()]
    assert lines == ["tournament: 3 pairs", "tournament: 1/3 pairs (random vs probabilistic)",
                     "tournament: 2/3 pairs (random vs bluffer)",
                     "tournament: 3/3 pairs (probabilistic vs bluffer)", "tournament: done"]


def test_the_command_plays_the_perudo_tournament_its_options_ask_for(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(["tournament", "--game", "perudo", *AGENTS, "--games", "20",
                              "--dice", "2", "--seed", "1"], capsys)
    assert (code, err) == (0, "")
    assert out.strip() == tournament_game("perudo", AGENTS, num_games=20, seed=1,
                                          options={"dice": 2}).table()
    assert "20 two-player games per pair, dice 2, seed 1;" in out
    for agent in AGENTS:
        assert re.search(rf"^\S+ +{agent} +[+-]\d+ +\[[+-]\d+, [+-]\d+\]", out, re.MULTILINE)


def test_the_perudo_tournament_writes_its_files(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    code, _, _ = run_cli(["tournament", "--game", "perudo", "random", "probabilistic",
                          "--games", "10", "--dice", "1", "--out", str(tmp_path)], capsys)
    assert code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tournament.csv", "tournament.json",
                                                         "tournament.md", "tournament.png"]
    saved = json.loads((tmp_path / "tournament.json").read_text())
    assert saved["labels"] == ["random", "probabilistic"] and saved["options"] == "dice 1"


@pytest.mark.parametrize("argv, message", [
    (["--game", "perudo", "random", "sensible"],
     "unknown policy of perudo 'sensible'; known: " + ", ".join(registered_policies("perudo"))),
    (["--game", "perudo", "random", "probabilistic", "--dice", "0"],
     "--dice must be 1–5 (5 is the official game), got 0"),
    (["--game", "perudo", "random", "probabilistic", "--games", "0"],
     "--games must be an integer ≥ 1, got 0"),
    (["--game", "perudo", "random", "probabilistic", "--cards", "3"],
     "--cards is for --game pagadores, not --game perudo (it takes --dice)"),
    (["random", "sensible", "--dice", "3"],
     "--dice is for --game perudo, not --game pagadores (it takes --cards)"),
])
def test_bad_tournament_input_is_one_line_before_any_game(
        argv: list[str], message: str, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    def no_games(*args: object, **kwargs: object) -> None:
        raise AssertionError("a game was played")

    monkeypatch.setattr(pagadores_train.evaluation.engine, "play_games", no_games)
    code, out, err = run_cli(["tournament", *argv], capsys)
    assert (code, out) == (2, "")
    assert err == f"pagadores tournament: error: {message}\n"


def test_a_misspelt_last_agent_is_refused_before_the_first_pair_plays(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    played: list[object] = []
    monkeypatch.setattr(pagadores_train.evaluation.engine, "play_games",
                        lambda *args, **kwargs: played.append(args))
    code, _, err = run_cli(["tournament", "--game", "perudo", "random", "probabilistic",
                            "bluffr"], capsys)
    assert code == 2 and played == []
    assert err.startswith("pagadores tournament: error: unknown policy of perudo 'bluffr'")


# --------------------------------------------------------------------------- help
def help_agents(command: list[str], monkeypatch: pytest.MonkeyPatch,
                capsys: pytest.CaptureFixture[str], columns: int = 100) -> dict[str, list[str]]:
    """The agent names the help of ``command`` (``columns`` wide) lists under each game's
    heading."""
    monkeypatch.setenv("COLUMNS", str(columns))
    with pytest.raises(SystemExit) as exit_:
        main([*command, "--help"])
    assert exit_.value.code == 0
    epilog = " ".join(capsys.readouterr().out.partition("agent specs: ")[2].split())
    found = re.findall(r"with --game (\w+): ([^;]*)", epilog)
    return {game: [spec.partition(":")[0] for spec in names.split(", ")]
            for game, names in found}


@pytest.mark.parametrize("command", [[], ["play"], ["evaluate"], ["tournament"]])
def test_help_lists_the_agents_of_both_games_by_game(
        command: list[str], monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    expected = {game: registered_policies(game) for game in GAMES}
    assert "bluffer" in expected["perudo"] and "sensible" in expected["pagadores"]
    for columns in range(30, 131):  # at any width, no name is cut at its hyphen
        assert help_agents(command, monkeypatch, capsys, columns) == expected, columns


def test_the_help_reads_the_registry(monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    registered_policies()  # load the plugins first, so the addition below is not overwritten
    monkeypatch.setitem(_REGISTRY["perudo"], "newcomer", BasePolicy)
    listed = help_agents(["tournament"], monkeypatch, capsys)
    assert "newcomer" in listed["perudo"] and "newcomer" not in listed["pagadores"]
