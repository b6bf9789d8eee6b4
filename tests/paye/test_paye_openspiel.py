"""Paye's dobbelspel as an OpenSpiel game (``python_paye``, the optional ``openspiel`` extra):
OpenSpiel's own checks pass, a game played through OpenSpiel is the engine's game, uniform
random play there scores as the exact yardstick says, OpenSpiel's expectiminimax finds the
solver's value and its MCTS plays whole games, and the length cap is where the module
docstring says."""

from __future__ import annotations

import itertools
import json
import math
import pickle

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from pagadores_env.integrations.openspiel import paye as spiel  # noqa: E402
from pagadores_env.paye.engine import Game  # noqa: E402
from pagadores_env.paye.exact import exact_evaluate, start_values  # noqa: E402
from pagadores_env.paye.observation import encode  # noqa: E402
from pagadores_env.paye.rules import BLUE_ACTIONS, DEFAULT_DICE  # noqa: E402

NAME = spiel.SHORT_NAME


def load(**params):
    return pyspiel.load_game(NAME, params)


def draw(state, rng) -> int:
    """A chance action drawn with the state's probabilities."""
    u = rng.random()
    for action, p in state.chance_outcomes():
        u -= p
        if u < 0:
            return action
    return state.chance_outcomes()[-1][0]


def play_randomly(state, rng):
    """Play ``state`` to its end: chance by its probabilities, uniform decisions."""
    while not state.is_terminal():
        state.apply_action(draw(state, rng) if state.is_chance_node()
                           else int(rng.choice(state.legal_actions())))
    return state


def test_registered_with_the_games_defaults():  # Y1.1, Y1.3, Y2.2, Y7
    game = pyspiel.load_game(NAME)
    params = game.get_parameters()
    assert json.loads(params["faces"]) == [list(die) for die in DEFAULT_DICE]
    assert (params["players"], params["variant"], params["rounds"], params["first_player"]) \
        == (6, "base", 10, -1)
    assert (game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes()) == (
        6, 13, 6)
    kind = game.get_type()
    assert kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-1.0, 1.0, -4.0)
    two = load(players=2, variant="expansion", rounds=3, first_player=1)
    assert two.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert two.utility_sum() == 0.0
    copy = pickle.loads(pickle.dumps(two))  # by its parameters (a game string has commas)
    assert copy.get_parameters() == two.get_parameters()


@pytest.mark.parametrize(("params", "name"), [
    ({"players": 7}, "players"), ({"faces": "nonsense"}, "faces"),
    ({"faces": "[[1, 2]]"}, "dice"), ({"faces": json.dumps([[-1] * 6] * 6)}, "dice"),
    ({"variant": "huge"}, "variant"), ({"rounds": 0}, "rounds"),
    ({"players": 2, "first_player": 2}, "first_player")])
def test_bad_parameters_are_refused_in_one_line(params, name):
    with pytest.raises(ValueError) as err:
        pyspiel.load_game(NAME, params)
    message = str(err.value)
    assert "\n" not in message and message.startswith(f"{name} must be")


@pytest.mark.parametrize("params", [
    {"players": 2, "rounds": 2}, {"players": 3, "variant": "expansion", "rounds": 4},
    {"players": 6, "rounds": 2, "first_player": 5}])
def test_openspiels_random_simulation_checks_pass(params):
    pyspiel.random_sim_test(pyspiel.load_game(NAME, params), num_sims=10, serialize=False,
                            verbose=False)


@pytest.mark.parametrize(("variant", "first"), [("base", -1), ("base", 2),
                                                ("expansion", -1), ("expansion", 0)])
def test_a_played_game_is_the_engines_game(variant, first):  # Y5.1, Y7
    """Every chance node lists the engine's outcomes as actions 0, 1, …; every decision the
    engine's legal dice; the same inputs on a fresh engine give the same game, the envs'
    observations and the same returns."""
    players, rounds = 3, 8
    game = load(players=players, variant=variant, rounds=rounds, first_player=first)
    rng = np.random.default_rng(7)
    blue_chosen = False
    for _ in range(4):
        state = game.new_initial_state()
        engine = Game(players, variant, None, rounds, None if first == -1 else first)
        while not state.is_terminal():
            if state.is_chance_node():
                expected = engine.chance_outcomes()
                outcomes = state.chance_outcomes()
                assert [a for a, _ in outcomes] == list(range(len(expected)))
                assert [p for _, p in outcomes] == [p for _, p in expected]
                assert math.isclose(sum(p for _, p in outcomes), 1.0)
                action = draw(state, rng)
                engine.apply_chance(expected[action][0])
            else:
                assert state.current_player() == engine.current_player
                assert state.legal_actions() == engine.legal_actions()
                for seat in range(players):
                    np.testing.assert_array_equal(state.observation_tensor(seat),
                                                  encode(engine, seat))
                action = int(rng.choice(state.legal_actions()))
                blue_chosen |= action in BLUE_ACTIONS
                engine.apply_action(action)
            state.apply_action(action)
            assert state.engine == engine
        assert engine.is_terminal() and state.returns() == engine.returns()
        assert sum(state.returns()) == 2 - players
    assert blue_chosen == (variant == "expansion")  # Y6.3: the blue dice were played


