"""A policy trained with RLlib as a player like any other (spec ``"rllib:path=..."``).

``path`` is either

* a run folder of ``pagadores train`` with an RLlib config (``runs/<name>``): its newest
  checkpoint, the one ``checkpoints/latest.json`` names (``pagadores_train.rllib``), or
* an RLlib algorithm checkpoint (the folder ``Algorithm.save_to_path`` wrote, holding
  ``rllib_checkpoint.json`` and ``learner_group/``), such as ``runs/<name>/checkpoints/
  step_<N>``.

The shared self-play policy's module (``SHARED_POLICY``, a
``pagadores_agents.rllib_module.MaskedPPOTorchRLModule``) is loaded from the learner's state
in it and checked: it must take Pagadores' observations (``Box(49,)``) and actions
(``Discrete(2)``). Play is deterministic: the argmax of the masked logits, one forward pass
per ``act_batch`` (in cache-sized pieces), torch on one thread. Ray, RLlib and torch are
imported only when a policy is loaded, so importing ``pagadores_agents`` never loads Ray.
"""

from __future__ import annotations

import json
import types
from pathlib import Path
from typing import Any

import numpy as np

from pagadores_env.policies import BasePolicy, register_policy

from .sb3_adapter import LOGIT_ROWS, check_spaces

#: The module id every seat is mapped to in RLlib self-play (``pagadores_train.rllib``).
SHARED_POLICY = "shared"
#: A run folder's checkpoints: ``step_<N>`` algorithm checkpoints and the resume pointer.
CHECKPOINTS, LATEST = "checkpoints", "latest.json"
#: The file ``Algorithm.save_to_path`` writes at the root of an algorithm checkpoint.
ALGORITHM_MARKER = "rllib_checkpoint.json"
EXPECTED = ("an RLlib run folder (runs/<name>, with checkpoints/latest.json) or an RLlib "
            "algorithm checkpoint (a folder holding rllib_checkpoint.json)")


def latest_checkpoint(run_dir: Path) -> Path | None:
    """The algorithm checkpoint ``run_dir/checkpoints/latest.json`` names, or None if there
    is no such record (missing, damaged, or naming no checkpoint folder of the run)."""
    try:
        name = str(json.loads((run_dir / CHECKPOINTS / LATEST).read_text())["checkpoint"])
    except (OSError, UnicodeDecodeError, ValueError, TypeError, KeyError):
        return None
    folder = run_dir / CHECKPOINTS / name
    plain = name not in ("", ".", "..") and Path(name).name == name
    return folder if plain and (folder / ALGORITHM_MARKER).is_file() else None


def algorithm_checkpoint(path: str | Path) -> Path:
    """The algorithm checkpoint ``path`` means (see the module doc), or ``ValueError``
    saying what ``path`` is and what is expected."""
    folder = Path(str(path))
    if not folder.exists():
        raise ValueError(f"RLlib checkpoint {str(folder)!r} does not exist; expected {EXPECTED}")
    if not folder.is_dir():
        raise ValueError(f"RLlib checkpoint {str(folder)!r} is a file; expected {EXPECTED}")
    if (folder / ALGORITHM_MARKER).is_file():
        return folder
    if (folder / CHECKPOINTS).is_dir():
        found = latest_checkpoint(folder)
        if found is None:
            raise ValueError(f"run folder {str(folder)!r} has no usable {CHECKPOINTS}/{LATEST} "
                             f"(no finished checkpoint yet?); expected {EXPECTED}")
        return found
    raise ValueError(f"{str(folder)!r} is not an RLlib checkpoint; expected {EXPECTED}")


class RLlibPolicy(BasePolicy):
    """Deterministic play of the shared policy of an RLlib checkpoint; ``act_batch`` is one
    forward pass."""

    def __init__(self, path: str, seed: int | None = None) -> None:
        super().__init__(seed)
        checkpoint = algorithm_checkpoint(path)
        from ray.rllib.core import COMPONENT_LEARNER, COMPONENT_LEARNER_GROUP, COMPONENT_RL_MODULE
        from ray.rllib.core.rl_module.rl_module import RLModule

        from .rllib_module import OBS_KEY, MaskedPPOTorchRLModule

        folder = (checkpoint / COMPONENT_LEARNER_GROUP / COMPONENT_LEARNER / COMPONENT_RL_MODULE
                  / SHARED_POLICY)
        if not folder.is_dir():
            raise ValueError(f"RLlib checkpoint {str(checkpoint)!r} holds no module "
                             f"{SHARED_POLICY!r} (the shared self-play policy pagadores train "
                             "saves); was it trained by another program?")
        try:
            module = RLModule.from_checkpoint(folder)
        except Exception as err:  # pickle, pyarrow and torch fail in many ways; name the folder
            reason = (str(err).strip().splitlines() or [type(err).__name__])[0]
            raise ValueError(f"RLlib checkpoint {str(checkpoint)!r} does not load: {reason}"
                             ) from None
        if not isinstance(module, MaskedPPOTorchRLModule):
            raise ValueError(f"RLlib checkpoint {str(checkpoint)!r} holds a "
                             f"{type(module).__name__}, expected a MaskedPPOTorchRLModule "
                             "(pagadores_agents.rllib_module, what pagadores train saves)")
        check_spaces(types.SimpleNamespace(observation_space=module.observation_space[OBS_KEY],
                                           action_space=module.action_space))
        module.eval()
        self.module = module
        self.checkpoint = checkpoint
        self.name = f"rllib:path={path}"

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        """The policy's deterministic action at one observation."""
        return int(self.act_batch(np.asarray(obs)[None], np.asarray(mask)[None])[0])

    def act_batch(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The most likely legal action at each row: the argmax of the masked logits."""
        return self.logits(obs, mask).argmax(axis=1).astype(np.int64)

    def logits(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The module's masked action logits at rows of observations and masks (a masked
        action's is about -3.4e38: its probability is 0). Cache-sized pieces on one thread,
        as ``SB3Policy._logits`` and for the same reasons: the exact solver asks about
        hundreds of millions of rows."""
        import torch
        from ray.rllib.core.columns import Columns

        from .rllib_module import MASK_KEY, OBS_KEY

        rows = np.require(obs, np.float32, ["C_CONTIGUOUS", "WRITEABLE"])
        masks = np.require(mask, np.float32, ["C_CONTIGUOUS", "WRITEABLE"])
        out = np.empty((len(rows), masks.shape[1]), np.float32)
        threads = torch.get_num_threads()
        torch.set_num_threads(1)
        try:
            with torch.inference_mode():
                for at in range(0, len(rows), LOGIT_ROWS):
                    piece = {OBS_KEY: torch.from_numpy(rows[at:at + LOGIT_ROWS]),
                             MASK_KEY: torch.from_numpy(masks[at:at + LOGIT_ROWS])}
                    outputs: dict[str, Any] = self.module.forward_inference({Columns.OBS: piece})
                    out[at:at + LOGIT_ROWS] = outputs[Columns.ACTION_DIST_INPUTS].numpy()
        finally:
            torch.set_num_threads(threads)
        return out


register_policy("rllib", RLlibPolicy)
