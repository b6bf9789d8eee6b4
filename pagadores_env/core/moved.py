"""Import paths that moved keep working: the old name imports the module at its new home and
warns, naming it, with a ``FutureWarning`` (which Python shows to users by default, where a
``DeprecationWarning`` would stay hidden outside ``__main__``).

A package lists its moves once (``install``); a package that took the name of a module it
replaced forwards the old module's names (``forward_names``, its module ``__getattr__``). The
old and the new name are one module object, so a pickle or a monkeypatch through either sees
the same thing.
"""

from __future__ import annotations

import importlib
import sys
import warnings
from collections.abc import Callable, Mapping, Sequence
from importlib.abc import Loader, MetaPathFinder
from importlib.machinery import ModuleSpec
from types import ModuleType
from typing import Any


def _warn(old: str, new: str) -> None:
    # stacklevel 3: past this helper and its caller to the user's line (the import system's
    # own frames are skipped by the warnings module)
    warnings.warn(f"{old} moved to {new}; import it from there", FutureWarning, stacklevel=3)


class _Alias(Loader):
    """Loads an old name as the module at its new home."""

    def __init__(self, new: str) -> None:
        self.new = new

    def create_module(self, spec: ModuleSpec) -> None:
        """The default module, replaced in ``exec_module``."""
        return None

    def exec_module(self, module: ModuleType) -> None:
        """Import the new home and put it under the old name: the import system hands back
        whatever ``sys.modules`` holds for the name once loading ends."""
        sys.modules[module.__name__] = importlib.import_module(self.new)


class MovedModules(MetaPathFinder):
    """A finder answering only the old names of ``moves`` (old dotted name → new one)."""

    def __init__(self, moves: Mapping[str, str]) -> None:
        self.moves = dict(moves)

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        """A spec that loads the new home of ``fullname``, or None for any other name."""
        new = self.moves.get(fullname)
        if new is None:
            return None
        _warn(fullname, new)
        return ModuleSpec(fullname, _Alias(new))


def install(moves: Mapping[str, str]) -> None:
    """Make every old name of ``moves`` import its new module (once per table)."""
    if not any(isinstance(f, MovedModules) and f.moves == dict(moves) for f in sys.meta_path):
        sys.meta_path.insert(0, MovedModules(moves))


def forward_names(package: str, new: str) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``package``, which took the name of a module that now
    lives at ``new``: a name of the old module is found there, with the warning."""
    def __getattr__(name: str) -> Any:
        if not name.startswith("__"):
            target = importlib.import_module(new)
            if hasattr(target, name):
                _warn(f"{package}.{name}", f"{new}.{name}")
                return getattr(target, name)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return __getattr__
