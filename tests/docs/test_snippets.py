"""The documentation's code runs: every ```python block of ``docs/**/*.md`` is executed, so a
page cannot show an example that fails; and the site's nav lists every page there is.

How a page's blocks run (the convention for whoever writes a page):

- A page's python blocks run in order, in one namespace (a later block may use the names an
  earlier one defined), with a fresh temporary folder as the working directory. Each page is
  one test, named by its path under ``docs/``: ``pytest tests/docs -k envs/pagadores_v1.md``.
  A traceback points at the page's own lines.
- Every python block runs: there is no way to skip one. Blocks of any other language
  (``sh``, ``text``, ``yaml``, ...) never run.
- HTML comments on the lines right before a block's opening fence (no blank line between) are
  directives for that block, their arguments quoted as in a shell:

  ``<!-- test: replace "OLD" "NEW" -->``
      run the block with every ``OLD`` replaced by ``NEW``: a shortened form of what the page
      shows (fewer training steps, fewer games). Repeatable. The test fails if ``OLD`` is not
      in the block, so a directive cannot outlive the code it shortens.
  ``<!-- test: slow -->``
      mark the page's test ``slow`` (the project's marker for long tests: ``make test``
      runs them, ``make test-fast`` does not).

  A directive that is not one of these, or that no code block follows, fails the page's test.
"""

from __future__ import annotations

import re
import shlex
import textwrap
from pathlib import Path
from typing import Any, NamedTuple

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "mkdocs.yml"
#: A code fence's opening line (any indentation): its fence and the block's language.
FENCE = re.compile(r"[ \t]*(?P<fence>`{3,}|~{3,})\s*(?P<lang>[\w+-]*)")
DIRECTIVE = re.compile(r"\s*<!--\s*test:\s*(?P<body>.*?)\s*-->\s*")
PYTHON = {"python", "py"}


class DocsError(ValueError):
    """A page whose code blocks or test directives cannot be run as written."""


class Block(NamedTuple):
    """One python block of a page: its code, where it starts, and its directives."""

    code: str
    line: int  #: the line number of the code's first line in the page
    replacements: tuple[tuple[int, str, str], ...]  #: (directive's line, old, new)
    slow: bool

    def source(self, where: str) -> str:
        """The code as it runs: every replacement applied (each one must apply)."""
        code = self.code
        for line, old, new in self.replacements:
            if old not in code:
                raise DocsError(f"{where}:{line}: test: replace {old!r}: not in the block (a "
                                "stale directive?)")
            code = code.replace(old, new)
        return code


def _directives(bodies: list[tuple[int, str]],
                where: str) -> tuple[list[tuple[int, str, str]], bool]:
    """The replacements and the slow mark that directive comments (line, text) ask for."""
    replacements, slow = [], False
    for line, body in bodies:
        try:
            words = shlex.split(body)
        except ValueError as err:  # an unbalanced quote
            raise DocsError(f"{where}:{line}: test directive {body!r}: {err}") from None
        if words == ["slow"]:
            slow = True
        elif len(words) == 3 and words[0] == "replace":
            replacements.append((line, words[1], words[2]))
        else:
            raise DocsError(f'{where}:{line}: unknown test directive {body!r} (allowed: '
                            'replace "OLD" "NEW", slow)')
    return replacements, slow


def python_blocks(text: str, where: str) -> list[Block]:
    """The python blocks of the Markdown ``text`` (``where`` names it in errors), in order."""
    lines = text.splitlines()
    blocks: list[Block] = []
    pending: list[tuple[int, str]] = []  # directives waiting for their fence
    i = 0
    while i < len(lines):
        directive, opening = DIRECTIVE.fullmatch(lines[i]), FENCE.match(lines[i])
        if directive:
            pending.append((i + 1, directive["body"]))
            i += 1
            continue
        if pending and not opening:
            raise DocsError(f"{where}:{pending[0][0]}: a test directive must be right before "
                            "a code block's opening fence")
        if not opening:
            i += 1
            continue
        fence, end = opening["fence"], i + 1
        while end < len(lines) and not (lines[end].strip().startswith(fence[0] * len(fence))
                                        and not lines[end].strip().strip(fence[0])):
            end += 1
        replacements, slow = _directives(pending, where)
        if opening["lang"] in PYTHON:
            code = textwrap.dedent("\n".join(lines[i + 1:end])) + "\n"
            blocks.append(Block(code, i + 2, tuple(replacements), slow))
        elif pending:
            raise DocsError(f"{where}:{pending[0][0]}: test directives apply to python blocks "
                            f"only, not to a {opening['lang'] or 'plain'} block")
        pending = []
        i = end + 1
    if pending:
        raise DocsError(f"{where}:{pending[0][0]}: a test directive must be right before a "
                        "code block's opening fence")
    return blocks


def run_page(path: Path, where: str) -> None:
    """Run the python blocks of the page at ``path`` in order, in one namespace, in the
    current working directory; a traceback names ``path`` and the page's line numbers."""
    namespace: dict[str, Any] = {"__name__": "__main__"}
    for block in python_blocks(path.read_text(encoding="utf-8"), where):
        # padded with blank lines, so the compiled code's line numbers are the page's
        code = "\n" * (block.line - 1) + block.source(where)
        exec(compile(code, str(path), "exec"), namespace)


