"""The equilibrium's cache on disk (``solver.solve``): written atomically, read back without
solving, damaged files solved again and replaced, and nothing else in the folder touched.

Every test caches in its own folder (``PAGADORES_CACHE``). A spy on ``Sweep.run`` tells
whether a call solved or read the cache.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import numpy as np
import pytest

from pagadores_env.pagadores.solver import Solution, solve
from pagadores_env.pagadores.solver.equilibrium import cache_path
from pagadores_env.pagadores.solver.sweep import Sweep
from pagadores_env.pagadores.solver.two_player import TwoPlayerSolution

TABLE = (3, 2)
START = (2, 2, 2)


@pytest.fixture
def folder(monkeypatch, tmp_path) -> Path:
    """An empty cache folder of this test's own."""
    path = tmp_path / "cache"
    monkeypatch.setenv("PAGADORES_CACHE", str(path))
    return path


@pytest.fixture
def runs(monkeypatch) -> list[Sweep]:
    """The sweeps run during the test."""
    seen: list[Sweep] = []
    run = Sweep.run

    def spy(self: Sweep, progress=None) -> None:
        seen.append(self)
        run(self, progress)

    monkeypatch.setattr(Sweep, "run", spy)
    return seen


@pytest.fixture(scope="module")
def reference() -> Solution:
    return solve(*TABLE, cache=False)


def _assert_same(got: Solution, want: Solution) -> None:
    assert (got.num_players, got.start_cards) == (want.num_players, want.start_cards)
    assert set(got.positions) == set(want.positions)
    for key, position in want.positions.items():
        mine = got.positions[key]
        assert set(mine.before) == set(position.before)
        for state, values in position.before.items():
            # the file keeps every seat's values of the one (equilibrium) variant
            np.testing.assert_array_equal(mine.before[state], values, err_msg=str(key))
        np.testing.assert_array_equal(mine.settle, position.settle, err_msg=str(key))


