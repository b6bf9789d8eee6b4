"""The features extractors a config may name (``pagadores_agents.features``): ``paye_grid``
reads each Paye score and the rounds left back from the observation as one-hot columns, in
both variants and at any table, the observation itself passed on unchanged."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

torch = pytest.importorskip("torch")

from pagadores_agents.features import MAX_SCORE, PayeGrid  # noqa: E402
from pagadores_env.paye.engine import Game  # noqa: E402
from pagadores_env.paye.observation import OBS_SIZE, encode  # noqa: E402
from pagadores_env.paye.rules import MAX_PLAYERS, ROUNDS  # noqa: E402


@pytest.mark.parametrize(("n", "variant", "scores", "rounds", "rnd", "turn"), [
    (2, "base", [44, 45], 10, 3, 1),  # one point apart: the fractions differ by 0.02
    (3, "base", [0, 49, 12], 10, 10, 2),  # the last round
    (6, "base", [1, 2, 3, 47, 48, 49], 4, 1, 0),  # a short game
    (2, "expansion", [99, 55], 10, 7, 0),  # target 100
    (2, "base", [10, 20], 25, 2, 0),  # more rounds left than the grid has columns
])
def test_y3_3_the_grid_reads_back_every_score_and_the_rounds_left(n, variant, scores, rounds,
                                                                  rnd, turn) -> None:
    game = Game(n, variant, None, rounds, first_player=0, scores=scores, round=rnd, turn=turn)
    grid = PayeGrid(gymnasium.spaces.Box(0, 1, (OBS_SIZE,), np.float32))
    for seat in range(n):
        obs = encode(game, seat)
        features = grid(torch.as_tensor(obs[None]))[0].numpy()
        assert features.shape == (grid.features_dim,)
        assert np.array_equal(features[:OBS_SIZE], obs)
        one_hot = features[OBS_SIZE:OBS_SIZE + MAX_PLAYERS * (MAX_SCORE + 1)]
        read = one_hot.reshape(MAX_PLAYERS, MAX_SCORE + 1).argmax(axis=1)
        assert list(read[:n]) == [scores[(seat + k) % n] for k in range(n)]  # slot 0 = me
        left = features[OBS_SIZE + MAX_PLAYERS * (MAX_SCORE + 1):]
        assert left.sum() == 1 and left.argmax() == min(rounds - rnd, ROUNDS)
