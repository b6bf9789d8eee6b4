"""What the page may choose from, each named by an id the server made, never by a path or a
spec text from a request: the opponents of a game (``opponents``: every registered player
that plays by its bare name, and the trained run folders of the runs directory), the run
folders with their learning curves and final tables (``Runs``, read-only), and the saved
games (``Records``, a folder of its own the server writes atomically).

A request names an opponent by its id (``"sensible"``, ``"run:search_2p"``); the server looks
the id up in the listing it makes itself, so no spec text from a request reaches
``make_policy`` (a ``model:path=`` spec of the request's choosing would unpickle a file of its
choosing). A run or a record is named alike by its id, an entry of the folder's listing:
``../``, encoded or absolute paths are no ids and are refused.
"""

from __future__ import annotations

import csv
import json
import re
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pagadores_agents.run_folders import is_rllib_run, sb3_run_model, search_run_net
from pagadores_env.core.atomic import write_atomic
from pagadores_env.core.policies import registered_policies, required_parameters
from pagadores_env.core.views import load_record

#: A folder name the listings accept: plain, no path separators, not hidden.
PLAIN_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")
#: A record's id: what ``secrets.token_urlsafe`` makes.
RECORD_ID = re.compile(r"[A-Za-z0-9_-]{16,64}")
#: The prefix of a trained run's opponent id.
RUN = "run:"


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
        data = json.loads((self.root / f"{record_id}.json").read_text())
        if not isinstance(data, dict):
            raise NotFound(f"saved game {record_id!r} is no record")
        return data

    def listing(self) -> list[dict[str, Any]]:
        """Every saved game: its id, game, players, inputs and, when over, places; a file
        that does not load (edited, damaged) is listed with why."""
        entries = []
        for record_id in self.ids():
            try:
                spec, game = load_record(self.load(record_id))
            except (NotFound, ValueError, OSError) as err:
                entries.append({"id": record_id, "error": str(err)})
                continue
            entries.append({"id": record_id, "game": spec.name, "title": spec.title,
                            "players": game.num_players, "steps": len(game.history),
                            "over": game.is_terminal(),
                            "places": list(game.placements()) if game.is_terminal() else None})
        return entries
