"""The speed-ups on the env's per-step path change nothing anyone can see.

The AEC env builds its infos only when they are read: checked here against infos rebuilt
eagerly from their documented meaning. (The envs' observations come from the compiled kernel:
``tests/pagadores/test_one_game.py`` holds them equal to ``observation.encode``.)
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from pagadores_env import pagadores_v1
from pagadores_env.pagadores import observation
from pagadores_env.pagadores.engine import Game


def test_R7_1_a_game_edited_in_place_is_encoded_as_it_is_now():
    """Nothing of a game is kept between encodings: a game that changes is encoded afresh."""
    game = Game(2, [5, 5])
    while not game.is_decision_node():
        game.apply_throw((2, 3, 4))
    seat = game.current_player
    before = observation.encode(game, seat)
    game.cards[1 - seat] -= 1  # as a special taking a card would (R4.1)
    after = observation.encode(game, seat)
    cards = observation.SLICES["cards"]
    assert before[cards][1] == np.float32(5 / 10) and after[cards][1] == np.float32(4 / 10)


@pytest.mark.parametrize("eliminated", ("stay", "leave"))
@pytest.mark.parametrize(("info_events", "info_mask"), [(False, False), (True, False),
                                                        (False, True), (True, True)])
@pytest.mark.parametrize("num_players", (2, 4, 6))
def test_infos_built_on_demand_equal_their_documented_content(num_players, info_events,
                                                              info_mask, eliminated):
    env = pagadores_v1.env(num_players=num_players, info_events=info_events,
                           info_mask=info_mask, eliminated=eliminated,
                           illegal_action="replace")
    rng = random.Random(num_players)
    for seed in range(3):
        env.reset(seed=seed)
        acted_at = dict.fromkeys(env.possible_agents, 0)
        replaced = set()  # agents whose latest action was not an action
        for agent in env.agent_iter():
            obs, _, terminated, _, info = env.last()
            infos = env.infos
            assert info is infos[agent] and set(infos) == set(env.agents)
            game = env.unwrapped.game
            log = game.log
            # the pending decider, even while knocked-out agents step out first
            decider = env.possible_agents[game.current_player] if game.decision else None
            for a, entry in infos.items():
                expected: dict = {"illegal_action": a in replaced}
                if info_mask:
                    expected["action_mask"] = [1, 1] if a == decider else [0, 0]
                if info_events:
                    expected["events"] = log[acted_at[a]:]
                shown = dict(entry)
                if "action_mask" in shown:
                    shown["action_mask"] = shown["action_mask"].tolist()
                assert shown == expected
            if terminated:
                env.step(None)
                continue
            acted_at[agent] = len(log)
            action = rng.choice((0, 1, 1, 2))  # 2 is replaced by 0 (stop)
            replaced.discard(agent)
            if action == 2:
                replaced.add(agent)
            env.step(action)
