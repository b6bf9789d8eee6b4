"""The optimal player (``pagadores_agents.optimal``): registered as ``optimal``, it plays the
two-player solution and refuses other tables. How it plays is checked against the solver in
``tests/solver/test_solver.py``."""

from __future__ import annotations

import numpy as np
import pytest

from pagadores_agents.optimal import OptimalPolicy
from pagadores_env.core.policies import make_policy
from pagadores_env.pagadores.engine import Game
from pagadores_env.pagadores.observation import encode


@pytest.fixture(autouse=True)
def _private_cache(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("PAGADORES_CACHE", str(tmp_path / "cache"))


def test_optimal_policy_is_registered_and_refuses_other_table_sizes() -> None:
    policy = make_policy("optimal:cards=2")
    assert isinstance(policy, OptimalPolicy)
    game = Game(3, 2)
    game.apply_throw((2, 3, 4))
    with pytest.raises(ValueError, match="2-seat observations, got \\[3\\] seats"):
        policy.act(encode(game, game.current_player), np.ones(2, dtype=np.int8))
