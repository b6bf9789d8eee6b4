"""The README's two commands (issue 45, item 11): ``make train`` installs what the main job
needs (the ``train`` extra) and ``make test`` every extra, each install step announced by a
line and pip's own progress shown (no ``-q``); ``make test`` keeps its steps (ruff, mypy,
the extras-free install, the strict docs build, the suite), ``.ci/run`` runs it, and the
README says how to reach the installed ``pagadores`` command and how to get torch's CPU
build. The recipes are read with ``make -n`` (printed, not run) against a virtualenv folder
that does not exist, as in a fresh clone."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PIP_INSTALL = re.compile(r"^.*-m pip install .*$", re.M)
CPU_INDEX = "https://download.pytorch.org/whl/cpu"


def dry_run(target: str, tmp_path: Path, *settings: str) -> str:
    """The commands ``make TARGET`` would run in a fresh clone (its virtualenv not made)."""
    make = shutil.which("make")
    assert make, "make is needed (the README's two commands are make targets)"
    done = subprocess.run([make, "-n", target, f"VENV={tmp_path / 'venv'}",
                           f"CORE_VENV={tmp_path / 'core'}", *settings], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


def installs(commands: str) -> list[str]:
    """What the ``pip install -e`` lines of ``commands`` install, in order."""
    return re.findall(r"pip install (?:.* )?-e '?([^' ]+)'?", commands)


def test_make_train_installs_the_train_extra_only(tmp_path: Path) -> None:
    assert installs(dry_run("train", tmp_path)) == [".[train]"]


def test_make_test_installs_every_extra_and_keeps_its_steps(tmp_path: Path) -> None:
    commands = dry_run("test", tmp_path)
    assert installs(commands) == [".[all]"]
    steps = ["ruff check", "mypy", "tests/extras_free.py", "mkdocs build --strict",
             "pytest -n 2"]
    found = [commands.find(step) for step in steps]
    assert -1 not in found, [s for s, f in zip(steps, found, strict=True) if f == -1]
    assert found[-1] == max(found), "the suite runs last"


@pytest.mark.parametrize("target", ["train", "test"])
def test_every_install_step_is_announced_and_shows_pips_progress(target: str,
                                                                 tmp_path: Path) -> None:
    lines = dry_run(target, tmp_path).splitlines()
    pips = [i for i, line in enumerate(lines) if PIP_INSTALL.match(line)]
    assert pips
    quiet = [lines[i] for i in pips if re.search(r"\s(-q+|--quiet)\b", lines[i])]
    assert not quiet, f"pip runs quietly: {quiet}"
    for i in pips:  # the line before a pip step (or before its virtualenv) says what comes
        before = [line for line in lines[:i] if line.startswith("echo ")]
        assert before, f"nothing announces {lines[i]!r}"
    announced = [line for line in lines if line.startswith("echo ")]
    assert len(announced) >= 3, announced  # the virtualenv, torch, the package


def test_torch_comes_from_the_index_given(tmp_path: Path) -> None:
    torch = [line for line in PIP_INSTALL.findall(dry_run("train", tmp_path, f"TORCH_INDEX="
                                                          f"{CPU_INDEX}")) if "torch==" in line]
    assert len(torch) == 1 and f"--index-url {CPU_INDEX}" in torch[0]
    (plain,) = [line for line in PIP_INSTALL.findall(dry_run("train", tmp_path))
                if "torch==" in line]
    assert "--index-url" not in plain


def test_ci_runs_make_test() -> None:
    commands = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()
                if line.strip() and not line.startswith("#")]
    assert commands[-1] == "make test"


def test_the_readme_starts_with_the_two_commands() -> None:
    text = (ROOT / "README.md").read_text()
    first = re.search(r"```sh\n(.*?)```", text, re.S)
    assert first is not None
    commands = [line.split("#")[0].strip() for line in first[1].splitlines()]
    assert [c for c in commands if c] == ["make train", "make test"]


def test_the_readme_says_where_the_pagadores_command_is_before_using_it() -> None:
    text = (ROOT / "README.md").read_text()
    first_use = re.search(r"^pagadores \w+", text, re.M)
    assert first_use is not None
    before = text[:first_use.start()]
    assert ".venv/bin/pagadores" in before and "source .venv/bin/activate" in before


def test_the_readme_says_which_torch_build_pip_installs_and_how_to_get_the_cpu_one() -> None:
    text = (ROOT / "README.md").read_text()
    assert CPU_INDEX in text and "TORCH_INDEX=" in text
    assert "CPU build first" not in text


#: The pages that show the two commands, each in its first ```sh block.
COMMAND_PAGES = ("README.md", "docs/install.md", "docs/index.md")
#: What make test's recipe does (test_make_test_installs_every_extra_and_keeps_its_steps),
#: as its description must name it.
TEST_STEPS = ("ruff", "mypy", "extras-free", "docs strictly", "test suite")


def command_block(page: str) -> str:
    found = re.search(r"```sh\n(.*?)```", (ROOT / page).read_text(), re.S)
    assert found is not None, f"{page} shows no sh block"
    return found[1]


@pytest.mark.parametrize("page", COMMAND_PAGES)
def test_every_page_describes_the_two_commands_as_the_readme_does(page: str) -> None:
    block = command_block(page)
    assert block == command_block("README.md")
    described = " ".join(block.split())
    missing = [step for step in TEST_STEPS if step not in described]
    assert not missing, f"{page}: make test's description leaves out {missing}"


BROWSER_INSTALL = "apt-get update && apt-get install -y chromium chromium-driver"


def test_make_test_checks_for_the_browser_first(tmp_path: Path) -> None:
    commands = dry_run("test", tmp_path, "CHROMIUM=/nonexistent/chromium")
    assert commands.find(BROWSER_INSTALL) < commands.find("ruff check")
    assert commands.find(BROWSER_INSTALL) >= 0


def test_a_missing_browser_is_installed_as_root_only(tmp_path: Path) -> None:
    missing = "CHROMIUM=/nonexistent/chromium"
    as_root = dry_run("browser", tmp_path, missing, "USER_ID=0")
    assert BROWSER_INSTALL in as_root  # the recipe holds both branches; the shell picks
    # run as a top-level make: under make test a recursive one would print its "Entering
    # directory" lines on stdout and call itself make[1]
    top_level = {key: value for key, value in os.environ.items()
                 if key not in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS")}
    done = subprocess.run([shutil.which("make"), "browser", missing, "USER_ID=1000"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60, env=top_level)
    assert done.returncode != 0 and done.stdout == ""
    ours = [line for line in done.stderr.splitlines() if not line.startswith("make: ***")]
    assert len(ours) == 1 and BROWSER_INSTALL in ours[0] and "root" in ours[0]


def test_make_screenshot_writes_the_docs_picture_with_the_tests_code(tmp_path: Path) -> None:
    commands = dry_run("screenshot", tmp_path)
    assert "-m pagadores_web.browser docs/web.png" in commands
