"""Wrong calls: each raises a clear error and leaves the game exactly as it was."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from pagadores_env.core.errors import IllegalMoveError
from pagadores_env.core.records import record_digest
from pagadores_env.pagadores.engine import Game
from tests.dice import AGAIN, F9, F10, STOP, TOP, new_game


def kampen_game() -> Game:
    return new_game(3, script=[F10, STOP, F10, TOP])


def decision_game() -> Game:
    return new_game(2, script=[F10])


def finished_game() -> Game:
    return new_game(2, [1, 1], script=[F9, STOP, F10])


def assert_refused(game: Game, call: Callable[[Game], Any], error: type[Exception],
                   message: str) -> None:
    """``call`` raises ``error`` matching ``message`` and changes nothing."""
    before, log = game.to_dict(), list(game.log)
    with pytest.raises(error, match=message):
        call(game)
    assert game.to_dict() == before and game.log == log


# ---------------------------------------------------------------- moves at the wrong node
@pytest.mark.parametrize("make", [decision_game, lambda: new_game(3, script=[F10, AGAIN, F9])])
def test_throw_at_a_decision_node(make: Callable[[], Game]) -> None:
    assert_refused(make(), lambda g: g.apply_throw(F9), IllegalMoveError,
                   r"seat 0 must first decide: legal actions are 0 \(stop\) and 1")


@pytest.mark.parametrize("make", [Game, kampen_game, lambda: new_game(2, script=[F10, STOP])])
@pytest.mark.parametrize("action", [STOP, AGAIN])
def test_action_at_a_chance_node(make: Callable[[], Game], action: int) -> None:
    game = make()
    assert_refused(game, lambda g: g.apply_action(action), IllegalMoveError,
                   rf"seat {game.current_player} is about to throw \(chance node\)")


@pytest.mark.parametrize("action", [2, -1, 7, "1", None, [0], 0.5])
def test_action_out_of_range(action: Any) -> None:
    assert_refused(decision_game(), lambda g: g.apply_action(action), IllegalMoveError,
                   r"action must be 0 \(stop\) or 1 \(throw again\) as an integer, got ")


@pytest.mark.parametrize("action", [np.True_, np.float32(1), np.array(1.0), np.array([1])])
def test_apply_action_refuses_numpy_bools_floats_and_vectors(action: Any) -> None:
    """Issue 8.11: one rule for actions in every layer (``engine.as_action``)."""
    assert_refused(decision_game(), lambda g: g.apply_action(action), IllegalMoveError,
                   r"as an integer, got .*\((bool|float32|ndarray)\)")


@pytest.mark.parametrize("action", [1, np.int64(1), np.int8(1), np.uint8(1), np.array(1)])
def test_apply_action_takes_python_and_numpy_integers(action: Any) -> None:
    game = decision_game()
    game.apply_action(action)
    assert game.history[-1] == 1 and type(game.history[-1]) is int


@pytest.mark.parametrize("make", [decision_game, finished_game])
def test_chance_outcomes_only_at_a_chance_node(make: Callable[[], Game]) -> None:
    """Issue 8.15: only a chance node has chance outcomes."""
    assert_refused(make(), lambda g: g.chance_outcomes(), IllegalMoveError,
                   r"must first decide|the game is over")


@pytest.mark.parametrize("call", [
    lambda g: g.apply_throw(F10), lambda g: g.apply_action(STOP), lambda g: g.apply_action(AGAIN),
])
def test_nothing_after_the_end(call: Callable[[Game], Any]) -> None:
    assert_refused(finished_game(), call, IllegalMoveError, r"the game is over")


@pytest.mark.parametrize("dice", [(0, 1, 2), (1, 2, 7), (1, 2), (1, 2, 3, 4), "123", None])
def test_bad_dice_are_refused_naming_them(dice: Any) -> None:
    assert_refused(kampen_game(), lambda g: g.apply_throw(dice), ValueError,
                   r"dice must be three integers from 1 to 6")


def test_illegal_move_error_is_a_value_error() -> None:
    assert issubclass(IllegalMoveError, ValueError)


def test_numpy_integers_are_accepted_as_inputs() -> None:
    game = Game(np.int64(3), np.int64(5), np.int64(1))
    game.apply_throw(np.array(F10))
    game.apply_action(np.int64(1))
    assert game.history == [F10, 1] and game.cards == [5, 5, 5]


# ---------------------------------------------------------------- constructor arguments
@pytest.mark.parametrize(("kwargs", "message"), [
    ({"num_players": 1}, r"num_players must be 2–6, got 1"),
    ({"num_players": 7}, r"num_players must be 2–6, got 7"),
    ({"num_players": "2"}, r"num_players must be an integer, got '2'"),
    ({"num_players": 2.0}, r"num_players must be an integer"),
    ({"num_players": True}, r"num_players must be an integer"),
    ({"cards": 0}, r"cards must be 1–10 .*got 0"),
    ({"cards": 11}, r"cards must be 1–10 .*got 11"),
    ({"cards": "10"}, r"cards must be an integer"),
    ({"cards": 2.5}, r"cards must be an integer"),
    ({"cards": [10, 10]}, r"cards per seat must be 3 numbers from 0 to 10"),
    ({"cards": [10, 11, 10]}, r"cards per seat must be 3 numbers"),
    ({"cards": [10, -1, 10]}, r"cards per seat must be 3 numbers"),
    ({"cards": [10, 0, 0]}, r"at least two above 0, got \[10, 0, 0\]"),
    ({"cards": [10, "1", 10]}, r"cards must be an integer"),
    ({"first_insteker": 3}, r"first_insteker must be a seat 0–2 that has cards, got 3"),
    ({"first_insteker": -1}, r"first_insteker must be a seat 0–2"),
    ({"first_insteker": "0"}, r"first_insteker must be an integer"),
    ({"cards": [10, 0, 10], "first_insteker": 1}, r"first_insteker must be a seat .* has cards"),
])
def test_bad_constructor_arguments_name_the_parameter(kwargs: dict[str, Any],
                                                      message: str) -> None:
    args = {"num_players": 3, **kwargs}
    with pytest.raises(ValueError, match=message):
        Game(**args)


# ---------------------------------------------------------------- known engine gaps
def test_bad_dice_raise_illegal_move_error() -> None:
    """engine.py promises that illegal calls raise IllegalMoveError; bad dice raise a plain
    ValueError from ``classify`` instead."""
    assert_refused(Game(2), lambda g: g.apply_throw((0, 1, 2)), IllegalMoveError,
                   r"dice must be three integers from 1 to 6")


@pytest.mark.parametrize("action", [1.0, 0.0, True, False])
def test_apply_action_refuses_floats_and_bools(action: Any) -> None:
    """Only 0 and 1 (ints, incl. numpy ints, or Action) are actions; ``Action(1.0)`` and
    ``Action(True)`` silently succeed today. ``from_dict`` already refuses booleans."""
    assert_refused(decision_game(), lambda g: g.apply_action(action), IllegalMoveError,
                   r"action must be 0 \(stop\) or 1 \(throw again\)")


@pytest.mark.parametrize(("key", "value", "message"), [
    ("version", True, r"version"),
    ("history", [[True, True, True]], r"history\[0\]"),
])
def test_from_dict_refuses_booleans(key: str, value: Any, message: str) -> None:
    """JSON ``true`` is not the number 1: a file with it is corrupt. Today ``version: true``
    and dice ``[true, true, true]`` (read as 1-1-1) are accepted."""
    data = new_game(3, script=[(1, 1, 1)]).to_dict()  # history [[1, 1, 1]]: true-true-true fits
    data[key] = value
    data.pop("digest")
    data["digest"] = record_digest(data)  # sealed, so the replay checks are what is tested
    with pytest.raises(ValueError, match=message):
        Game.from_dict(data)
