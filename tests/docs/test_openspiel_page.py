"""The OpenSpiel page says which of OpenSpiel's algorithms fit which of the registered games
(issue 45, item 5): its table "Which algorithms fit which game" has a column for every game
the integration registers, a row for CFR, exploitability and MCCFR at least, and a cell for
every pair, each a measured time (with the load it was measured at) or a "no" with why."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("pyspiel")

from pagadores_env.integrations.openspiel import pagadores, perudo
from tests.docs.test_snippets import DOCS

GAMES = {pagadores.SHORT_NAME, perudo.SHORT_NAME, perudo.SMALL_NAME}
#: A measured cell: a time, then the load average it was measured at in brackets.
MEASURED = re.compile(r"\d[\d.,]*\s?(?:s|min)\b.*\[\d[\d.–-]*\]")


def fit_table() -> list[list[str]]:
    text = (DOCS / "openspiel.md").read_text(encoding="utf-8")
    section = text.split("## Which algorithms fit which game", 1)
    assert len(section) == 2, "docs/openspiel.md has no section on which algorithms fit"
    rows = [line for line in section[1].split("\n## ", 1)[0].splitlines()
            if line.startswith("|")]
    return [[cell.strip() for cell in row.strip("|").split("|")] for row in rows
            if not set(row) <= set("|- ")]


def test_every_registered_game_has_a_column() -> None:
    header = fit_table()[0]
    assert {re.sub(r"`([^`]+)`.*", r"\1", cell) for cell in header[1:]} == GAMES


def test_the_whole_tree_and_the_sampling_algorithms_have_rows() -> None:
    algorithms = " ".join(row[0] for row in fit_table()[1:])
    for name in ("CFR", "exploitability", "outcome-sampling MCCFR", "MCTS"):
        assert name in algorithms


def test_every_cell_is_a_measured_time_or_says_no_or_is_empty() -> None:
    for row in fit_table()[1:]:
        assert len(row) == len(GAMES) + 1, row
        for cell in row[1:]:
            assert cell in {"—", "no"} or cell.startswith("no (") or MEASURED.search(cell), \
                f"{row[0]}: {cell!r}"
