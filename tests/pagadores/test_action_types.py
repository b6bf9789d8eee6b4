"""One rule for what an action is (``engine.as_action``), the same in all three layers.

The same values go to ``Game.apply_action``, the PettingZoo env and the Gymnasium env at a
decision (where 0 and 1 are both legal, R3.6): each layer must accept exactly the values the
others accept. (``True`` used to be refused by ``Game`` but played by both envs; ``1.0`` and
``np.float32(1)`` were refused by the PettingZoo env but played by the Gymnasium env.)
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import pagadores_env  # noqa: F401  (registers Pagadores-v1)
from pagadores_env import Game, IllegalMoveError, pagadores_v1

VALUES = [0, 1, np.int8(1), np.uint8(0), np.int64(1), np.array(1), np.array(0, dtype=np.int16),
          True, False, np.bool_(True), 1.0, 0.0, np.float32(1), np.array(1.0), 2, -1,
          np.int64(5), None, "1", np.array([1]), [1], 0.5]


def verdict(play) -> str:
    """"accepted", or "refused" on IllegalMoveError (any other error fails the test)."""
    try:
        play()
    except IllegalMoveError:
        return "refused"
    return "accepted"


def game_verdict(action) -> str:
    game = Game(2)
    while not game.is_decision_node():
        game.apply_throw((2, 3, 4))
    return verdict(lambda: game.apply_action(action))


def aec_verdict(action) -> str:
    env = pagadores_v1.env(num_players=2)
    env.reset(seed=0)
    return verdict(lambda: env.step(action))


def gym_verdict(action) -> str:
    env = gym.make("Pagadores-v1", opponents=["random"])
    env.reset(seed=0)
    return verdict(lambda: env.step(action))


@pytest.mark.parametrize("action", VALUES, ids=repr)
def test_every_layer_gives_the_same_verdict(action):
    verdicts = {"Game": game_verdict(action), "PettingZoo env": aec_verdict(action),
                "Gymnasium env": gym_verdict(action)}
    assert len(set(verdicts.values())) == 1, verdicts


def test_the_verdicts_are_the_documented_rule():
    accepted = [v for v in VALUES if game_verdict(v) == "accepted"]
    assert all(not isinstance(v, bool | np.bool_ | float | np.floating) for v in accepted)
    assert len(accepted) == 7  # the ints, numpy ints and 0-d int arrays 0 and 1
