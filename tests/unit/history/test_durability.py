"""History's blobs are durable before anything refers to them.

`record_external` writes the copies of files still on disk without an fsync each and
makes them durable with one sync of the file system before indexing them; a Memtab
change's contents are fsynced at once. These tests spy on `os.fsync` and on that sync.
"""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from memtab.fs import atomic
from memtab.store.catch_up import external
from memtab.store.catch_up.external import record_external
from memtab.store.history import blobs as blobs_module
from memtab.store.history import packs
from memtab.store.history.blobs import BlobStore
from memtab.store.home import Home
from memtab.store.paths import Scope
from memtab.store.scopes.memory import MemoryStore

from .helpers import new_home, store_for, versions

pytestmark = pytest.mark.fsync  # real fsyncs, even in make test-fast


@pytest.fixture
def home(tmp_path: Path) -> Home:
    return new_home(tmp_path / "home")


@pytest.fixture
def fsynced(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The inode of every file or directory fsynced from now on."""
    inodes: list[int] = []
    real = os.fsync

    def spy(fd: int) -> None:
        inodes.append(os.fstat(fd).st_ino)
        real(fd)

    monkeypatch.setattr(os, "fsync", spy)
    return inodes


def spy_filesystem_syncs(
    monkeypatch: pytest.MonkeyPatch, then: Callable[[], None] = lambda: None
) -> list[Path]:
    """Where each sync of the file system was asked for; `then` runs in each."""
    asked: list[Path] = []

    def sync(path: Path) -> None:
        asked.append(path)
        then()

    monkeypatch.setattr(blobs_module, "FILESYSTEM_FLUSH_WORKS", True)
    monkeypatch.setattr(blobs_module, "make_filesystem_durable", sync)
    return asked


def outside_files(store: MemoryStore, count: int) -> None:
    root = store.root(Scope.GLOBAL)
    root.mkdir(parents=True, exist_ok=True)
    for number in range(count):
        (root / f"f{number}.md").write_text(f"written by mux {number}\n")


@pytest.mark.parametrize("read_at_a_time", [200, 2])
def test_external_copies_are_indexed_only_after_one_sync_of_the_file_system(
    home: Home, monkeypatch: pytest.MonkeyPatch, fsynced: list[int], read_at_a_time: int
) -> None:
    monkeypatch.setattr(external, "RECORD_BATCH", read_at_a_time)
    store = store_for(home)
    outside_files(store, 5)
    indexed_during_sync: list[int] = []
    asked = spy_filesystem_syncs(
        monkeypatch, then=lambda: indexed_during_sync.append(len(versions(store)))
    )
    assert record_external(store).recorded == 5
    assert asked == [home.history_blobs_dir] and indexed_during_sync == [0]
    blobs = BlobStore(home.history_blobs_dir)
    blob_inodes = {blobs.path_of(blob.sha256).stat().st_ino for blob in blobs.all()}
    assert len(blob_inodes) == 5 and not blob_inodes & set(fsynced)  # no blob fsynced alone


@pytest.mark.expect_log("memtab.store.catch_up.external", "WARNING", r"Input/output error")
def test_when_the_sync_fails_nothing_is_indexed_and_the_next_sync_records_it(
    home: Home, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = store_for(home)
    outside_files(store, 3)

    def fail() -> None:
        raise OSError(errno.EIO, "Input/output error")

    spy_filesystem_syncs(monkeypatch, then=fail)
    report = record_external(store)
    assert report.recorded == 0 and "Input/output error" in report.problems[0]
    assert versions(store) == []
    spy_filesystem_syncs(monkeypatch)
    assert record_external(store).recorded == 3


def test_copies_a_batch_found_already_stored_are_synced_too(
    home: Home, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Another process wrote them in a batch and crashed before its sync.
    blobs = BlobStore(home.history_blobs_dir)
    asked = spy_filesystem_syncs(monkeypatch)
    with blobs.batch() as batch:
        batch.put(b"same\n")
    with blobs.batch() as batch:
        batch.put(b"same\n")
    assert len(asked) == 2


@pytest.mark.parametrize("history_elsewhere", [False, True])
def test_a_batch_the_caller_flushes_is_flushed_here_when_history_is_on_another_disk(
    home: Home, monkeypatch: pytest.MonkeyPatch, history_elsewhere: bool
) -> None:
    # A sync's join flushes its scope's file system once, for its temps and these copies;
    # a project's scope on another disk than the home's history would leave them unflushed.
    blobs = BlobStore(home.history_blobs_dir)
    scope_root = home.root
    asked = spy_filesystem_syncs(monkeypatch)
    monkeypatch.setattr(blobs_module, "on_one_file_system", lambda *_: not history_elsewhere)
    with blobs.batch(flushed_with=scope_root) as batch:
        batch.put(b"a note a join brings\n")
    assert asked == ([home.history_blobs_dir] if history_elsewhere else [])


def test_a_memtab_change_fsyncs_a_copy_a_batch_has_not_synced_yet(
    home: Home, monkeypatch: pytest.MonkeyPatch, fsynced: list[int]
) -> None:
    blobs = BlobStore(home.history_blobs_dir)
    asked = spy_filesystem_syncs(monkeypatch)  # syncs nothing: as if it crashed before
    with blobs.batch() as batch:
        sha = batch.put(b"the content a delete removes\n")
    blob = blobs.path_of(sha).stat().st_ino
    assert len(asked) == 1 and blob not in fsynced
    blobs.put(b"the content a delete removes\n")
    assert blob in fsynced


@pytest.mark.parametrize("through_batch", [False, True])
@pytest.mark.expect_log("memtab.store.history.blobs", "WARNING", r"damaged; it is written again")
def test_a_damaged_copy_is_written_again(
    home: Home, monkeypatch: pytest.MonkeyPatch, through_batch: bool
) -> None:
    blobs = BlobStore(home.history_blobs_dir)
    data = b"cut short by a crash before its sync\n" * 20
    sha = blobs.put(data)
    path = blobs.path_of(sha)
    path.write_bytes(path.read_bytes()[:10])
    if through_batch:
        spy_filesystem_syncs(monkeypatch)
        with blobs.batch() as batch:
            batch.put(data)
    else:
        blobs.put(data)
    assert blobs.get(sha) == data


def test_where_the_file_system_cannot_be_synced_each_copy_is_written_durably(
    home: Home, monkeypatch: pytest.MonkeyPatch, fsynced: list[int]
) -> None:
    asked = spy_filesystem_syncs(monkeypatch)
    monkeypatch.setattr(blobs_module, "FILESYSTEM_FLUSH_WORKS", False)  # macOS, Windows
    store = store_for(home)
    outside_files(store, 3)
    assert record_external(store).recorded == 3
    assert asked == []
    blobs = BlobStore(home.history_blobs_dir)
    for blob in blobs.all():
        assert blobs.path_of(blob.sha256).stat().st_ino in fsynced  # the file
        assert blobs.path_of(blob.sha256).parent.stat().st_ino in fsynced  # its name in the shard


def test_a_failed_sync_of_the_file_system_is_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(atomic, "_syncfs", lambda fd: errno.EIO)
    with pytest.raises(OSError, match="Input/output error"):
        atomic.make_filesystem_durable(tmp_path)


def test_without_syncfs_the_whole_system_is_synced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    synced: list[bool] = []
    monkeypatch.setattr(atomic, "_syncfs", lambda fd: errno.ENOSYS)
    monkeypatch.setattr(os, "sync", lambda: synced.append(True), raising=False)
    atomic.make_filesystem_durable(tmp_path)
    assert synced == [True]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="syncfs")
def test_syncfs_is_there_on_linux(tmp_path: Path) -> None:
    fd = os.open(tmp_path, os.O_RDONLY)
    try:
        assert atomic._syncfs(fd) == 0
    finally:
        os.close(fd)


def test_a_new_directory_for_blobs_is_fsynced_into_its_parent(
    home: Home, fsynced: list[int]
) -> None:
    blobs = BlobStore(home.history_blobs_dir)
    sha = blobs.put(b"the first content history keeps\n")
    shard = blobs.path_of(sha).parent
    for directory in (shard.parent, shard.parent.parent):  # blobs/, history/
        assert directory.stat().st_ino in fsynced


@pytest.mark.parametrize("count", [packs.PACK_MIN, 2], ids=["a pack", "loose blobs"])
def test_the_folders_a_batch_makes_are_durable_by_its_flush(
    home: Home, monkeypatch: pytest.MonkeyPatch, fsynced: list[int], count: int
) -> None:
    # A machine joining makes history's folders as it copies its first contents: the
    # batch's one flush makes them durable with the copies, no fsync of a folder each.
    flushes = spy_filesystem_syncs(monkeypatch)
    blobs = BlobStore(home.history_blobs_dir)
    assert not blobs.directory.exists()
    with blobs.batch() as batch:
        shas = [batch.put(f"content {number}\n".encode()) for number in range(count)]

    assert (fsynced, len(flushes)) == ([], 1)
    assert [blobs.get(sha) for sha in shas] == [f"content {n}\n".encode() for n in range(count)]
