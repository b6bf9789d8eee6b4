"""Pasch's late starts (``env.last_round_starts``, ``evaluation.pasch.LastRoundStarts``): that
share of the training games starts at the last round (X1.4: as many rounds as cards), where the
exact yardstick measures it (X9.2), at a position of the pool of greedy-against-greedy last
rounds; the draws repeat with the seed."""

from __future__ import annotations

import numpy as np
import pytest

from pagadores_env.core.rewards import final_reward
from pagadores_train.evaluation.pasch import (
    POOL_GAMES,
    UNIFORM_SHARE,
    LastRoundStarts,
    position,
)
from pagadores_train.run.config import config_from_dict


def make(share: float, num_players: int = 2):  # noqa: ANN201 - a gymnasium env
    return config_from_dict({"env": {"game": "pasch", "num_players": num_players,
                                     "opponents": ["greedy"], "last_round_starts": share}},
                            name="x").env.make()


def first_rounds(env, seeds: range) -> list[int]:  # noqa: ANN001
    """The round of the learner's first decision in each seeded game."""
    rounds = []
    for seed in seeds:
        env.reset(seed=seed)
        rounds.append(int(env.unwrapped.game.round))
    return rounds


def start_position(env) -> tuple:  # noqa: ANN001
    """The last-round position the env's game started at."""
    game = env.unwrapped.game
    return position(type(game)(game.num_players, game.hand, list(game.start_blocks),
                               hands=game.start_hands, scores=game.start_scores,
                               starter=game.first_starter))


@pytest.mark.parametrize("num_players", [2, 3])
def test_x1_4_every_game_of_share_one_starts_at_the_learners_last_round_decision(
        num_players: int) -> None:
    env = make(1.0, num_players)
    assert isinstance(env, LastRoundStarts)
    for seed in range(6):
        _, info = env.reset(seed=seed)
        game = env.unwrapped.game
        assert game.round == game.rounds - 1 and game.current_player == env.unwrapped.seat
        # a start of the pool, its earlier rounds not played: one card each, no history but
        # the last round's own (the starter's forced card and the turns up to the learner's)
        assert len(env.pool) == POOL_GAMES and all(len(h) <= 1 for h in game.start_hands)
        assert start_position(env) in env.pool
        steps, done = 0, False
        while not done:  # the learner's own turn of the last round, then the end
            _, reward, done, _, info = env.step(int(np.flatnonzero(info["action_mask"])[-1]))
            steps += 1
        places = env.unwrapped.game.placements()
        assert steps <= 8 and info["placement"] == places[env.unwrapped.seat]
        assert reward == final_reward("win", info["placement"], num_players,
                                      list(places).count(info["placement"]))


def test_a_share_of_the_games_start_late_and_the_draw_repeats_with_the_seed() -> None:
    rounds = first_rounds(make(0.5), range(200))
    late = sum(r == 5 for r in rounds)
    assert set(rounds) == {0, 5} and 70 <= late <= 130
    assert first_rounds(make(0.5), range(200)) == rounds
    assert set(first_rounds(make(0.0), range(20))) == {0}
    assert not isinstance(make(0.0), LastRoundStarts)  # share 0: the plain env


def test_half_the_late_starts_are_drawn_evenly_among_the_pools_positions() -> None:
    """The common position (equal scores, no blocks left) is drawn less often than the games
    reach it, every other one more often: each is met."""
    env = make(1.0)
    drawn = []
    for seed in range(400):
        env.reset(seed=seed)
        drawn.append(start_position(env))
    common = max(env.distinct, key=env.pool.count)
    in_pool = env.pool.count(common) / len(env.pool)
    expected = UNIFORM_SHARE / len(env.distinct) + (1 - UNIFORM_SHARE) * in_pool
    assert in_pool > 0.5 and abs(drawn.count(common) / len(drawn) - expected) < 0.08
    assert set(drawn) == set(env.distinct)
