"""Atomic file writes (pagadores_env.core.atomic): all or nothing, with the user's umask."""

from __future__ import annotations

import errno
import os
import stat

import pytest

from pagadores_env.core import atomic
from pagadores_env.core.atomic import WriteError, write_atomic


def test_writes_text_and_bytes_with_the_umask_mode(tmp_path) -> None:
    old = os.umask(0o027)
    try:
        write_atomic(tmp_path / "a.txt", "héllo")
        write_atomic(tmp_path / "b.bin", b"\x00\x01")
    finally:
        os.umask(old)
    assert (tmp_path / "a.txt").read_text(encoding="utf-8") == "héllo"
    assert (tmp_path / "b.bin").read_bytes() == b"\x00\x01"
    assert stat.S_IMODE((tmp_path / "a.txt").stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt", "b.bin"]


def test_an_interrupted_write_keeps_the_old_file_and_leaves_no_temporary(tmp_path,
                                                                        monkeypatch) -> None:
    target = tmp_path / "results.csv"
    target.write_text("old results")

    def interrupted(fd: int) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(atomic.os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_atomic(target, "new results")
    assert target.read_text() == "old results"
    assert [p.name for p in tmp_path.iterdir()] == ["results.csv"]


def test_a_directory_in_the_way_is_not_replaced(tmp_path) -> None:
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "keep.txt").write_text("mine")
    with pytest.raises(OSError):
        write_atomic(tmp_path / "taken", "data")
    assert (tmp_path / "taken" / "keep.txt").read_text() == "mine"
    assert [p.name for p in tmp_path.iterdir()] == ["taken"]


def test_a_full_disk_is_one_line_naming_the_file_and_leaves_the_old_one(tmp_path,
                                                                       monkeypatch) -> None:
    target = tmp_path / "eval.csv"
    target.write_text("old rows")

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(atomic.os, "fsync", full)
    with pytest.raises(WriteError) as caught:
        write_atomic(target, "new rows")
    assert caught.value.errno == errno.ENOSPC and caught.value.filename == str(target)
    assert caught.value.line == (f"cannot write eval.csv in {tmp_path}: "
                                 "No space left on device")
    assert target.read_text() == "old rows"
    assert [p.name for p in tmp_path.iterdir()] == ["eval.csv"]
