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


def torchrl_perudo(**kwargs):
    """The clients page's TorchRL recipe: ``Perudo-v1`` in ``GymWrapper``, the mask read from
    the info with an int8 spec, and ``ActionMask`` restricting the action spec to it."""
    import gymnasium as gym
    import torch
    from torchrl.data import Binary
    from torchrl.envs import ActionMask, GymWrapper, TransformedEnv, default_info_dict_reader

    import pagadores_env  # noqa: F401  (registers Perudo-v1)

    env = GymWrapper(gym.make("Perudo-v1", **kwargs), categorical_action_encoding=True)
    reader = default_info_dict_reader(["action_mask"], spec=[Binary(181, dtype=torch.int8)])
    env.set_info_dict_reader(info_dict_reader=reader)
    return TransformedEnv(env, ActionMask())


@pytest.mark.parametrize("num_players", [2, 4])
def test_torchrl_gym_wrapper_with_action_mask_plays_only_legal_bids(num_players):
    """TorchRL's random rollouts (``rand_action`` on the masked spec) bid and call dudo only
    where the rules allow, whole episodes long, and each episode pays its one reward at its
    end (+1 or -1 at the default ``"win"``)."""
    pytest.importorskip("torchrl")
    import torch
    from torchrl.envs.utils import check_env_specs

    torch.manual_seed(0)
    # check_env_specs steps 3 random actions, then draws a 4th: an episode must last longer
    # (at its end the mask is all zeros), as it does with 5 dice each
    official = torchrl_perudo(num_players=num_players)
    official.set_seed(0)
    check_env_specs(official)
    env = torchrl_perudo(num_players=num_players, dice=2)
    env.set_seed(0)
    for _ in range(10):
        rollout = env.rollout(1000)
        actions, masks = rollout["action"], rollout["action_mask"]
        assert masks.dtype == torch.int8 and masks.shape[-1] == 181
        assert masks[torch.arange(len(actions)), actions].all()  # every action legal
        rewards = rollout["next", "reward"].flatten().tolist()
        assert rollout["next", "done"][-1].item() and not rollout["next", "done"][:-1].any()
        assert rewards[:-1] == [0.0] * (len(rewards) - 1) and rewards[-1] in (-1.0, 1.0)


def test_torchrl_info_reader_needs_the_masks_spec():
    """Without a spec the reader guesses one float per key and the rollout fails; with a bool
    spec ``check_env_specs`` refuses the int8 mask the env gives: the recipe's int8 spec."""
    pytest.importorskip("torchrl")
    import gymnasium as gym
    import torch
    from torchrl.data import Binary
    from torchrl.envs import GymWrapper, default_info_dict_reader
    from torchrl.envs.utils import check_env_specs

    import pagadores_env  # noqa: F401  (registers Perudo-v1)

    for spec, error in ((None, RuntimeError), ([Binary(181, dtype=torch.bool)], AssertionError)):
        env = GymWrapper(gym.make("Perudo-v1"), categorical_action_encoding=True)
        env.set_info_dict_reader(default_info_dict_reader(["action_mask"], spec=spec))
        env.set_seed(0)
        with pytest.raises(error):
            check_env_specs(env)
