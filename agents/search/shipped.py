"""The search players shipped with the package: value nets the search learner trained once with
``configs/search_2p.yaml``, ``search_3p.yaml`` and ``search_4p.yaml``, kept as package data
(``shipped/search-<n>p.npz``) beside their provenance (``shipped/search-<n>p.json``: the config
and commit they were trained with, how long, and their exact exploitability or NashConv), so
``make_policy("search-2p")`` plays the strongest player of its table without training.

Each takes the options of ``search`` (``depth``, ``seat``, ``cache``, ``specials``) but not
``path``; ``provenance(name)`` reads the record.
"""

from __future__ import annotations

import json
from importlib.resources import files
from pathlib import Path
from typing import Any

from pagadores_env.core.policies import register_policy

from .player import CACHE, SearchPolicy

#: The shipped players, by name.
SHIPPED = ("search-2p", "search-3p", "search-4p")


def shipped_net(name: str) -> Path:
    """The value net file of the shipped player ``name`` (``ValueError`` in one line for
    another name)."""
    if name not in SHIPPED:
        raise ValueError(f"no shipped search player {name!r}; shipped: {', '.join(SHIPPED)}")
    return Path(str(files(__package__) / "shipped" / f"{name}.npz"))


def provenance(name: str) -> dict[str, Any]:
    """The record the shipped player ``name`` was published with: ``config``, ``commit``,
    ``trained``, ``measure`` and ``value`` (its exact exploitability or NashConv), ``table``
    and the ``command`` that measured it."""
    return json.loads(shipped_net(name).with_suffix(".json").read_text())


def _factory(name: str) -> Any:
    def make(depth: int = 1, seat: int | None = None, cache: int = CACHE,
             specials: int | str | None = None, seed: int | None = None) -> SearchPolicy:
        return SearchPolicy(shipped_net(name), depth, seat, cache, specials, seed)

    make.__doc__ = f"The shipped {name} player (``{name}.json`` says how it was made)."
    return make


for _name in SHIPPED:
    register_policy(_name, _factory(_name))
