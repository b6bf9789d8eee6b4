"""A run folder's lifecycle, the same for every trainer (SB3's ``pagadores_train.sb3``,
RLlib's ``pagadores_train.rllib``).

A trainer describes what its runs write with a ``Layout``: files at the top of the folder,
and for each sub-folder the patterns of the entries it writes there. With it this module
- refuses a folder that is not a run of this trainer (``Layout.check_ours``): a file, or a
  folder holding run files but no run config of this trainer is left alone;
- tells whether a config may continue the saved run (``saved_config``: only ``resumable``
  keys may differ, named when others do) and whether it would go back (``check_not_backwards``);
- removes exactly what a run wrote, for ``--fresh`` and over a failed start's leftovers
  (``Layout.remove``), including the temporary files an interrupted atomic write or
  checkpoint save leaves (``.NAME.tmp``);
- writes the run's config (``write_config``).
The lock that keeps a folder to one run at a time is ``pagadores_train.lock``. ``RunError``,
``Interrupted``, ``Clock``, ``say`` and ``warn`` are what both trainers report with.
"""

from __future__ import annotations

import re
import shutil
import sys
import time
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from pagadores_env.core.atomic import write_atomic

from .settings import ConfigError

#: The saved config of every run.
CONFIG = "config.yaml"
#: Config keys that may differ when any run is continued: where it is, how far it goes, what
#: it shows, and how big its evaluation is (what is measured, not what is trained).
RESUMABLE_CHANGES = frozenset({"total_timesteps", "progress_bar", "name", "output_dir",
                               "eval.games", "eval.exact"})
#: What ``pagadores_env.core.atomic.write_atomic`` and a checkpoint save leave if killed midway.
TEMPORARY = re.compile(r"\..+\.tmp")


class RunError(ValueError):
    """A run folder that cannot be used as asked (not ours, or no usable checkpoint)."""


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during a run; ``timesteps`` is the step of the checkpoint that stands (None if
    there is none, or if a second Ctrl-C stopped the save: the previous one stands), and
    ``saved_now`` whether it was saved on the way out."""

    def __init__(self, timesteps: int | None, saved_now: bool = True) -> None:
        super().__init__(timesteps)
        self.timesteps = timesteps
        self.saved_now = saved_now


@dataclass(frozen=True)
class Layout:
    """What a trainer's runs write: ``files`` at the top of the folder and, per sub-folder,
    ``folders[name]``: patterns (regular expressions, whole names) of its entries. ``what``
    names the kind of run in messages; ``is_config`` tells a saved ``config.yaml`` of it."""

    what: str
    files: tuple[str, ...]
    folders: Mapping[str, tuple[str, ...]]
    is_config: Callable[[Path], bool]

    def entries(self, run_dir: Path) -> list[Path]:
        """The files and folders in ``run_dir`` that a run wrote, temporary ones included."""
        if not run_dir.is_dir():
            return []
        found = [run_dir / name for name in self.files if (run_dir / name).exists()]
        found += [p for p in run_dir.iterdir() if TEMPORARY.fullmatch(p.name)]
        for folder, patterns in self.folders.items():
            if (run_dir / folder).is_dir():
                mine = [re.compile(p) for p in patterns] + [TEMPORARY]
                found += [p for p in (run_dir / folder).iterdir()
                          if any(m.fullmatch(p.name) for m in mine)]
        return found

    def check_ours(self, run_dir: Path) -> None:
        """``RunError`` unless ``run_dir`` is new, or a folder a run of this kind may use: it
        holds no run files, or a saved config of this kind (reads only)."""
        if run_dir.exists() and not run_dir.is_dir():
            raise RunError(f"{run_dir} is a file, not a run folder; pick another --name or "
                           "--output-dir")
        entries = self.entries(run_dir)
        if entries and not self.is_config(run_dir / CONFIG):
            names = ", ".join(sorted({p.relative_to(run_dir).parts[0] for p in entries}))
            raise RunError(f"{run_dir} holds {names} but no {CONFIG} of {self.what}, so it is "
                           "not a run folder of ours and is left alone; pick another --name "
                           "or --output-dir")

    def remove(self, run_dir: Path) -> None:
        """Remove what a run wrote (``entries``), then its sub-folders if that empties them;
        anything else in the folder stays."""
        for path in self.entries(run_dir):
            if path.is_dir():
                shutil.rmtree(path)
            else:
                path.unlink()
        for folder in self.folders:
            if (run_dir / folder).is_dir() and not any((run_dir / folder).iterdir()):
                (run_dir / folder).rmdir()


def saved_config(run_dir: Path, config: Any, load: Callable[[Path], Any],
                 resumable: Collection[str]) -> Any:
    """The config saved in ``run_dir`` (read by ``load``), if ``config`` may resume that run:
    they differ in ``resumable`` keys only."""
    try:
        before = load(run_dir / CONFIG)
    except ConfigError as err:
        raise RunError(f"the run in {run_dir} has a config that no longer validates ({err}); "
                       "pass --fresh to start over or pick another --name") from None
    old, now = flat_keys(before.to_dict()), flat_keys(config.to_dict())
    changed = [k for k in sorted(old.keys() | now.keys())
               if k not in resumable and old.get(k) != now.get(k)]
    if changed:
        raise ConfigError(
            f"{run_dir} holds a run with a different config ({', '.join(changed)} "
            "changed); pick another name or pass --fresh to start over")
    return before


def check_not_backwards(config: Any, saved: Any, timesteps: int) -> None:
    """Refuse a smaller ``total_timesteps`` than the saved one that the run has already
    passed: config.yaml would no longer describe the model."""
    if config.total_timesteps < saved.total_timesteps and timesteps > config.total_timesteps:
        raise ConfigError(
            f"{config.run_dir} is already at step {timesteps:,}, past total_timesteps "
            f"{config.total_timesteps:,}, and a run cannot go back; give total_timesteps "
            f"{saved.total_timesteps:,} or more, or pass --fresh to start over")


def write_config(run_dir: Path, data: dict[str, Any]) -> None:
    """Create the run folder if needed and write its config's plain ``data`` as YAML
    (``RunError`` if it cannot)."""
    try:
        run_dir.mkdir(parents=True, exist_ok=True)
        write_atomic(run_dir / CONFIG, yaml.safe_dump(data, sort_keys=False))
    except OSError as err:
        raise RunError(f"cannot write the run folder {run_dir}: {err.strerror}") from None


def flat_keys(data: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """Nested dicts as ``{"algo.hyperparams.gamma": 1.0, ...}``, to name what changed."""
    flat: dict[str, Any] = {}
    for key, value in data.items():
        if isinstance(value, dict) and value:
            flat |= flat_keys(value, f"{prefix}{key}.")
        else:
            flat[f"{prefix}{key}"] = value
    return flat


class Clock:
    """Wall time of the run in seconds, carried over from the checkpoint when resuming."""

    def __init__(self, offset: float = 0.0) -> None:
        self.start = time.perf_counter() - offset

    def __call__(self) -> float:
        """Seconds since the run started, to the hundredth."""
        return round(time.perf_counter() - self.start, 2)


def say(message: str) -> None:
    """Print ``message`` on standard output at once (flushed)."""
    print(message, flush=True)


def warn(message: str) -> None:
    """Print ``message`` on standard error at once (flushed)."""
    print(message, file=sys.stderr, flush=True)