# --------------------------------------------------------------------------- the site's pages
class _ConfigLoader(yaml.SafeLoader):
    """mkdocs.yml as plain data: its tags (``!ENV``, ``!!python/name:...``) read as null."""


_ConfigLoader.add_multi_constructor("", lambda loader, suffix, node: None)


def _site() -> tuple[Path, list[str]]:
    """The docs folder and the pages the nav lists (paths relative to it)."""
    config = yaml.load(CONFIG.read_text(encoding="utf-8"), Loader=_ConfigLoader)

    def pages(entry: Any) -> list[str]:
        if isinstance(entry, list):
            return [page for item in entry for page in pages(item)]
        if isinstance(entry, dict):
            return [page for value in entry.values() for page in pages(value)]
        return [] if "://" in str(entry) else [str(entry)]

    return ROOT / config.get("docs_dir", "docs"), pages(config["nav"])


DOCS, NAV = _site()


def _page_param(path: Path, where: str) -> Any:
    """The test parameter of the page at ``path`` (``where`` names it), marked slow if a
    block asks for it; None for a page without python blocks. A page whose directives cannot
    be read still gets its test, which then fails saying why."""
    try:
        blocks = python_blocks(path.read_text(encoding="utf-8"), where)
    except DocsError:
        return pytest.param(path, id=where)
    if not blocks:
        return None
    return pytest.param(path, id=where,
                        marks=[pytest.mark.slow] if any(block.slow for block in blocks) else [])


PAGES = [param for path in sorted(DOCS.rglob("*.md"))
         if (param := _page_param(path, path.relative_to(DOCS).as_posix())) is not None]


@pytest.mark.parametrize("path", PAGES)
def test_the_pages_python_blocks_run(path: Path, tmp_path: Path,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    run_page(path, path.relative_to(ROOT).as_posix())


def test_every_page_in_the_nav_exists() -> None:
    assert not [page for page in NAV if not (DOCS / page).is_file()]


def test_every_page_is_in_the_nav() -> None:
    # the published results files are pages of their own and quoted by others; either way
    # they need not all be listed
    pages = {path.relative_to(DOCS).as_posix() for path in DOCS.rglob("*.md")}
    assert not sorted(page for page in pages - set(NAV) if not page.startswith("results/"))


# --------------------------------------------------------------------------- the runner itself
def _page(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "page.md"
    path.write_text(textwrap.dedent(text))
    return path


def test_blocks_share_a_namespace_and_run_with_their_replacements(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    path = _page(tmp_path, """\
        ```python
        steps = 50_000
        ```

        Not run:

        ```sh
        exit 1
        ```

        <!-- test: replace "50_000" "3" -->
        <!-- test: replace 'out.txt' "short.txt" -->
        ```python
        open("out.txt", "w").write(str(steps + 50_000))
        ```
        """)
    run_page(path, "page.md")
    assert (tmp_path / "short.txt").read_text() == "50003"


def test_a_replacement_whose_text_is_not_in_the_block_fails(tmp_path: Path) -> None:
    path = _page(tmp_path, """\
        <!-- test: replace ".learn(50_000)" ".learn(300)" -->
        ```python
        x = 1
        ```
        """)
    with pytest.raises(DocsError, match=r"page.md:1: test: replace '.learn\(50_000\)': not in"):
        run_page(path, "page.md")


def test_a_failing_block_fails_at_its_line_of_the_page(tmp_path: Path) -> None:
    path = _page(tmp_path, """\
        ```python
        x = 1
        ```

        ```python
        y = x + 1
        raise RuntimeError(f"boom {y}")
        ```
        """)
    with pytest.raises(RuntimeError, match="boom 2") as failure:
        run_page(path, "page.md")
    assert (failure.traceback[-1].path, failure.traceback[-1].lineno + 1) == (path, 7)


def test_slow_marks_the_page(tmp_path: Path) -> None:
    path = _page(tmp_path, """\
        <!-- test: slow -->
        ```python
        pass
        ```
        """)
    assert [mark.name for mark in _page_param(path, "page.md").marks] == ["slow"]
    assert _page_param(_page(tmp_path, "```sh\nls\n```\n"), "page.md") is None


@pytest.mark.parametrize(("text", "error"), [
    ('<!-- test: skip -->\n```python\npass\n```\n', "page.md:1: unknown test directive 'skip'"),
    ('<!-- test: replace "x -->\n```python\nx\n```\n', "page.md:1: .*No closing quotation"),
    ('<!-- test: slow -->\n\n```python\npass\n```\n', "page.md:1: .* right before"),
    ('<!-- test: slow -->\n```sh\nls\n```\n', "python blocks only, not to a sh block"),
    ('text\n<!-- test: slow -->\n', "page.md:2: .* right before"),
], ids=["unknown", "unbalanced-quote", "blank-line-between", "not-python", "no-block-after"])
def test_a_misplaced_or_unknown_directive_fails(text: str, error: str) -> None:
    with pytest.raises(DocsError, match=error):
        python_blocks(text, "page.md")
