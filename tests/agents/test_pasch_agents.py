"""Pasch's scripted players (``pagadores_agents.pasch``): ``greedy`` by scenarios written from
its description (the page's blocks example among them), ``turn_optimal`` against the exact
single turn, ``round_player`` against the last round's equilibrium, and all of them legal
over whole games at every table size."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

from pagadores_env.core.policies import make_policy, registered_policies
from pagadores_env.pasch import exact
from pagadores_env.pasch.engine import Game
from pagadores_env.pasch.observation import encode
from pagadores_env.pasch.rules import DEFAULT_HAND, Actions, classify

A = Actions.of(DEFAULT_HAND)  # C = 6
STOP, PLACE = 6 + 31, 6 + 47


def player(name: str):
    return make_policy(name, game="pasch")


def decide(policy, game: Game) -> int:
    seat = game.current_player
    return policy.act(encode(game, seat), game.legal_mask())


def at_choice(dice, blocks: int = 3, card: int = 2) -> Game:
    game = Game(2, blocks=blocks)
    game.apply_action(A.card(card))
    game.apply_chance(dice)
    return game


def test_the_players_are_registered_in_paschs_namespace():
    assert {"greedy", "turn_optimal", "round_player", "random"} <= set(
        registered_policies(game="pasch"))
    assert "greedy" not in registered_policies(game="perudo")


# ---------------------------------------------------------------- greedy
def test_greedy_plays_its_highest_card():
    game = Game(2, hand=[-1, 4, 9, 2])
    assert decide(player("greedy"), game) == game.actions.card(9)


@pytest.mark.parametrize(("dice", "again"), [
    ((2, 3, 4, 4, 5), [0, 1, 4]),  # keeps the 4s
    ((2, 2, 5, 5, 6), [0, 1, 4]),  # two pairs: keeps the higher, the 5s
    ((1, 2, 3, 4, 6), [0, 1, 2, 3]),  # five distinct: keeps the 6
    ((1, 2, 3, 4, 5), [0, 1, 2, 3]),  # no 6: the highest of the ties, the 5
    ((3, 3, 3, 6, 6), [3, 4]),  # full house: keeps the triple
])
def test_greedy_keeps_the_most_frequent_value_and_throws_the_rest(dice, again):
    assert decide(player("greedy"), at_choice(dice)) == A.rethrow(again)


def test_greedy_stops_at_five_of_a_kind():
    assert decide(player("greedy"), at_choice((4, 4, 4, 4, 4))) == STOP


def test_greedy_spends_blocks_on_the_move_with_the_best_placement_while_it_gains():
    """The page's 3-5-5-6-2 with three blocks: lowering the 6 makes a triple of 5s, raising
    the 2 then a full house; no single move beats that, so it places (the page's four 5s
    take two blocks on the 3, which pay off only together)."""
    game = at_choice((3, 5, 5, 6, 2))
    game.apply_action(STOP)
    greedy = player("greedy")
    moves = []
    while game.current_player == 0:
        action = decide(greedy, game)
        moves.append(action)
        game.apply_action(action)
    assert moves == [6 + 42 + 4, 6 + 37 + 0, PLACE]  # lower the 6, raise the 2, place
    assert [e.value for e in game.log if e.kind == "place"] == [("full house", 5)]
    assert game.blocks[0] == 1


# ---------------------------------------------------------------- turn_optimal
def test_turn_optimal_plays_as_greedy_on_an_empty_board():
    greedy, optimal = player("greedy"), player("turn_optimal")
    for dice in ((2, 3, 4, 4, 5), (1, 1, 6, 6, 2), (5, 5, 5, 5, 5)):
        game = at_choice(dice)
        assert decide(optimal, game) == decide(greedy, game)


def first_disc(dice, blocks: int = 0) -> Game:
    """Seat 0 places at ``classify(dice)[0]``; seat 1 has just thrown its first dice."""
    game = Game(2, blocks=[0, blocks])
    for item in (A.card(5), dice, STOP):
        game.apply_chance(item) if isinstance(item, tuple) else game.apply_action(item)
    game.apply_action(A.card(3))
    return game


@pytest.mark.parametrize("blocks", [0, 2])
def test_turn_optimal_plays_the_exact_turn_aiming_at_the_best_disc(blocks):
    game = first_disc((4, 4, 4, 2, 2), blocks)  # full house of 4s to beat
    goal = classify((4, 4, 4, 2, 2))[0]
    policy = exact.best_policy(goal, blocks)
    optimal = player("turn_optimal")
    rng = np.random.default_rng(blocks)
    while game.round == 0:  # seat 1 is the last to play round 1
        if game.is_chance_node():
            outcomes = game.chance_outcomes()
            game.apply_chance(outcomes[rng.integers(len(outcomes))][0])
            continue
        expected = (policy.act(game.dice, game.throws, game.blocks[1]) if game.phase == "choose"
                    else policy.after_stop(game.dice, game.blocks[1]))
        action = decide(optimal, game)
        assert action == 6 + expected
        game.apply_action(action)


def test_turn_optimal_is_the_equilibrium_where_ranking_first_is_winning():
    """A last round in which whoever ranks first takes the 5 and wins: the later seat's
    equilibrium is to reach the first disc with the largest chance, which is what
    turn_optimal plays (a first disc beside the board is beaten by any disc on top of it,
    so its greedy play there wins too)."""
    position = ([0, 0], [5, 3], [1, 2], 0)
    players = [exact.EquilibriumPolicy(), player("turn_optimal")]
    shares = exact.exact_evaluate(players, *position)
    assert shares == pytest.approx(list(exact.last_round(*position)), abs=1e-12)
    assert exact.nash_conv(players, *position) == pytest.approx(0, abs=1e-10)


def test_turn_optimal_never_spends_a_block_that_does_not_raise_its_chance():
    game = first_disc((2, 2, 3, 4, 6), blocks=3)  # a pair of 2s to beat
    game.apply_chance((2, 2, 5, 5, 6))  # two pairs: beats it already
    game.apply_action(STOP)
    assert decide(player("turn_optimal"), game) == PLACE


# ---------------------------------------------------------------- round_player
def test_round_player_is_the_equilibrium_in_the_last_round():
    position = ([10, 8], [5, 3], [2, 2], 1)
    shares = exact.exact_evaluate(player("round_player"), *position)
    assert shares == pytest.approx(list(exact.last_round(*position)), abs=1e-12)
    assert exact.nash_conv(player("round_player"), *position) == pytest.approx(0, abs=1e-10)
    assert exact.nash_conv(player("greedy"), *position) > 0.05


def test_round_player_plays_turn_optimal_before_the_last_round():
    game = first_disc((6, 6, 1, 2, 3), blocks=1)
    assert game.round == 0
    assert decide(player("round_player"), game) == decide(player("turn_optimal"), game)


# ---------------------------------------------------------------- whole games
@pytest.mark.parametrize("num_players", [2, 3, 6])
@pytest.mark.parametrize("name", ["greedy", "turn_optimal", "round_player"])
def test_every_player_plays_legal_actions_over_whole_games(name, num_players):
    env = gymnasium.make("Pasch-v1", num_players=num_players, hand=[-1, 2, 5], blocks=1,
                         opponents=name, illegal_action="raise").unwrapped
    learner = player(name)
    for seed in range(2):
        obs, info = env.reset(seed=seed)
        done = False
        while not done:
            obs, _, done, _, info = env.step(learner.act(obs, info["action_mask"]))
        assert sum(env.game.scores) == num_players * 6


def test_greedy_beats_random_by_a_wide_margin():
    """40 seeded two-player games, seats alternating: random play rarely makes a Pasch
    that ranks (greedy wins about 97% of such games)."""
    wins = 0.0
    for seed in range(40):
        env = gymnasium.make("Pasch-v1", num_players=2, opponents="random",
                             learner_seat=seed % 2).unwrapped
        learner = player("greedy")
        obs, info = env.reset(seed=seed)
        done = False
        while not done:
            obs, reward, done, _, info = env.step(learner.act(obs, info["action_mask"]))
        wins += (reward + 1) / 2
    assert wins >= 32
