"""An example the suite runs shortened is long as written, so its page says how long it takes
as written (issue 45, item 9): every python block of ``docs/**/*.md`` with a ``test: replace``
directive, and every README block ``tests/readme.py`` shortens, states its time on 2 cores
(the machine the times were measured on) in the prose right before it (from the previous
code block or heading on) or in its own comments. The README's tour states its times too."""

from __future__ import annotations

import re

import pytest

from tests.docs.test_snippets import DOCS, FENCE, python_blocks
from tests.readme import ROOT, shortened

#: A time as the pages state it, with the machine: "about 40 s on 2 cores", "4 min on 2 cores"
TIME = re.compile(r"\d[\d,.]*\s?(?:s|min|minutes?|h|hours?)\b[^.\n]{0,60}?\b2 cores", re.S)


def before(lines: list[str], first: int) -> str:
    """The page's text above line ``first`` (1-based) back to the previous code block's
    closing fence or heading, and the block itself (its comments), up to its closing fence."""
    start = first - 2  # the opening fence's index
    while start > 0 and not (FENCE.match(lines[start - 1]) or lines[start - 1].startswith("#")):
        start -= 1
    end = first - 1
    while end < len(lines) and not FENCE.match(lines[end]):
        end += 1
    return " ".join(lines[start:end])


def shortened_blocks() -> list[tuple[str, int]]:
    """(page, first code line) of every docs block the suite runs shortened."""
    found = []
    for path in sorted(DOCS.rglob("*.md")):
        where = path.relative_to(DOCS).as_posix()
        found += [(where, b.line) for b in python_blocks(path.read_text(encoding="utf-8"),
                                                          where) if b.replacements]
    return found


@pytest.mark.parametrize(("page", "line"), shortened_blocks(),
                         ids=[f"{p}:{n}" for p, n in shortened_blocks()])
def test_a_docs_example_the_suite_shortens_says_how_long_it_takes(page: str,
                                                                  line: int) -> None:
    text = before((DOCS / page).read_text(encoding="utf-8").splitlines(), line)
    assert TIME.search(text), f"docs/{page}:{line}: no time on 2 cores stated for the example"


def test_the_readmes_tour_says_how_long_its_examples_take() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    blocks = python_blocks("\n".join(lines), "README.md")
    assert [b for b in blocks if shortened(b.code) != b.code], "the suite shortens no block"
    for block in blocks:
        if shortened(block.code) != block.code:
            assert TIME.search(before(lines, block.line)), (
                f"README.md:{block.line}: no time on 2 cores stated for the example")
