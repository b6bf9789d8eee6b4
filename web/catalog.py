"""What the page may choose from, each named by an id the server made, never by a path or a
spec text from a request: the opponents of a game (``opponents``: every registered player
that plays by its bare name, and the trained run folders of the runs directory), the run
folders with their learning curves and final tables (``Runs``, read-only), the saved
games (``Records``, a folder of its own the server writes atomically), and the game records
found under the runs directory (``RunRecords``, read-only).

A request names an opponent by its id (``"sensible"``, ``"run:search_2p"``); the server looks
the id up in the listing it makes itself, so no spec text from a request reaches
``make_policy`` (a ``model:path=`` spec of the request's choosing would unpickle a file of its
choosing). A run or a record is named alike by its id, an entry of the folder's listing:
``../``, encoded or absolute paths are no ids and are refused.
"""

from __future__ import annotations

import base64
import csv
import hashlib
import itertools
import json
import re
import secrets
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pagadores_agents.run_folders import is_rllib_run, sb3_run_model, search_run_net
from pagadores_env.core.atomic import write_atomic
from pagadores_env.core.games import GAME_SPECS
from pagadores_env.core.policies import registered_policies, required_parameters
from pagadores_env.core.views import load_record, record_format

from .guard import MAX_BODY

#: A folder name the listings accept: plain, no path separators, not hidden.
PLAIN_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")
#: A record's id: what ``secrets.token_urlsafe`` makes.
RECORD_ID = re.compile(r"[A-Za-z0-9_-]{16,64}")
#: The prefix of a trained run's opponent id.
RUN = "run:"
#: The prefix of a run record's id: a dot, which no saved game's id (``RECORD_ID``) has.
RUN_RECORD = "run."


class NotFound(LookupError):
    """An id that is not in the listing it names an entry of."""


@dataclass(frozen=True)
class Opponent:
    """A player the page offers: its ``id`` (what a request names), what the page shows, and
    the spec string the server makes it from (never sent to or taken from a request)."""

    id: str
    label: str
    kind: str
    spec: str

    def public(self) -> dict[str, str]:
        """What the page is told of it."""
        return {"id": self.id, "label": self.label, "kind": self.kind}


def registered(game: str) -> list[Opponent]:
    """``game``'s registered players that play by their bare names (``make_policy("name")``;
    those needing a path are offered through the run folders instead)."""
    return [Opponent(name, name, "registered", name) for name in registered_policies(game)
            if not required_parameters(name, game)]


class Runs:
    """The run folders of ``root`` (``pagadores train``'s output folder), read-only: each
    sub-folder holding a trained player (an SB3 ``model.zip``, a search net, an RLlib
    checkpoint), or an ``eval.csv``, is a run, named by its folder name."""

    def __init__(self, root: Path | None) -> None:
        self.root = root

    def folders(self) -> dict[str, Path]:
        """The runs by id: every plain-named sub-folder (``PLAIN_NAME``) of the root."""
        if self.root is None or not self.root.is_dir():
            return {}
        return {path.name: path for path in sorted(self.root.iterdir())
                if PLAIN_NAME.fullmatch(path.name) and path.is_dir() and not path.is_symlink()}

    def folder(self, run_id: str) -> Path:
        """The folder of the run ``run_id`` (an id of ``folders``), else ``NotFound``."""
        found = self.folders().get(run_id) if isinstance(run_id, str) else None
        if found is None:
            raise NotFound(f"no run {run_id!r}; the runs are listed at /api/runs")
        return found

    def describe(self, run_id: str) -> dict[str, Any]:
        """A run's entry: its game and table size (from its ``config.yaml``), the player it
        trained (a spec, or None) and whether it has a learning curve and final table."""
        folder = self.folder(run_id)
        config = _config(folder)
        env = config.get("env") if isinstance(config.get("env"), dict) else {}
        game = env.get("game", "pagadores")
        players = env.get("num_players")
        return {"id": run_id, "game": game if isinstance(game, str) else "pagadores",
                "players": players if isinstance(players, int) else None,
                "player": _trained_spec(folder),
                "curve": (folder / "eval.csv").is_file(),
                "results": (folder / "results.md").is_file()}

    def listing(self) -> list[dict[str, Any]]:
        """Every run's entry (``describe``), without the spec of its player."""
        entries = [self.describe(run_id) for run_id in self.folders()]
        return [entry | {"player": entry["player"] is not None} for entry in entries
                if entry["player"] is not None or entry["curve"] or entry["results"]]

    def opponents(self, game: str) -> list[Opponent]:
        """The trained players of ``game`` among the runs."""
        found = []
        for run_id in self.folders():
            entry = self.describe(run_id)
            if entry["player"] is not None and entry["game"] == game:
                found.append(Opponent(f"{RUN}{run_id}", f"trained run {run_id}", "run",
                                      entry["player"]))
        return found

    def details(self, run_id: str) -> dict[str, Any]:
        """A run's learning curve (``eval.csv``: per opponent its ``[timesteps, win_rate,
        ci_low, ci_high]`` rows) and its final table (``results.md`` as text)."""
        folder = self.folder(run_id)
        curve: dict[str, list[list[float]]] = {}
        if (folder / "eval.csv").is_file():
            with (folder / "eval.csv").open(newline="", errors="replace") as handle:
                for row in csv.DictReader(handle):
                    try:
                        point = [float(row[key]) for key in
                                 ("timesteps", "win_rate", "ci_low", "ci_high")]
                    except (KeyError, TypeError, ValueError):
                        continue  # a damaged line (reports.read_lines says more)
                    curve.setdefault(str(row.get("opponent")), []).append(point)
        results = (folder / "results.md").read_text(errors="replace") \
            if (folder / "results.md").is_file() else None
        return self.describe(run_id) | {"player": None, "curve": curve, "results": results}


