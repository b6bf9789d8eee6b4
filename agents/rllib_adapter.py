"""A policy trained with RLlib as a player like any other (spec ``"rllib:path=..."``).

``path`` is either

* a run folder of ``pagadores train`` with an RLlib config (``runs/<name>``): its newest
  checkpoint, the one ``checkpoints/latest.json`` names (``pagadores_train.learners.rllib``), or
* an RLlib algorithm checkpoint (the folder ``Algorithm.save_to_path`` wrote, holding
  ``rllib_checkpoint.json`` and ``learner_group/``), such as ``runs/<name>/checkpoints/
  step_<N>``.

Anything else is refused in one line saying what it is; a stable-baselines3 model or run
folder (``model.zip``, ``checkpoints/model_<t>_steps.zip``) is named as one, with the
``model:path=…`` spec that plays it (and ``model:path=`` names an RLlib run in turn).

The shared self-play policy's module (``SHARED_POLICY``, a
``pagadores_agents.rllib_module.MaskedPPOTorchRLModule``) is loaded from the learner's state
in it and checked: it must take Pagadores' observations (``Box(49,)``) and actions
(``Discrete(2)``). Play is deterministic: the argmax of the masked logits, one forward pass
per ``act_batch`` (in cache-sized pieces), torch on one thread. Ray, RLlib and torch are
imported only when a policy is loaded, so importing ``pagadores_agents`` never loads Ray.
"""

from __future__ import annotations

import types
from pathlib import Path
from typing import Any

import numpy as np

from pagadores_env.core.policies import BasePolicy, register_policy

from .run_folders import ALGORITHM_MARKER, CHECKPOINTS, LATEST, latest_checkpoint, sb3_run_model
from .sb3_adapter import LOGIT_ROWS, check_spaces, detect_algo

#: The module id every seat is mapped to in RLlib self-play (``pagadores_train.learners.rllib``).
SHARED_POLICY = "shared"
EXPECTED = ("an RLlib run folder (runs/<name>, with checkpoints/latest.json) or an RLlib "
            "algorithm checkpoint (a folder holding rllib_checkpoint.json)")


def algorithm_checkpoint(path: str | Path) -> Path:
    """The algorithm checkpoint ``path`` means (see the module doc), or ``ValueError``
    saying what ``path`` is and what is expected; a stable-baselines3 model or run folder
    is named as one, with the ``model:path=`` spec that plays it."""
    folder = Path(str(path))
    if not folder.exists():
        raise ValueError(f"RLlib checkpoint {str(folder)!r} does not exist; expected {EXPECTED}")
    if not folder.is_dir():
        try:
            detect_algo(folder)
        except ValueError:
            raise ValueError(f"RLlib checkpoint {str(folder)!r} is a file; expected {EXPECTED}"
                             ) from None
        raise ValueError(f"{str(folder)!r} is a stable-baselines3 model, not an RLlib "
                         f"checkpoint: play it as model:path={folder}")
    if (folder / ALGORITHM_MARKER).is_file():
        return folder
    found = latest_checkpoint(folder)
    if found is not None:
        return found
    model = sb3_run_model(folder)
    if model is not None:
        raise ValueError(f"{str(folder)!r} is a stable-baselines3 run folder, not an RLlib "
                         f"run: play its model as model:path={model}")
    if (folder / CHECKPOINTS).is_dir():
        raise ValueError(f"run folder {str(folder)!r} has no usable {CHECKPOINTS}/{LATEST} "
                         f"(no finished checkpoint yet?); expected {EXPECTED}")
    raise ValueError(f"{str(folder)!r} is not an RLlib checkpoint; expected {EXPECTED}")


class RLlibPolicy(BasePolicy):
    """Deterministic play of the shared policy of an RLlib checkpoint; ``act_batch`` is one
    forward pass."""

    #: What ``path`` is, as a spec that leaves it out is told (``policies.make_policy``).
    parameter_forms = {"path": "RUN_FOLDER"}

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
