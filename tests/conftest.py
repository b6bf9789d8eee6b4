"""Suite-wide test settings.

Hypothesis runs derandomized and without an example database, so every run of the suite
(local or CI) tries the same examples and a failure reproduces bit for bit. Set
``HYPOTHESIS_PROFILE=explore`` to search with fresh random examples instead.

A test that needs an optional extra says so with ``pytest.importorskip`` and is skipped where
the extra is missing. ``make test`` (what CI runs) installs every extra and sets
``PAGADORES_NO_SKIPS=1``: then any skipped test fails the run, named with its reason, so a
test cannot stop running there unnoticed.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from hypothesis import settings

settings.register_profile(
    "ci",
    derandomize=True,
    database=None,
    deadline=None,
    print_blob=True,
)
settings.register_profile("explore", deadline=None, max_examples=1000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

NO_SKIPS = os.environ.get("PAGADORES_NO_SKIPS") == "1"
#: The browser and driver the web page's tests drive (tests/web/test_browser.py).
BROWSER = (Path("/usr/bin/chromium"), Path("/usr/bin/chromedriver"))


def pytest_report_header(config: pytest.Config) -> str:
    """The browser and driver versions the browser tests run with, once per session (on the
    controller under xdist too)."""
    found = []
    for program in BROWSER:
        try:
            done = subprocess.run([program, "--version"], capture_output=True, text=True,
                                  timeout=30)
            found.append(done.stdout.strip() or f"{program}: no version")
        except (OSError, subprocess.TimeoutExpired):
            found.append(f"{program}: not installed")
    return "browser tests: " + "; ".join(found)


@pytest.fixture(autouse=True)
def _own_results_cache(tmp_path_factory: pytest.TempPathFactory,
                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test starts with an empty exact-results cache (``solver.results_cache``): a
    result kept by another test, or by an earlier run on this machine, would stand in for
    the computation a test means to check."""
    monkeypatch.setenv("PAGADORES_RESULTS_CACHE", str(tmp_path_factory.mktemp("results")))


def _skips(config: pytest.Config) -> list[pytest.TestReport | pytest.CollectReport]:
    """The skipped tests and modules the run reported (with xdist, on the controller)."""
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    return [] if reporter is None else [
        report for report in reporter.stats.get("skipped", [])
        if not hasattr(report, "wasxfail")]


def _reason(report: pytest.TestReport | pytest.CollectReport) -> str:
    where, reason = report.nodeid or "?", str(report.longrepr)
    if isinstance(report.longrepr, tuple):  # (path, line, "Skipped: why")
        reason = report.longrepr[2].removeprefix("Skipped: ")
    return f"{where}: {reason}"


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if NO_SKIPS and not hasattr(session.config, "workerinput") and _skips(session.config) \
            and exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    skips = _skips(config) if NO_SKIPS else []
    if skips:
        terminalreporter.section("skipped tests fail this run (PAGADORES_NO_SKIPS=1)", red=True)
        for report in skips:
            terminalreporter.line(_reason(report), red=True)
