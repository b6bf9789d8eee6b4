"""Pagadores as an OpenSpiel game (``python_pagadores``, the optional ``openspiel`` extra):
OpenSpiel's own checks pass, a game played through OpenSpiel is the engine's game, uniform
random play there wins as the solver says it does, OpenSpiel's MCTS plays whole games, and
the length cap is where the module docstring says."""

from __future__ import annotations

import math

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from pagadores_env.core.errors import IllegalMoveError  # noqa: E402
from pagadores_env.integrations.openspiel import pagadores as spiel  # noqa: E402
from pagadores_env.pagadores.engine import Game  # noqa: E402
from pagadores_env.pagadores.observation import encode  # noqa: E402
from pagadores_env.pagadores.rules import CHANCE_OUTCOMES  # noqa: E402
from pagadores_env.pagadores.solver import exact_evaluate  # noqa: E402


def test_registered_with_its_parameters_and_refuses_bad_ones():
    game = pyspiel.load_game(spiel.SHORT_NAME, {"players": 3, "cards": 3})
    assert (game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes()) == (
        3, 2, 56)
    kind = game.get_type()
    assert kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (0.0, 1.0, 1.0)
    assert pyspiel.load_game(spiel.SHORT_NAME).num_players() == 2  # the defaults: 2 × 10 cards
    with pytest.raises(Exception, match="cards"):
        pyspiel.load_game(spiel.SHORT_NAME, {"players": 3, "cards": 11})


@pytest.mark.parametrize("params", [{"players": 2, "cards": 1}, {"players": 3, "cards": 3},
                                    {"players": 6, "cards": 2}])
def test_openspiels_random_simulation_checks_pass(params):
    pyspiel.random_sim_test(pyspiel.load_game(spiel.SHORT_NAME, params), num_sims=10,
                            serialize=False, verbose=False)


def test_a_played_game_is_the_engines_game():  # R7.2: 56 throws with their probabilities
    game = pyspiel.load_game(spiel.SHORT_NAME, {"players": 4, "cards": 3})
    rng = np.random.default_rng(5)
    state, engine = game.new_initial_state(), Game(4, 3)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert [a for a, _ in outcomes] == list(range(56))
            assert math.isclose(sum(p for _, p in outcomes), 1.0)
            action = int(rng.integers(56))
            engine.apply_throw(CHANCE_OUTCOMES[action][0])
        else:
            assert state.current_player() == engine.current_player
            assert state.legal_actions() == [0, 1]
            for seat in range(4):  # the envs' observation vector, seen from each seat
                np.testing.assert_array_equal(state.observation_tensor(seat),
                                              encode(engine, seat))
            action = int(rng.integers(2))
            engine.apply_action(action)
        state.apply_action(action)
    assert engine.is_terminal() and engine.winner is not None
    assert state.returns() == [float(s == engine.winner) for s in range(4)]



@pytest.mark.parametrize(("game", "allowed"), [("python_pagadores", "0–55"),
                                               ("python_perudo_small", "0–5")])
@pytest.mark.parametrize("action", [-2, 56, 100])  # -1 is OpenSpiel's own kInvalidAction
def test_a_chance_action_out_of_range_is_refused_in_one_line(game, allowed, action):
    """Pagadores' chance action 56 or 100 was an IndexError; Perudo's 56, 100 or -2 were taken
    as faces 57, 101 and -1 (issue 45, item 12)."""
    state = pyspiel.load_game(game).new_initial_state()
    assert state.is_chance_node()
    before = (str(state), state.history())
    with pytest.raises(IllegalMoveError) as refused:
        state.apply_action(action)
    assert str(refused.value) == (f"chance action must be one of {allowed} (chance_outcomes()), "
                                  f"got {action}")
    assert (str(state), state.history()) == before and state.is_chance_node()
    state.apply_action(int(allowed.split("–")[1]))  # the last one is a throw


def test_the_length_cap_bounds_the_replays_it_allows():
    for players, cards in [(2, 10), (3, 3), (6, 10)]:
        allowed = spiel.replays_allowed(players, cards)
        rounds, rho = players * cards - 1, spiel.replay_chance(players)

        def log_term(t: int, rounds: int = rounds, rho: float = rho) -> float:
            return (math.lgamma(t + rounds) - math.lgamma(t + 1) - math.lgamma(rounds)
                    + t * math.log(rho) + rounds * math.log1p(-rho))

        # the fewest replays whose excess has probability at most CAP_RISK
        assert spiel.cap_tail(allowed + 1, log_term) <= spiel.CAP_RISK
        assert allowed == 0 or spiel.cap_tail(allowed, log_term) > spiel.CAP_RISK
        # the tail sum is a probability: the whole distribution sums to 1
        assert math.isclose(spiel.cap_tail(0, log_term), 1.0, rel_tol=1e-9)
        assert spiel.max_game_length(players, cards) == (
            rounds * players * spiel.ROUND_ACTIONS + allowed * players)


def test_at_the_cap_the_players_still_in_share_the_win():  # module docstring
    game = pyspiel.load_game(spiel.SHORT_NAME, {"players": 3, "cards": 2})
    state = game.new_initial_state()
    state._cap = 7  # a cap the game reaches: what happens there
    rng = np.random.default_rng(1)
    while not state.is_terminal():
        state.apply_action(int(rng.choice([a for a, _ in state.chance_outcomes()]))
                           if state.is_chance_node() else int(rng.integers(2)))
    assert state.capped and len(state.engine.history) == 7 and not state.engine.is_terminal()
    alive = state.engine.alive()
    assert state.returns() == [1 / len(alive) if s in alive else 0.0 for s in range(3)]
    assert math.isclose(sum(state.returns()), 1.0)


def throw(state, rng) -> None:
    """A chance node's outcome drawn with OpenSpiel's probabilities."""
    actions, probs = zip(*state.chance_outcomes(), strict=True)
    state.apply_action(int(rng.choice(actions, p=probs)))


@pytest.mark.slow
def test_uniform_random_rollouts_win_as_the_solver_says():
    """OpenSpiel's own sampling (chance by its probabilities, uniform over legal actions)
    against ``exact_evaluate("random", ...)``: every seat within 4 standard errors."""
    players, cards, games = 3, 2, 20_000
    game = pyspiel.load_game(spiel.SHORT_NAME, {"players": players, "cards": cards})
    rng = np.random.default_rng(0)
    wins = np.zeros(players)
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                throw(state, rng)
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
        wins += state.returns()
    exact = np.asarray(exact_evaluate("random", players, cards))
    error = np.sqrt(exact * (1 - exact) / games)
    assert np.all(np.abs(wins / games - exact) <= 4 * error), (wins / games, exact)


def test_openspiels_mcts_plays_whole_three_player_games():
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game(spiel.SHORT_NAME, {"players": 3, "cards": 2})
    rng = np.random.RandomState(3)
    bots = [mcts.MCTSBot(game, 2.0, 20, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
            for _ in range(3)]
    for _ in range(2):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                throw(state, rng)
            else:
                state.apply_action(bots[state.current_player()].step(state))
        assert sorted(state.returns()) == [0.0, 0.0, 1.0]
