"""The batch engine's compiled kernel: importing compiles nothing, its compiled-in rule
tables are tied to the rules by a fingerprint (numba's disk cache cannot see them change), and
its dice bytes are SplitMix64 seeded from the batch's generator."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from pagadores_env.pagadores.rules import NUM_OUTCOMES
from pagadores_env.pagadores.vector import VectorGame, kernel


def test_importing_the_package_and_the_kernel_compiles_nothing() -> None:
    code = ("import sys, pagadores_env\n"
            "assert 'numba' not in sys.modules, 'import pagadores_env loads numba'\n"
            "from pagadores_env.pagadores.vector import kernel\n"
            "compiled = [f.__name__ for f in (kernel.run, kernel.observe, kernel.restart_rows,\n"
            "            kernel.bad_action) if f.signatures]\n"
            "assert not compiled, compiled\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("table", ["_STRENGTH", "_PENALTY", "_PICARO", "_OBS_TURN", "_OBS_THROW"])
def test_the_fingerprint_sees_a_changed_rule_or_observation_table(table: str,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    assert kernel.rules_fingerprint() == kernel.RULES_FINGERPRINT
    changed = getattr(kernel, table).copy()
    changed.flat[20] += 1
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
    one, other = first.draw_dice(0, 1000), again.draw_dice(0, 1000)
    assert (one[:800] != other[:800]).any()  # each keeps about 844 of the 1,000 bytes
    outcomes = first.draw_dice(0, 256_000)
    # R7.2: only ordered outcomes, each about 1,000 times (216 of every 256 bytes are kept)
    assert outcomes.max() < NUM_OUTCOMES and 0.83 < outcomes.size / 256_000 < 0.86
    counts = np.bincount(outcomes, minlength=NUM_OUTCOMES)
    assert counts.min() > 850 and counts.max() < 1150


@pytest.mark.slow
def test_a_damaged_disk_cache_compiles_again(tmp_path: Path) -> None:
    """Truncated cache files (a full disk, a crash while numba wrote them) cost a recompile and
    a one-line warning, not a traceback; the rewritten cache then loads silently."""
    code = ("import numpy as np\n"
            "from pagadores_env.pagadores.vector import VectorGame\n"
            "game = VectorGame(8, 4, 10, 0)\n"
            "game.step(np.ones(8, np.int64))\n"
            "print(game.observations().shape)\n")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}

    def first_use() -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              env=env)

    assert first_use().returncode == 0  # compiles and writes the cache
    files = [f for f in tmp_path.rglob("*") if f.suffix in (".nbi", ".nbc")]
    assert any(f.name.startswith("kernel.run-") for f in files)
    for f in files:
        f.write_bytes(f.read_bytes()[:50])
    damaged = first_use()
    assert damaged.returncode == 0, damaged.stderr
    assert "(8, 49)" in damaged.stdout
    warning = [line for line in damaged.stderr.splitlines() if "could not be read" in line]
    assert len(warning) == 1 and "run" in warning[0] and "observe" in warning[0]
    again = first_use()
    assert again.returncode == 0 and "could not be read" not in again.stderr
