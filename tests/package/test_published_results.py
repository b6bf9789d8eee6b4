"""What we publish is what the code printed: the documentation quotes results only through
``<!-- generated: results-table FILE -->`` (or ``results-line``, ``results-headline``)
markers, which ``docs/hooks.py`` fills at build time from the committed results file (FILE
relative to ``docs/``); every such file holds the table a run or a command wrote (``make
results`` copies it from a ``make train`` run, ``pagadores_train.reports.write_results``;
``make measurements`` from commands' ``--out``) and names the commit, platform and library
versions it was printed with; and no page, nor the README, retypes a line of those
tables."""

from __future__ import annotations

import re
from pathlib import Path

from pagadores_train.reports import RESULTS_TABLE

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
RESULTS = DOCS / "results"
QUOTE = re.compile(
    r"<!--\s*generated:\s*results-(?:table|line|headline)\s+(?P<file>\S+).*?-->")


def pages() -> list[Path]:
    """The documentation's pages (the results files themselves aside) and the README."""
    return [ROOT / "README.md"] + [page for page in sorted(DOCS.rglob("*.md"))
                                   if RESULTS not in page.parents]


def quoted() -> set[str]:
    """The results files the pages quote, relative to ``docs/``."""
    return {m["file"] for page in pages() for m in QUOTE.finditer(page.read_text())}


def test_the_docs_quote_the_main_jobs_results_file() -> None:
    assert "results/default.md" in quoted()


def test_every_quoted_file_is_a_committed_results_file_with_its_provenance() -> None:
    for file in quoted():
        path = DOCS / file
        assert RESULTS in path.parents and path.is_file(), f"{file} is no results file"
        text = path.read_text()
        assert RESULTS_TABLE.search(text) is not None, f"{file} holds no table"
        for fact in ("- commit: ", "- platform: ", "- libraries: torch ", "stable-baselines3 "):
            assert fact in text, f"{file} does not say {fact.strip(' -:')}"


def test_no_page_retypes_a_results_table() -> None:
    """A table's lines with numbers appear only in its results file: quoted, never copied."""
    lines = {line.strip(): path.name for path in RESULTS.rglob("*.md")
             if (table := RESULTS_TABLE.search(path.read_text()))
             for line in table["table"].splitlines() if re.search(r"\d\.\d", line)}
    for page in pages():
        text = page.read_text()
        copied = sorted(f"{name}: {line}" for line, name in lines.items() if line in text)
        assert not copied, f"{page.relative_to(ROOT)} retypes results lines: {copied}"
