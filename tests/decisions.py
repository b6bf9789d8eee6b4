"""Real decision nodes to ask players about, shared by the agents' and the training tests."""

from __future__ import annotations

import random

import numpy as np

from pagadores_env.pagadores.observation import encode
from tests.dice import random_start, random_step


def real_decisions(count: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Observations of real decision nodes from random play on random tables (2–6 seats,
    uneven card counts), each with a mask: mostly both actions, some with one forbidden."""
    rng = random.Random(seed)
    obs: list[np.ndarray] = []
    while len(obs) < count:
        game = random_start(rng)
        p_again = rng.random()
        while not game.is_terminal() and len(obs) < count:
            if game.is_decision_node():
                obs.append(encode(game, game.current_player))
            random_step(game, rng, p_again)
    masks = np.array([rng.choice([(1, 1)] * 6 + [(1, 0), (0, 1)]) for _ in obs], dtype=np.int8)
    return np.stack(obs), masks
