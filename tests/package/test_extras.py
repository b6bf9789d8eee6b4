"""The extras: ``all`` installs every other extra, and the installation page's table names
every extra with every package it installs (docs/install.md, "Extras")."""

from __future__ import annotations

import re

from tests.pyproject import ROOT, project

#: A requirement's distribution name, and the extras of a requirement on this package.
REQUIREMENT = re.compile(r"\s*(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[(?P<extras>[^]]*)\])?")
SELF = "pagadores-env"


def normalized(name: str) -> str:
    """A distribution name as PEP 503 compares them (``open_spiel`` is ``open-spiel``)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def requirements(extra: str) -> set[str]:
    """The distributions ``extra`` installs, the extras it names of this package expanded."""
    names: set[str] = set()
    for line in project()["optional-dependencies"][extra]:
        match = REQUIREMENT.match(line)
        assert match, line
        if normalized(match["name"]) == SELF:
            names |= {name for other in match["extras"].split(",")
                      for name in requirements(other.strip())}
        else:
            names.add(normalized(match["name"]))
    return names


def install_table() -> dict[str, str]:
    """The installation page's extras table: extra → what its row says it installs."""
    text = (ROOT / "docs" / "install.md").read_text(encoding="utf-8")
    return {m[1]: m[2] for m in re.finditer(r"^\| `([\w-]+)` \| ([^|]*) \|", text, re.M)}


def test_the_all_extra_installs_every_other_extra() -> None:
    extras = project()["optional-dependencies"]
    assert "all" in extras
    others = set().union(*(requirements(extra) for extra in extras if extra != "all"))
    assert requirements("all") == others


def test_the_install_page_names_every_extra_and_what_it_installs() -> None:
    table = install_table()
    extras = project()["optional-dependencies"]
    assert sorted(table) == sorted(extras)
    for extra in extras:
        if extra == "all":  # named by the extras it installs
            named = {other for other in extras if other != "all"}
            missing = sorted(other for other in named if f"`{other}`" not in table[extra])
        else:
            said = normalized(table[extra])
            missing = sorted(name for name in requirements(extra)
                             if not re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", said))
        assert not missing, f"docs/install.md's row of {extra!r} does not name {missing}"
