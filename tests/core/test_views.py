"""The web page's view of every game (``core.views``, issue 48): JSON data of one shape, the
legal actions for the seat asked only, private facts of the seats asked only (Perudo's dice
under the cups), no history; records found by format and replayed to any step."""

from __future__ import annotations

import json

import numpy as np
import pytest

import pagadores_env  # noqa: F401  (registers the games)
from pagadores_env.core.games import GAME_SPECS
from pagadores_env.core.views import game_view, load_record, record_game, replay_to


def played(name: str, seed: int = 0, players: int = 3):
    """A random game of ``name`` to its end, and a copy of it before every input."""
    spec = GAME_SPECS[name]
    rng = np.random.default_rng(seed)
    game = spec.start(players)
    states = [game.clone()]
    while not game.is_terminal():
        if game.is_chance_node():
            before = len(game.history)
            spec.advance(game, rng)
            assert len(game.history) > before
        else:
            game.apply_action(int(rng.choice(game.legal_actions())))
        states.append(game.clone())
    return spec, game, states


@pytest.mark.parametrize("name", sorted(GAME_SPECS))
def test_a_view_is_json_of_one_shape_with_the_asked_seats_private_facts_only(name) -> None:
    spec, _, states = played(name)
    for game in states[::3]:
        for seat in range(game.num_players):
            view = json.loads(json.dumps(game_view(spec, game, [seat])))
            assert set(view["private"]) <= {str(seat)}
            assert "history" not in view and view["step"] == len(game.history)
            acting = not game.is_terminal() and not game.is_chance_node() \
                and game.current_player == seat
            assert [c["action"] for c in view["legal"]] == (
                list(game.legal_actions()) if acting else [])
        spectator = game_view(spec, game)
        assert spectator["private"] == {} and spectator["legal"] == []
    assert game_view(spec, states[-1])["places"] == list(states[-1].placements())


def test_perudo_gives_a_seat_its_own_dice_and_nobody_elses() -> None:
    spec, _, states = played("perudo", seed=4)
    shown = 0
    for game in states:
        if game.rolled and game.winner is None:
            view = game_view(spec, game, [1])
            if game.dice_counts[1]:
                assert view["private"] == {"1": sorted(game.hands[1])}
                shown += 1
            everyone = game_view(spec, game, range(game.num_players))
            assert set(everyone["private"]) == {str(s) for s in range(game.num_players)
                                                if game.dice_counts[s]}
    assert shown > 3


@pytest.mark.parametrize("name", sorted(GAME_SPECS))
def test_a_record_is_found_by_its_format_and_replays_to_every_step(name) -> None:
    spec, game, states = played(name, seed=1, players=2)
    record = game.to_dict()
    assert record_game(record) is spec
    loaded_spec, loaded = load_record(record)
    assert loaded_spec is spec and loaded == game
    for state in states:
        assert replay_to(record, len(state.history)) == state


@pytest.mark.parametrize(("record", "says"), [
    ({"format": "chess"}, "'chess'"), ([1], "None"), ({}, "None"),
])
def test_a_record_of_no_game_is_refused_in_one_line(record, says) -> None:
    with pytest.raises(ValueError, match=f"^a saved game has a format of .*got {says}$"):
        record_game(record)