def _config(folder: Path) -> dict[Any, Any]:
    """A run's saved config, or ``{}`` when it has none that reads."""
    from pagadores_train.run.folder import read_config  # needs PyYAML: only for runs

    path = folder / "config.yaml"
    return (read_config(path)[0] or {}) if path.is_file() else {}


def _trained_spec(folder: Path) -> str | None:
    """The spec that plays a run folder's trained player, or None if it holds none."""
    if sb3_run_model(folder) is not None:
        return f"model:path={sb3_run_model(folder)}"
    if search_run_net(folder) is not None:
        return f"search:path={folder}"
    if is_rllib_run(folder):
        return f"rllib:path={folder}"
    return None


def opponents(game: str, runs: Runs) -> list[Opponent]:
    """Every opponent the page offers for ``game``: registered players, then trained runs."""
    return registered(game) + runs.opponents(game)


class Records:
    """The saved games in ``root``: one file ``<id>.json`` each, holding a game's
    ``to_dict()`` as it is, written atomically; ``id`` is made by the server
    (``secrets.token_urlsafe``)."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def save(self, record: dict[str, Any]) -> str:
        """Write ``record`` under a new id and return the id."""
        record_id = secrets.token_urlsafe(16)
        self.root.mkdir(parents=True, exist_ok=True)
        write_atomic(self.root / f"{record_id}.json", json.dumps(record))
        return record_id

    def ids(self) -> list[str]:
        """The saved games' ids, newest first."""
        if not self.root.is_dir():
            return []
        found = [path for path in self.root.glob("*.json")
                 if RECORD_ID.fullmatch(path.stem) and path.is_file()]
        return [path.stem for path in sorted(found, key=lambda p: p.stat().st_mtime,
                                              reverse=True)]

    def load(self, record_id: str) -> dict[str, Any]:
        """The record saved as ``record_id`` (an id of ``ids``), else ``NotFound``."""
        if not isinstance(record_id, str) or record_id not in self.ids():
            raise NotFound(f"no saved game {record_id!r}; they are listed at /api/records")
        return _read_record(record_id, self.root / f"{record_id}.json")

    def listing(self) -> list[dict[str, Any]]:
        """Every saved game (``record_entry``), its source ``"saved"``."""
        return [record_entry(record_id, self.load) | {"source": "saved"}
                for record_id in self.ids()]


def record_entry(record_id: str, load: Callable[[str], Any]) -> dict[str, Any]:
    """A record's entry in a listing: its id, game, players, inputs and, when over, places,
    checked by digest and replay (``load_record``); one that does not load (edited,
    damaged) is listed with why."""
    try:
        spec, game = load_record(load(record_id))
    except (NotFound, ValueError, OSError) as err:
        return {"id": record_id, "error": str(err).splitlines()[0]}
    return {"id": record_id, "game": spec.name, "title": spec.title,
            "players": game.num_players, "steps": len(game.history),
            "over": game.is_terminal(),
            "places": list(game.placements()) if game.is_terminal() else None}


