"""What we publish is what the code printed: the documentation quotes results only through
``<!-- generated: results-table FILE -->`` (or ``results-line``, ``results-headline``, and
``results-md-table`` for a benchmark summary's Markdown tables) markers, which
``docs/hooks.py`` fills at build time from the committed results file (FILE relative to
``docs/``); every such file holds the table a run or a command wrote (``make results``
copies it from a ``make train`` run, ``pagadores_train.run.reports.write_results``; ``make
measurements`` from commands' ``--out``; ``make benchmark-results`` the benchmark's
summary) and names the commit, platform and library versions it was printed with; and no
page, nor the README, retypes a line of those tables."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pagadores_train.run.reports import RESULTS_TABLE

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
RESULTS = DOCS / "results"
QUOTE = re.compile(
    r"<!--\s*generated:\s*results-(?P<kind>table|line|headline|md-table)\s+(?P<file>\S+).*?-->")
#: A Markdown table's row with a number in it (a benchmark summary's).
MD_ROW = re.compile(r"^\|.*\d\.\d.*\|$", re.M)


def pages() -> list[Path]:
    """The documentation's pages (the results files themselves aside) and the README."""
    return [ROOT / "README.md"] + [page for page in sorted(DOCS.rglob("*.md"))
                                   if RESULTS not in page.parents]


def quoted(kinds: tuple[str, ...] = ("table", "line", "headline")) -> set[str]:
    """The results files the pages quote through markers of ``kinds``, relative to
    ``docs/``."""
    return {m["file"] for page in pages() for m in QUOTE.finditer(page.read_text())
            if m["kind"] in kinds}


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


def test_the_benchmark_page_quotes_the_committed_summary() -> None:
    assert "results/benchmark/summary.md" in quoted(("md-table",))
    for file in quoted(("md-table",)):
        text = (DOCS / file).read_text()
        assert MD_ROW.search(text), f"{file} holds no Markdown table with numbers"
        for fact in ("- commit: ", "- platform: ", "- libraries: torch ", "- trials run at: "):
            assert fact in text, f"{file} does not say {fact.strip(' -:')}"


def test_no_page_retypes_a_results_table() -> None:
    """A table's lines with numbers appear only in its results file: quoted, never copied."""
    lines = {line.strip(): path.name for path in RESULTS.rglob("*.md")
             if (table := RESULTS_TABLE.search(path.read_text()))
             for line in table["table"].splitlines() if re.search(r"\d\.\d", line)}
    lines |= {row: path.name for path in RESULTS.rglob("*.md")
              for row in MD_ROW.findall(path.read_text())}
    for page in pages():
        text = page.read_text()
        copied = sorted(f"{name}: {line}" for line, name in lines.items() if line in text)
        assert not copied, f"{page.relative_to(ROOT)} retypes results lines: {copied}"


def test_the_md_table_marker_quotes_a_whole_table_or_the_rows_holding_its_text(
        tmp_path: Path) -> None:
    import importlib.util
    from types import SimpleNamespace

    spec = importlib.util.spec_from_file_location("hooks", DOCS / "hooks.py")
    assert spec is not None and spec.loader is not None
    hooks = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hooks)
    (tmp_path / "s.md").write_text("# s\n\n| a | b |\n|---|---|\n| x | 0.1 |\n| y | 0.2 |\n"
                                   "\ntext\n\n| a | t1 |\n|---|---|\n| x | 0.3 |\n")
    config = SimpleNamespace(docs_dir=str(tmp_path))
    fill = lambda args: hooks.results_md_table(args, None, config).strip()  # noqa: E731
    assert fill("s.md") == "| a | b |\n|---|---|\n| x | 0.1 |\n| y | 0.2 |"
    assert fill("s.md y") == "| a | b |\n|---|---|\n| y | 0.2 |"
    assert fill("s.md t1") == "| a | t1 |\n|---|---|\n| x | 0.3 |"
    for args, message in [("s.md zzz", "no Markdown table"), ("nope.md", "no results file")]:
        with pytest.raises(hooks.MarkerError, match=message):
            fill(args)
