"""The test suite's own layout (issue 24): tests live in one folder per layer, each a package
with test modules of unique names, and a layer's tests import nothing from the layers above
it, function-level imports included: the env tests (core, pagadores, perudo, paye, solver) import
only ``pagadores_env`` and get players through its registry, the agents' tests add
``pagadores_agents``, the training tests ``pagadores_train``, the web page's
``pagadores_web``, and only the CLI's (and the whole-package checks) import
``pagadores_cli``. The helpers beside the folders (``tests/dice.py``, ``tests/players.py``,
...) import only ``pagadores_env``, so every layer can use them."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from tests.imports import imported_modules

TESTS = Path(__file__).resolve().parents[1]
OURS = ("pagadores_env", "pagadores_agents", "pagadores_train", "pagadores_web", "pagadores_cli")
#: Each folder's rank: a folder imports our packages and test folders of its rank or below.
RANKS = {"core": 0, "pagadores": 0, "perudo": 0, "paye": 0, "pasch": 0, "solver": 0,
         "agents": 1, "train": 2, "web": 3, "cli": 4, "package": 5, "docs": 5}
PACKAGE_RANKS = dict(zip(OURS, range(5), strict=True))


def imported(path: Path) -> set[str]:
    """The modules ``path`` imports anywhere in its code, as absolute dotted names."""
    return imported_modules(path, ".".join(path.relative_to(TESTS.parent).parent.parts))


def rank_of(module: str) -> int | None:
    """The rank an imported module needs, or None for a module not ours."""
    parts = module.split(".")
    if parts[0] in PACKAGE_RANKS:
        return PACKAGE_RANKS[parts[0]]
    if parts[0] == "tests":
        return RANKS.get(parts[1], 0) if len(parts) > 1 else 0
    return None


def test_every_test_module_is_in_a_layer_folder() -> None:
    folders = sorted(p.name for p in TESTS.iterdir() if p.is_dir() and p.name != "__pycache__")
    assert folders == sorted(RANKS)
    assert not sorted(p.name for p in TESTS.glob("test_*.py"))
    for folder in folders:
        assert (TESTS / folder / "__init__.py").is_file(), f"tests/{folder} is no package"
        assert not [p for p in (TESTS / folder).iterdir() if p.is_dir()
                    and p.name != "__pycache__"], f"tests/{folder} has subfolders"


def test_test_modules_have_unique_names() -> None:
    names = Counter(p.name for p in TESTS.rglob("test_*.py"))
    assert not [name for name, count in names.items() if count > 1]


@pytest.mark.parametrize("folder", sorted(RANKS))
def test_a_layers_tests_import_nothing_from_the_layers_above(folder: str) -> None:
    wrong = sorted((path.name, module) for path in sorted((TESTS / folder).glob("*.py"))
                   for module in imported(path)
                   if (rank := rank_of(module)) is not None and rank > RANKS[folder])
    assert not wrong


def test_the_shared_helpers_import_only_the_environment() -> None:
    helpers = [p for p in TESTS.glob("*.py") if p.name != "__init__.py"]
    assert {p.name for p in helpers} >= {"conftest.py", "dice.py", "players.py"}
    wrong = sorted((path.name, module) for path in helpers for module in imported(path)
                   if (rank := rank_of(module)) is not None and rank > 0)
    assert not wrong
