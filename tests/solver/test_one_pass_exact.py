"""One solver pass for a learner's NashConv and its wins against opponents: the same numbers
as the separate passes, and the learner asked about each decision once. The yardstick built
on it (``pagadores_train.evaluation.yardstick``) is tested in
``tests/train/test_yardstick_one_pass.py``."""

from __future__ import annotations

import numpy as np
import pytest

from pagadores_env.core.policies import BasePolicy, make_policy
from pagadores_env.pagadores.solver import exact_evaluate_starts, nash_conv
from pagadores_env.pagadores.solver.equilibrium import nash_conv_and_evaluate


class Counting(BasePolicy):
    """The player ``spec`` names (deterministic, answering batches), counting the rows it is
    asked."""

    def __init__(self, spec: str) -> None:
        super().__init__()
        self.inner = make_policy(spec)
        self.name = spec
        self.rows = 0

    def act_batch(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        self.rows += len(obs)
        return np.asarray(self.inner.act_batch(obs, mask))


@pytest.mark.slow
def test_one_pass_gives_the_separate_passes_numbers() -> None:
    learner, rand, sensible = (make_policy(s, seed=3) for s in ("lookahead", "random",
                                                                 "sensible"))
    profile = [learner, rand, learner]  # random: its 50/50 mixture, evaluated exactly
    lineups = [[learner, sensible, sensible], [rand, learner, sensible], [sensible] * 3]
    measured, starts = nash_conv_and_evaluate(profile, lineups, 3, 3, first_insteker=1)
    alone = nash_conv(profile, 3, 3, first_insteker=1)
    assert measured.gains == pytest.approx(alone.gains, abs=1e-12)
    assert measured.values == pytest.approx(alone.values, abs=1e-12)
    assert measured.total == pytest.approx(alone.total, abs=1e-12)
    assert measured.total > 0.01  # not an equilibrium: the gains are checked
    for lineup, got in zip(lineups, starts, strict=True):
        expected = exact_evaluate_starts(lineup, 3, 3)
        assert set(got) == set(expected) == {0, 1, 2}
        for seat, values in expected.items():
            assert got[seat] == pytest.approx(values, abs=1e-12)
    assert len({starts[0][0], starts[1][0], starts[2][0]}) == 3  # the lineups differ


@pytest.mark.slow
def test_a_policy_in_several_variants_is_asked_once_per_decision() -> None:
    learner, other = Counting("lookahead"), Counting("sensible")
    nash_conv(learner, 3, 2)
    alone = learner.rows
    learner.rows = 0
    nash_conv_and_evaluate(learner, [[learner, other, other], [other, learner, other]], 3, 2)
    assert learner.rows == alone  # the lineups cost the learner nothing more
    assert other.rows > 0
