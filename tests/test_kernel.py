"""The batch engine's compiled kernel: importing compiles nothing, its compiled-in rule
tables are tied to the rules by a fingerprint (numba's disk cache cannot see them change), and
its dice bytes are SplitMix64 seeded from the batch's generator."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from pagadores_env.vector import VectorGame, kernel


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


def test_the_dice_words_are_the_published_splitmix64_sequence() -> None:
    words = np.empty(4, np.uint64)
    kernel.random_words(np.uint64(0), words)
    assert [int(w) for w in words] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4,
                                       0x06C45D188009454F, 0xF88BB8A8724C81EC]


def test_the_dice_stream_follows_the_games_generator() -> None:
    first, again = VectorGame(8, 4, 10, seed=3), VectorGame(8, 4, 10, seed=3)
    assert (first.draw_dice(0, 1000) == again.draw_dice(0, 1000)).all()
    again.rng = np.random.default_rng(4)  # a new generator: a new stream
    assert (first.draw_dice(0, 1000) != again.draw_dice(0, 1000)).any()
    faces = np.bincount(first.draw_dice(0, 256_000), minlength=256)
    assert faces.min() > 850 and faces.max() < 1150  # every byte value about 1,000 times
