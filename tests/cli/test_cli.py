"""The ``pagadores`` command line: help, terminal play through stdin, evaluate/tournament files,
and delegation to the trainer, the benchmark and the solver."""

from __future__ import annotations

import errno
import io
import json
import os
import re
import sys
from pathlib import Path

import pytest

from pagadores_cli.main import DELEGATED, main
from pagadores_cli.play import RULES_SUMMARY, play
from pagadores_cli.train import build_parser as build_train_parser
from pagadores_env.core import atomic
from tests.cli.terminate import terminate_when
from tests.lines import TIMES
from tests.processes import HAS_PROC, kill_once_started, running, within

CONFIGS = Path(__file__).resolve().parents[2] / "configs"


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_help_lists_every_subcommand(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["--help"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    for command in ("play", "evaluate", "tournament", "train", "bench", "solve", "nashconv",
                    "exact", "best-response"):
        assert command in out



def test_help_says_train_trains_every_kind_of_run(capsys: pytest.CaptureFixture[str]) -> None:
    """It said "train an SB3 agent" (issue 45, item 14): every run kind trains there."""
    with pytest.raises(SystemExit):
        main(["--help"])
    text = " ".join(capsys.readouterr().out.split())
    line = re.search(r" train (.*?)\(see: pagadores train -h\)", text)[1]
    assert "SB3 agent" not in line
    assert all(kind in line for kind in ("SB3", "self-play", "RLlib", "search"))
    train_help = build_train_parser().format_help()
    assert "Train an agent from a YAML config" in " ".join(train_help.split())


@pytest.mark.parametrize("command", ["play", "evaluate", "tournament", "train"])
def test_subcommand_help(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    if command == "train":
        pytest.importorskip("yaml")  # pagadores train reads YAML configs (the train extra)
    with pytest.raises(SystemExit) as exit_:
        main([command, "--help"])
    assert exit_.value.code == 0
    assert "usage:" in capsys.readouterr().out


def test_train_help_lists_the_config_keys(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("yaml")
    with pytest.raises(SystemExit):
        main(["train", "--help"])
    out = capsys.readouterr().out
    assert "--timesteps" in out and "env.num_players" in out


def test_missing_subcommand_is_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main([])
    assert exit_.value.code == 2


# --------------------------------------------------------------------------- play
def play_with_stdin(answers: str, monkeypatch: pytest.MonkeyPatch,
                    capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(answers))
    code = main(["play", *args])
    return code, capsys.readouterr().out


def test_play_to_the_end_always_stopping(monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    code, out = play_with_stdin("s\n" * 500, monkeypatch, capsys, "sensible", "--seed", "7")
    assert code == 0
    assert "player_0: YOU, player_1: sensible" in out
    assert "player_0 throws " in out and "player_1 throws " in out  # R7.1: all throws shown
    assert "(cards: player_0 10, player_1 10)" in out  # card counts each round
    assert "player_0 stops after 1 throw" in out
    assert out.count("wins the game") == 1


def test_play_is_reproducible_with_a_seed(monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    answers = "t\ns\n" * 300
    _, first = play_with_stdin(answers, monkeypatch, capsys, "random", "--seed", "3")
    _, second = play_with_stdin(answers, monkeypatch, capsys, "random", "--seed", "3")
    _, other = play_with_stdin(answers, monkeypatch, capsys, "random", "--seed", "4")
    assert first == second
    assert first != other


def test_play_rules_help_bad_input_and_quit(monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    code, out = play_with_stdin("?\nmaybe\nq\n", monkeypatch, capsys, "--seed", "1")
    assert code == 0
    assert RULES_SUMMARY in out
    assert "R3.2" in RULES_SUMMARY and "R4.4" in RULES_SUMMARY
    assert "Please answer s, t, ? or q." in out
    assert out.rstrip().endswith("You quit the game.")
    assert "wins the game" not in out


def test_play_ends_quietly_at_end_of_input(monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    _, out = play_with_stdin("", monkeypatch, capsys, "--seed", "1")
    assert "You quit the game." in out


def test_play_with_four_players_and_a_later_seat() -> None:
    said: list[str] = []
    winner = play(["random", "stop-first", "always-throw"], num_players=4, human_seat=2,
                  seed=5, ask=lambda _prompt: "s", say=said.append)
    text = "\n".join(said)
    assert winner in range(4)
    assert "player_2: YOU" in text and "player_1: stop-first" in text
    assert "player_2 stops after 1 throw" in text


@pytest.mark.parametrize(("args", "message"), [
    (["--seat", "2"], "--seat must be an integer 0–1, got 2"),
    (["random", "random"], "opponents must be 1 policy at 2 players (one other seat), got 2"),
    (["random"] * 2 + ["--players", "4"], "opponents must be one policy per other seat (3 for "
     "4 players) or a single one shared by all of them, got 2"),
    (["nobody"], "unknown policy 'nobody'"),
    (["--players", "7"], "--players must be an integer 2–6, got 7"),
    (["--cards", "0"], "--cards must be 1–10 (10 is the official game), got 0"),
    (["--seed", "-1"], "--seed must be an integer ≥ 0, got -1"),
    (["--game", "perudo", "--dice", "9"], "--dice must be 1–5 (5 is the official game), got 9"),
    (["optimal", "--players", "3"], "'optimal' plays 2-player games only"),
    (["optimal:cards=3", "--cards", "5"], "'optimal' covers up to 3 cards a player, got 5"),
])
def test_play_bad_arguments_exit_2(args: list[str], message: str,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(["play", *args], capsys)
    assert code == 2
    assert message in err and len(err.strip().splitlines()) == 1
    assert out == ""  # refused before the game starts



#: What evaluate and tournament refuse, by flag: (game or None for both, arguments, message).
#: A tournament has no --players (its games are two-player); --cards is Pagadores', --dice
#: Perudo's.
BAD_COUNTS = [(None, ["--games", "0"], "--games must be an integer ≥ 1, got 0"),
              (None, ["--seed", "-1"], "--seed must be an integer ≥ 0, got -1"),
              ("pagadores", ["--cards", "0"],
               "--cards must be 1–10 (10 is the official game), got 0"),
              ("perudo", ["--dice", "0"], "--dice must be 1–5 (5 is the official game), got 0")]


@pytest.mark.parametrize(("command", "game", "args", "message"), [
    *((command, game, args, message) for command in ("evaluate", "tournament")
      for only, args, message in BAD_COUNTS for game in ("pagadores", "perudo")
      if only in (None, game)),
    *(("evaluate", game, ["--players", "7"], "--players must be an integer 2–6, got 7")
      for game in ("pagadores", "perudo"))])
def test_bad_counts_are_named_by_their_flags(command: str, game: str, args: list[str],
                                             message: str,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    """The messages named Python's parameters (num_players, num_games), not the flags
    (issue 45, item 12)."""
    agents = ["random", "probabilistic" if game == "perudo" else "sensible"]
    code, out, err = run_cli([command, *agents, "--game", game, *args], capsys)
    assert (code, out) == (2, "")
    assert err == f"pagadores {command}: error: {message}\n"


@pytest.mark.parametrize(("players", "message"), [
    ("2", "agents must be 2 (the agent under test and its opponent), got 1"),
    ("3", "agents must be 3 entries (one per seat) or 2 (the agent under test and one "
          "opponent reused), got 1"),
])
def test_evaluate_with_too_few_agents_says_what_it_needs(
        players: str, message: str, capsys: pytest.CaptureFixture[str]) -> None:
    """At 2 players it said "must be 2 entries (one per seat) or 2 (…)" (issue 45, item 12)."""
    code, _, err = run_cli(["evaluate", "sensible", "--players", players], capsys)
    assert code == 2 and err == f"pagadores evaluate: error: {message}\n"


# --------------------------------------------------------------------------- evaluate
def test_evaluate_prints_the_table_and_writes_files(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    code, out, _ = run_cli(["evaluate", "sensible", "random", "--games", "40", "--seed", "2",
                            "--out", str(tmp_path)], capsys)
    assert code == 0
    assert "sensible" in out and "random" in out and "95% CI" in out
    for ext in ("csv", "json", "png"):
        assert (tmp_path / f"evaluate.{ext}").stat().st_size > 0
    assert json.loads((tmp_path / "evaluate.json").read_text())
    assert "sensible" in (tmp_path / "evaluate.csv").read_text()


def test_evaluate_exact_columns_can_be_skipped(capsys: pytest.CaptureFixture[str]) -> None:
    _, with_exact, _ = run_cli(["evaluate", "stop-first", "always-throw", "--games", "20"],
                               capsys)
    _, without, _ = run_cli(["evaluate", "stop-first", "always-throw", "--games", "20",
                             "--no-exact"], capsys)
    assert "exploitability" in with_exact
    assert "exploitability" not in without


def test_tournament_writes_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    code, out, _ = run_cli(["tournament", "random", "stop-first", "sensible", "--games", "20",
                            "--out", str(tmp_path)], capsys)
    assert code == 0
    assert "stop-first" in out
    for ext in ("csv", "json", "png"):
        assert (tmp_path / f"tournament.{ext}").exists()


def test_evaluate_bad_agent_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(["evaluate", "sensible", "nobody", "--games", "10"], capsys)
    assert code == 2
    assert "unknown policy 'nobody'" in err


@pytest.mark.parametrize(("agent", "form"), [("model", "model:path=FILE"),
                                             ("rllib", "rllib:path=RUN_FOLDER")])
def test_evaluate_an_agent_without_its_path_exits_2_showing_the_spec(
        agent: str, form: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(["evaluate", agent, "sensible", "--games", "10"], capsys)
    assert code == 2
    assert err == f"pagadores evaluate: error: policy {agent!r} needs its path: {form}\n"


# --------------------------------------------------------------------------- delegation
def test_train_bad_config_exits_2_naming_the_key(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("yaml")
    bad = tmp_path / "bad.yaml"
    bad.write_text("env:\n  num_players: 9\n")
    code, _, err = run_cli(["train", str(bad)], capsys)
    assert code == 2
    assert "env.num_players must be 2–6, got 9" in err


@pytest.mark.parametrize("command", sorted(DELEGATED))
def test_delegated_commands_reach_their_module(command: str,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib

    if command in ("train", "benchmark"):
        pytest.importorskip("yaml")  # they read YAML configs (the train extra)
    module = importlib.import_module(DELEGATED[command][0])
    seen: list[list[str]] = []
    monkeypatch.setattr(module, "main", lambda argv: seen.append(list(argv)) or 0)
    assert main([command, "--flag", "value"]) == 0
    assert seen == [["--flag", "value"]]


# --------------------------------------------------------------------------- one-line endings
def test_help_lists_every_registered_agent(capsys: pytest.CaptureFixture[str]) -> None:
    from pagadores_env.core.policies import registered_policies

    with pytest.raises(SystemExit):
        main(["evaluate", "--help"])
    epilog = capsys.readouterr().out.split("agent specs:")[1]
    assert "optimal" in epilog
    for name in registered_policies():
        assert name in epilog
    assert "rllib:path=RUN_FOLDER" in " ".join(epilog.split())  # what it cannot do without


@pytest.mark.parametrize("command", ["bench", "exact", "solve", "nashconv", "best-response"])
def test_delegated_commands_name_themselves(command: str,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main([command, "--help"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: pagadores {command} ") and "python -m" not in out
    needed = ["sensible"] if command == "nashconv" else []  # its one required argument
    with pytest.raises(SystemExit) as exit_:
        main([command, *needed, "--no-such-option"])
    assert exit_.value.code == 2
    assert f"pagadores {command}: error: unrecognized arguments" in capsys.readouterr().err


class _CtrlC(io.StringIO):
    def readline(self, *args: object) -> str:
        raise KeyboardInterrupt


def test_ctrl_c_abandons_the_game_in_one_line(monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", _CtrlC())
    code, out, err = run_cli(["play", "--seed", "1"], capsys)
    assert code == 130
    assert err.strip() == "game abandoned"
    assert "Dados de Pagadores" in out and "Traceback" not in out + err


def test_ctrl_c_during_an_evaluation_is_one_line(monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    import pagadores_train.evaluation.evaluate

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(pagadores_train.evaluation.evaluate, "evaluate_agents", interrupted)
    code, _, err = run_cli(["evaluate", "sensible", "random"], capsys)
    assert code == 130
    assert err.strip() == "pagadores evaluate: interrupted"



def test_sigterm_during_an_evaluation_is_one_line_and_exit_143(tmp_path: Path) -> None:
    """SIGTERM (``timeout``, SLURM, ``docker stop``) ends a long command as Ctrl-C does, in
    one line; it ended it at once, silently, with status 143 (issue 45, item 10)."""
    # once games are played: numba's compiling swallows an exception a signal raises there
    code, _, err = terminate_when(["evaluate", "sensible", "random", "--games", "5000000",
                                   "--no-exact", "--no-progress"], "games [", tmp_path)
    assert code == 143
    assert err.strip().splitlines()[-1] == "pagadores evaluate: terminated by SIGTERM"
    assert "Traceback" not in err


@pytest.mark.parametrize("command", ["evaluate", "tournament"])
@pytest.mark.parametrize("where", ["file", "under a file"])
def test_out_that_cannot_be_a_folder_is_refused_before_playing(
        command: str, where: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "results"
    blocker.write_text("user data")
    out = blocker if where == "file" else blocker / "sub"
    code, stdout, err = run_cli([command, "sensible", "random", "--games", "10",
                                 "--out", str(out)], capsys)
    assert code == 2
    assert stdout == ""  # no games were played
    assert err.strip() == (f"pagadores {command}: error: --out {out}: {blocker} is a file, "
                           "not a folder")
    assert blocker.read_text() == "user data"


def test_a_failed_write_at_the_end_is_one_line_and_keeps_the_table(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from pagadores_train.run.reports import results_document

    # an earlier run's folder (its results file is ours), a folder where a result file goes
    (tmp_path / "evaluate.md").write_text(results_document("evaluate", "`earlier`", "table"))
    (tmp_path / "evaluate.json").mkdir()
    code, out, err = run_cli(["evaluate", "sensible", "random", "--games", "10", "--no-exact",
                              "--out", str(tmp_path)], capsys)
    assert code == 2
    assert "sensible" in out  # the results were shown before the write failed
    lines = err.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(f"pagadores evaluate: error: --out {tmp_path}: cannot write "
                               f"evaluate.json in {tmp_path}: ")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["evaluate.csv", "evaluate.json",
                                                          "evaluate.md"]
    assert "`earlier`" in (tmp_path / "evaluate.md").read_text()  # not yet replaced


def test_a_full_disk_under_out_is_one_line_naming_the_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Before: the OSError's own text, naming the temporary file of the atomic write."""
    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    monkeypatch.setattr(atomic.os, "fsync", full)
    code, out, err = run_cli(["evaluate", "sensible", "random", "--games", "10", "--no-exact",
                              "--out", str(tmp_path)], capsys)
    assert code == 2 and "sensible" in out
    assert err == (f"pagadores evaluate: error: --out {tmp_path}: cannot write evaluate.csv "
                   f"in {tmp_path}: No space left on device\n")
    assert list(tmp_path.iterdir()) == []  # no temporary file left behind


def test_an_unwritable_solver_cache_is_a_one_line_warning(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "not a folder"
    blocker.write_text("")
    monkeypatch.setenv("PAGADORES_CACHE", str(blocker / "cache"))
    code, out, err = run_cli(["evaluate", "optimal:cards=2", "random", "--cards", "2",
                              "--games", "10"], capsys)
    assert code == 0 and "optimal:cards=2" in out
    lines = err.strip().splitlines()
    assert lines and all(line.startswith("pagadores evaluate: warning: could not cache the "
                                         "solution") for line in lines)


@pytest.mark.parametrize("command", ["best-response", "exact", "solve", "nashconv"])
def test_ctrl_c_in_a_delegated_command_is_one_line(command: str,
                                                   monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    import importlib

    def interrupted(argv: list[str]) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(importlib.import_module(DELEGATED[command][0]), "main", interrupted)
    code, _, err = run_cli([command], capsys)
    assert code == 130
    assert err.strip() == f"pagadores {command}: interrupted"


# --------------------------------------------------------------------------- exact solver commands
def numbers_after(label: str, text: str) -> list[float]:
    """The numbers on the line that starts with ``label`` (after stripping indentation)."""
    line = next(line for line in text.splitlines() if line.strip().startswith(label))
    return [float(word) for word in line.strip()[len(label):].split() if "." in word]


@pytest.fixture
def solver_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PAGADORES_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_solve_prints_every_seats_equilibrium_value(solver_cache: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    from pagadores_env.pagadores.solver import solve

    code, out, _ = run_cli(["solve", "--players", "3", "--cards", "2"], capsys)
    assert code == 0
    expected = solve(3, 2, cache=False)
    assert out.startswith("3 players, 2 cards each, equilibrium play")
    printed = numbers_after("win probability per seat (seat 0 insteeks first):", out)
    assert printed == [round(v, 10) for v in expected.win_probabilities()]
    assert f"{len(expected.positions)} positions, solved now" in out
    cached = solver_cache / "equilibrium_3p_2cards_v1.npz"
    assert f"cache file {cached}" in out and cached.is_file()
    code, again, _ = run_cli(["solve", "--players", "3", "--cards", "2"], capsys)
    assert code == 0 and "loaded from the cache" in again
    assert numbers_after("win probability per seat", again) == printed


def test_solve_at_two_players_adds_the_per_seat_line(solver_cache: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    from pagadores_env.pagadores.solver import solve_two_player

    code, out, _ = run_cli(["solve", "--cards", "2"], capsys)
    value = solve_two_player(2).value
    assert code == 0
    assert f"first insteker (seat 0) wins with probability {value:.10f}" in out
    assert numbers_after("win probability per seat (seat 0 insteeks first):", out) == [
        round(value, 10), round(1 - value, 10)]


def nash_conv_rows(out: str) -> list[list[str]]:
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("seat  agent"))
    return [line.split() for line in lines[start + 1:] if line[:1].isdigit()]


@pytest.mark.parametrize("agents", [["sensible"], ["sensible", "random", "stop-first"]])
def test_nashconv_prints_the_python_apis_numbers(agents: list[str], solver_cache: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    from pagadores_env.pagadores.solver import nash_conv

    code, out, _ = run_cli(["nashconv", *agents, "--players", "3", "--cards", "2"], capsys)
    assert code == 0
    expected = nash_conv(agents[0] if len(agents) == 1 else agents, 3, 2)
    rows = nash_conv_rows(out)
    assert [row[1] for row in rows] == agents * (3 // len(agents))
    assert [[float(x) for x in row[2:]] for row in rows] == [
        [round(v, 10), round(b, 10), round(g, 10)] for v, b, g in
        zip(expected.values, expected.best_responses, expected.gains, strict=True)]
    assert numbers_after("NashConv (sum of the gains; 0 = equilibrium):", out) == [
        round(expected.total, 10)]
    assert expected.total > 0.01  # none of these profiles is an equilibrium
    assert re.search(r"^computed in [\d.]+ s \([\d.]+ s of CPU\); peak memory [\d.]+ GB"
                     r"(, its largest worker [\d.]+ GB)?$", out, re.MULTILINE)


@pytest.mark.slow
def test_nashconv_of_the_equilibrium_is_zero(solver_cache: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(["nashconv", "equilibrium", "--players", "4", "--cards", "1"],
                           capsys)
    assert code == 0
    assert numbers_after("NashConv", out) == [0.0]
    assert len(nash_conv_rows(out)) == 4


def test_best_response_prints_the_python_apis_value(solver_cache: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    from pagadores_env.core.policies import make_policy
    from pagadores_env.pagadores.solver.multi import best_response_multi

    code, out, _ = run_cli(["best-response", "--players", "3", "--cards", "2",
                            "--hero-seat", "1"], capsys)
    expected = best_response_multi([make_policy("sensible")] * 2, 3, 2, hero_seat=1).value
    assert code == 0
    assert f"hero wins with probability {expected:.10f}" in out


@pytest.mark.slow
def test_best_response_seats_the_equilibrium_at_four_players(
        solver_cache: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from pagadores_env.pagadores.solver import solve

    code, out, _ = run_cli(["best-response", "--players", "4", "--cards", "1", "--hero-seat",
                            "2", "--opponent", "equilibrium"], capsys)
    assert code == 0  # each opponent is told its seat, which R6.2 needs at 4 players
    # against the equilibrium, the best a seat can do is its equilibrium value
    value = solve(4, 1, cache=False).win_probabilities()[2]
    assert f"hero wins with probability {value:.10f}" in out


@pytest.mark.parametrize(("args", "message"), [
    (["solve", "--players", "5"], "5 players with 10 cards each is too big to solve exactly"),
    (["solve", "--players", "3", "--cards", "0"], "--cards must be an integer 1–10, got 0"),
    (["solve", "--players", "7"], "--players must be an integer 2–6, got 7"),
    (["nashconv", "sensible", "--players", "5"],
     "5 players with 10 cards each is too big to compute NashConv of exactly"),
    (["nashconv", "sensible", "--cards", "0"], "--cards must be an integer 1–10, got 0"),
    (["nashconv", "sensible", "random"], "a profile is one agent for every seat or 3 agents"),
    (["nashconv", "optimal"], "'optimal' plays 2-player games only"),
    (["nashconv", "nobody"], "unknown policy 'nobody'"),
    (["best-response", "--players", "5"],
     "5 players with 10 cards each is too big to best-respond at exactly"),
    (["best-response", "--players", "3", "--cards", "0"],
     "--cards must be an integer 1–10, got 0"),
])
def test_exact_commands_refuse_bad_input_in_one_line(
        args: list[str], message: str, solver_cache: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from pagadores_env.pagadores.solver.sweep import Sweep

    def no_pass(*_: object) -> None:
        raise AssertionError("a solver pass started before the input was refused")

    monkeypatch.setattr(Sweep, "run", no_pass)  # refused before any work
    with pytest.raises(SystemExit) as exit_:
        main(args)
    assert exit_.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(f"pagadores {args[0]}: error: ") and message in lines[0]
    if "too big" in message:
        assert "within the limits: " in lines[0]  # names what fits
    # nothing was solved ('optimal' loads its two-player solution as it is built)
    assert not list(solver_cache.glob("equilibrium_*"))


@pytest.mark.parametrize(("flags", "expected"), [([], "SILENT"), (["--no-progress"], "LINES"),
                                                 (["--progress"], "BARS")])
def test_the_progress_options_choose_bars_status_lines_or_nothing_off_a_terminal(
        flags: list[str], expected: str) -> None:
    """Bars by default, drawn only on a terminal (pytest's stderr is none), so a log gets no
    control characters; ``--no-progress`` status lines; ``--progress`` bars anyway."""
    if expected == "BARS":
        pytest.importorskip("tqdm")  # without it status lines stand in (the next test)
    import argparse

    from pagadores_cli.main import add_progress_options, progress_of
    from pagadores_train import progress

    parser = argparse.ArgumentParser()
    add_progress_options(parser)
    assert progress_of(parser.parse_args(flags)) == getattr(progress, expected)


def test_without_tqdm_status_lines_stand_in_for_the_bars(monkeypatch: pytest.MonkeyPatch) -> None:
    import argparse
    import sys

    from pagadores_cli.main import add_progress_options, progress_of
    from pagadores_train.progress import LINES

    monkeypatch.setitem(sys.modules, "tqdm", None)  # as if the train extra were missing
    parser = argparse.ArgumentParser()
    add_progress_options(parser)
    assert progress_of(parser.parse_args(["--progress"])) == LINES


def _timeless(text: str) -> list[str]:
    """``text``'s lines with every duration and memory size replaced, so two runs compare
    equal."""
    return [re.sub(r"\d+(\.\d+)? GB\b", "M GB", re.sub(r"\d+(\.\d+)? s\b", "T s", line))
            for line in text.splitlines()]


@pytest.mark.parametrize(("argv", "phase"), [
    (["evaluate", "sensible", "random", "--games", "20", "--cards", "2"], "evaluate"),
    (["evaluate", "--game", "perudo", "random", "bluffer", "--games", "20", "--dice", "1"],
     "evaluate"),
    (["tournament", "sensible", "random", "stop-first", "--games", "4", "--cards", "2"],
     "tournament"),
    (["solve", "--players", "3", "--cards", "2", "--force"], "solving"),
    (["nashconv", "sensible", "--players", "3", "--cards", "2"], "NashConv"),
    (["best-response", "--players", "3", "--cards", "2"], "best response"),
    (["exact", "--cards", "2", "sensible", "optimal"], "tabulating"),
    (["exact", "--players", "3", "--cards", "1", "sensible"], "exact"),
])
def test_every_long_command_reports_its_phases_in_status_lines_with_no_progress(
        argv: list[str], phase: str, solver_cache: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """With ``--no-progress`` a long command says what it is doing on stderr, a line when a
    phase starts, per step and when it ends, and prints on stdout what it printed before, its
    results alone (the lines went to stdout, into the table a user redirects to a file:
    issue 45, item 13); without it (bars, not drawn off a terminal) nothing of that is
    printed."""
    def is_status(line: str) -> bool:  # the phase's lines (an evaluation's exact ones too)
        return re.match(rf"{phase}( \(exact\))?: ", line) is not None

    code, out, err = run_cli([*argv, "--no-progress"], capsys)
    assert code == 0, err
    assert not any(map(is_status, out.splitlines()))
    status = [line for line in err.splitlines() if line.startswith(f"{phase}: ")]
    assert len(status) >= 3
    assert re.fullmatch(rf"{phase}: [\d,]+ \w+", status[0])
    assert all(re.fullmatch(rf"{phase}: [\d,]+/[\d,]+ \w+( \(.*\))? {TIMES}", line)
               for line in status[1:-1])
    assert re.fullmatch(rf"{phase}: done {TIMES}", status[-1])
    quiet_code, quiet_out, quiet_err = run_cli(argv, capsys)
    assert quiet_code == 0
    assert not any(map(is_status, (quiet_out + quiet_err).splitlines()))
    assert _timeless(out) == _timeless(quiet_out)


def test_a_refused_table_is_one_line_with_status_lines_asked_for(
        solver_cache: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["nashconv", "optimal", "--no-progress"])
    assert exit_.value.code == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1


@pytest.mark.slow
def test_exact_report_at_three_players_matches_the_solver(solver_cache: Path,
                                                          capsys: pytest.CaptureFixture[str]
                                                          ) -> None:
    from pagadores_env.pagadores.solver import exact_evaluate, nash_conv, solve

    code, out, err = run_cli(["exact", "--players", "3", "--cards", "1", "sensible",
                              "equilibrium", "optimal"], capsys)
    assert code == 0
    cells = {line.split("|")[1].strip(): [c.strip() for c in line.split("|")[2:-1]]
             for line in out.splitlines() if line.startswith("| ")}
    assert cells["equilibrium (SPE)"] == [f"{v:.4f}" for v in solve(3, 1).win_probabilities()]
    for name in ("sensible", "equilibrium"):
        assert cells[name] == [f"{nash_conv(name, 3, 1).total:.4f}".lstrip("-"),
                               f"{exact_evaluate([name, 'sensible', 'sensible'], 3, 1)[0]:.4f}"]
    assert cells["equilibrium"][0] == "0.0000"
    assert "optimal" not in cells and "`optimal` is not in the table: 'optimal' plays " \
        "2-player games only" in out
    assert "sensible: " in err and "computed in" in err


def test_every_shipped_agent_is_in_the_multiplayer_report() -> None:
    from pagadores_cli.exact_report import SHIPPED, shipped_agents
    from pagadores_env.core.policies import registered_policies

    need_a_path, monte_carlo_only = {"model", "rllib", "search"}, {"openspiel-mcts"}
    assert not (need_a_path | monte_carlo_only) & set(shipped_agents())
    assert set(shipped_agents()) == set(registered_policies()) - need_a_path - monte_carlo_only
    assert shipped_agents()[:len(SHIPPED)] == list(SHIPPED)


@pytest.mark.slow
def test_the_multiplayer_report_leaves_out_agents_that_need_a_path_without_a_word(
        solver_cache: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(["exact", "--players", "3", "--cards", "1"], capsys)
    assert code == 0
    assert "`rllib` is not in the table" not in out and "path" not in out
    assert "`optimal` is not in the table: 'optimal' plays 2-player games only" in out
    assert "| equilibrium | 0.0000 |" in out


def test_a_multiplayer_report_that_no_agent_can_play_is_refused_before_any_solve(
        solver_cache: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["exact", "--players", "3", "--cards", "3", "optimal"])
    assert exit_.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == ("pagadores exact: error: no agent given can play 3 players with 3 cards "
                   "each: 'optimal' plays 2-player games only (the exact solver is "
                   "two-player), got 3 players\n")
    assert not list(solver_cache.glob("equilibrium_*"))  # nothing was solved


@pytest.mark.parametrize("argv", [["nashconv", "equilibrium", "--players", "3", "--cards", "2"],
                                  ["exact", "--players", "3", "--cards", "1", "sensible"],
                                  ["exact", "--cards", "2", "sensible", "optimal"]])
def test_the_exact_commands_warn_in_one_line_and_go_on_with_an_unwritable_cache(
        argv: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """As the docs say of every command but ``solve`` (docs/architecture.md, "Solver
    cache"): one line, once, and the result."""
    blocker = tmp_path / "not a folder"
    blocker.write_text("")
    monkeypatch.setenv("PAGADORES_CACHE", str(blocker / "cache"))
    code, out, err = run_cli(argv, capsys)
    assert code == 0 and ("| sensible |" in out or "NashConv (sum" in out)
    warned = [line for line in err.splitlines() if "warning" in line]
    assert warned and len(set(warned)) == len(warned)  # each file's warning once
    assert all(line.startswith(f"pagadores {argv[0]}: warning: could not cache the solution "
                               f"at {blocker / 'cache'}/") for line in warned)
    assert "Traceback" not in err and "UserWarning" not in err


def test_evaluate_says_why_it_played_more_games_than_asked(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(["evaluate", "sensible", "random", "--players", "3", "--games", "10",
                            "--cards", "2", "--no-exact"], capsys)
    assert code == 0
    assert out.startswith("12 games, 3 players")
    assert "12 games: 10 rounded up to whole seat rotations of 3" in out
    _, whole, _ = run_cli(["evaluate", "sensible", "random", "--players", "3", "--games", "12",
                           "--cards", "2", "--no-exact"], capsys)
    assert "rounded up" not in whole


def test_evaluate_refuses_a_fixed_seat_that_the_rotation_cannot_keep(
        solver_cache: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(["evaluate", "equilibrium:seat=0", "sensible", "--players", "4",
                              "--cards", "1", "--games", "8"], capsys)
    assert (code, out) == (2, "")
    assert err == ("pagadores evaluate: error: 'equilibrium:seat=0' plays seat 0 only, but "
                   "here it takes every seat 0–3 in turn (seats rotate): leave out seat=, and "
                   "each seat's copy is told its seat\n")
    code, _, err = run_cli(["evaluate", "equilibrium:seat=9", "sensible", "--players", "4",
                            "--cards", "1", "--games", "8"], capsys)
    assert code == 2
    assert err == ("pagadores evaluate: error: equilibrium: seat must be 0–3 at 4 players, "
                   "got 9\n")
    code, out, _ = run_cli(["evaluate", "equilibrium", "sensible", "--players", "4", "--cards",
                            "1", "--games", "8", "--no-exact"], capsys)
    assert code == 0 and out.startswith("8 games, 4 players")


def test_bench_solver_section_measures_each_table_in_its_own_process(
        capsys: pytest.CaptureFixture[str]) -> None:
    from pagadores_env.pagadores.solver import solve_cost

    code, out, err = run_cli(["bench", "--section", "solver", "--players", "3",
                              "--max-cards", "2"], capsys)
    assert code == 0
    # each row says on stderr when it starts and what it measured, the table stays on stdout
    said = err.splitlines()
    assert [line.split(": ")[1] for line in said] == ["3 players, 1 card", "3 players, 1 card",
                                                      "3 players, 1 card", "3 players, 2 cards",
                                                      "3 players, 2 cards", "3 players, 2 cards"]
    assert "solving (arrays estimated at" in said[0]
    assert re.search(r": NashConv 0\.\d{10} in [\d.]+ s, peak [\d,]+ MB$", said[2])
    assert "bench solver" not in out
    lines = out.splitlines()
    assert lines[1].split() == ["players", "cards", "positions", "solve", "s", "solve", "peak",
                                "MB", "estimate", "MB", "NashConv", "s", "NashConv", "peak",
                                "MB"]
    rows = [line.split() for line in lines[2:4]]
    assert [row[:3] for row in rows] == [
        ["3", str(c), f"{solve_cost((c,) * 3).positions:,}"] for c in (1, 2)]
    for column in (4, 7):  # the solve's and the NashConv's peaks
        peaks = [float(row[column].replace(",", "")) for row in rows]
        assert 10 < peaks[0] <= peaks[1] < 2000  # megabytes of a fresh process


def test_bench_solver_measures_the_rows_asked_with_the_nashconv_workers_asked(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(["bench", "--section", "solver", "--players", "3", "--min-cards",
                            "2", "--max-cards", "2", "--workers", "2", "--json"], capsys)
    from pagadores_env.pagadores.solver import nash_conv

    summary = json.loads(out)
    assert code == 0 and summary["solver_3p_largest_cards_solved"] == 2
    assert abs(summary["nashconv_3p_2c"] - nash_conv("sensible", 3, 2).total) <= 1e-12
    assert "solver_3p_1c_seconds" not in summary  # below --min-cards
    assert summary["nashconv_3p_2c_seconds"] > 0 and summary["nashconv_3p_2c_peak_mb"] > 10


@pytest.mark.skipif(not HAS_PROC, reason="reads processes from /proc")
def test_bench_solver_row_ends_when_the_report_is_killed(tmp_path: Path) -> None:
    """A report killed outright (``kill -9``, out of memory) cannot stop the fresh process
    computing its row: the row ends by itself (``--parent``, ``core.pool.end_with_parent``)
    instead of computing on for nobody, and no results file is written."""
    out = tmp_path / "rows.md"
    rows = kill_once_started([sys.executable, "-m", "pagadores_cli.bench", "--section", "solver",
                              "--players", "3", "--min-cards", "9", "--out", str(out)],
                             b"pagadores_cli.bench_solver", 60)
    assert within(15, lambda: not any(map(running, rows))), "the row outlived the report"
    assert not out.exists()


def test_out_never_replaces_a_file_pagadores_did_not_write(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    mine = tmp_path / "mine.md"
    mine.write_text("my notes\n")
    (tmp_path / "nc").mkdir()
    (tmp_path / "nc" / "nashconv.json").write_text("{}")  # theirs: no nashconv.md of ours
    bench = ["bench", "--section", "solver", "--players", "3", "--max-cards", "1"]
    for args in ([*bench, "--out", str(mine)],
                 ["nashconv", "sensible", "--players", "3", "--cards", "1", "--out",
                  str(tmp_path / "nc")]):
        with pytest.raises(SystemExit) as exit_:
            main(args)
        last = capsys.readouterr().err.splitlines()[-1]
        assert exit_.value.code == 2 and last.startswith(f"pagadores {args[0]}: error: --out")
        assert "pagadores did not write it" in last and "pick a new name or folder" in last
    assert mine.read_text() == "my notes\n"
    assert (tmp_path / "nc" / "nashconv.json").read_text() == "{}"
    ours = tmp_path / "ours.md"
    for _ in range(2):  # a results file it wrote is replaced by the next run
        code, _, _ = run_cli([*bench, "--out", str(ours)], capsys)
        assert code == 0 and ours.read_text().startswith("# bench")


def test_bench_solver_no_nashconv_measures_the_solve_alone(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(["bench", "--section", "solver", "--players", "3", "--max-cards",
                              "1", "--no-nashconv"], capsys)
    assert code == 0 and "NashConv" not in err
    row = out.splitlines()[2].split()
    assert row[:2] == ["3", "1"] and float(row[3]) > 0
    assert row[-4:] == ["not", "run", "not", "run"]
    assert "NashConv of sensible: not run (--no-nashconv)" in out


def test_bench_solver_stops_a_player_count_at_the_first_refusal(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from pagadores_env.pagadores.solver import cost, solve_cost

    # 3 players with 1 card fit in 4 MB of arrays, with 2 cards they do not
    assert solve_cost((1,) * 3, keep=True).bytes < 4e6 < solve_cost((2,) * 3, keep=True).bytes
    monkeypatch.setattr(cost, "memory_limit", lambda: 4 * 10**6)
    code, out, _ = run_cli(["bench", "--section", "solver", "--players", "3",
                            "--max-cards", "5", "--json"], capsys)
    assert code == 0
    summary = json.loads(out)
    assert summary["solver_3p_largest_cards_solved"] == 1
    assert summary["solver_3p_refused_cards"] == 2
    assert "solver_3p_2c_seconds" not in summary
    code, out, _ = run_cli(["bench", "--section", "solver", "--players", "3",
                            "--max-cards", "5"], capsys)
    assert "3 players, 2 cards: refused: 3 players with 2 cards each is too big to solve " \
        "exactly" in out
    assert "3        3" not in out  # nothing after the refusal


@pytest.mark.parametrize(("args", "message"), [
    (["--players", "3", "7"], "--players must be player counts 2–6, got 3 7"),
    (["--max-cards", "11"], "--max-cards must be 1–10, got 11"),
    (["--min-cards", "4", "--max-cards", "3"], "--min-cards must be 1–3 (--max-cards), got 4"),
    (["--workers", "0"], "--workers at least 1"),
])
def test_bench_solver_options_are_checked(args: list[str], message: str,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["bench", "--section", "solver", *args])
    assert exit_.value.code == 2
    assert message in capsys.readouterr().err


def _fake_vector_section(options: object) -> dict:
    return {"title": "fake", "columns": ["x"], "rows": [{"x": 1}], "notes": [],
            "summary": {"vector_decisions_per_s": 20_000_000, "only_now": 5, "label": "new",
                        "vector_rates": {"vector/2p/1": 300, "vector/4p/1": 200}}}


def test_bench_baseline_prints_both_runs_side_by_side(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from pagadores_cli import bench

    monkeypatch.setitem(bench.SECTIONS, "vector", _fake_vector_section)
    before = tmp_path / "before.json"
    before.write_text(json.dumps({"vector_decisions_per_s": 2_000_000, "only_then": 1,
                                  "label": "old", "vector_rates": {"vector/2p/1": 100}}))
    code, out, _ = run_cli(["bench", "--section", "vector", "--baseline", str(before)], capsys)
    assert code == 0
    table = out.split("Against the baseline")[1].splitlines()
    assert table[1].split() == ["number", "before", "after", "after", "/", "before"]
    # only numbers that both runs have, each with its ratio
    assert [line.split() for line in table[2:]] == [
        ["vector_decisions_per_s", "2,000,000", "20,000,000", "10.00x"],
        ["vector_rates[vector/2p/1]", "100", "300", "3.00x"]]


@pytest.mark.parametrize(("content", "message"), [
    (None, "cannot read it as JSON"), ("[1, 2]", "must hold the JSON object"),
    ("{oops", "cannot read it as JSON")])
def test_bench_baseline_must_be_a_json_summary(content: str | None, message: str,
                                               tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "before.json"
    if content is not None:
        path.write_text(content)
    with pytest.raises(SystemExit) as exit_:
        main(["bench", "--section", "vector", "--baseline", str(path)])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: ") and f"pagadores bench: error: --baseline {path}" in err
    assert message in err


@pytest.mark.parametrize(("given", "expected"), [(None, "1"), ("2", "2")])
def test_the_command_runs_numpys_blas_on_one_thread_unless_told(given, expected) -> None:
    import subprocess
    import sys
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    if given is not None:
        env["OPENBLAS_NUM_THREADS"] = given
    code = ("import pagadores_cli.main, os, numpy; "
            "print(os.environ['OPENBLAS_NUM_THREADS'])")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, check=True).stdout
    assert out.strip() == expected


def test_out_writes_the_printed_table_with_its_command_for_the_docs_to_quote(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from pagadores_train.run.reports import RESULTS_TABLE

    argv = ["evaluate", "sensible", "random", "--games", "10", "--no-exact", "--out",
            str(tmp_path)]
    code, out, _ = run_cli(argv, capsys)
    assert code == 0
    document = (tmp_path / "evaluate.md").read_text()
    assert f"`pagadores {' '.join(argv)}`" in document
    found = RESULTS_TABLE.search(document)
    assert found is not None and found["table"].strip() in out
    assert "- commit: " in document


def test_bench_out_writes_the_tables_with_the_command_for_the_docs(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from pagadores_train.run.reports import RESULTS_TABLE

    argv = ["bench", "--section", "solver", "--players", "3", "--max-cards", "1", "--out",
            str(tmp_path / "scaling.md")]
    code, out, _ = run_cli(argv, capsys)
    assert code == 0
    document = (tmp_path / "scaling.md").read_text()
    assert f"`pagadores {' '.join(argv)}`" in document
    found = RESULTS_TABLE.search(document)
    assert found is not None and found["table"].strip() in out


def test_bench_out_in_a_folder_that_cannot_be_is_refused_before_measuring(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("user data")
    with pytest.raises(SystemExit) as exit_:
        main(["bench", "--section", "solver", "--out", str(blocker / "scaling.md")])
    assert exit_.value.code == 2
    captured = capsys.readouterr()
    assert "is a file, not a folder" in captured.err and captured.out == ""
    assert blocker.read_text() == "user data"


def test_running_out_of_memory_is_one_line(monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    import pagadores_train.evaluation.evaluate

    def exhausted(*args: object, **kwargs: object) -> None:
        raise MemoryError

    monkeypatch.setattr(pagadores_train.evaluation.evaluate, "evaluate_agents", exhausted)
    code, _, err = run_cli(["evaluate", "sensible", "random"], capsys)
    assert code == 1
    assert err.startswith("pagadores evaluate: error: out of memory (") and err.count("\n") == 1
