"""The extras-free install runs every game (issues 24, 46, 47): ``make test`` runs this script
with the Python of a virtualenv holding ``pip install .`` with no extras (and mypy), isolated
(``-I``: neither the checkout nor PYTHONPATH on ``sys.path``), so the package comes from the
install and its dependencies from what the wheel declares.

It checks that torch, stable-baselines3, sb3-contrib, Ray and OpenSpiel are not importable
there, and for every game of the table of games (Pagadores, Perudo, Paye's dobbelspel, Pasch)
runs PettingZoo's ``api_test`` on its AEC env and Gymnasium's ``check_env`` on its
Gymnasium env, and plays whole episodes of the Gymnasium env with random actions from the
action mask, each one legal; then the small calls of Paye's and Pasch's exact yardsticks
(2-player start values of a short Paye game, Y8.1; the chance of five of a kind in one Pasch
turn, X9.1: the well-known 4.60 %); and that none of the extras got imported on the way.
In-process import checks without extras are in ``tests/package/test_layers.py``; this proves
the declared dependencies suffice.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import io
import math
import sys
import sysconfig
import warnings
from pathlib import Path

import numpy as np

EXTRAS = ("torch", "stable_baselines3", "sb3_contrib", "ray", "pyspiel", "open_spiel")
#: The modules of ours that import an extra, which nothing here may import.
NEEDS_AN_EXTRA = ("pagadores_env.pagadores.vec_env", "pagadores_env.integrations.openspiel")
#: api_test warns about any dict observation unless the env is on its list of classic envs.
DICT_OBS_WARNINGS = ("Observation space for each agent probably should be",
                     "Observation is not a NumPy array")
#: The games added after the first two, which this check must reach (issues 46 and 47).
NEW_GAMES = ("paye", "pasch")
#: Learner steps of random masked play per game's Gymnasium env.
MASKED_STEPS = 300
#: Five of a kind in three throws of five dice, kept as best: 2,783,176 / 6**10 (the Yahtzee
#: figure), to the digits the issue quotes.
FIVE_OF_A_KIND = 0.0460


def masked_play(env_id: str, steps: int) -> int:
    """Play ``steps`` learner steps of ``env_id`` at 3 players, each a random action of
    ``info["action_mask"]``, resetting at each episode's end; every step must be legal and
    every reward finite. Returns the episodes finished."""
    import gymnasium as gym

    env = gym.make(env_id, num_players=3)
    rng = np.random.default_rng(0)
    _obs, info = env.reset(seed=0)
    episodes = 0
    for _ in range(steps):
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _obs, reward, terminated, truncated, info = env.step(action)
        assert not info["illegal_action"], f"{env_id}: masked action {action} refused"
        assert math.isfinite(reward), f"{env_id}: reward {reward}"
        if terminated or truncated:
            episodes += 1
            _obs, info = env.reset()
    env.close()
    assert episodes >= 1, f"{env_id}: no episode ended in {steps} learner steps"
    return episodes


def exact_yardsticks() -> None:
    """The small calls of Paye's and Pasch's exact yardsticks (numpy and numba only)."""
    from pagadores_env.pasch.exact import best_chance
    from pagadores_env.paye.exact import start_values

    shares = start_values(2, rounds=3)
    assert len(shares) == 2 and all(0 < s < 1 for s in shares), shares
    assert abs(sum(shares) - 1) < 1e-9, shares  # a shared win is split (Y4.4)
    five = best_chance(("five", 1))  # at or above the lowest five of a kind: any of them
    assert round(five, 4) == FIVE_OF_A_KIND, five


def main() -> None:
    present = [name for name in EXTRAS if importlib.util.find_spec(name) is not None]
    assert not present, f"the extras-free install holds {present}"

    import gymnasium as gym
    from gymnasium.utils.env_checker import check_env
    from pettingzoo.test import api_test

    import pagadores_env
    from pagadores_env.core.games import GAME_SPECS

    installed = Path(sysconfig.get_path("purelib")).resolve()
    assert installed in Path(pagadores_env.__file__).resolve().parents, \
        f"pagadores_env came from {pagadores_env.__file__}, not the install in {installed}"
    assert set(NEW_GAMES) <= set(GAME_SPECS), f"the install's games are {list(GAME_SPECS)}"
    said = io.StringIO()  # what the checkers print on the way ("Passed API test", renders)
    episodes = {}
    with warnings.catch_warnings(), contextlib.redirect_stdout(said):
        for message in DICT_OBS_WARNINGS:
            warnings.filterwarnings("ignore", message=message, category=UserWarning)
        for name, spec in GAME_SPECS.items():
            module = importlib.import_module(f"pagadores_env.{name}_v1")  # its AEC entry
            api_test(module.env(num_players=3), num_cycles=300)
            # the checker steps random actions, most of them illegal bids in Perudo: replaced
            env = gym.make(spec.gym_id, num_players=3, illegal_action="replace")
            check_env(env.unwrapped)  # the env itself: gym.make's wrappers are Gymnasium's
            env.close()
            episodes[spec.gym_id] = masked_play(spec.gym_id, MASKED_STEPS)
    assert said.getvalue().count("Passed API test") == len(GAME_SPECS), said.getvalue()
    exact_yardsticks()
    imported = sorted(name for name in (*EXTRAS, *NEEDS_AN_EXTRA) if name in sys.modules)
    assert not imported, f"running the envs imported {imported}"
    played = ", ".join(f"{env_id} {count}" for env_id, count in episodes.items())
    print(f"extras-free install ({Path(pagadores_env.__file__).parent}): api_test of "
          f"{', '.join(f'{name}_v1' for name in GAME_SPECS)}, check_env of "
          f"{', '.join(spec.gym_id for spec in GAME_SPECS.values())}, masked random play "
          f"(episodes: {played}) and the small exact calls of Paye and Pasch pass without "
          f"{', '.join(EXTRAS)}")


if __name__ == "__main__":
    main()
