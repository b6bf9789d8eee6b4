"""The packages' layers: ``core`` imports no game, a game imports ``core`` and never the other
game, ``pagadores_env`` ← ``pagadores_agents`` ← ``pagadores_train`` ← ``pagadores_web`` ←
``pagadores_cli`` and
the jobs of ``pagadores_train`` in their order, nothing imports upwards or in a cycle
(function-level imports included), no module is over 600 lines, the optional extras stay out
of ``import pagadores_env``, the retired v0 names fail in one line naming v1, and the modules
``train/`` held before it was grouped by job still import, warning with their new home."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import gymnasium
import pettingzoo
import pytest

from pagadores_env.core.games import GAME_SPECS
from pagadores_env.core.protocol import GameState
from tests.imports import imported_modules, run_without_extras

PACKAGES = ("pagadores_env", "pagadores_agents", "pagadores_train", "pagadores_web",
            "pagadores_cli")
MAX_LINES = 600


def modules() -> dict[str, Path]:
    """Every module of the five packages by dotted name (their folders need not carry their
    installed names: ``agents/`` is ``pagadores_agents``)."""
    found = {}
    for package in PACKAGES:
        folder = Path(importlib.import_module(package).__file__).parent
        for path in sorted(folder.rglob("*.py")):
            parts = (package, *path.relative_to(folder).with_suffix("").parts)
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imports(name: str, path: Path) -> set[str]:
    """The modules ``name`` imports anywhere in its code (top level or in a function), as
    dotted names; ``from package import module`` counts as the module."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    return imported_modules(path, package, members=True)


GRAPH = {name: {other for other in imports(name, path) if other in modules()}
         for name, path in modules().items()}


#: The games' packages: each imports the core and no other game.
GAME_PACKAGES = tuple(f"pagadores_env.{game}" for game in ("pagadores", "perudo", "paye", "pasch"))
#: The jobs of ``pagadores_train`` from the bottom up.
TRAIN_JOBS = ("pagadores_train.evaluation", "pagadores_train.run", "pagadores_train.learners",
              "pagadores_train.benchmark")


def _within(name: str, layer: str) -> bool:
    return name == layer or name.startswith(layer + ".")


@pytest.mark.parametrize(("layer", "forbidden"), [
    ("pagadores_env.core", (*GAME_PACKAGES, *(f"{game}_v1" for game in GAME_PACKAGES),
                            "pagadores_env.integrations")),
    # a game imports the core and never another game, nor another game's entry module
    *[(game, tuple(f for other in GAME_PACKAGES if other != game
                   for f in (other, f"{other}_v1"))) for game in GAME_PACKAGES],
    ("pagadores_env", ("pagadores_agents", "pagadores_train", "pagadores_web",
                       "pagadores_cli")),
    ("pagadores_agents", ("pagadores_train", "pagadores_web", "pagadores_cli")),
    ("pagadores_train", ("pagadores_web", "pagadores_cli")),
    ("pagadores_web", ("pagadores_cli",)),
    # the jobs of pagadores_train, each importing only the ones before it (train/__init__.py)
    ("pagadores_train.progress", TRAIN_JOBS),
    ("pagadores_train.settings", TRAIN_JOBS),
    ("pagadores_train.evaluation", TRAIN_JOBS[1:]),
    ("pagadores_train.run", TRAIN_JOBS[2:]),
    ("pagadores_train.learners", TRAIN_JOBS[3:]),
])
def test_a_layer_imports_nothing_above_it_or_beside_it(layer, forbidden) -> None:
    wrong = sorted((name, other) for name, path in modules().items() if _within(name, layer)
                   for other in imports(name, path) if any(_within(other, f) for f in forbidden))
    assert not wrong


