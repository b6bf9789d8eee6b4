"""What we publish is what the code printed: every results table the README quotes (after a
``<!-- results: FILE -->`` marker) is exactly the table in that committed results file, which
``make results`` writes from a ``make train`` run (``pagadores_train.reports.write_results``)
and which names the commit, platform and library versions it was printed with."""

from __future__ import annotations

import re
from pathlib import Path

from tests.readme import TABLE

ROOT = Path(__file__).resolve().parents[2]
QUOTE = re.compile(r"<!-- results: (?P<file>\S+) -->\n```text\n(?P<table>.*?)```", re.S)


def quotes() -> list[tuple[str, str]]:
    return [(m["file"], m["table"]) for m in QUOTE.finditer((ROOT / "README.md").read_text())]


def test_the_readme_quotes_the_main_jobs_results_file() -> None:
    assert "docs/results/default.md" in [file for file, _ in quotes()]


def test_every_quoted_table_equals_its_committed_results_file() -> None:
    for file, table in quotes():
        text = (ROOT / file).read_text()
        published = TABLE.search(text)
        assert published is not None, f"{file} holds no table"
        assert table == published["table"], f"the README's quote of {file} drifted from it"
        for fact in ("- commit: ", "- platform: ", "- libraries: torch ", "stable-baselines3 "):
            assert fact in text, f"{file} does not say {fact.strip(' -:')}"
