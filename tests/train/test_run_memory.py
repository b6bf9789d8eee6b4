"""A memory limit too small for training is refused by every trainer before its run folder is
touched, in one line (``pagadores_train.run.memory``; issue 45, item 8). The limit under a real
``ulimit -v`` is in ``tests/cli/test_train_command.py``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("stable_baselines3")

from pagadores_train.learners import rllib, sb3
from pagadores_train.learners.rllib_config import rllib_config_from_dict
from pagadores_train.learners.search import trainer as search
from pagadores_train.run import memory
from pagadores_train.run.folder import RunError
from tests.train.runs import base, tiny_search


def sb3_run(out: Path) -> tuple[Any, Any]:
    return sb3.train, base(out, 128)


def search_run(out: Path) -> tuple[Any, Any]:
    return search.train, tiny_search(out)


def rllib_run(out: Path) -> tuple[Any, Any]:
    return rllib.train, rllib_config_from_dict({"name": "r", "output_dir": str(out)})


@pytest.mark.parametrize("kind", [sb3_run, search_run, rllib_run])
@pytest.mark.parametrize(("limit", "message"), [
    ("address_space_allowed", "this process may map 0.50 GB (ulimit -v 488281), less than the "
                              "1.3 GB of address space a training run needs"),
    ("memory_allowed", "this process may keep 0.50 GB in memory (the machine's or its "
                       "container's limit), less than the 0.7 GB a training run needs"),
])
def test_every_trainer_refuses_a_limit_too_small_before_touching_its_folder(
        kind: Any, limit: str, message: str, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(memory, limit, lambda: 500_000_000)
    train, config = kind(tmp_path)
    with pytest.raises(RunError) as refused:
        train(config)
    assert str(refused.value).startswith(message)
    assert "\n" not in str(refused.value)
    assert list(tmp_path.iterdir()) == []


def test_the_measured_minimum_itself_is_enough(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(memory, "address_space_allowed", lambda: memory.ADDRESS_SPACE)
    monkeypatch.setattr(memory, "memory_allowed", lambda: memory.RESIDENT)
    memory.check_memory()
    monkeypatch.setattr(memory, "address_space_allowed", lambda: memory.ADDRESS_SPACE - 1)
    with pytest.raises(RunError):
        memory.check_memory()
