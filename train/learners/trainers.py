"""The trainers ``pagadores train`` can run, and which one a config file asks for.

A ``Trainer`` is what the command line needs of a kind of run: reading and validating its
config, training it, the line above its final table, and the step a rerun resumes from. A
config with a ``search:`` section is a search run (``pagadores_train.learners.search.trainer``), one
with an ``rllib:`` section an RLlib run (``pagadores_train.learners.rllib``; Ray is imported only
when one trains), any other an SB3 run (``pagadores_train.learners.sb3``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..run.reports import RunResult


@dataclass(frozen=True)
class Trainer:
    """What ``pagadores train`` needs of a kind of run."""

    load: Callable[[str], Any]  # the config file → a validated config
    from_dict: Callable[[dict[str, Any]], Any]  # a config's dict (with overrides) → a config
    train: Callable[..., RunResult]  # (config, fresh, force) → the run's result
    headline: Callable[[Any, RunResult], str]  # the line above the final table
    resume_step: Callable[[Path], int | None]  # a run folder → the step a rerun resumes from


def sb3_trainer() -> Trainer:
    """The SB3 trainer (imports torch and stable-baselines3)."""
    from ..run import checkpoints, config
    from . import sb3

    return Trainer(config.load_config, config.config_from_dict, sb3.train, sb3.headline,
                   checkpoints.resume_step)


def rllib_trainer() -> Trainer:
    """The RLlib trainer (Ray is imported when it trains)."""
    from . import rllib, rllib_config

    return Trainer(rllib_config.load_rllib_config, rllib_config.rllib_config_from_dict,
                   rllib.train, rllib.headline, rllib.resume_step)


def search_trainer() -> Trainer:
    """The search trainer (numpy; imported when a config asks for it)."""
    from .search import config as search_config
    from .search import trainer as search

    return Trainer(search_config.load_search_config, search_config.search_config_from_dict,
                   search.train, search.headline, search.resume_step)


def trainer_for(path: str | Path) -> Trainer:
    """The trainer of the config file at ``path``: the search trainer's for a mapping with a
    ``search`` section, RLlib's for one with an ``rllib`` section, else SB3's (an unreadable
    file is SB3's, whose loader then says what is wrong)."""
    from .rllib_config import is_rllib_config
    from .search.config import is_search_config

    if is_search_config(path):
        return search_trainer()
    return rllib_trainer() if is_rllib_config(path) else sb3_trainer()