def test_misuse_fails_loudly_and_changes_nothing():
    game = load(players=2, rounds=1, faces=json.dumps([[0, 0, 0, 0, 0, 5]] * 6))
    state = game.new_initial_state()
    with pytest.raises(ValueError, match=r"^chance action must be one of 0–5 "):
        state.apply_action(6)  # the traditional die has 6 faces: actions 0–5
    state.apply_action(5)  # player_0 throws 6
    state.apply_action(0)  # player_1 throws 1: player_0 moves first
    assert state.current_player() == 0
    with pytest.raises(ValueError, match=r"^seat 0 chooses a die first \(a decision node\)"):
        state.chance_outcomes()
    with pytest.raises(ValueError, match=r"^seat 0 cannot choose the traditional red die") \
            as err:
        state.apply_action(6)  # Y7.1: the base game chooses among S0 … S5
    assert "\n" not in str(err.value) and "allowed: 0, 1, 2, 3, 4, 5" in str(err.value)
    state.apply_action(3)
    with pytest.raises(ValueError, match=r"^chance action must be one of 0–1 "):
        state.apply_action(2)  # S3 here shows 0 or 5: two outcomes
    history = state.history()
    play_randomly(state, np.random.default_rng(0))
    assert state.history()[:len(history)] == history
    with pytest.raises(ValueError, match="game is over"):
        state.apply_action(0)


def test_strings_say_the_game_in_words():
    state = load(players=2, rounds=1).new_initial_state()
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 3) == "start throw 4"
    state.apply_action(3)
    state.apply_action(0)
    assert state.action_to_string(0, 5) == "S5"
    state.apply_action(5)
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 2) == "S5 shows 20"
    state.apply_action(2)
    assert state.information_state_string(1).splitlines() == [
        "player_0 throws 4 for the start", "player_1 throws 1 for the start",
        "player_0 moves first", "Round 1", "player_0's turn", "player_0 chooses S5",
        "player_0 throws 20 with S5"]
    assert state.observation_string(1).startswith(
        "Paye's dobbelspel (base, to 50): round 1 of 1, player_0 throws")


def test_start_tie_is_the_share_of_tied_start_throws():  # Y2.1
    for contenders in range(2, 5):
        throws = list(itertools.product(range(1, 7), repeat=contenders))
        tied = sum(throw.count(max(throw)) > 1 for throw in throws)
        assert math.isclose(spiel.start_tie(contenders), tied / len(throws))
    for players in range(2, 7):
        passes, tie = spiel.start_passes(players), spiel.start_tie(players)
        assert tie ** passes <= spiel.CAP_RISK < tie ** (passes - 1)


def test_the_length_bound_is_exact_without_start_throws():  # Y2.2, Y3.2
    game = load(players=3, rounds=4, first_player=0, faces=json.dumps([[0] * 6] * 6))
    state = play_randomly(game.new_initial_state(), np.random.default_rng(1))
    assert len(state.history()) == game.max_game_length() == 4 * 3 * 3  # nobody ever scores
    assert state.returns() == [1 / 3 * 2 - 1] * 3  # Y4.4: all share the win at 0 points
    thrown = load(players=3, rounds=4, faces=json.dumps([[0] * 6] * 6))
    assert thrown.max_game_length() == 4 * 3 * 3 + 3 * spiel.start_passes(3)


def test_at_the_cap_every_seat_shares_the_win():  # module docstring
    state = load(players=3, rounds=2).new_initial_state()
    state._cap = 3  # a cap the game reaches: one pass of start throws
    for _ in range(3):
        state.apply_action(2)  # everyone throws 3: a tie, thrown again
    assert state.is_terminal() and state.capped and not state.engine.is_terminal()
    assert state.returns() == [2 / 3 - 1] * 3
    with pytest.raises(ValueError, match="length cap"):
        state.apply_action(0)


def test_uniform_random_rollouts_score_as_the_exact_yardstick_says():  # Y8
    """OpenSpiel's sampling (chance by its probabilities, uniform over legal actions) against
    ``exact_evaluate("random", ...)``: each seat's mean return 2 × share − 1 within 4
    standard errors, seeded. S5 always shows 25, so a player hits 50 with it at once (Y4.1)
    and moving earlier is worth more: the seats' values differ by far more than the error."""
    players, rounds, games = 3, 2, 12_000
    dice = [list(die) for die in DEFAULT_DICE[:5]] + [[25] * 6]
    game = load(players=players, rounds=rounds, first_player=0, faces=json.dumps(dice))
    rng = np.random.default_rng(0)
    returns = np.array([play_randomly(game.new_initial_state(), rng).returns()
                        for _ in range(games)])
    exact = 2 * np.asarray(exact_evaluate("random", players, dice, rounds, first_player=0)) - 1
    error = returns.std(axis=0) / math.sqrt(games)
    assert np.all(np.abs(returns.mean(axis=0) - exact) <= 4 * error), (returns.mean(0), exact)
    assert exact[0] - exact[2] > 8 * error.max()  # the seats differ: the test can tell


def test_openspiels_expectiminimax_finds_the_solvers_value():  # Y8.1
    from open_spiel.python.algorithms import minimax

    game = load(players=2, rounds=1, first_player=0)
    value, _ = minimax.expectiminimax(game.new_initial_state(), 10, None, 0)
    assert math.isclose(value, 2 * start_values(2, rounds=1)[0] - 1, abs_tol=1e-12)


def test_openspiels_mcts_plays_whole_games():
    from open_spiel.python.algorithms import mcts

    for params in ({"players": 2, "rounds": 3}, {"players": 3, "rounds": 2,
                                                  "variant": "expansion"}):
        game = pyspiel.load_game(NAME, params)
        rng = np.random.RandomState(3)
        bot = mcts.MCTSBot(game, 2.0, 20, mcts.RandomRolloutEvaluator(1, rng),
                           random_state=rng)
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(draw(state, rng) if state.is_chance_node()
                               else bot.step(state))
        winners = [r for r in state.returns() if r > -1]
        assert winners and all(r == 2 / len(winners) - 1 for r in winners)
        assert len(state.history()) <= game.max_game_length()
