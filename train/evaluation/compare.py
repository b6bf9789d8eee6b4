"""The final table's other rows: agents measured on the run's own measures, with their exact
numbers kept on disk.

``eval.compare`` lists agents (the selfplay configs list every shipped heuristic) that the
final evaluation measures exactly as it measures the trained policy: the same seeded
Monte-Carlo games against each ``eval.opponents`` entry and, where the run's table gets exact
numbers, the exact win and NashConv (``yardstick.learner_exact``). The trainer writes them to
``compare.csv`` and prints them under the trained policy's rows.

A named agent's exact numbers depend only on what was asked (agent, opponents, table, seed),
never on the run, and one agent at 3 players with 10 cards costs minutes of solver passes
(``lookahead`` the most). So they are kept in ``exact_agents_v1.json`` beside the solver's
cached solutions (``solver.cache_dir()``, ``$PAGADORES_CACHE``): the first run on a machine
computes them, later runs read them. Only agents that play the same whatever their seed are
cached (``CACHEABLE``, under their whole spec); a ``model:path=…`` file can change under its
name, so it is never cached. A cache file that does not read is set aside (renamed with a
``.damaged`` suffix, never deleted) and rebuilt, with a warning; every write is atomic and
merges with what another process may have written since. Progress: a miss is the solver
pass ``compute`` reports itself (``learner_exact(..., progress=)``); a hit, which replaces
it, is said in one status line, so a run's log tells where its exact numbers came from.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from pagadores_env.core.atomic import write_atomic
from pagadores_env.core.policies import parse_spec
from pagadores_env.pagadores.solver import cache_dir

from ..progress import Reporter, reporter
from .yardstick import LearnerExact

CACHE_NAME = "exact_agents_v1.json"
#: Agents whose exact numbers are cached: those that play the same whatever their seed.
#: ``random`` is evaluated exactly as its mixture (``throw_probabilities``), so it is one of them.
CACHEABLE = frozenset({"random", "stop-first", "always-throw", "threshold", "sensible",
                       "lookahead", "equilibrium"})


def cache_path() -> Path:
    """The file of cached exact numbers."""
    return cache_dir() / CACHE_NAME


def cache_key(spec: str, opponents: Sequence[str], num_players: int,
              cards: int | Sequence[int], seed: int) -> str | None:
    """The cache key of ``spec`` measured against ``opponents`` at a table, or None if its
    numbers may not be cached (not a registered plain agent, see ``CACHEABLE``)."""
    name, _ = parse_spec(spec)
    if name not in CACHEABLE or any(parse_spec(o)[0] not in CACHEABLE for o in opponents):
        return None
    return json.dumps([spec, list(opponents), num_players, cards, seed])


def _read(path: Path) -> dict[str, dict[str, object]]:
    """The cache's entries; a damaged file is renamed aside (warned) and reads as empty."""
    if not path.exists():
        return {}
    try:
        entries = json.loads(path.read_text())["entries"]
        if not isinstance(entries, dict):
            raise TypeError("entries is not a mapping")
        return entries
    except (OSError, ValueError, KeyError, TypeError) as err:
        aside = path.with_name(path.name + ".damaged")
        path.replace(aside)
        print(f"warning: {path} did not read ({err}); moved it to {aside.name} and "
              "computing the exact numbers again", file=sys.stderr)
        return {}


def _entry(measured: LearnerExact) -> dict[str, object]:
    return {"win_probability": measured.win_probability, "nash_conv": measured.nash_conv}


def _measured(entry: dict[str, object]) -> LearnerExact | None:
    """The entry as numbers, or None if it is not a well-formed entry."""
    try:
        wins = {str(k): float(v) for k, v in dict(entry["win_probability"]).items()}
        return LearnerExact(wins, float(entry["nash_conv"]))
    except (KeyError, TypeError, ValueError):
        return None


def cached_exact(key: str | None, compute: Callable[[], LearnerExact],
                 progress: bool | Reporter = False, label: str = "exact") -> LearnerExact:
    """The exact numbers stored under ``key``, else ``compute()``'s (stored under ``key``
    unless it is None). A hit is one status line to ``progress``: ``label: from the cache
    FILE``."""
    if key is None:
        return compute()
    path = cache_path()
    stored = _read(path).get(key)
    measured = None if stored is None else _measured(stored)
    if measured is not None:
        reporter(progress).say(f"{label}: from the cache {path}")
        return measured
    measured = compute()
    path.parent.mkdir(parents=True, exist_ok=True)
    entries = _read(path) | {key: _entry(measured)}  # merge what others wrote meanwhile
    write_atomic(path, json.dumps({"entries": entries}, indent=1, sort_keys=True))
    return measured
