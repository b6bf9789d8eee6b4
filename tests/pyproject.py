"""What tests read from ``pyproject.toml``: the project's table (its version, its extras)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # the dev extra installs tomli where the standard library has no tomllib
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent


def project() -> dict[str, Any]:
    """The ``[project]`` table of the checkout's ``pyproject.toml``."""
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
