"""A run folder's lifecycle, the same for every trainer (SB3's ``pagadores_train.learners.sb3``,
RLlib's ``pagadores_train.learners.rllib``, the search trainer
``pagadores_train.learners.search.trainer``).

A trainer describes what its runs write with a ``Layout``: files at the top of the folder,
and for each sub-folder the patterns of the entries it writes there. With it this module
- refuses a folder that is not a run of this trainer (``Layout.check_ours``): a file, or a
  folder holding run files but no run config of this trainer is left alone;
- tells whether a config may continue the saved run (``saved_config``: only ``resumable``
  keys may differ, named when others do) and whether it would go back (``check_not_backwards``);
- removes exactly what a run wrote, for ``--fresh`` and over a failed start's leftovers
  (``Layout.remove``), including the temporary files an interrupted atomic write or
  checkpoint save leaves (``.NAME.tmp``);
- writes the run's config (``write_config``);
- finds the resume point among numbered checkpoint files (``latest_record``, ``load_newest``:
  ``latest.json``'s, else the newest that loads, said in one line; ``saved_step``).
What Ctrl-C and SIGTERM do to a run is decided in ``pagadores_train.signals``. The lock that
keeps a folder to one run at a time is ``pagadores_train.run.lock``. ``RunError``,
``Interrupted``, ``Clock``, ``say`` and ``warn`` are what every trainer reports with;
``RunConfig`` gives a trainer's config its ``run_dir`` and ``to_dict``.
"""

from __future__ import annotations

import dataclasses
import json
import re
import shutil
import sys
import time
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import yaml

from pagadores_agents.run_folders import CHECKPOINTS, LATEST
from pagadores_env.core.atomic import write_atomic

from ..settings import ConfigError, yaml_problem

T = TypeVar("T")
#: The saved config of every run.
CONFIG = "config.yaml"
#: Config keys that may differ when any run is continued: where it is, how far it goes, what
#: it shows, and how big its evaluation is (what is measured, not what is trained).
RESUMABLE_CHANGES = frozenset({"total_timesteps", "progress_bar", "name", "output_dir",
                               "eval.games", "eval.exact"})
#: What ``pagadores_env.core.atomic.write_atomic`` and a checkpoint save leave if killed midway.
TEMPORARY = re.compile(r"\..+\.tmp")


class RunConfig:
    """What a trainer's config dataclass (RLlib's, the search trainer's) gets from this base:
    its run folder and its plain data. The dataclass declares ``name`` and ``output_dir``."""

    name: str | None
    output_dir: str

    @property
    def run_dir(self) -> Path:
        """The run's folder, ``output_dir/name`` (``output_dir/run`` without a name)."""
        return Path(self.output_dir) / (self.name or "run")

    def to_dict(self) -> dict[str, Any]:
        """The config as plain nested data (what ``config.yaml`` holds)."""
        return dataclasses.asdict(self)  # type: ignore[call-overload]


class RunError(ValueError):
    """A run folder that cannot be used as asked (not ours, or no usable checkpoint)."""


class Interrupted(KeyboardInterrupt):
    """Ctrl-C or SIGTERM during a run (``pagadores_train.signals``); ``timesteps`` is the step
    of the checkpoint that stands (None if there is none, or if a second signal stopped the
    save: the previous one stands), and ``saved_now`` whether it was saved on the way out."""

    def __init__(self, timesteps: int | None, saved_now: bool = True) -> None:
        super().__init__(timesteps)
        self.timesteps = timesteps
        self.saved_now = saved_now


