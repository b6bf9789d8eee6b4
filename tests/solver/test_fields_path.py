"""The exact solver's fast path: a scripted player's ``act_fields`` on decoded observations
answers exactly as its ``act_batch`` on the observation rows they encode."""

from __future__ import annotations

import numpy as np
import pytest

from pagadores_env.core.policies import make_policy
from pagadores_env.pagadores.observation import encode_batch
from pagadores_env.pagadores.rules import turn_order
from pagadores_env.pagadores.solver.multi_rows import decision_fields, decision_keys, grid

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
