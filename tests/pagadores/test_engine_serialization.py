"""Saving and restoring games: ``to_dict``/``from_dict`` through JSON, and ``clone``.

A restored game must be the same game: every internal field, the event log, and what happens
next under the same further inputs. Corrupt files must be refused with a ``ValueError`` that
names what is wrong.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from pagadores_env.core.records import record_digest
from pagadores_env.pagadores.engine import Game, Phase
from pagadores_env.pagadores.rules import THROWS, classify
from tests.dice import F9, F10, F11, STOP, TOP, new_game, random_start, random_step


def fields(game: Game) -> dict[str, Any]:
    """Every internal field: two games with equal fields behave identically."""
    return {name: getattr(game, name) for name in Game.__slots__}


def node_kind(game: Game) -> str:
    if game.is_terminal():
        return "over"
    if game.phase == Phase.KAMPEN:
        return "kampen"
    return "decision" if game.is_decision_node() else "chance"


def mid_game_states(seed: int, per_game: int = 4) -> list[Game]:
    """Copies of one seeded random game taken at random steps (and at its end)."""
    rng = random.Random(seed)
    game = random_start(rng)
    p_again = rng.random()
    states = []
    while not game.is_terminal():
        if rng.random() < per_game / 60:
            states.append(game.clone())
        random_step(game, rng, p_again)
    return [*states, game]


STATES = [state for seed in range(120) for state in mid_game_states(seed)]


def test_sampled_states_cover_every_kind_of_node() -> None:
    assert {node_kind(g) for g in STATES} == {"chance", "decision", "kampen", "over"}


@pytest.mark.parametrize("case", range(0, len(STATES), 1 + len(STATES) // 400))
def test_json_round_trip_restores_the_same_game(case: int) -> None:
    game = STATES[case].clone()  # the shared sample stays untouched for other tests
    data = game.to_dict()
    restored = Game.from_dict(json.loads(json.dumps(data)))
    assert restored.to_dict() == data
    assert restored.snapshot() == game.snapshot()
    assert restored.log == game.log
    assert fields(restored) == fields(game)
    # The same further inputs give the same continuation.
    rng_a, rng_b = random.Random(case), random.Random(case)
    while not game.is_terminal():
        random_step(game, rng_a)
        random_step(restored, rng_b)
    assert restored.to_dict() == game.to_dict() and restored.log == game.log


def test_to_dict_holds_plain_json_data_only() -> None:
    game = new_game(3, script=[F10, STOP, F10, TOP])  # in kampen
    game.apply_throw(THROWS[0])  # a Throw object is stored as its dice
    data = game.to_dict()
    assert json.loads(json.dumps(data)) == data
    assert data["history"] == [list(F10), 0, list(F10), list(TOP), [1, 1, 1]]
    assert data["state"]["phase"] == Phase.KAMPEN


# ---------------------------------------------------------------- corrupt inputs
def _kampen_data() -> dict[str, Any]:
    """A 3-player game in kampen: seats 0 and 1 tied on F10, seat 0 to throw."""
    return new_game(3, script=[F10, STOP, F10, TOP]).to_dict()


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    """A corruption that sets ``data[a][b]`` for ``path`` = "a.b"."""
    *parents, key = path.split(".")

    def corrupt(data: dict[str, Any]) -> None:
        for p in parents:
            data = data[p]
        data[key] = value
    return corrupt


def _delete(key: str) -> Callable[[dict[str, Any]], None]:
    return lambda data: data.pop(key)


CORRUPTIONS: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "missing key": (_delete("history"), r"missing \['history'\]"),
    "unknown key": (_set("seed", 3), r"unknown \['seed'\]"),
    "wrong format": (_set("format", "chess-game"), r"format 'pagadores-game' version 1 or 2"),
    "wrong version": (_set("version", 3), r"version 1 or 2, got 'pagadores-game' version 3"),
    "version as text": (_set("version", "2"), r"version 1 or 2, got .* version '2'"),
    "too many players": (_set("num_players", 7), r"num_players must be 2–6, got 7"),
    "players as text": (_set("num_players", "3"), r"num_players must be an integer"),
    "too many cards": (_set("start_cards", [10, 11, 10]), r"cards per seat .* 0 to 10"),
    "one seat with cards": (_set("start_cards", [10, 0, 0]), r"at least two above 0"),
    "start cards wrong length": (_set("start_cards", [10, 10]), r"cards per seat must be 3"),
    "start cards as text": (_set("start_cards", "10"), r"cards must be an integer"),
    "insteker out of range": (_set("first_insteker", 3), r"first_insteker must be a seat 0–2"),
    "history not a list": (_set("history", "[2, 3, 5]"), r"history must be a list"),
    "action at a chance node": (_set("history", [0]), r"history\[0\] cannot be replayed: "
                                                      r"seat 0 is about to throw"),
    "throw at a decision node": (_set("history", [[2, 3, 5], [2, 3, 5]]),
                                 r"history\[1\] cannot be replayed: seat 0 must first decide"),
    "action out of range": (_set("history", [[2, 3, 5], 2]),
                            r"history\[1\] cannot be replayed: action must be 0 .* got 2"),
    "die out of range": (_set("history", [[2, 3, 7]]),
                         r"history\[0\] cannot be replayed: dice must be three integers"),
    "die as a float": (_set("history", [[2.0, 3, 5]]),
                       r"history\[0\] cannot be replayed: dice must be three integers"),
    "two dice": (_set("history", [[2, 3]]), r"history\[0\] cannot be replayed: dice must"),
    "item of wrong type": (_set("history", ["stop"]),
                           r"history\[0\] cannot be replayed: expected a throw"),
    "boolean action": (_set("history", [[2, 3, 5], True]),
                       r"history\[1\] cannot be replayed: expected a throw"),
    "state not a dict": (_set("state", None), r"state must be a dict with keys"),
    "state key missing": (lambda d: d["state"].pop("round"), r"state must be a dict with keys"),
    "state disagrees: round": (_set("state.round", 2), r"state.round is 2 but .* gives 1"),
    "state disagrees: cards": (_set("state.cards", [10, 9, 10]), r"state.cards is \[10, 9, 10\]"),
    "state disagrees: phase": (_set("state.phase", "round"), r"state.phase is 'round'"),
    "state wrong type: bool": (_set("state.decision", 0), r"state.decision is 0 .* gives False"),
    "state wrong type: text": (_set("state.round", "1"), r"state.round is '1'"),
}


def _reseal(data: dict[str, Any]) -> None:
    """Give an edited record a matching digest, as a deliberate editor would, so that the
    checks behind the digest (keys, start position, replay, snapshot) are what is tested."""
    data.pop("digest", None)
    data["digest"] = record_digest(data)


@pytest.mark.parametrize("name", CORRUPTIONS)
def test_from_dict_refuses_corrupt_input_naming_the_problem(name: str) -> None:
    corrupt, message = CORRUPTIONS[name]
    data = _kampen_data()
    corrupt(data)
    _reseal(data)
    with pytest.raises(ValueError, match=message):
        Game.from_dict(data)


@pytest.mark.parametrize("name", CORRUPTIONS)
def test_from_dict_refuses_every_unsealed_edit_by_its_digest(name: str) -> None:
    corrupt, _ = CORRUPTIONS[name]
    data = _kampen_data()
    corrupt(data)
    with pytest.raises(ValueError):
        Game.from_dict(data)


def test_from_dict_refuses_history_after_the_end() -> None:
    data = new_game(2, [1, 1], script=[F9, STOP, F10]).to_dict()
    data["history"].append(list(F11))
    _reseal(data)
    with pytest.raises(ValueError, match=r"history\[3\] cannot be replayed: the game is over"):
        Game.from_dict(data)


def _finished_random_game(seed: int) -> Game:
    rng = random.Random(seed)
    game = Game(4)
    while not game.is_terminal():
        random_step(game, rng)
    return game


@pytest.mark.parametrize("seed", range(3))
def test_from_dict_detects_any_changed_die(seed: int) -> None:
    """Issue 8.7: changing one die of one saved throw replays to the same snapshot in most
    places (32 of 45 throws in the report); the digest must catch every such change."""
    data = _finished_random_game(seed).to_dict()
    throws = [i for i, item in enumerate(data["history"]) if isinstance(item, list)]
    for i in throws:
        tampered = json.loads(json.dumps(data))
        die = tampered["history"][i][0]
        tampered["history"][i][0] = die % 6 + 1
        with pytest.raises(ValueError, match="digest does not match"):
            Game.from_dict(tampered)


def test_from_dict_detects_a_flipped_bit_anywhere_in_the_file() -> None:
    text = json.dumps(_finished_random_game(7).to_dict())
    rng = random.Random(0)
    for _ in range(300):
        raw = bytearray(text.encode())
        at = rng.randrange(len(raw))
        raw[at] ^= 1 << rng.randrange(7)
        try:
            data = json.loads(raw.decode())
        except ValueError:
            continue  # the file no longer parses: refused before the engine sees it
        if data == json.loads(text):
            continue  # e.g. a flip inside insignificant whitespace
        with pytest.raises(ValueError):
            Game.from_dict(data)


def test_from_dict_still_reads_version_1_records() -> None:
    game = new_game(3, script=[F10, STOP, F10, TOP])
    data = game.to_dict()
    del data["digest"]
    data["version"] = 1
    assert Game.from_dict(data) == game


def test_restored_game_equals_the_original_and_differs_after_a_move() -> None:
    game = new_game(3, script=[F10, STOP, F10, TOP])
    restored = Game.from_dict(json.loads(json.dumps(game.to_dict())))
    assert restored == game and restored is not game
    restored.apply_throw(F11)
    assert restored != game
    assert game != "not a game"


@pytest.mark.parametrize("data", [None, [], "{}", 3])
def test_from_dict_refuses_non_dicts(data: Any) -> None:
    with pytest.raises(ValueError, match="a saved game must be a dict"):
        Game.from_dict(data)


def test_from_dict_does_not_modify_its_input() -> None:
    data = _kampen_data()
    before = copy.deepcopy(data)
    Game.from_dict(data)
    assert data == before


# ---------------------------------------------------------------- clone
@pytest.mark.parametrize("case", range(0, len(STATES), 1 + len(STATES) // 50))
def test_clone_is_independent_of_the_original(case: int) -> None:
    original = STATES[case].clone()
    frozen = original.to_dict()
    clone = original.clone()
    assert fields(clone) == fields(original)
    rng = random.Random(case)
    while not clone.is_terminal():
        random_step(clone, rng)
    assert original.to_dict() == frozen  # playing the clone left the original alone
    assert fields(Game.from_dict(frozen)) == fields(original)
    # ... and the other way round.
    clone_frozen = clone.to_dict()
    while not original.is_terminal():
        random_step(original, rng)
    assert clone.to_dict() == clone_frozen


def test_clone_in_kampen_copies_the_kampen_lists() -> None:
    game = new_game(3, script=[F10, STOP, F10, TOP, F11])  # seat 0 threw in kampen
    clone = game.clone()
    clone.apply_throw(F9)  # seat 1 loses the kampen; a new round starts in the clone
    assert game.phase == Phase.KAMPEN and game.kampen == [0, 1]
    assert game.kampen_scores == [classify(F11).strength] and game.cards == [10, 10, 10]
    assert clone.cards == [10, 9, 10] and clone.round == 2