@dataclass(frozen=True)
class Layout:
    """What a trainer's runs write: ``files`` at the top of the folder and, per sub-folder,
    ``folders[name]``: patterns (regular expressions, whole names) of its entries. ``what``
    names the kind of run in messages; ``not_config`` says why the mapping a saved ``config.yaml``
    holds is not a config of it (None: it is; ``with_section``)."""

    what: str
    files: tuple[str, ...]
    folders: Mapping[str, tuple[str, ...]]
    not_config: Callable[[dict[Any, Any]], str | None]

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
        holds no run files, or a saved config of this kind (reads only). The error names
        ``config.yaml`` and says how it is damaged or why it is no config of this kind."""
        if run_dir.exists() and not run_dir.is_dir():
            raise RunError(f"{run_dir} is a file, not a run folder; pick another --name or "
                           "--output-dir")
        entries = self.entries(run_dir)
        if not entries:
            return
        path, elsewhere = run_dir / CONFIG, "pick another --name or --output-dir"
        if not path.exists():
            names = ", ".join(sorted({p.relative_to(run_dir).parts[0] for p in entries}))
            raise RunError(f"{run_dir} holds {names} but no {CONFIG} of {self.what}, so it is "
                           f"not a run folder of ours and is left alone; {elsewhere}")
        data, damage = read_config(path)
        if data is None:
            raise RunError(f"{path} is damaged ({damage}), so the run folder {run_dir} is left "
                           f"alone; restore or repair {CONFIG}, or {elsewhere}")
        why = self.not_config(data)
        if why is not None:
            raise RunError(f"{path} is no config of {self.what} ({why}), so {run_dir} is not "
                           f"a run folder of ours and is left alone; {elsewhere}")

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


def read_config(path: Path) -> tuple[dict[Any, Any] | None, str]:
    """The mapping a saved ``config.yaml`` at ``path`` holds, or None and how the file is
    damaged, in words for a message: it cannot be read, is not UTF-8 text, not YAML (where the
    parser stopped), empty, or not a mapping of keys to values."""
    try:
        data = yaml.safe_load(path.read_bytes().decode())
    except OSError as err:
        return None, f"it cannot be read: {err.strerror}"
    except UnicodeDecodeError:
        return None, "not UTF-8 text"
    except yaml.YAMLError as err:
        return None, f"not YAML: {yaml_problem(err)}"
    if data is None:
        return None, "empty"
    if not isinstance(data, dict):
        return None, f"not a mapping of keys to values but a {type(data).__name__}"
    return data, ""


def with_section(section: str) -> Callable[[dict[Any, Any]], str | None]:
    """``Layout.not_config`` of a kind of run whose config has a ``section`` (RLlib's, the
    search trainer's): what a mapping without it lacks."""
    return lambda data: None if section in data else f"no {section}: section"


def saved_config(run_dir: Path, config: Any, load: Callable[[Path], Any],
                 resumable: Collection[str]) -> Any:
    """The config saved in ``run_dir`` (read by ``load``), if ``config`` may resume that run:
    they differ in ``resumable`` keys only."""
    try:
        before = load(run_dir / CONFIG)
    except ConfigError as err:
        raise RunError(f"{run_dir / CONFIG} does not validate ({err}): damaged, or written "
                       "by another version; pass --fresh to start over or pick another --name"
                       ) from None
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


def numbered(folder: Path, pattern: re.Pattern[str]) -> dict[int, Path]:
    """The files in ``folder`` whose whole names ``pattern`` matches (a checkpoint's), by the
    step its first group reads."""
    if not folder.is_dir():
        return {}
    return {int(m[1]): p for p in folder.iterdir() if (m := pattern.fullmatch(p.name))}


def newest_first(folder: Path, pattern: re.Pattern[str]) -> list[Path]:
    """``numbered``'s files, the highest step first."""
    return [path for _, path in sorted(numbered(folder, pattern).items(), reverse=True)]


def latest_record(folder: Path, key: str, pattern: re.Pattern[str]
                  ) -> tuple[dict[str, Any] | None, list[str]]:
    """The record in ``folder``'s ``latest.json`` (a run's resume point: its checkpoint's
    file name under ``key``, which ``pattern`` matches, and ``wall_time_s``, read as a
    float), or None and what is wrong with it, said for a message."""
    path = folder / LATEST
    if not path.exists():
        return None, [f"{LATEST} is missing"]
    try:
        record = json.loads(path.read_text())
        record["wall_time_s"] = float(record["wall_time_s"])
        if isinstance(record[key], str) and pattern.fullmatch(record[key]):
            return record, []
    except (OSError, UnicodeDecodeError, ValueError, TypeError, KeyError):
        pass
    return None, [f"{LATEST} is damaged (empty or not a checkpoint record)"]


def load_newest(run_dir: Path, key: str, pattern: re.Pattern[str],
                load: Callable[[Path], T], found: str) -> tuple[T, dict[str, Any] | None]:
    """Load a run's resume point from ``run_dir/checkpoints``: the file ``latest.json`` names
    under ``key`` (``latest_record``), else the newest file ``pattern`` matches that ``load``
    loads (it raises ``ValueError`` saying why not), said on stderr in one line naming what
    was wrong and what was ``found`` instead. What it loaded, and ``latest.json``'s record
    (None where it was not used). ``RunError`` in one line if no file loads."""
    folder = run_dir / CHECKPOINTS
    record, problems = latest_record(folder, key, pattern)
    named = [folder / record[key]] if record is not None else []
    for path in dict.fromkeys(named + newest_first(folder, pattern)):
        try:
            loaded = load(path)
        except ValueError as err:
            problems.append(str(err))
            continue
        if record is None or path.name != record[key]:
            warn(f"{folder}: {'; '.join(problems)}: resuming from {path.name}, the newest "
                 f"{found}")
            record = None
        return loaded, record
    raise RunError(f"{run_dir} has no usable checkpoint ({'; '.join(problems) or 'none saved'}"
                   "); pass --fresh to start over or pick another --name")


def saved_step(run_dir: Path, key: str, pattern: re.Pattern[str]) -> int | None:
    """The step a rerun of the run in ``run_dir`` resumes from, by the names of its files
    alone: ``latest.json``'s checkpoint's (named under ``key``), else the newest file's that
    ``pattern`` matches (None: there is none)."""
    folder = run_dir / CHECKPOINTS
    record, _ = latest_record(folder, key, pattern)
    if record is not None:
        return int(pattern.fullmatch(record[key])[1])  # type: ignore[index]
    return max(numbered(folder, pattern), default=None)


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
    """Print ``message`` on standard error at once (flushed): a run's news goes there with its
    status lines (``pagadores_train.progress``), so that standard output holds only its
    results (the final table)."""
    print(message, file=sys.stderr, flush=True)


#: A warning is news like any other: said on standard error.
warn = say
