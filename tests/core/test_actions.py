"""The one rule for what counts as an action (``core.checks.check_action``), which Perudo, Paye
and Pasch apply with their own ranges, and the uniform random player they all register
(``core.policies.UniformPolicy``, ``StatedUniformPolicy``)."""

from __future__ import annotations

import numpy as np
import pytest

from pagadores_env.core.checks import check_action
from pagadores_env.core.policies import StatedUniformPolicy, UniformPolicy


@pytest.mark.parametrize("action", [0, 6, np.int8(3), np.int64(6), np.array(2)])
def test_integers_of_any_kind_in_range_are_actions(action):
    value = check_action(action, 7, "0–6 the faces")
    assert value == int(action) and type(value) is int


@pytest.mark.parametrize("action", [True, np.bool_(False), 1.0, np.float32(2), "3", None, -1, 7,
                                    np.array([1])])
def test_anything_else_is_refused_in_one_line_naming_the_range_and_encoding(action):
    with pytest.raises(ValueError, match=r"^action must be an integer 0–6 \(0–6 the faces\), "
                                         r"got ") as err:
        check_action(action, 7, "0–6 the faces")
    assert "\n" not in str(err.value) and type(action).__name__ in str(err.value)


def test_the_uniform_players_draw_only_legal_actions_each_alike():
    mask = np.array([0, 1, 1, 0, 1], dtype=np.int8)
    player = UniformPolicy(seed=3)
    draws = [player.act(np.zeros(4), mask) for _ in range(3000)]
    counts = np.bincount(draws, minlength=5)
    assert counts[[0, 3]].sum() == 0 and np.all(np.abs(counts[[1, 2, 4]] / 3000 - 1 / 3) < 0.04)
    assert not hasattr(player, "action_probabilities")  # it states no mixture
    stated = StatedUniformPolicy(seed=3).action_probabilities(
        np.zeros((2, 4)), np.array([mask, [1, 1, 0, 0, 0]]))
    assert np.allclose(stated, [[0, 1 / 3, 1 / 3, 0, 1 / 3], [0.5, 0.5, 0, 0, 0]])
