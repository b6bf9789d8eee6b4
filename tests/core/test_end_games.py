"""What an opponent that learns from results hears (``core.opponents.GameHooks.end_games``):
the learner's share of the win (``core.rewards.win_share``), right for the games whose seats
can share first place (Paye's Y4.4, Pasch's X1.4); and what a player's table check hears of
each game's table (``core.policies.Table``)."""

from __future__ import annotations

import gymnasium
import numpy as np

import pagadores_env  # noqa: F401  (registers the envs)
from pagadores_env.core.opponents import GameHooks
from pagadores_env.core.policies import BasePolicy


class Recorder(BasePolicy):
    """Plays the first legal action and records the ends it hears and the tables it is shown."""

    def __init__(self) -> None:
        super().__init__(0)
        self.ended: list[tuple[int, float]] = []
        self.tables: list[tuple[int, object]] = []

    def act(self, obs, mask) -> int:
        return int(np.flatnonzero(mask)[0])

    def end_games(self, games, learner_won) -> None:
        self.ended += zip(games.tolist(), learner_won.tolist(), strict=True)

    def check_table(self, num_players, table) -> None:
        self.tables.append((num_players, table))


def test_a_first_place_shared_by_k_seats_is_heard_as_one_kth_of_a_win():
    recorder = Recorder()
    hooks = GameHooks([recorder, recorder])
    hooks.end_games(np.array([4, 5, 6, 7]), np.array([1, 1, 1, 3]), np.array([1, 2, 3, 1]))
    assert recorder.ended == [(4, 1.0), (5, 0.5), (6, 1 / 3), (7, 0.0)]
    hooks.end_games(np.array([8, 9]), np.array([1, 2]))  # places of their own by default
    assert recorder.ended[4:] == [(8, 1.0), (9, 0.0)]


def test_X1_4_the_pasch_env_reports_the_learners_share_of_a_shared_win():
    recorder = Recorder()
    env = gymnasium.make("Pasch-v1", num_players=2, hand=[-1, 4], opponents=recorder).unwrapped
    assert recorder.tables == [(2, (-1, 4))]  # Pasch's table is its hand
    seen = set()
    pick = np.random.default_rng(1)
    for seed in range(40):
        _, info = env.reset(seed=seed)
        done = False
        while not done:
            _, reward, done, _, info = env.step(pick.choice(np.flatnonzero(info["action_mask"])))
        places = env.game.placements()
        place, shared = places[env.seat], places.count(places[env.seat])
        expected = 1 / shared if place == 1 else 0.0  # a share of the win, computed here
        assert recorder.ended[-1] == (0, expected)
        assert reward == 2 * expected - 1  # the "win" scheme pays the same share
        seen.add((place, shared))
    assert len(recorder.ended) == 40
    assert {(1, 1), (1, 2), (2, 1)} <= seen  # a win, a shared win and a loss all came up


def test_Y4_4_the_paye_env_shows_its_rounds_to_a_players_table_check():
    recorder = Recorder()
    gymnasium.make("Paye-v1", num_players=3, rounds=4, opponents=recorder)
    assert recorder.tables == [(3, 4)]
