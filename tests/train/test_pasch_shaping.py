"""Pasch's dense reward (``env.shaping``, ``evaluation.pasch.PointsShaping``): each step pays
the points the learner gained in the share-out (X7.2) minus the others' mean gain, on top of
the game's reward, so a whole game's extra is the weight times the learner's final points
minus the others' mean (X1.4: the most points win)."""

from __future__ import annotations

import numpy as np
import pytest

from pagadores_train.evaluation.pasch import PointsShaping
from pagadores_train.run.config import config_from_dict


@pytest.mark.parametrize("num_players", [2, 3])
def test_points_shaping_pays_each_rounds_points_as_they_are_shared_out(num_players: int) -> None:
    env_keys = {"game": "pasch", "num_players": num_players, "opponents": ["greedy"]}
    env = config_from_dict({"env": {**env_keys, "shaping": 0.1}}, name="x").env.make()
    plain = config_from_dict({"env": env_keys}, name="x").env.make()
    assert isinstance(env, PointsShaping)
    for seed in range(4):
        (_, info), _ = env.reset(seed=seed), plain.reset(seed=seed)
        done, extra, paid = False, [], 0
        while not done:  # the same actions in both: the same games
            action = int(np.flatnonzero(info["action_mask"])[0])
            _, shaped, done, _, info = env.step(action)
            _, reward, _, _, _ = plain.step(action)
            extra.append(shaped - reward)
            paid += abs(shaped - reward) > 1e-12
        game, seat = env.unwrapped.game, env.unwrapped.seat
        others = (sum(game.scores) - game.scores[seat]) / (num_players - 1)
        assert sum(extra) == pytest.approx(0.1 * (game.scores[seat] - others))
        assert paid <= game.rounds  # paid only when a round's cards are shared out
