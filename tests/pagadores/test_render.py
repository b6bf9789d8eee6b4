"""Text rendering: event sentences, the position table, and the env's render modes."""

from __future__ import annotations

import random

import pytest

from pagadores_env import Action, Event, Game, pagadores_v1
from pagadores_env.pagadores.render import describe_event, describe_events, render_table
from pagadores_env.pagadores.rules import THROWS, classify

EVENT_KINDS = {"round", "throw", "special", "picaro", "again", "stop", "limit", "score",
               "kampen", "loses", "out", "winner"}


def rows(table: str) -> dict[str, str]:
    """Seat name → its table row."""
    return {line[4:13].strip(): line for line in table.splitlines()[2:]}


def test_describe_event_examples():
    assert describe_event(Event("throw", 2, (1, 1, 1))) == "player_2 throws 1-1-1 Celebro"
    special = Event("special", 2, ((0, 3), (1, 3)))
    assert (describe_event(special, classify((1, 1, 1)))
            == "Celebro! player_0 loses 3 cards, player_1 loses 3 cards")
    assert (describe_event(special)
            == "Special throw by player_2: player_0 loses 3 cards, player_1 loses 3 cards")
    assert describe_event(Event("throw", 0, (1, 3, 6))) == "player_0 throws 1-3-6 Flamenco 163"
    assert describe_event(Event("loses", 1, 1)) == "player_1 loses 1 card"
    assert describe_event(Event("stop", 1, 2)) == "player_1 stops after 2 throws"
    picaro = classify((2, 2, 3)).strength
    assert describe_event(Event("score", 0, picaro)) == "player_0 scores Picaro"


def test_describe_event_rejects_unknown_kinds():
    with pytest.raises(ValueError, match="unknown event kind 'dance'; known kinds are"):
        describe_event(Event("dance", 0, 0))


def test_R4_1_special_is_named_after_its_throw_and_game_over_is_told():
    game = Game(2, cards=1)
    game.apply_throw((1, 1, 1))  # Celebro empties player_1 (R4.1, R6.3)
    assert describe_events(game.log) == [
        "Round 1: player_0 insteeks",
        "player_0 throws 1-1-1 Celebro",
        "Celebro! player_1 loses 1 card",
        "player_1 is out",
        "player_0 wins the game",
    ]
    table = render_table(game)
    assert table.splitlines()[0] == "Game over after 1 round: player_0 wins"
    assert rows(table)["player_0"].endswith("winner")
    assert rows(table)["player_1"].endswith("0  out")


def test_R4_4_picaro_is_told():
    game = Game(2)
    game.apply_throw((3, 2, 2))
    assert describe_events(game.log)[2:] == [
        "Picaro! player_0 loses 2 cards and the round ends",
        "Round 2: player_0 insteeks",
    ]


def test_R3_2_table_shows_current_throw_then_throw_limit_and_score_to_beat():
    game = Game(3)
    game.apply_throw((1, 6, 3))
    table = render_table(game)
    assert table.splitlines()[0] == ("Round 1 | player_0 insteeks | throw limit not set yet | "
                                     "score to beat: none yet")
    assert rows(table)["player_0"] == (
        "  > player_0 *    10  throwing: 1-3-6 Flamenco 163 (throw 1 of 3)")
    assert rows(table)["player_1"].endswith("10  to throw")
    game.apply_action(Action.STOP)
    table = render_table(game)
    assert table.splitlines()[0] == ("Round 1 | player_0 insteeks | throw limit 1 | "
                                     "score to beat: Flamenco 163")
    assert rows(table)["player_0"].endswith("scored Flamenco 163 (lowest)")
    assert rows(table)["player_1"].startswith("  > player_1")
    assert rows(table)["player_1"].endswith("throws now")
    assert rows(table)["player_2"].endswith("to throw")


def test_R5_1_table_shows_kampen():
    game = Game(3)
    game.apply_throw((2, 3, 5))  # Flamenco 10
    game.apply_action(Action.STOP)
    game.apply_throw((2, 4, 4))  # also 10 (R2.5): a tie for lowest
    game.apply_throw((6, 6, 6))
    assert describe_events(game.log)[-1] == ("Kampen: player_0, player_1 tie for lowest and "
                                             "throw once each")
    game.apply_throw((3, 4, 5))
    table = render_table(game)
    assert ", kampen |" in table.splitlines()[0]
    assert rows(table)["player_0"].endswith("kampen: threw Flamenco 12")
    assert rows(table)["player_1"].endswith("kampen: throws now")
    assert rows(table)["player_2"].endswith("scored Cavar")


def test_every_event_kind_of_real_games_gets_a_sentence():
    pick = random.Random(0)
    kinds = set()
    for _ in range(40):
        game = Game(4, cards=3)
        while not game.is_terminal():
            if game.is_chance_node():
                game.apply_throw(THROWS[pick.randrange(216)])
            else:
                game.apply_action(pick.randrange(2))
        lines = describe_events(game.log)
        assert len(lines) == len(game.log)
        assert all(line and "None" not in line for line in lines)
        assert not any(line.startswith("Special throw by") for line in lines)
        kinds |= {event.kind for event in game.log}
        render_table(game)
    assert kinds == EVENT_KINDS


# ---------------------------------------------------------------- the env's render modes
def test_ansi_render_returns_the_table():
    env = pagadores_v1.env(num_players=3, render_mode="ansi")
    env.reset(seed=1)
    env.step(1)
    assert env.render() == render_table(env.unwrapped.game)


def test_human_render_prints_new_events_and_the_table(capsys):
    env = pagadores_v1.env(num_players=2, render_mode="human")
    env.reset(seed=1)
    first = capsys.readouterr().out
    assert first.startswith("Round 1: player_0 insteeks\nplayer_0 throws ")
    assert render_table(env.unwrapped.game) in first
    env.step(0)
    second = capsys.readouterr().out
    assert second.startswith("player_0 stops after 1 throw\n")
    assert "Round 1: player_0 insteeks" not in second
    assert env.render() is None
    assert capsys.readouterr().out == render_table(env.unwrapped.game) + "\n"


def test_render_without_mode_warns_and_returns_none():
    env = pagadores_v1.env()
    env.reset(seed=0)
    with pytest.warns(UserWarning, match="render_mode"):
        assert env.render() is None
