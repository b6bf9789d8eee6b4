"""Perudo as OpenSpiel games (the optional ``openspiel`` extra): OpenSpiel's own checks pass,
its exploitability agrees with ``perudo.exact``, and its CFR+ solves the 1-die game."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from pagadores_env.integrations import openspiel as perudo_spiel  # noqa: E402
from pagadores_env.perudo import exact  # noqa: E402
from pagadores_env.perudo.engine import Game  # noqa: E402


def test_both_games_are_registered():
    names = pyspiel.registered_names()
    assert perudo_spiel.SHORT_NAME in names and perudo_spiel.SMALL_NAME in names
    small = pyspiel.load_game(perudo_spiel.SMALL_NAME)
    assert small.num_players() == 2 and small.num_distinct_actions() == 181
    assert small.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    game = pyspiel.load_game(perudo_spiel.SHORT_NAME, {"players": 4, "dice": 3})
    assert game.num_players() == 4
    assert game.get_type().utility == pyspiel.GameType.Utility.CONSTANT_SUM


@pytest.mark.parametrize("params", [{"players": 2, "dice": 1}, {"players": 3, "dice": 2},
                                    {"players": 6, "dice": 1}])
def test_openspiels_random_simulation_checks_pass(params):
    pyspiel.random_sim_test(pyspiel.load_game(perudo_spiel.SHORT_NAME, params), num_sims=20,
                            serialize=False, verbose=False)


def test_a_played_game_is_the_engines_game():
    game = pyspiel.load_game(perudo_spiel.SHORT_NAME, {"players": 3, "dice": 2})
    rng = np.random.default_rng(3)
    state = game.new_initial_state()
    engine = Game(3, 2)
    faces = []
    while not state.is_terminal():
        if state.is_chance_node():
            face = int(rng.integers(6))
            state.apply_action(face)
            faces.append(face + 1)
            if len(faces) == engine.total_dice:  # the round's dice, seat by seat
                at, hands = 0, []
                for count in engine.dice_counts:
                    hands.append(tuple(faces[at:at + count]))
                    at += count
                engine.apply_roll(tuple(hands))
                faces = []
            continue
        assert state.current_player() == engine.current_player
        assert state.legal_actions() == engine.legal_actions()
        action = int(rng.choice(state.legal_actions()))
        state.apply_action(action)
        engine.apply_action(action)
    assert state.returns() == engine.returns() and sum(state.returns()) == -1


def test_information_states_show_own_dice_only_until_the_dudo():
    state = pyspiel.load_game(perudo_spiel.SMALL_NAME).new_initial_state()
    state.apply_action(2)  # seat 0 rolls a 3
    state.apply_action(4)  # seat 1 rolls a 5
    assert "3" in state.information_state_string(0) and "5" not in \
        state.information_state_string(0)
    assert "5" in state.information_state_string(1) and "3" not in \
        state.information_state_string(1)
    assert len(state.observation_tensor(0)) == 267


def test_bad_parameters_are_refused_in_one_line():
    for params in ({"players": 7}, {"dice": 0}, {"players": 2, "dice": 6}):
        with pytest.raises(ValueError) as err:
            pyspiel.load_game(perudo_spiel.SHORT_NAME, params)
        message = str(err.value)
        assert "\n" not in message and message.startswith(f"{[*params][-1]} must be")


@pytest.mark.slow
def test_openspiel_cfr_solves_the_one_die_game():
    """OpenSpiel's CFR+ (C++) on the registered game's tree drives OpenSpiel's
    exploitability below 0.01; OpenSpiel's exploitability of uniform random is the one
    ``perudo.exact`` computes, so both measure the same game the same way."""
    tree = perudo_spiel.efg_game(pyspiel.load_game(perudo_spiel.SMALL_NAME))
    uniform = pyspiel.exploitability(tree, pyspiel.UniformRandomPolicy(tree))
    assert uniform == pytest.approx(exact.exploitability(exact.uniform_strategy()), abs=1e-9)
    solver = pyspiel.CFRPlusSolver(tree)
    measured = []
    for _ in range(3):
        for _ in range(15):
            solver.evaluate_and_update_policy()
        measured.append(pyspiel.exploitability(tree, solver.average_policy()))
    assert measured == sorted(measured, reverse=True)
    assert measured[-1] < 0.01


def test_openspiels_stock_cfr_examples_load_the_small_game(tmp_path):
    """OpenSpiel's own example scripts, unedited, pass ``{"players": 2}`` to
    ``pyspiel.load_game`` (``cfr_example`` and ``mccfr_example`` alike): the small game takes
    it. ``mccfr_example`` runs here with 0 iterations (CFR runs in the test above; one
    iteration of the stock script also computes the exploitability over the Python game's
    294,667 states, minutes, and ``cfr_example``'s solver walks them all before starting)."""
    example = "mccfr_example"
    import subprocess
    import sys

    script = ("import sys, runpy\n"
              "import pagadores_env.integrations.openspiel\n"
              f"sys.argv = ['{example}', '--game', 'python_perudo_small', '--players', '2',"
              " '--iterations', '0']\n"
              f"runpy.run_module('open_spiel.python.examples.{example}', run_name='__main__')\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=tmp_path, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    game = pyspiel.load_game(perudo_spiel.SMALL_NAME, {"players": 2})
    assert (game.num_players(), str(game)) == (2, "python_perudo_small(players=2)")
    with pytest.raises(ValueError, match="players=2"):
        pyspiel.load_game(perudo_spiel.SMALL_NAME, {"players": 3})
