"""``pagadores_env.__version__`` is the version the package was installed as, the one
``pyproject.toml`` declares; a copy that is not installed says it does not know."""

from __future__ import annotations

import importlib.metadata

import pytest

import pagadores_env
from tests.pyproject import project


def test_the_version_is_pyprojects() -> None:
    assert pagadores_env.__version__ == project()["version"]


def test_without_installed_metadata_the_version_says_it_is_unknown(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def missing(name: str) -> str:
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "version", missing)
    assert pagadores_env._installed_version() == "0+unknown"
