"""The extras-free install runs both games (issue 24): ``make test`` runs this script with the
Python of a virtualenv holding ``pip install .`` with no extras (and mypy), isolated (``-I``:
neither the checkout nor PYTHONPATH on ``sys.path``), so the package comes from the install
and its dependencies from what the wheel declares.

It checks that torch, stable-baselines3, sb3-contrib, Ray and OpenSpiel are not importable
there, runs PettingZoo's ``api_test`` on both games' AEC envs and Gymnasium's ``check_env`` on
``gym.make("Pagadores-v1")`` and ``gym.make("Perudo-v1")``, and that none of the extras got
imported on the way. In-process import checks without extras are in
``tests/package/test_layers.py``; this proves the declared dependencies suffice.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import sys
import sysconfig
import warnings
from pathlib import Path

EXTRAS = ("torch", "stable_baselines3", "sb3_contrib", "ray", "pyspiel", "open_spiel")
#: The modules of ours that import an extra, which nothing here may import.
NEEDS_AN_EXTRA = ("pagadores_env.pagadores.vec_env", "pagadores_env.integrations.openspiel")
#: api_test warns about any dict observation unless the env is on its list of classic envs.
DICT_OBS_WARNINGS = ("Observation space for each agent probably should be",
                     "Observation is not a NumPy array")


def main() -> None:
    present = [name for name in EXTRAS if importlib.util.find_spec(name) is not None]
    assert not present, f"the extras-free install holds {present}"

    import gymnasium as gym
    from gymnasium.utils.env_checker import check_env
    from pettingzoo.test import api_test

    import pagadores_env
    from pagadores_env import pagadores_v1, perudo_v1

    installed = Path(sysconfig.get_path("purelib")).resolve()
    assert installed in Path(pagadores_env.__file__).resolve().parents, \
        f"pagadores_env came from {pagadores_env.__file__}, not the install in {installed}"
    said = io.StringIO()  # what the checkers print on the way ("Passed API test", renders)
    with warnings.catch_warnings(), contextlib.redirect_stdout(said):
        for message in DICT_OBS_WARNINGS:
            warnings.filterwarnings("ignore", message=message, category=UserWarning)
        for module in (pagadores_v1, perudo_v1):
            api_test(module.env(num_players=3), num_cycles=300)
        for env_id in ("Pagadores-v1", "Perudo-v1"):
            # the checker steps random actions, most of them illegal bids in Perudo: replaced
            env = gym.make(env_id, num_players=3, illegal_action="replace")
            check_env(env.unwrapped)  # the env itself: gym.make's wrappers are Gymnasium's
            env.close()
    assert said.getvalue().count("Passed API test") == 2, said.getvalue()
    imported = sorted(name for name in (*EXTRAS, *NEEDS_AN_EXTRA) if name in sys.modules)
    assert not imported, f"running the envs imported {imported}"
    print(f"extras-free install ({Path(pagadores_env.__file__).parent}): api_test of "
          "pagadores_v1 and perudo_v1 and check_env of Pagadores-v1 and Perudo-v1 pass without "
          f"{', '.join(EXTRAS)}")


if __name__ == "__main__":
    main()
