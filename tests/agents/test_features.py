"""The features extractors a config may name (``pagadores_agents.features``): ``paye_grid``
reads each Paye score and the rounds left back from the observation as one-hot columns, in
both variants and at any table; ``pasch_grid`` writes Pasch's dice counts, disc classes, lead,
blocks and cards left as read back from the observation (``pasch.observation.decode``) over
random play at 2, 3 and 6 players. Both pass the observation itself on unchanged."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

torch = pytest.importorskip("torch")

from pagadores_agents.features import MAX_LEAD, MAX_SCORE, PaschGrid, PayeGrid  # noqa: E402
from pagadores_env.pasch import observation as pasch_obs  # noqa: E402
from pagadores_env.pasch.rules import CLASSES, DICE, FACES, MAX_BLOCKS, MAX_HAND  # noqa: E402
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


def _pasch_rows(n: int, count: int) -> np.ndarray:
    """Observations of the learner's decisions in seeded random play at ``n`` players."""
    env = gymnasium.make("Pasch-v1", num_players=n, opponents=["random"],
                         learner_seat="random").unwrapped
    rng, rows = np.random.default_rng(n), []
    obs, info = env.reset(seed=n)
    while len(rows) < count:
        rows.append(obs)
        obs, _, done, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        if done:
            obs, info = env.reset()
    return np.array(rows)


def _split(features: np.ndarray) -> dict[str, np.ndarray]:
    """``PaschGrid``'s columns after the observation, by what they say (its docstring's order)."""
    sizes = {"counts": FACES * (DICE + 1), "shared": DICE * DICE, "best": CLASSES,
             "mine": CLASSES, "reach": 1, "lead": 2 * MAX_LEAD + 1, "blocks": MAX_BLOCKS + 1,
             "their_blocks": MAX_BLOCKS + 1, "cards": MAX_HAND + 1}
    out, at = {}, pasch_obs.OBS_SIZE
    for name, size in sizes.items():
        out[name], at = features[:, at:at + size], at + size
    assert at == features.shape[1]
    return out


@pytest.mark.parametrize("n", [2, 3, 6])
def test_x8_2_pasch_grid_writes_the_facts_the_observation_says(n) -> None:
    obs = _pasch_rows(n, 300)
    grid = PaschGrid(gymnasium.spaces.Box(-1, 1, (pasch_obs.OBS_SIZE,), np.float32))
    features = grid(torch.as_tensor(obs)).numpy()
    assert features.shape == (len(obs), grid.features_dim)
    assert np.array_equal(features[:, :pasch_obs.OBS_SIZE], obs)
    cols, view = _split(features), pasch_obs.decode(obs)
    thrown = view.dice[:, 0] > 0
    assert thrown.any() and (~thrown).any()  # both kinds of position were seen
    counts = (view.dice[:, :, None] == np.arange(1, FACES + 1)).sum(axis=1)
    assert np.array_equal(cols["counts"].reshape(-1, FACES, DICE + 1).argmax(axis=2), counts)
    shared = cols["shared"].reshape(-1, DICE, DICE)
    assert np.array_equal(shared.sum(axis=(1, 2)), np.where(thrown, DICE, 0))
    for row in np.flatnonzero(thrown):
        faces = view.dice[row]
        assert list(shared[row].argmax(axis=1) + 1) == [list(faces).count(f) for f in faces]
    assert np.array_equal(cols["best"].sum(axis=1), view.best_disc + 1)
    assert np.array_equal(cols["mine"].sum(axis=1), view.dice_disc + 1)
    reach = thrown & (view.dice_disc >= view.best_disc)
    assert np.array_equal(cols["reach"][:, 0], reach)
    others = np.where(np.arange(6) < n, view.scores, -1000)[:, 1:].max(axis=1)
    lead = np.clip(view.scores[:, 0] - others, -MAX_LEAD, MAX_LEAD)
    assert np.array_equal(cols["lead"].argmax(axis=1) - MAX_LEAD, lead)
    assert np.array_equal(cols["blocks"].argmax(axis=1), view.blocks[:, 0])
    assert np.array_equal(cols["their_blocks"].argmax(axis=1), view.blocks[:, 1:n].max(axis=1))
    assert np.array_equal(cols["cards"].argmax(axis=1), view.hands[:, 0].sum(axis=1))
    assert np.all(cols["counts"].reshape(-1, FACES, DICE + 1).sum(axis=2) == 1)
    for name in ("lead", "blocks", "their_blocks", "cards"):
        assert np.all(cols[name].sum(axis=1) == 1)  # one-hot: exactly one column set
