"""Exact results of agent specs, kept on disk like the solver's solutions.

A pass of ``passes`` computes values that depend only on the code, the players and the
table, and at the full table one takes many minutes. With ``cache=True`` (what ``pagadores
nashconv`` and ``pagadores exact`` use), a pass whose profiles are all agent specs whose
players say what decides their decisions (``fingerprint``: nothing beyond the spec and the
code for the scripted and solved players; a digest of the weights for a trained network)
is kept in ``results_dir()``, under a key of everything it depends on:

- the digest of the source of this package and of the packages the players' classes come
  from (any change to the code is another key, so an old result is never read as a new
  one);
- the specs with their players' fingerprints, the table, the score view, and the pass's
  variants and tracked seats.

A later call reads the pass instead of computing it, and a NashConv interrupted between its
per-seat passes keeps the passes it finished. A file that cannot be read, or holds another
key, is computed again and replaced; files are written atomically, and a cache that cannot
be written only warns. Library calls default to ``cache=False``: a benchmark or a test
measures the computation itself.
"""

from __future__ import annotations

import functools
import hashlib
import io
import json
import os
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ...core.atomic import write_atomic
from ...core.policies import Policy
from .two_player import cache_dir, cache_or_warn

#: Bumped when what a results file holds changes.
FORMAT = 1


def results_dir() -> Path:
    """Where pass results are kept: ``$PAGADORES_RESULTS_CACHE`` when set and not empty, else
    ``results/`` in the solver's cache folder (``two_player.cache_dir``)."""
    return Path(os.environ.get("PAGADORES_RESULTS_CACHE") or cache_dir() / "results")


@functools.cache
def _source_digest(folders: tuple[str, ...]) -> str:
    """SHA-256 of every ``.py`` file under ``folders``, with its path inside its folder."""
    digest = hashlib.sha256()
    for folder in folders:
        root = Path(folder)
        for path in sorted(root.rglob("*.py")):
            digest.update(path.relative_to(root).as_posix().encode() + b"\0")
            digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def code_digest(players: Iterable[Any]) -> str:
    """The digest of this package's source and of the packages ``players``' classes come
    from (the folder of each class's top-level package)."""
    folders = {str(Path(__file__).resolve().parents[2])}
    for player in players:
        top = type(player).__module__.split(".")[0]
        found = getattr(sys.modules.get(top), "__file__", None)
        if found:
            folders.add(str(Path(found).resolve().parent))
    return _source_digest(tuple(sorted(folders)))


def fingerprint(player: Policy) -> str | None:
    """What decides ``player``'s decisions beyond its spec and the code (its ``fingerprint()``
    method), or None if it does not say (then its passes are not cached)."""
    method = getattr(player, "fingerprint", None)
    return method() if callable(method) else None


def pass_key(profiles: Sequence[Any], players: Sequence[Any], start: Sequence[int],
             full: bool, best_responses: bool, labels: Sequence[tuple[str, int]],
             tracked: Sequence[int]) -> str | None:
    """The key of one pass (module docstring), or None when it cannot be cached: a profile
    that is not agent specs, or a player without a fingerprint. ``players`` are every
    player the pass seats."""
    specs = [[p] if isinstance(p, str) else p for p in profiles]
    if not all(isinstance(spec, Sequence) and all(isinstance(s, str) for s in spec)
               for spec in specs):
        return None
    prints = [fingerprint(p) for p in players]
    if any(p is None for p in prints):
        return None
    described = {"format": FORMAT, "code": code_digest(players),
                 "profiles": [list(spec) for spec in specs],
                 "fingerprints": prints, "start": list(start), "full": full,
                 "best_responses": best_responses, "labels": [list(x) for x in labels],
                 "tracked": list(tracked)}
    return hashlib.sha256(json.dumps(described, sort_keys=True).encode()).hexdigest()


def load(key: str) -> dict[int, np.ndarray] | None:
    """The pass kept under ``key``: its values per first insteker, or None when it is not
    there or cannot be read (it is then computed again)."""
    try:
        with np.load(results_dir() / f"{key}.npz", allow_pickle=False) as saved:
            if str(saved["key"]) != key:
                return None
            return {int(name.split("_")[1]): saved[name].copy() for name in saved.files
                    if name.startswith("first_")}
    except Exception:  # noqa: BLE001 - anything unreadable is recomputed, as the module says
        return None


def save(key: str, won: dict[int, np.ndarray]) -> None:
    """Keep a pass's values under ``key`` (atomically; a failed write only warns)."""
    buffer = io.BytesIO()
    arrays: dict[str, Any] = {f"first_{k}": v for k, v in won.items()}
    np.savez(buffer, key=np.array(key), **arrays)
    path = results_dir() / f"{key}.npz"

    def write(target: Path) -> None:
        target.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(target, buffer.getvalue())

    cache_or_warn(write, path)
