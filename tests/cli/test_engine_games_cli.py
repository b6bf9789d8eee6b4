"""Paye's dobbelspel and Pasch on the command line: ``evaluate``, ``tournament`` and ``play``
with ``--game paye|pasch`` run through the table of games (``core.games``) and the
engine-driven evaluator (``evaluation.engine``), with each game's own table flags."""

from __future__ import annotations

import io

import pytest

from pagadores_cli.main import main
from pagadores_cli.play_engine import PROMPT, play
from pagadores_env.core.games import game_spec
from pagadores_train.evaluation.engine import evaluate_game, tournament_game


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(("game", "agents", "flags", "options"), [
    ("paye", ["random", "sensible"], ["--rounds", "6"], {"rounds": 6}),
    ("paye", ["sensible", "random", "lookahead"], ["--variant", "expansion"],
     {"variant": "expansion"}),
    ("pasch", ["greedy", "random"], ["--hand", "1,2", "--blocks", "1"],
     {"hand": [1, 2], "blocks": 1}),
])
def test_evaluate_prints_the_engine_evaluation_its_flags_ask_for(
        game: str, agents: list[str], flags: list[str], options: dict[str, object],
        capsys: pytest.CaptureFixture[str]) -> None:
    players = len(agents)
    code, out, _ = run_cli(["evaluate", *agents, "--game", game, "--players", str(players),
                            "--games", "12", "--seed", "5", "--no-progress", *flags], capsys)
    expected = evaluate_game(game, agents, players, 12, 5, options)
    assert code == 0
    assert out.strip() == expected.table().strip()
    assert out.startswith(game_spec(game).title)


def test_a_pasch_tournament_is_the_engine_tournament(
        capsys: pytest.CaptureFixture[str]) -> None:
    agents = ["random", "greedy", "turn_optimal"]
    code, out, _ = run_cli(["tournament", *agents, "--game", "pasch", "--games", "6",
                            "--seed", "2", "--no-progress"], capsys)
    expected = tournament_game("pasch", agents, 6, 2)
    assert code == 0 and out.strip() == expected.table().strip()
    assert out.startswith("Pasch round-robin, 6 two-player games per pair")


@pytest.mark.parametrize(("argv", "message"), [
    (["evaluate", "random", "--game", "paye", "--cards", "3"],
     "--cards is for --game pagadores, not --game paye (it takes --variant, --faces, "
     "--rounds)"),
    (["evaluate", "random", "--game", "pasch", "--rounds", "3"],
     "--rounds is for --game paye, not --game pasch (it takes --hand, --blocks)"),
    (["evaluate", "random", "--hand", "1"],
     "--hand is for --game pasch, not --game pagadores (it takes --cards)"),
    (["evaluate", "random", "--game", "paye", "--players", "7"],
     "--players must be an integer 2–6, got 7"),
    (["tournament", "random", "greedy", "--game", "pasch", "--games", "0"],
     "--games must be an integer ≥ 1, got 0"),
    (["evaluate", "random", "--game", "paye", "--exact"],
     "--exact is for --game pagadores"),
    (["evaluate", "nobody", "random", "--game", "paye"], "unknown policy of paye 'nobody'"),
])
def test_bad_input_for_an_engine_game_is_one_line(
        argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(argv, capsys)
    command = argv[0]
    assert (code, out) == (2, "")
    assert err.startswith(f"pagadores {command}: error: {message}"), err
    assert err.count("\n") == 1


def scripted(answers: list[str]) -> tuple[list[str], list[str], object]:
    """A terminal whose person gives ``answers`` in turn (then the first legal action)."""
    said: list[str] = []
    asked: list[str] = []

    def ask(prompt: str) -> str:
        asked.append(prompt)
        if answers:
            return answers.pop(0)
        listed = [line.split()[0] for line in said if line.startswith("  ")
                  and line.split()[0].isdigit()]
        return listed[-1]

    return said, asked, ask


@pytest.mark.parametrize("game", ["paye", "pasch"])
def test_a_person_plays_a_whole_game_to_its_returns(game: str) -> None:
    spec = game_spec(game)
    said, asked, ask = scripted(["?", "abc", "999"])
    options = {"rounds": 3} if game == "paye" else {"hand": [2], "blocks": 0}
    returns = play(spec, ["random"], 2, options, human_seat=1, seed=4, ask=ask,
                   say=said.append)
    assert returns is not None and len(returns) == 2
    assert asked and set(asked) == {PROMPT}
    assert spec.summary in said  # "?" shows the rules
    refusals = [line for line in said if line.startswith("Please answer one of")]
    assert len(refusals) == 2  # "abc" and "999" are refused and asked again


@pytest.mark.parametrize("game", ["paye", "pasch"])
def test_q_and_end_of_input_quit(game: str) -> None:
    said, _, ask = scripted(["q"])
    assert play(game_spec(game), ["random"], 2, {}, seed=1, ask=ask, say=said.append) is None
    assert said[-1] == "You quit the game."

    def closed(prompt: str) -> str:
        raise EOFError

    assert play(game_spec(game), ["random"], 2, {}, seed=1, ask=closed, say=print) is None


def test_play_on_the_command_line_reads_the_game_flags(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    code, out, _ = run_cli(["play", "--game", "paye", "--rounds", "2", "--seed", "3"], capsys)
    assert code == 0
    assert out.startswith("Paye's dobbelspel, 2 players.")
    assert "You quit the game." in out
