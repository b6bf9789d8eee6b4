"""``pagadores play --game perudo`` driven by scripted input, and Perudo through ``pagadores
play`` and ``pagadores evaluate`` with their refusals (issue 13, item 5)."""

from __future__ import annotations

import io
import itertools
import re

import numpy as np
import pytest

from pagadores_cli.main import main
from pagadores_cli.play_perudo import parse_answer, play
from pagadores_env.perudo.dice import FaceStream
from pagadores_env.perudo.rules import DUDO, bid_action


def _scripted(answers: list[str]) -> tuple[callable, list[str], list[str]]:
    prompts: list[str] = []
    said: list[str] = []
    feed = iter(answers)

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        return next(feed)
    return ask, prompts, said


def test_play_shows_only_your_dice_until_a_dudo_reveals_the_table() -> None:
    ask, prompts, said = _scripted(["2x3", "d", "q"] * 20)
    hands = FaceStream(np.random.default_rng(4)).roll([5, 5])  # the game's first roll
    play(["probabilistic"], seed=4, ask=ask, say=said.append)
    text = "\n".join(said)
    before, _, after = text.partition("calls dudo")
    assert f"your dice: {' '.join(map(str, sorted(hands[0])))}" in before
    assert "revealed" not in before  # nobody else's dice before the dudo (P7.2)
    theirs = " ".join(map(str, sorted(hands[1])))
    assert f"player_1 {theirs}" in after.splitlines()[1]  # the count line shows every hand


def test_play_reprompts_in_one_line_on_input_that_is_no_legal_action() -> None:
    ask, prompts, said = _scripted(["1x1", "d", "banana", "99x2", "?", "q"])
    assert play(["random"], seed=0, ask=ask, say=said.append) is None
    assert len(prompts) == 6
    replies = said[-6:]
    assert replies[0].startswith("bid 1 x 1 is not allowed now: open on a face 2–6 (no joker "
                                 "opening, P3.2)")
    assert replies[1].startswith("dudo is not allowed now: open on a face 2–6")
    assert replies[2] == replies[3] == ("Please answer a bid QxF (quantity 1–10, face 1–6), "
                                        "d for dudo, ? or q.")
    assert replies[4].startswith("Perudo in short") and replies[5] == "You quit the game."
    assert all("\n" not in r for r in replies[:4])


def test_play_runs_a_whole_game_to_its_winner() -> None:
    answers = itertools.cycle(["2x3", "d"])  # open 2x3, call dudo whenever that is illegal
    said: list[str] = []
    winner = play(["probabilistic"], num_players=3, human_seat=1, dice=1, seed=7,
                  ask=lambda prompt: next(answers), say=said.append)
    assert winner in (0, 1, 2)
    assert said[-1].startswith("Game over after round") and f"player_{winner} wins" in said[-1]


def test_parse_answer_reads_bids_dudo_and_commands() -> None:
    assert parse_answer(" 3x5 ") == parse_answer("3 5") == parse_answer("3*5") == bid_action(3, 5)
    assert parse_answer("D") == parse_answer("dudo") == DUDO
    assert (parse_answer("q"), parse_answer("?")) == ("q", "?")
    assert parse_answer("3x7") is None and parse_answer("0x2") is None and parse_answer("x") is None


def test_the_command_line_plays_and_evaluates_perudo(monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("9x9\nq\n"))
    assert main(["play", "--game", "perudo", "--seed", "3", "--dice", "2"]) == 0
    out = capsys.readouterr().out
    assert "player_1: probabilistic" in out and "Please answer a bid QxF" in out
    assert main(["evaluate", "--game", "perudo", "probabilistic", "random", "--games", "20",
                 "--dice", "2"]) == 0
    assert re.search(r"probabilistic +1 +\d\.\d{3}", capsys.readouterr().out)
    for argv, message in [
        (["play", "--game", "perudo", "sensible"], "pagadores play: error: unknown policy of "
                                                   "perudo 'sensible'"),
        (["play", "--game", "perudo", "--cards", "3"],
         "pagadores play: error: --cards is for --game pagadores, not --game perudo (it "
         "takes --dice)"),
        (["evaluate", "--game", "perudo", "random", "random", "--exact"],
         "pagadores evaluate: error: --exact is for --game pagadores, not --game perudo"),
        (["evaluate", "random", "sensible", "--dice", "3"],
         "pagadores evaluate: error: --dice is for --game perudo, not --game pagadores"),
    ]:
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.startswith(message) and err.count("\n") == 1
