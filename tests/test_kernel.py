"""The batch engine's compiled kernel: importing compiles nothing, and its compiled-in rule
tables are tied to the rules by a fingerprint (numba's disk cache cannot see them change)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from pagadores_env.vector import kernel


def test_importing_the_package_and_the_kernel_compiles_nothing() -> None:
    code = ("import sys, pagadores_env\n"
            "assert 'numba' not in sys.modules, 'import pagadores_env loads numba'\n"
            "from pagadores_env.vector import kernel\n"
            "compiled = [f.__name__ for f in (kernel.run, kernel.observe, kernel.restart_rows,\n"
            "            kernel.bad_action) if f.signatures]\n"
            "assert not compiled, compiled\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("table", ["_STRENGTH", "_PENALTY", "_PICARO"])
def test_the_rules_fingerprint_sees_a_changed_table(table: str,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    assert kernel.rules_fingerprint() == kernel.RULES_FINGERPRINT
    changed = getattr(kernel, table).copy()
    changed[100] += 1
    monkeypatch.setattr(kernel, table, changed)
    assert kernel.rules_fingerprint() != kernel.RULES_FINGERPRINT


def test_the_rules_fingerprint_sees_a_changed_number(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(kernel, "_NUMBERS", (*kernel._NUMBERS[:-1], 2))
    assert kernel.rules_fingerprint() != kernel.RULES_FINGERPRINT
