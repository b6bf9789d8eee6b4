"""The exact commands with ``--game paye|pasch``: ``pagadores solve``, ``nashconv`` and
``best-response`` print what Paye's and Pasch's exact yardsticks compute (Y8, X9), on tiny
tables, and refuse bad input in one line before any work; ``nashconv --approximate`` learns a
best response per seat at any table (``learners.approximate_engine``, tested on its own in
``tests/train/test_approximate_engine.py``)."""

from __future__ import annotations

import json
from collections import OrderedDict

import pytest

from pagadores_cli.best_response import main as best_response_main
from pagadores_cli.nashconv import main as nashconv_main
from pagadores_cli.solve import main as solve_main
from pagadores_env.pasch import exact as pasch_exact
from pagadores_env.paye import exact as paye_exact
from pagadores_env.paye import expansion
from pagadores_train.evaluation.pasch import last_round_nash_conv

#: Paye's special dice of few faces (a small independent table; S2 hits 50 in one turn).
FACES = [[0, 0, 0, 0, 0, 30], [10, 10, 10, 25, 25, 25], [0, 0, 0, 50, 50, 50],
         [5, 5, 5, 5, 5, 5], [0, 0, 0, 0, 20, 20], [0, 0, 0, 40, 40, 40]]


def ok(main, argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """``main(argv)``'s standard output, after checking it succeeded."""
    assert main([*argv, "--no-progress"]) == 0
    return capsys.readouterr().out


def refused(main, argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """The one line ``main(argv)`` refused ``argv`` with (exit status 2, nothing on
    standard output)."""
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert out == "" and len(lines) == 1, err
    return lines[0]


# --------------------------------------------------------------------- pagadores solve
def test_y8_1_solve_prints_each_seats_share_with_time_and_peak_memory(capsys) -> None:
    out = ok(solve_main, ["--game", "paye", "--players", "3", "--rounds", "2"], capsys)
    values = paye_exact.start_values(3, rounds=2)
    assert "3 players, base game (to 50), 2 rounds, the default dice" in out
    assert "  ".join(f"seat {s} {v:.10f}" for s, v in enumerate(values)) in out
    assert "computed in " in out and "peak memory " in out


def test_y8_solve_takes_the_expansion_and_special_dice(capsys) -> None:
    out = ok(solve_main, ["--game", "paye", "--variant", "expansion", "--rounds", "2",
                          "--faces", json.dumps(FACES)], capsys)
    values = paye_exact.start_values(2, FACES, 2, variant="expansion")
    assert f"seat 0 {values[0]:.10f}  seat 1 {values[1]:.10f}" in out
    assert "expansion game (to 100)" in out and "optimal play by both" in out


def test_x9_1_solve_prints_the_single_turns_chances(capsys) -> None:
    out = ok(solve_main, ["--game", "pasch", "--blocks", "0", "--goal", "five,1"], capsys)
    assert f"{pasch_exact.best_chance(('five', 1)):.10f}" in out
    assert "0.0460" in out  # five of a kind in three throws: the well-known 4.60%
    table = ok(solve_main, ["--game", "pasch", "--blocks", "2"], capsys)
    row = next(line for line in table.splitlines() if line.startswith("full house"))
    chances = pasch_exact.chance_table(2)[19:25]  # the row's six fields, in order (X7.1)
    assert row.split()[2:] == [f"{c:.4%}" for c in chances]


def test_x9_2_solve_prints_a_last_rounds_equilibrium(capsys) -> None:
    out = ok(solve_main, ["--game", "pasch", "--goal", "pair,6", "--scores", "8,10",
                          "--last-cards", "5,-1", "--blocks-left", "1,0"], capsys)
    shares = pasch_exact.last_round((8, 10), (5, -1), (1, 0), 0)
    assert f"seat 0 {shares[0]:.10f}  seat 1 {shares[1]:.10f}" in out
    assert "blocks left 1, 0; seat 0 starts" in out


# --------------------------------------------------------------------- pagadores nashconv
def test_y8_1_nashconv_prints_the_exact_gains_and_the_exploitability(capsys) -> None:
    out = ok(nashconv_main, ["lookahead", "sensible", "--game", "paye", "--players", "2",
                             "--rounds", "3"], capsys)
    found = paye_exact.nash_conv(["lookahead", "sensible"], 2, rounds=3)
    for seat, agent in enumerate(["lookahead", "sensible"]):
        line = next(line for line in out.splitlines() if line.startswith(f"{seat}  "))
        assert line.split() == [str(seat), agent, f"{found.values[seat]:.10f}",
                                f"{found.best_responses[seat]:.10f}",
                                f"{found.gains[seat]:.10f}"]
    assert f"NashConv (sum of the gains; 0 = equilibrium): {found.total:.10f}" in out
    assert f"0 = optimal play): {found.total / 2:.10f}" in out


@pytest.mark.parametrize(("flags", "players", "table"), [
    (["--players", "3", "--rounds", "2"], 3, {"rounds": 2}),
    (["--players", "2", "--variant", "expansion", "--rounds", "1"], 2,
     {"rounds": 1, "variant": "expansion"}),
])
def test_y8_nashconv_covers_three_players_and_the_expansion(flags, players, table,
                                                             capsys) -> None:
    out = ok(nashconv_main, ["random", "--game", "paye", *flags], capsys)
    found = paye_exact.nash_conv("random", players, **table)
    assert found.total > 0.1 and f"equilibrium): {found.total:.10f}" in out


def test_x9_2_nashconv_averages_the_last_rounds_of_greedy_games(capsys) -> None:
    out = ok(nashconv_main, ["turn_optimal", "--game", "pasch", "--games", "12", "--seed",
                             "3"], capsys)
    found = last_round_nash_conv("turn_optimal", 2, 12, 3)
    assert f"last rounds of 12 greedy-against-greedy games, seed 3, {found.distinct}" in out
    assert f"in every last round): {found.mean:.10f}" in out


def test_nashconv_measures_a_trained_model_as_it_acts(tmp_path, capsys) -> None:
    """A model plays its most likely action in evaluations, so its NashConv is that of its
    deterministic play, not of the softmax it samples from in training."""
    import gymnasium
    from sb3_contrib import MaskablePPO

    from pagadores_agents.sb3_adapter import model_class
    from pagadores_train.evaluation.evaluate import Acting

    env = gymnasium.make("Paye-v1", num_players=2, rounds=2, opponents=["random"])
    MaskablePPO("MlpPolicy", env, seed=0, device="cpu").save(tmp_path / "model.zip")
    spec = f"model:path={tmp_path / 'model.zip'}"
    out = ok(nashconv_main, [spec, "--game", "paye", "--players", "2", "--rounds", "2"],
             capsys)
    player = model_class("paye")(str(tmp_path / "model.zip"))
    acting = paye_exact.nash_conv(Acting(player), 2, rounds=2).total
    sampling = paye_exact.nash_conv(player, 2, rounds=2).total
    assert f"equilibrium): {acting:.10f}" in out and abs(acting - sampling) > 1e-6


def test_nashconv_out_writes_the_game_and_its_table(tmp_path, capsys) -> None:
    argv = ["lookahead", "--game", "paye", "--players", "2", "--rounds", "2", "--out",
            str(tmp_path / "nc")]
    out = ok(nashconv_main, argv, capsys)
    record = json.loads((tmp_path / "nc" / "nashconv.json").read_text())
    found = paye_exact.nash_conv("lookahead", 2, rounds=2)
    assert record["game"] == "paye" and record["total"] == found.total
    assert record["options"]["rounds"] == 2 and record["kind"] == "exact"
    assert f"{found.total:.10f}" in (tmp_path / "nc" / "nashconv.md").read_text()
    assert f"{found.total:.10f}" in out


def test_y8_approximate_nashconv_learns_a_response_per_seat_at_six_players(capsys) -> None:
    out = ok(nashconv_main, ["lookahead", "--game", "paye", "--players", "6", "--rounds", "1",
                             "--approximate", "--budget", "32", "--games", "6"], capsys)
    seats = [line for line in out.splitlines() if line[:1].isdigit()]
    assert [line.split()[0] for line in seats] == [str(s) for s in range(6)]
    assert all("±" in line and line.split()[1] == "lookahead" for line in seats)
    assert "approximate NashConv (a lower bound, learned responses)" in out
    assert "MaskablePPO best responses, paired games on the same dice" in out


# --------------------------------------------------------------------- pagadores best-response
def test_y8_1_best_response_prints_the_heros_share_and_gain(capsys) -> None:
    out = ok(best_response_main, ["lookahead", "random", "--game", "paye", "--players", "2",
                                  "--rounds", "3", "--hero-seat", "1"], capsys)
    found = paye_exact.best_response(["lookahead", "random"], 1, 2, rounds=3)
    assert f"best response {found.value:.10f}, with random {found.profile_value:.10f} " \
           f"(gain {found.gain:.10f})" in out


# --------------------------------------------------------------------- bad input
@pytest.mark.parametrize(("main", "argv", "message"), [
    (solve_main, ["--game", "paye", "--faces", "[[1, 2]]"], "--faces must be six lists"),
    (solve_main, ["--game", "paye", "--faces", "six dice"], "--faces: expected JSON, six"),
    (solve_main, ["--game", "paye", "--variant", "deluxe"], "--variant must be one of"),
    (solve_main, ["--game", "paye", "--rounds", "0"], "--rounds must be"),
    (solve_main, ["--game", "paye", "--players", "7"], "--players must be an integer 2–6"),
    (solve_main, ["--game", "paye", "--players", "5"], "covers 2–4 players (Y8.1), got 5"),
    (solve_main, ["--game", "paye", "--variant", "expansion", "--players", "3"],
     "the expansion's exact yardstick covers 2 players"),
    (nashconv_main, ["random", "--game", "paye", "--variant", "expansion", "--players", "3"],
     "the expansion's exact yardstick covers 2 players"),
    (nashconv_main, ["random", "--game", "paye", "--players", "7"],
     "--players must be an integer 2–6, got 7"),
    (nashconv_main, ["random", "--game", "paye", "--players", "5"],
     "--approximate learns best responses at any table"),
    (best_response_main, ["--game", "paye", "--variant", "expansion", "--players", "4"],
     "the expansion's exact yardstick covers 2 players"),
    (solve_main, ["--game", "paye", "--cards", "3"], "--cards is for --game pagadores, not "
                                                      "--game paye"),
    (solve_main, ["--faces", json.dumps(FACES)], "--faces is for --game paye, not --game "
                                                 "pagadores"),
    (solve_main, ["--game", "paye", "--force"], "--force is for --game pagadores"),
    (solve_main, ["--game", "perudo"], "pagadores solve covers pagadores, paye, pasch"),
    (solve_main, ["--game", "pasch", "--goal", "six,1"], "--goal must be a field"),
    (solve_main, ["--game", "pasch", "--scores", "1,2"], "--last-cards: give it with"),
    (solve_main, ["--game", "pasch", "--scores", "1,2", "--last-cards", "5,7"],
     "--last-cards must be cards of the hand"),
    (solve_main, ["--game", "pasch", "--scores", "1,2,3,4", "--last-cards", "5,1,1,1"],
     "--scores must be 2 or 3 whole numbers"),
    (nashconv_main, ["lookahead", "--game", "paye", "--games", "5"],
     "--games: for --approximate only"),
    (nashconv_main, ["lookahead", "--game", "paye", "--backend", "ray"],
     "--backend is for --game pagadores"),
    (nashconv_main, ["greedy", "--game", "pasch", "--players", "4"],
     "last round is solved exactly at 2 or 3 players"),
    (nashconv_main, ["lookahead", "--game", "paye", "--players", "5", "--approximate",
                     "--score-exactly"], "covers 2–4 players"),
    (best_response_main, ["--game", "pasch"], "best-response covers pagadores, paye"),
    (best_response_main, ["lookahead", "--opponent", "random", "--game", "paye"],
     "AGENTs or --opponent"),
    (best_response_main, ["lookahead"], "AGENT is for --game paye"),
])
def test_bad_input_is_refused_in_one_line(main, argv, message, capsys) -> None:
    line = refused(main, argv, capsys)
    assert line.startswith(f"pagadores {main.__module__.rsplit('.', 1)[1].replace('_', '-')}"
                           ": error: ") and message in line


def test_y8_a_table_beyond_the_memory_limit_is_refused_before_any_work(monkeypatch,
                                                                         capsys) -> None:
    # a table solved earlier in this process is kept and needs no memory: start without one
    monkeypatch.setattr(paye_exact, "_SOLVED", OrderedDict())
    monkeypatch.setattr(expansion, "_SOLVED", OrderedDict())
    monkeypatch.setattr(paye_exact, "memory_limit", lambda: paye_exact.pass_bytes(2))
    monkeypatch.setattr(paye_exact, "sweep", lambda *a, **k: pytest.fail("it started"))
    line = refused(solve_main, ["--game", "paye", "--players", "3"], capsys)
    assert "cannot solve at 3 players: it needs about" in line and "up to 2 players fit" in line
    line = refused(nashconv_main, ["random", "--game", "paye", "--players", "4"], capsys)
    assert "cannot compute the NashConv at 4 players" in line
    monkeypatch.setattr(expansion, "memory_limit", lambda: 10**6)
    line = refused(solve_main, ["--game", "paye", "--variant", "expansion"], capsys)
    assert "the expansion needs about" in line