def _snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    """Every file under ``folder``: contents and modification time."""
    return {str(p.relative_to(folder)): (p.read_bytes(), p.stat().st_mtime_ns)
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_solve_writes_the_cache_and_a_second_solve_reads_it(folder, runs, reference) -> None:
    first = solve(*TABLE)
    path = cache_path(TABLE[0], START)
    assert len(runs) == 1 and sorted(folder.iterdir()) == [path]  # no temporary file left
    _assert_same(first, reference)
    second = solve(*TABLE)
    assert len(runs) == 1  # read, not solved
    _assert_same(second, reference)
    assert second.win_probabilities() == reference.win_probabilities()
    assert second.win_probabilities(cards=(1, 2, 0), insteker=1) == \
        reference.win_probabilities(cards=(1, 2, 0), insteker=1)


def test_cache_false_neither_reads_nor_writes(folder, runs) -> None:
    folder.mkdir()
    path = cache_path(TABLE[0], START)
    path.write_bytes(b"not a solution")
    before = _snapshot(folder)
    solve(*TABLE, cache=False)
    assert len(runs) == 1 and _snapshot(folder) == before


def test_an_interrupted_write_leaves_the_old_file_and_no_temporary(folder, monkeypatch) -> None:
    """The file is replaced in one step (``os.replace``): interrupted before it, the folder
    is as it was."""
    folder.mkdir()
    path = cache_path(TABLE[0], START)
    path.write_bytes(b"an old, damaged cache file")
    before = _snapshot(folder)

    def interrupted(src, dst) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        solve(*TABLE)
    assert _snapshot(folder) == before


def _npz(arrays: dict[str, np.ndarray]) -> bytes:
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    return buffer.getvalue()


def _arrays(path: Path) -> dict[str, np.ndarray]:
    with np.load(path) as data:
        return {key: data[key] for key in data.files}


def _damaged(kind: str, good: Path, other: Path) -> bytes:
    """A cache file damaged in one way, from a good one of this table (and one of another)."""
    data = good.read_bytes()
    arrays = _arrays(good)
    if kind == "empty":
        return b""
    if kind == "garbage":
        return b"PK\x03\x04 this is no zip archive at all" * 10
    if kind == "truncated":
        return data[: len(data) // 2]
    if kind == "wrong shape":
        arrays["values3"] = arrays["values3"][:, :-1]
    elif kind == "wrong dtype":
        arrays["values3"] = arrays["values3"].astype(np.float32)
    elif kind == "not probabilities":
        arrays["values2"] = arrays["values2"] * 2
    elif kind == "missing positions":
        arrays["keys3"], arrays["values3"] = arrays["keys3"][1:], arrays["values3"][1:]
    elif kind == "missing array":
        del arrays["values2"]
    elif kind == "other format":
        arrays["format_version"] = np.asarray(99)
    elif kind == "other rules":
        arrays["prob"] = arrays["prob"][::-1]
    elif kind == "another table":  # a complete solution, of fewer cards
        return other.read_bytes()
    return _npz(arrays)


DAMAGE = ["empty", "garbage", "truncated", "wrong shape", "wrong dtype", "not probabilities",
          "missing positions", "missing array", "other format", "other rules", "another table"]


@pytest.fixture(scope="module")
def good_files(tmp_path_factory, reference) -> tuple[Path, Path]:
    """A saved solution of this table, and one of the same players with fewer cards."""
    where = tmp_path_factory.mktemp("good")
    other = solve(TABLE[0], 1, cache=False)
    return reference.save(where / "good.npz"), other.save(where / "other.npz")


@pytest.mark.parametrize("kind", DAMAGE)
def test_a_damaged_cache_file_is_solved_again_and_replaced(kind, folder, runs, reference,
                                                          good_files) -> None:
    folder.mkdir()
    path = cache_path(TABLE[0], START)
    path.write_bytes(_damaged(kind, *good_files))
    solution = solve(*TABLE)
    assert len(runs) == 1, "the damaged file was used instead of solving"
    _assert_same(solution, reference)
    assert sorted(folder.iterdir()) == [path]
    _assert_same(Solution.load(path), reference)  # replaced by a complete one
    solve(*TABLE)
    assert len(runs) == 1


def test_an_unwritable_cache_folder_only_warns(monkeypatch, tmp_path, runs, reference) -> None:
    blocker = tmp_path / "a file"
    blocker.write_bytes(b"user data")
    monkeypatch.setenv("PAGADORES_CACHE", str(blocker / "cache"))  # cannot be a folder
    with pytest.warns(UserWarning, match="could not cache the solution") as warned:
        solution = solve(*TABLE)
    assert len(warned) == 1 and "\n" not in str(warned[0].message)
    _assert_same(solution, reference)
    assert blocker.read_bytes() == b"user data"
    assert sorted(tmp_path.iterdir()) == [blocker]


def test_files_the_program_did_not_write_are_left_alone(folder, runs) -> None:
    """User files next to the cache — even one named like a backup of it — keep their bytes
    and times; the only file added is the cache file."""
    (folder / "sub").mkdir(parents=True)
    path = cache_path(TABLE[0], START)
    user = {folder / "notes.txt": b"mine", folder / f"{path.name}.orig": b"my copy",
            folder / "sub" / path.name: b"also mine", folder / ".hidden": b"x"}
    for file, data in user.items():
        file.write_bytes(data)
    before = _snapshot(folder)
    solve(*TABLE)
    after = _snapshot(folder)
    assert {k: v for k, v in after.items() if k != path.name} == before
    assert set(after) == set(before) | {path.name}


@pytest.mark.parametrize("load", [Solution.load, TwoPlayerSolution.load])
def test_a_garbage_npz_is_refused_without_numpys_advice_to_unpickle_it(load, tmp_path) -> None:
    """numpy's own message advised loading it "unsafely using the allow_pickle= keyword
    argument" (issue 45, item 12): never advice to give about a file one did not write."""
    path = tmp_path / "solution.npz"
    path.write_text("garbage, not a zip archive\n")
    with pytest.raises(ValueError) as refused:
        load(path)
    assert str(refused.value) == (f"{path} is not a readable solution file: not an .npz file "
                                  "(no zip archive; damaged or cut off?)")
