"""The package installs as a library: the wheel ships only our own top-level packages and
works from a folder that holds a user's own ``train.py`` and ``agents/``.

The wheel is built with this virtualenv's pip and setuptools from a copy of the sources (so
the build writes nothing into the checkout) and installed, without its dependencies and not
editable, into a fresh virtualenv; the dependencies come from this
virtualenv's site-packages through a ``.pth`` line (a plain path, so the editable install's
import finder there is not activated and our packages can only come from the wheel). Then,
from a folder whose ``train.py`` and ``agents/__init__.py`` raise when imported, the
``pagadores`` script and the README's Python snippets must run.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from pagadores_env.core.games import GAME_SPECS
from tests.readme import TRAINING_STEPS, readme_snippets

ROOT = Path(__file__).resolve().parents[2]
#: Repository folder → the package name it installs as (pyproject's package-dir).
PACKAGES = {"pagadores_env": "pagadores_env", "agents": "pagadores_agents",
            "train": "pagadores_train", "web": "pagadores_web", "cli": "pagadores_cli"}
#: The games added after the first two, whose packages the wheel must ship (issues 46, 47).
NEW_GAMES = ("paye", "pasch")
#: A user's own modules with generic names, which our code must never import.
TRAPS = {"train.py": "raise ImportError('the user\\'s train.py was imported')\n",
         "agents/__init__.py": "raise ImportError('the user\\'s agents/ was imported')\n",
         "cli/__init__.py": "raise ImportError('the user\\'s cli/ was imported')\n",
         "web/__init__.py": "raise ImportError('the user\\'s web/ was imported')\n"}
#: Files besides the package folders that the build reads.
BUILD_FILES = ("pyproject.toml", "README.md", "LICENSE")
#: One torch thread: two threads on a busy 2-core machine make one learn() ~15× slower. No
#: PYTHONPATH: a path to a checkout there would import our packages from it, not the wheel.
ENVIRONMENT = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"} | {"OMP_NUM_THREADS": "1"}


def run(command: list[str | Path], cwd: Path) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([str(c) for c in command], cwd=cwd, capture_output=True, text=True,
                          timeout=300, env=ENVIRONMENT)
    assert done.returncode == 0, f"{command} failed:\n{done.stdout}\n{done.stderr}"
    return done


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # built as pip builds it for `pip install .`, with this environment's setuptools (no build
    # isolation): pyproject.toml's build requirement
    pytest.importorskip("setuptools", minversion="77")
    source, out = tmp_path_factory.mktemp("source"), tmp_path_factory.mktemp("wheel")
    for name in BUILD_FILES:
        shutil.copy2(ROOT / name, source / name)
    for folder in PACKAGES:
        shutil.copytree(ROOT / folder, source / folder,
                        ignore=shutil.ignore_patterns("__pycache__"))
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
         "-w", out, source], cwd=out)
    (built,) = out.glob("pagadores_env-*.whl")
    return built


@pytest.mark.slow
def test_the_wheel_holds_our_packages_under_our_names_only(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    top = {name.split("/")[0] for name in names if not name.split("/")[0].endswith(
        (".dist-info", ".data"))}
    assert top == set(PACKAGES.values())
    expected = {f"{PACKAGES[path.relative_to(ROOT).parts[0]]}/"
                f"{path.relative_to(ROOT / path.relative_to(ROOT).parts[0]).as_posix()}"
                for folder in PACKAGES for path in (ROOT / folder).rglob("*.py")}
    assert expected <= set(names), sorted(expected - set(names))
    # every game of the table of games ships: its package, its subpackages and its PettingZoo
    # entry module (pyproject's package list is explicit: a game left out of it is missing)
    assert set(NEW_GAMES) <= set(GAME_SPECS)
    for game in GAME_SPECS:
        folder = ROOT / "pagadores_env" / game
        packages = {path.parent for path in folder.rglob("__init__.py")
                    if "__pycache__" not in path.parts}
        assert {f"pagadores_env/{p.relative_to(ROOT / 'pagadores_env').as_posix()}/__init__.py"
                for p in packages} | {f"pagadores_env/{game}_v1.py"} <= set(names), game
    shipped = {f"pagadores_agents/{path.relative_to(ROOT / 'agents').as_posix()}"
               for path in (ROOT / "agents" / "search" / "shipped").glob("search-*")}
    assert len(shipped) == 6 and shipped <= set(names)  # the trained search players (issue 48)
    page = {f"pagadores_web/{path.relative_to(ROOT / 'web').as_posix()}"
            for path in (ROOT / "web" / "static").rglob("*") if path.is_file()}
    assert len(page) >= 9 and page <= set(names)  # the web page's files (issue 48)
    metadata = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    entry_points = zipfile.ZipFile(wheel).read(metadata).decode()
    assert "pagadores = pagadores_cli.main:main" in entry_points
    assert "agents = pagadores_agents" in entry_points


@pytest.mark.slow
def test_the_installed_wheel_runs_beside_a_users_train_py_and_agents(wheel: Path,
                                                                     tmp_path: Path) -> None:
    pytest.importorskip("sb3_contrib")  # the README snippets train a MaskablePPO
    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", "--without-pip", venv], cwd=tmp_path)
    python = venv / "bin" / "python"
    run([sys.executable, "-m", "pip", "--python", python, "install", "-q", "--no-deps",
         "--no-index", wheel], cwd=tmp_path)
    site = run([python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
               cwd=tmp_path).stdout.strip()
    # a plain path line: our dependencies, without running this venv's editable finder
    (Path(site) / "dependencies.pth").write_text(sysconfig.get_path("purelib") + "\n")
    user = tmp_path / "project"
    for name, text in TRAPS.items():
        (user / name).parent.mkdir(parents=True, exist_ok=True)
        (user / name).write_text(text)
    where = run([python, "-c", "import pagadores_env; print(pagadores_env.__file__)"], user)
    assert where.stdout.startswith(site)  # the wheel's copy, not the repository's
    assert "usage: pagadores" in run([venv / "bin" / "pagadores", "--help"], user).stdout
    # with the folder first on sys.path, as `python -m` and scripts have it
    assert "random" in run([python, "-m", "pagadores_cli.main", "--help"], user).stdout
    # the shipped search players load from the wheel's package data, without training
    played = run([python, "-c", "from pagadores_env.core.policies import make_policy\n"
                  "p = make_policy('search-2p')\nprint(type(p).__name__, p.net.num_players)"],
                 user)
    assert played.stdout.split() == ["SearchPolicy", "2"]
    # Paye's and Pasch's packages import from the wheel and register their games there
    games = run([python, "-c", "import pagadores_env.paye.exact, pagadores_env.pasch.exact\n"
                 "from pagadores_env.core.games import GAME_SPECS\n"
                 "print(*GAME_SPECS, pagadores_env.paye.__file__, pagadores_env.pasch.__file__)"],
                user).stdout.split()
    assert games[:-2] == list(GAME_SPECS) and set(NEW_GAMES) <= set(games[:-2])
    assert all(path.startswith(site) for path in games[-2:]), games
    snippets = readme_snippets()
    assert len(snippets) >= 3 and any(f".learn({TRAINING_STEPS})" in s for s in snippets)
    for k, snippet in enumerate(snippets):
        (user / f"snippet_{k}.py").write_text(snippet)
        run([python, f"snippet_{k}.py"], user)
