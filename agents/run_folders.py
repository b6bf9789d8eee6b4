"""What a run folder holds: how the players and the trainers tell an SB3 run from an RLlib run.

``pagadores train`` writes an SB3 run as ``model.zip`` and ``checkpoints/model_<t>_steps.zip``
(``pagadores_train.learners.sb3``); an RLlib run as ``checkpoints/step_<N>/`` algorithm checkpoints
named by ``checkpoints/latest.json`` (``pagadores_train.learners.rllib``). Each kind is recognised
by these names alone, so ``model:path=`` can say it was given an RLlib run and ``rllib:path=`` an
SB3 one, and neither adapter imports the other.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

#: A run folder's checkpoints (either kind), and an RLlib run's pointer to its resume point
#: among its ``step_<N>`` algorithm checkpoints.
CHECKPOINTS, LATEST = "checkpoints", "latest.json"
#: An SB3 run's final model and, under ``checkpoints/``, one model per checkpoint.
FINAL_MODEL, CHECKPOINT_MODEL = "model.zip", re.compile(r"model_(\d+)_steps\.zip")


def sb3_run_model(folder: Path) -> Path | None:
    """The model to play of an SB3 run folder: its final ``model.zip``, else its newest
    checkpoint's (a run still training); None if ``folder`` holds neither (no SB3 run)."""
    if (folder / FINAL_MODEL).is_file():
        return folder / FINAL_MODEL
    saved = {int(found[1]): path for path in (folder / CHECKPOINTS).glob("model_*_steps.zip")
             if (found := CHECKPOINT_MODEL.fullmatch(path.name)) and path.is_file()}
    return saved[max(saved)] if saved else None


#: The file ``Algorithm.save_to_path`` writes at the root of an algorithm checkpoint.
ALGORITHM_MARKER = "rllib_checkpoint.json"


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


def is_rllib_run(folder: Path) -> bool:
    """Whether ``folder`` is an RLlib algorithm checkpoint or a run folder holding one (what
    ``pagadores_train.learners.rllib`` writes), so that ``model:path=`` can tell it is given one."""
    return ((folder / ALGORITHM_MARKER).is_file()
            or any((folder / CHECKPOINTS).glob(f"step_*/{ALGORITHM_MARKER}")))


#: A search run's final value net and, under ``checkpoints/``, one net per checkpoint
#: (``pagadores_train.learners.search.trainer``).
FINAL_NET, CHECKPOINT_NET = "value.npz", re.compile(r"value_(\d+)_steps\.npz")


def search_run_net(folder: Path) -> Path | None:
    """The value net to play of a search run folder: its final ``value.npz``, else its newest
    checkpoint's (a run still training); None if ``folder`` holds neither."""
    if (folder / FINAL_NET).is_file():
        return folder / FINAL_NET
    saved = {int(found[1]): path for path in (folder / CHECKPOINTS).glob("value_*_steps.npz")
             if (found := CHECKPOINT_NET.fullmatch(path.name)) and path.is_file()}
    return saved[max(saved)] if saved else None
