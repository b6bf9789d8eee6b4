"""The trainers ``pagadores train`` can run, and which one a config file asks for.

A ``Trainer`` is what the command line needs of a kind of run: reading and validating its
config, training it, the line above its final table, and the step a rerun resumes from. A
config with a ``search:`` section is a search run (``pagadores_train.learners.search.trainer``),
one with an ``rllib:`` section an RLlib run (``pagadores_train.learners.rllib``; Ray is imported
only when one trains), any other an SB3 run (``pagadores_train.learners.sb3``).

Reading and validating a config imports only its settings' modules: the trainer's own module
(torch, stable-baselines3, Ray) is imported when it is first used, so a missing or bad config
is refused at once (before, every ``pagadores train`` error took the 5 s of importing torch
and SB3).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..run.reports import RunResult


@dataclass(frozen=True)
class Trainer:
    """What ``pagadores train`` needs of a kind of run: its config's reading and validation,
    and the module that trains it (``train``, ``headline``, ``resume_step``), imported when
    one of those is first asked for."""

    load: Callable[[str], Any]  # the config file → a validated config
    from_dict: Callable[[dict[str, Any]], Any]  # a config's dict (with overrides) → a config
    module: str  # the trainer's module

    def trainer_module(self) -> ModuleType:
        """The trainer's module, imported now if it was not yet."""
        return importlib.import_module(self.module)

    @property
    def train(self) -> Callable[..., RunResult]:
        """(config, fresh, force) → the run's result."""
        return self.trainer_module().train  # type: ignore[no-any-return]

    @property
    def headline(self) -> Callable[[Any, RunResult], str]:
        """The line above the final table."""
        return self.trainer_module().headline  # type: ignore[no-any-return]

    @property
    def resume_step(self) -> Callable[[Path], int | None]:
        """A run folder → the step a rerun resumes from."""
        return self.trainer_module().resume_step  # type: ignore[no-any-return]


def sb3_trainer() -> Trainer:
    """The SB3 trainer (its module imports torch and stable-baselines3)."""
    from ..run import config

    return Trainer(config.load_config, config.config_from_dict, f"{__package__}.sb3")


def rllib_trainer() -> Trainer:
    """The RLlib trainer (Ray is imported when it trains)."""
    from . import rllib_config

    return Trainer(rllib_config.load_rllib_config, rllib_config.rllib_config_from_dict,
                   f"{__package__}.rllib")


def search_trainer() -> Trainer:
    """The search trainer (numpy; its module is imported when a config asks for it)."""
    from .search import config as search_config

    return Trainer(search_config.load_search_config, search_config.search_config_from_dict,
                   f"{__package__}.search.trainer")


def trainer_for(path: str | Path) -> Trainer:
    """The trainer of the config file at ``path``: the search trainer's for a mapping with a
    ``search`` section, RLlib's for one with an ``rllib`` section, else SB3's (an unreadable
    file is SB3's, whose loader then says what is wrong)."""
    from .rllib_config import is_rllib_config
    from .search.config import is_search_config

    if is_search_config(path):
        return search_trainer()
    return rllib_trainer() if is_rllib_config(path) else sb3_trainer()
