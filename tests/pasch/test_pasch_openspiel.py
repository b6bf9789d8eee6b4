"""Pasch as an OpenSpiel game (``python_pasch``, the optional ``openspiel`` extra): OpenSpiel's
own checks pass, a game played through OpenSpiel is the engine's game, uniform random play in
a one-card game scores as the last round's exact evaluation says, the length bound is met
exactly by the longest play, and OpenSpiel's MCTS plays."""

from __future__ import annotations

import math
import pickle

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from pagadores_env.core.policies import make_policy  # noqa: E402
from pagadores_env.integrations.openspiel import pasch as spiel  # noqa: E402
from pagadores_env.pasch.engine import Game, Phase  # noqa: E402
from pagadores_env.pasch.last_round import exact_evaluate  # noqa: E402
from pagadores_env.pasch.observation import encode  # noqa: E402
from pagadores_env.pasch.rules import REL_REROLL  # noqa: E402

NAME = spiel.SHORT_NAME


def load(**params):
    return pyspiel.load_game(NAME, params)


def draw(state, rng) -> int:
    """A chance action drawn with the state's probabilities."""
    outcomes = state.chance_outcomes()
    u = rng.random()
    for action, p in outcomes:
        u -= p
        if u < 0:
            return action
    return outcomes[-1][0]


def play_randomly(state, rng):
    """Play ``state`` to its end: chance by its probabilities, uniform decisions."""
    while not state.is_terminal():
        state.apply_action(draw(state, rng) if state.is_chance_node()
                           else int(rng.choice(state.legal_actions())))
    return state


def test_registered_with_the_games_defaults():  # X1.1, X1.3, X8.1, X8.2
    game = pyspiel.load_game(NAME)
    assert game.get_parameters() == {"players": 2, "hand": "-1,1,2,3,4,5", "blocks": 3}
    assert (game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes()) == (
        2, 6 + 49, 252)
    kind = game.get_type()
    assert kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-1.0, 1.0, 0.0)
    four = load(players=4, hand="2,2,5", blocks=0)
    assert four.num_distinct_actions() == 2 + 49  # two distinct card values (X8.1)
    assert four.get_type().utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert four.utility_sum() == -2.0
    one = load(hand="3")  # one number: a hand of one card, one round (X1.4)
    assert one.num_distinct_actions() == 1 + 49 and one.new_initial_state().engine.rounds == 1
    copy = pickle.loads(pickle.dumps(four))  # by its parameters (a game string has commas)
    assert copy.get_parameters() == four.get_parameters()


@pytest.mark.parametrize(("params", "name"), [
    ({"players": 7}, "players"), ({"hand": "1,x"}, "hand"), ({"hand": ""}, "hand"),
    ({"hand": "11"}, "hand"), ({"hand": ",".join(["1"] * 11)}, "hand"),
    ({"blocks": 11}, "blocks")])
def test_bad_parameters_are_refused_in_one_line(params, name):  # X1.3
    with pytest.raises(ValueError) as err:
        pyspiel.load_game(NAME, params)
    message = str(err.value)
    assert "\n" not in message and message.startswith(f"{name} must be")


@pytest.mark.parametrize("params", [
    {"players": 2, "hand": "3", "blocks": 1}, {"players": 3, "hand": "-1,2,5", "blocks": 2},
    {"players": 6, "hand": "1,2", "blocks": 0}])
def test_openspiels_random_simulation_checks_pass(params):
    pyspiel.random_sim_test(pyspiel.load_game(NAME, params), num_sims=5, serialize=False,
                            verbose=False)


@pytest.mark.parametrize(("players", "hand", "blocks"), [(2, (-1, 1, 2, 3, 4, 5), 3),
                                                         (3, (-1, 2, 2), 2)])
def test_a_played_game_is_the_engines_game(players, hand, blocks):  # X8.1, X8.2
    """Every chance node lists the engine's sorted throws as actions 0, 1, …; every decision
    the engine's legal actions; the same inputs on a fresh engine give the same game, the
    envs' observations and the same returns."""
    game = load(players=players, hand=",".join(map(str, hand)), blocks=blocks)
    rng = np.random.default_rng(11)
    for _ in range(3):
        state, engine = game.new_initial_state(), Game(players, hand, blocks)
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
                engine.apply_action(action)
            state.apply_action(action)
            assert state.engine == engine
        assert engine.is_terminal() and state.returns() == engine.returns()
        assert sum(state.returns()) == 2 - players