def test_no_import_cycles_function_level_imports_included() -> None:
    """A package's ``__init__`` only hands names on, so an import of a module through its
    package is an edge to the module, not to the package."""
    def through_package(name: str, other: str) -> bool:
        return other == name or (modules()[other].name == "__init__.py"
                                 and name.startswith(other + "."))

    graph = {name: {o for o in targets if not through_package(name, o)}
             for name, targets in GRAPH.items()}
    state: dict[str, int] = {}

    def visit(node: str, trail: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                pytest.fail(f"import cycle: {' -> '.join(trail[trail.index(nxt):] + [nxt])}")
            if nxt not in state:
                visit(nxt, trail + [nxt])
        state[node] = 2

    for start in sorted(graph):
        if start not in state:
            visit(start, [start])


def test_no_module_is_over_600_lines() -> None:
    long = {name: n for name, path in modules().items()
            if (n := len(path.read_text().splitlines())) > MAX_LINES}
    assert not long


#: The games the sources hold, each registered once in the table of games.
GAMES = ("pagadores", "perudo", "paye", "pasch")


def test_every_game_is_registered_and_follows_the_game_protocol() -> None:
    assert tuple(GAME_SPECS) == GAMES
    for spec in GAME_SPECS.values():
        assert isinstance(spec.start(spec.min_players), GameState), spec.name


def test_the_package_and_every_games_envs_run_without_the_extras() -> None:
    run_without_extras("import gymnasium, importlib, pagadores_env\n"
                       "from pagadores_env.core.games import GAME_SPECS\n"
                       f"assert tuple(GAME_SPECS) == {GAMES!r}, tuple(GAME_SPECS)\n"
                       "for spec in GAME_SPECS.values():\n"
                       "    name = spec.aec_id.replace('-', '_')\n"
                       "    module = importlib.import_module('pagadores_env.' + name)\n"
                       "    env = module.env(num_players=3)\n"
                       "    env.reset(seed=0)\n"
                       "    env.step(int(env.last()[0]['action_mask'].argmax()))\n"
                       "    gymnasium.make(spec.gym_id, num_players=3).reset(seed=0)")


@pytest.mark.parametrize(("statement", "new"), [
    ("from pagadores_env import pagadores_v0", "pagadores_env.pagadores_v1"),
    ("import pagadores_env.pagadores_v0", "pagadores_env.pagadores_v1"),
    ("from pagadores_env import perudo_v0", "pagadores_env.perudo_v1"),
    ("from pagadores_env.perudo import perudo_v0", "pagadores_env.perudo_v1"),
    ("import pagadores_env.perudo.perudo_v0", "pagadores_env.perudo_v1"),
])
def test_the_v0_modules_fail_in_one_line_naming_v1(statement, new) -> None:
    with pytest.raises(ImportError) as raised:
        exec(statement, {})
    message = str(raised.value)
    assert "\n" not in message and f"use {new} " in message and "is retired" in message


@pytest.mark.skipif(not hasattr(pettingzoo, "register"), reason="PettingZoo has no registry")
@pytest.mark.parametrize("game", ["pagadores", "perudo"])
def test_the_v0_registry_ids_fail_in_one_line_naming_v1(game) -> None:
    with pytest.raises(ImportError, match=rf"^pettingzoo.make\('aec', '{game}-v0'\) is retired: "
                                          rf"use pettingzoo.make\('aec', '{game}-v1'\) [^\n]*$"):
        pettingzoo.make("aec", f"{game}-v0")
    assert pettingzoo.make("aec", f"{game}-v1").metadata["name"] == f"{game}_v1"
    title = game.capitalize()
    with pytest.raises(gymnasium.error.DeprecatedEnv,
                       match=rf"^Environment version v0 for `{title}` is deprecated. "
                             rf"Please use `{title}-v1` instead.$"):
        gymnasium.make(f"{title}-v0")


def test_tests_import_the_installed_names_not_the_source_folders() -> None:
    """``agents``, ``train`` and ``cli`` are installed as ``pagadores_agents``,
    ``pagadores_train`` and ``pagadores_cli``: importing a folder's own name loads a second
    copy of its modules, whose registrations replace the first's classes, and tests that run
    after it in the same worker fail their ``isinstance`` checks."""
    tests = Path(__file__).resolve().parents[1]
    wrong = sorted(f"{path.relative_to(tests)}: {module}" for path in tests.rglob("*.py")
                   for module in imported_modules(path, "tests", members=False)
                   if module.split(".")[0] in ("agents", "train", "cli"))
    assert not wrong


@pytest.mark.parametrize(("old", "new", "name"), [
    ("pagadores_train.evaluate", "pagadores_train.evaluation.evaluate", "evaluate_agents"),
    ("pagadores_train.config", "pagadores_train.run.config", "load_config"),
    ("pagadores_train.search_learn", "pagadores_train.learners.search.learn", "ValueLearner"),
    ("pagadores_agents.value_net", "pagadores_agents.search.value_net", "ValueNet"),
])
def test_a_module_that_moved_still_imports_warning_with_its_new_home(old, new, name) -> None:
    """Issue 45: ``train/`` grouped by job; users' scripts keep working (in a fresh
    interpreter, where neither name was imported yet)."""
    code = (f"import warnings\nwarnings.simplefilter('error')\n"
            f"try:\n    from {old} import {name}\nexcept FutureWarning as w:\n    print(w)\n"
            f"warnings.simplefilter('ignore')\nfrom {old} import {name} as a\n"
            f"from {new} import {name} as b\nassert a is b\n"
            f"import {old} as o, {new} as n\nassert o is n\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"{old} moved to {new}; import it from there"


@pytest.mark.parametrize(("package", "name", "home"), [
    ("pagadores_train.benchmark", "run_suite", "pagadores_train.benchmark.suite"),
    ("pagadores_agents.search", "SearchPolicy", "pagadores_agents.search.player"),
])
def test_a_package_that_took_a_modules_name_forwards_its_names(package, name, home) -> None:
    module = importlib.import_module(package)
    with pytest.warns(FutureWarning, match=rf"^{package}.{name} moved to {home}.{name};"):
        found = getattr(module, name)
    assert found is getattr(importlib.import_module(home), name)
    with pytest.raises(AttributeError, match="has no attribute 'no_such_name'"):
        getattr(module, "no_such_name")  # noqa: B009  (a name no module of ours holds)