class RunRecords:
    """The game records under the runs directory ``root``, read-only. What counts (no
    trainer writes game records today; a user may keep some there, docs/web.md): a regular
    ``*.json`` file, no symlink, of at most ``MAX_BODY`` bytes (what an upload may be), in
    ``root`` or in a plain-named folder (``PLAIN_NAME``, no symlink) at most ``DEPTH``
    levels below it, whose JSON is an object with the ``format`` of a registered game's
    records (a checkpoint's ``latest.json`` is none); the first ``MAX_FILES`` such
    ``*.json`` files are looked at, folder by folder in name order. Each record is listed
    checked by digest and replay, a damaged one with why.

    A record is named by an id the server makes: ``RUN_RECORD`` and a keyed hash of its
    path below ``root`` (a key of this server's own), so no path is taken from a request:
    ``load`` looks the id up in the listing it makes again."""

    DEPTH = 3
    MAX_FILES = 200
    #: folders looked into at most, so a deep or wide tree costs a bounded walk
    MAX_FOLDERS = 2000

    def __init__(self, root: Path | None) -> None:
        self.root = root
        self._key = secrets.token_bytes(16)
        #: whether a file was found to be a record, by its path, with its (size, mtime) then,
        #: so an unchanged file is not read again
        self._seen: dict[Path, tuple[tuple[int, int], bool]] = {}

    def _id(self, relative: str) -> str:
        digest = hashlib.blake2b(relative.encode(), key=self._key, digest_size=15).digest()
        return RUN_RECORD + base64.urlsafe_b64encode(digest).decode()

    def _walk(self) -> Iterator[Path]:
        """The ``*.json`` files that may count (class docstring), in name order."""
        if self.root is None or not self.root.is_dir():
            return
        folders, visited = [(self.root, 0)], 0
        while folders and visited < self.MAX_FOLDERS:
            folder, depth = folders.pop(0)
            visited += 1
            try:
                entries = sorted(folder.iterdir())
            except OSError:
                continue
            for path in entries:
                if not PLAIN_NAME.fullmatch(path.name) or path.is_symlink():
                    continue
                if path.is_dir() and depth < self.DEPTH:
                    folders.append((path, depth + 1))
                elif path.suffix == ".json" and path.is_file():
                    yield path

    def files(self) -> dict[str, tuple[str, Path]]:
        """The records by id: the folder each is in (below ``root``) and its path."""
        found: dict[str, tuple[str, Path]] = {}
        if self.root is None:
            return found
        walked = list(itertools.islice(self._walk(), self.MAX_FILES))
        self._seen = {path: self._seen[path] for path in walked if path in self._seen}
        for path in walked:
            if self._is_record(path):
                found[self._id(path.relative_to(self.root).as_posix())] = (
                    path.parent.relative_to(self.root).as_posix(), path)
        return found

    def _is_record(self, path: Path) -> bool:
        try:
            stat = path.stat()
        except OSError:
            return False
        mark = (stat.st_size, stat.st_mtime_ns)
        known = self._seen.get(path)
        if known is not None and known[0] == mark:
            return known[1]
        found = False
        if stat.st_size <= MAX_BODY:
            try:
                data = json.loads(path.read_bytes())
            except (OSError, UnicodeDecodeError, json.JSONDecodeError):
                data = None
            found = isinstance(data, dict) and data.get("format") in {
                record_format(name) for name in GAME_SPECS}
        self._seen[path] = (mark, found)
        return found

    def load(self, record_id: str) -> dict[str, Any]:
        """The record ``record_id`` (an id of ``files``), else ``NotFound``."""
        found = self.files().get(record_id) if isinstance(record_id, str) else None
        if found is None:
            raise NotFound(f"no saved game {record_id!r}; they are listed at /api/records")
        return _read_record(record_id, found[1])

    def listing(self) -> list[dict[str, Any]]:
        """Every record found (``record_entry``), its source the folder it is in (``"."``:
        the runs directory itself) and read-only."""
        found = self.files()
        return [record_entry(record_id, lambda i: _read_record(i, found[i][1]))
                | {"source": folder, "readonly": True}
                for record_id, (folder, _) in found.items()]


def _read_record(record_id: str, path: Path) -> dict[str, Any]:
    """The JSON object in ``path``, else ``NotFound`` (it changed since it was listed)."""
    try:
        data = json.loads(path.read_bytes())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        data = None
    if not isinstance(data, dict):
        raise NotFound(f"saved game {record_id!r} is no longer a record")
    return data
