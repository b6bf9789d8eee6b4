"""What a Python file imports, read from its syntax tree: the package layer rules
(``tests/package/test_layers.py``) and the test suite's own (``test_suite_layout.py``)."""

from __future__ import annotations

import ast
from pathlib import Path


def imported_modules(path: Path, package: str, members: bool = False) -> set[str]:
    """The modules the file at ``path`` (in dotted ``package``) imports anywhere in its code
    (top level or in a function), as absolute dotted names; with ``members``, ``from package
    import name`` also counts ``package.name`` (it may be a module)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join([*up, base] if base else up)
            names.add(base)
            if members:
                names.update(f"{base}.{alias.name}" for alias in node.names)
    return names
