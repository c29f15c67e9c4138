"""A sidecar read with a cap (`max_bytes`): a larger file is never read into memory; a
change sets it aside whole, renamed as a copy kept aside is named, and starts afresh."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from memtab.fs.sidecar import KeptAside, edit_sidecar, on_kept_aside, read_sidecar


@pytest.fixture
def notices() -> Iterator[list[KeptAside]]:
    received: list[KeptAside] = []
    stop = on_kept_aside(received.append)
    yield received
    stop()


def test_a_file_over_the_cap_is_not_read(tmp_path: Path) -> None:
    path = tmp_path / "queue.json"
    path.write_text(json.dumps({"a": "x" * 100}))
    assert read_sidecar(path, max_bytes=200).document == {"a": "x" * 100}
    read = read_sidecar(path, max_bytes=50)
    assert (read.document, read.raw, read.over_cap) == ({}, None, True)
    assert read.problem == f"larger than the 50-byte cap: {path.stat().st_size} bytes, not read"
    assert read_sidecar(tmp_path / "missing.json", max_bytes=50).over_cap is False


@pytest.mark.expect_log(
    "memtab.fs.sidecar",
    "WARNING",
    r"^queue.json could not be used \(larger than the 50-byte cap: 109 bytes, not read\); "
    r"its content was kept as queue.json.corrupt-\d{8}T\d{6}Z and a fresh one was started",
)
def test_a_change_sets_a_file_over_the_cap_aside_whole(
    tmp_path: Path, notices: list[KeptAside]
) -> None:
    path = tmp_path / "queue.json"
    data = json.dumps({"a": "x" * 100}).encode()
    path.write_bytes(data)
    inode = path.stat().st_ino
    with edit_sidecar(path, tmp_path / "lock", max_bytes=50) as document:
        assert document == {}
        document["fresh"] = True
    (kept,) = notices
    assert kept.original == path and kept.backup.read_bytes() == data
    assert kept.backup.stat().st_ino == inode  # renamed, not copied
    assert json.loads(path.read_text()) == {"fresh": True}
    assert sorted(os.listdir(tmp_path)) == sorted(["lock", "queue.json", kept.backup.name])