def test_misuse_fails_loudly_and_changes_nothing():
    state = load().new_initial_state()
    with pytest.raises(ValueError, match=r"^seat 0 must act \(play a card"):
        state.chance_outcomes()
    with pytest.raises(ValueError, match=r"^seat 0 cannot stop: it plays a card first") as err:
        state.apply_action(6 + 31)  # stop, before a card is played (X2.3)
    assert "\n" not in str(err.value)
    state.apply_action(5)  # card 5
    assert len(state.chance_outcomes()) == 252
    with pytest.raises(ValueError, match=r"^chance action must be one of 0–251 "):
        state.apply_action(252)
    state.apply_action(0)  # 1-1-1-1-1
    assert state.engine.dice == (1, 1, 1, 1, 1)
    with pytest.raises(ValueError, match=r"^seat 0 has played its card this round"):
        state.apply_action(0)
    assert state.history() == [5, 0]
    play_randomly(state, np.random.default_rng(2))
    with pytest.raises(ValueError, match="game is over"):
        state.apply_action(6 + 47)


def test_strings_say_the_game_in_words():
    state = load(hand="-1,5").new_initial_state()
    assert [state.action_to_string(0, a) for a in state.legal_actions()] == [
        "play card -1", "play card 5"]
    state.apply_action(1)
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 0) == "throw 1-1-1-1-1"
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 251) == "throw 6-6-6-6-6"
    state.apply_action(251)
    assert state.action_to_string(0, 2 + 31) == "stop"
    assert state.information_state_string(1).splitlines() == [
        "Round 1: player_0 starts", "player_0 plays card 5",
        "player_0 throws 6-6-6-6-6: 6-6-6-6-6"]
    assert state.observation_string(0).startswith("Pasch round 1/2, started by player_0")


def test_the_length_bound_is_met_by_the_longest_play():  # X2.3, X3.2, X4.1, X6
    """Throwing the first die again after throws 1 and 2, then spending every block on a
    rethrow, each turn takes every input the bound counts, but for the decisions the
    engine takes itself (X8.3): they are logged as forced."""
    for players, hand, blocks in [(2, "-1,1,2,3,4,5", 3), (3, "4,4", 1), (4, "2", 0)]:
        game = load(players=players, hand=hand, blocks=blocks)
        state = game.new_initial_state()
        rng = np.random.default_rng(4)
        while not state.is_terminal():
            engine = state.engine
            if state.is_chance_node():
                action = draw(state, rng)
            elif engine.phase == Phase.CHOOSE:
                action = engine.actions.dice  # throw sorted position 0 again
            elif engine.phase == Phase.BLOCKS and engine.blocks[engine.turn]:
                action = engine.actions.dice + REL_REROLL  # a block: rethrow position 0
            else:
                action = state.legal_actions()[0]
            state.apply_action(action)
        forced = sum(event.kind == "forced" for event in state.engine.log)
        assert len(state.history()) + forced == game.max_game_length()
        length = play_randomly(game.new_initial_state(), rng).history()
        assert len(length) <= game.max_game_length()


def test_uniform_random_rollouts_score_as_the_last_rounds_exact_evaluation_says():  # X9.2
    """With a hand of one -1 card the game is one round, the last round from zero scores,
    where the lowest Pasch takes both -1s (X7.2) and a later disc on an equal field lies on
    top (X7.1): seat 1 is ahead. OpenSpiel's sampling (uniform over legal actions) against
    ``last_round.exact_evaluate`` of the uniform random player: each seat's mean return
    2 × share − 1 within 4 standard errors, seeded."""
    games = 10_000
    game = load(hand="-1", blocks=1)
    rng = np.random.default_rng(0)
    returns = np.array([play_randomly(game.new_initial_state(), rng).returns()
                        for _ in range(games)])
    shares = exact_evaluate(make_policy("random", game="pasch"), [0, 0], [-1, -1], 1, 0,
                            hand=[-1])
    exact = 2 * np.asarray(shares) - 1
    error = returns.std(axis=0) / math.sqrt(games)
    assert np.all(np.abs(returns.mean(axis=0) - exact) <= 4 * error), (returns.mean(0), exact)
    assert exact[1] - exact[0] > 8 * error.max()  # the seats differ: the test can tell


def test_openspiels_mcts_plays():
    from open_spiel.python.algorithms import mcts

    rng = np.random.RandomState(5)
    game = load(hand="-1,5", blocks=1)  # a whole two-round game
    bot = mcts.MCTSBot(game, 2.0, 20, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(draw(state, rng) if state.is_chance_node() else bot.step(state))
    assert sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])
    game = load(players=3)  # the default hand: its first decisions
    bot = mcts.MCTSBot(game, 2.0, 20, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    state, decisions = game.new_initial_state(), 0
    while decisions < 8:
        if state.is_chance_node():
            state.apply_action(draw(state, rng))
            continue
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        decisions += 1
