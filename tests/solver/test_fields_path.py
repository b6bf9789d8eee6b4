"""The exact solver's fast paths: a scripted player's ``act_fields`` on decoded observations
answers exactly as its ``act_batch`` on the observation rows they encode, and a decision
table as the player it was built from."""

from __future__ import annotations

import numpy as np
import pytest

from pagadores_env.core.policies import make_policy
from pagadores_env.pagadores.observation import encode_batch
from pagadores_env.pagadores.rules import turn_order
from pagadores_env.pagadores.solver.multi_rows import decision_fields, decision_keys, grid
from pagadores_env.pagadores.solver.sweep import Sweep

SCRIPTED = ["stop-first", "always-throw", "threshold", "threshold:min_points=150",
            "sensible", "lookahead"]


@pytest.mark.parametrize("spec", SCRIPTED)
@pytest.mark.parametrize(("cards", "insteker"), [((3, 1, 2), 0), ((1, 4, 2), 2),
                                                 ((2, 0, 5, 1), 3)])
def test_act_fields_answers_as_act_batch_on_every_decision_of_a_position(spec, cards,
                                                                         insteker):
    policy = make_policy(spec)
    order = turn_order(cards, insteker)
    rng = np.random.default_rng(0)
    for role in range(len(order)):
        states = grid(role)
        if len(states) > 20_000:  # a 4-seat round's last role: a sample of its 41**4 states
            states = states[rng.choice(len(states), 20_000, replace=False)]
        for limit, used in decision_keys(role):
            fields = decision_fields(len(cards), cards, order, role, limit, used,
                                     states[:, :-1], states[:, -1])
            mask = np.ones((len(states), 2), np.int8)
            want = policy.act_batch(encode_batch(fields), mask)
            np.testing.assert_array_equal(policy.act_fields(fields, mask), want)


TABLED = ["stop-first", "always-throw", "threshold:min_points=150", "sensible"]


@pytest.mark.parametrize("start", [(3, 1, 2), (2, 1, 1, 2), (1, 2, 0, 2, 1)])
def test_a_decision_table_answers_the_exact_pass_as_the_policy_does(start, monkeypatch
                                                                    ) -> None:
    # a policy with a decision table (vector.tables) is looked up, not asked: every seat's
    # values at every position of the pass are the ones asking it gives, bit for bit
    from pagadores_env.pagadores.solver import sweep as sweep_module

    players = dict(enumerate(make_policy(TABLED[s % len(TABLED)]) for s in range(len(start))))
    variants = [(False,) * len(start), (True,) + (False,) * (len(start) - 1)]

    def run() -> Sweep:
        sweep = Sweep(start, variants, players, full=False)
        sweep.run()
        return sweep

    looked_up = run()
    assert all(table is not None for table in looked_up._tables)
    monkeypatch.setattr(sweep_module, "decision_table", lambda policy: None)
    asked = run()
    assert asked.win.keys() == looked_up.win.keys()
    for key, value in asked.win.items():
        np.testing.assert_array_equal(looked_up.win[key], value, err_msg=str(key))
    assert looked_up.rows_asked == asked.rows_asked  # the same decisions answered
