"""What Python code imports: a file's imports read from its syntax tree (the package layer
rules, ``tests/package/test_layers.py``, and the test suite's own, ``test_suite_layout.py``),
and whether running some code loads an extra (``run_without_extras``)."""

from __future__ import annotations

import ast
import subprocess
import sys
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


#: What the environment package and the players run without (the extras' packages and the
#: modules of ours that need them).
EXTRAS = ("torch", "stable_baselines3", "sb3_contrib", "ray", "pyspiel",
          "pagadores_env.pagadores.vec_env", "pagadores_env.integrations.openspiel")


def run_without_extras(code: str) -> None:
    """Run ``code`` in a fresh interpreter and fail if it imported any of ``EXTRAS``."""
    check = (f"{code}\nimport sys\nloaded = set({list(EXTRAS)!r}) & set(sys.modules)\n"
             "assert not loaded, sorted(loaded)\n")
    subprocess.run([sys.executable, "-c", check], check=True)
