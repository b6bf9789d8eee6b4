"""Clients nobody here wrote drive the Perudo games as they drive any other. Shimmy 2.0's
``OpenSpielCompatibilityV0`` (the ``clients`` extra), the client itself, on the OpenSpiel game
``python_perudo_small``. Shimmy's faults (parameters outside ``config`` dropped at reset,
final rewards repeated on dead steps) are pinned in ``tests/pagadores/test_clients.py``."""

from __future__ import annotations

import numpy as np
import pytest


# api_test warns about the unbounded Box Shimmy gives every OpenSpiel observation tensor.
@pytest.mark.filterwarnings(
    "ignore:Agent's minimum observation space value is -infinity:UserWarning",
    "ignore:Agent's maximum observation space value is infinity:UserWarning")
def test_shimmy_plays_python_perudo_small():
    """PettingZoo's ``api_test`` passes, and the loop of Shimmy's OpenSpiel page
    (``docs/environments/open_spiel.md``, "Run the environment"; random legal actions from a
    seeded generator) plays whole games: when the game is over, ``env.rewards`` pays the
    engine's winner +1 and the loser -1 (P7.3)."""
    from pettingzoo.test import api_test
    from shimmy import OpenSpielCompatibilityV0

    import pagadores_env.integrations.openspiel  # noqa: F401  (registers python_perudo_small)

    env = OpenSpielCompatibilityV0(game_name="python_perudo_small")
    api_test(env, num_cycles=1000)
    assert env.possible_agents == ["player_0", "player_1"]
    winners = set()
    for seed in range(20):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)  # Shimmy's action spaces are new at every step
        at_end = None
        for _agent in env.agent_iter():
            observation, reward, termination, truncation, info = env.last()
            if termination or truncation:
                action = None
                at_end = dict(env.rewards) if at_end is None else at_end
            else:
                action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            env.step(action)
        game = env.game_state.engine  # the engine's game under OpenSpiel's state
        assert game.is_terminal() and game.alive() == [game.winner]
        assert at_end == {f"player_{seat}": 1.0 if seat == game.winner else -1.0
                          for seat in range(2)}
        winners.add(game.winner)
    assert winners == {0, 1}
