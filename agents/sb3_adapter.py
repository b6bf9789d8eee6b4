"""A saved stable-baselines3 model as a player like any other (spec ``"model:path=..."``).

The algorithm is read from the zip (its ``data`` entry names the policy class and holds the
algorithm's hyper-parameters) or given as ``algo=`` (``maskable_ppo``, ``ppo``, ``a2c``,
``dqn``). Play is deterministic. MaskablePPO gets the action mask; the other algorithms cannot
take one, so an illegal choice is replaced by the legal action. torch and SB3 are imported only
when a model is loaded, so importing ``agents`` stays light.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from pagadores_env.policies import BasePolicy, register_policy

#: algo name -> (module, class). MaskablePPO lives in sb3-contrib.
ALGORITHMS: dict[str, tuple[str, str]] = {
    "maskable_ppo": ("sb3_contrib", "MaskablePPO"),
    "ppo": ("stable_baselines3", "PPO"),
    "a2c": ("stable_baselines3", "A2C"),
    "dqn": ("stable_baselines3", "DQN"),
}


def detect_algo(path: str | Path) -> str:
    """The algorithm that saved ``path``, from its policy class and hyper-parameters:
    a maskable policy means MaskablePPO, a DQN policy DQN, a ``clip_range`` PPO, else A2C."""
    try:
        with zipfile.ZipFile(path) as archive:
            data: dict[str, Any] = json.loads(archive.read("data"))
    except (OSError, KeyError, zipfile.BadZipFile, json.JSONDecodeError) as err:
        raise ValueError(f"{path} is not a saved stable-baselines3 model: {err}") from None
    module = str(data.get("policy_class", {}).get("__module__", ""))
    if "maskable" in module:
        return "maskable_ppo"
    if "dqn" in module:
        return "dqn"
    return "ppo" if "clip_range" in data else "a2c"


class SB3Policy(BasePolicy):
    """Deterministic play of a saved SB3 model; ``act_batch`` is one forward pass."""

    vectorised = True  # act_batch is one forward pass (train.evaluate: batch engine)

    def __init__(self, path: str, algo: str | None = None, device: str = "cpu",
                 seed: int | None = None) -> None:
        super().__init__(seed)
        file = Path(str(path))
        if not file.is_file():
            raise ValueError(f"model file {str(file)!r} does not exist")
        algo = detect_algo(file) if algo is None else str(algo).lower()
        if algo not in ALGORITHMS:
            raise ValueError(f"algo must be one of {', '.join(ALGORITHMS)}, got {algo!r}")
        module, cls = ALGORITHMS[algo]
        self.algo = algo
        self.masked = algo == "maskable_ppo"
        self.model = getattr(__import__(module, fromlist=[cls]), cls).load(file, device=device)
        self.name = f"model:path={path}"

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        return int(self.act_batch(np.asarray(obs)[None], np.asarray(mask)[None])[0])

    def act_batch(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        obs = np.asarray(obs, dtype=np.float32)
        mask = np.asarray(mask).astype(bool)
        extra = {"action_masks": mask} if self.masked else {}
        actions, _ = self.model.predict(obs, deterministic=True, **extra)
        actions = np.asarray(actions, dtype=np.int64).reshape(len(obs))
        legal = mask[np.arange(len(obs)), actions]
        return np.where(legal, actions, mask.argmax(axis=1)).astype(np.int64)


register_policy("model", SB3Policy)
