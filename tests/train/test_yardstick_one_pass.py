"""The exact yardstick of a learner (``pagadores_train.evaluation.yardstick``) on the solver's one
pass: the same numbers as the separate passes, and ``learner_cost`` counting the rows the pass
really asks."""

from __future__ import annotations

import pytest

from pagadores_env.core.policies import make_policy
from pagadores_env.pagadores.solver import nash_conv
from pagadores_env.pagadores.solver import passes as solver_passes
from pagadores_env.pagadores.solver.sweep import Sweep
from pagadores_train.evaluation import yardstick


@pytest.mark.slow
@pytest.mark.parametrize("table", [(3, 2), (3, [2, 2, 1]), (4, 1)])
def test_learner_exact_is_one_pass_with_the_separate_numbers(table, monkeypatch) -> None:
    n, cards = table
    player = make_policy("lookahead")
    opponents = ["sensible", "random"]
    passes: list[int] = []

    class Recorded(Sweep):
        def run(self, progress=None) -> None:
            super().run(progress)
            passes.append(self.rows_asked)

    monkeypatch.setattr(solver_passes, "Sweep", Recorded)
    measured = yardstick.learner_exact(player, opponents, n, cards, seed=5)
    assert passes == [yardstick.learner_cost(player, opponents, n, cards)]
    monkeypatch.undo()
    assert measured.nash_conv == pytest.approx(nash_conv(player, n, cards).total, abs=1e-12)
    for spec in opponents:
        separate = yardstick.learner_win(player, make_policy(spec, seed=5), n, cards)
        assert measured.win_probability[spec] == pytest.approx(separate, abs=1e-12)
        rotations = yardstick.lineup_exact([player, make_policy(spec, seed=5)],
                                           [0] + [1] * (n - 1), cards, nash=False)
        assert separate == pytest.approx(rotations.win_probability[0], abs=1e-12)


def test_learner_cost_is_what_the_plan_asks_and_refuses_a_table_too_big() -> None:
    player = make_policy("sensible")
    one = yardstick.pass_cost([player], 3, 10)
    # seat 0 asks the learner alone, the other two seats the learner and each opponent
    assert yardstick.learner_cost(player, ["sensible"], 3, 10) == one + one * 2 // 3
    assert yardstick.learner_cost(player, [], 3, 10) == one
    with pytest.raises(ValueError, match="too big to compute NashConv of"):
        yardstick.learner_cost(player, ["sensible"], 4, 10)
