"""Packs: a batch with many new contents writes them into one file; reading, pruning and
the next batch see them as they see loose blobs."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from memtab.fs import atomic
from memtab.store.catch_up.external import record_external
from memtab.store.history import packs
from memtab.store.history.blobs import BlobError, BlobStore, sha256_of
from memtab.store.history.prune import BLOB_GRACE_S, HistoryLimits, prune
from memtab.store.home import Home
from memtab.store.paths import Scope
from memtab.store.restore.from_history import content_of
from support.spies import calls_through

from .helpers import new_home, store_for, versions

pytestmark = pytest.mark.fsync  # real fsyncs, even in make test-fast


@pytest.fixture
def home(tmp_path: Path) -> Home:
    return new_home(tmp_path / "home")


@pytest.fixture
def blobs(home: Home) -> BlobStore:
    return BlobStore(home.history_blobs_dir)


def contents(count: int, tag: str = "") -> list[bytes]:
    return [f"# Note {number}{tag}\n\n- a fact worth keeping\n".encode() for number in range(count)]


def stored(blobs: BlobStore, data: list[bytes]) -> list[str]:
    with blobs.batch() as batch:
        return [batch.put(item) for item in data]


def loose_blobs(blobs: BlobStore) -> list[str]:
    return [blob.sha256 for blob in blobs.all() if not blob.packed]


def test_many_new_contents_go_into_one_pack(blobs: BlobStore) -> None:
    data = contents(packs.PACK_MIN)
    shas = stored(blobs, data)
    assert len(packs.pack_paths(blobs.packs_dir)) == 1
    assert loose_blobs(blobs) == []
    assert {blob.sha256 for blob in blobs.all() if blob.packed} == set(shas)
    assert [blobs.get(sha) for sha in shas] == data


def test_a_few_new_contents_stay_loose(blobs: BlobStore) -> None:
    shas = stored(blobs, contents(packs.PACK_MIN - 1))
    assert packs.pack_paths(blobs.packs_dir) == []
    assert sorted(loose_blobs(blobs)) == sorted(shas)


def test_a_pack_is_durable_before_its_batch_ends(
    blobs: BlobStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    # By the batch's one flush of the file system, with whatever else was written on it
    # (a sync's temps): no fsyncs of its own where that flush works.
    fsynced: list[int] = []
    flushed_with: list[list[Path]] = []
    fsync, syncfs = os.fsync, atomic._syncfs

    def spy(fd: int) -> None:
        fsynced.append(os.fstat(fd).st_ino)
        fsync(fd)

    def flush(fd: int) -> int:
        flushed_with.append(packs.pack_paths(blobs.packs_dir))
        return syncfs(fd)

    monkeypatch.setattr(os, "fsync", spy)
    monkeypatch.setattr(atomic, "_syncfs", flush)
    stored(blobs, contents(packs.PACK_MIN))
    (pack,) = packs.pack_paths(blobs.packs_dir)
    if atomic.FILESYSTEM_FLUSH_WORKS:
        assert flushed_with and flushed_with[-1] == [pack]
        assert pack.stat().st_ino not in fsynced
    else:
        assert pack.stat().st_ino in fsynced and blobs.packs_dir.stat().st_ino in fsynced


def test_contents_found_in_a_pack_are_flushed_with_the_batch(
    blobs: BlobStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The pack may be one a batch wrote, then crashed before its flush: as a loose blob
    # found there, it is flushed before the batch's caller indexes what it found.
    stored(blobs, contents(packs.PACK_MIN))
    flushes = calls_through(monkeypatch, atomic, "_syncfs")
    stored(blobs, contents(1))
    assert len(flushes) == (1 if atomic.FILESYSTEM_FLUSH_WORKS else 0)


def test_contents_already_packed_are_not_stored_again(blobs: BlobStore) -> None:
    data = contents(packs.PACK_MIN)
    stored(blobs, data)
    (pack,) = packs.pack_paths(blobs.packs_dir)
    os.utime(pack, (1, 1))
    stored(blobs, [*data, b"one more\n"])
    assert packs.pack_paths(blobs.packs_dir) == [pack]
    assert len(loose_blobs(blobs)) == 1
    assert pack.stat().st_mtime > 1  # marked in use, for pruning's grace period


def test_a_damaged_packed_content_is_reported_and_stored_again(blobs: BlobStore) -> None:
    data = contents(packs.PACK_MIN)
    shas = stored(blobs, data)
    (pack,) = packs.pack_paths(blobs.packs_dir)
    entry = packs.index_of(pack)[shas[0]]
    raw = bytearray(pack.read_bytes())
    raw[entry.offset : entry.offset + entry.length] = bytes(entry.length)
    pack.write_bytes(bytes(raw))
    with pytest.raises(BlobError, match="cannot be read"):
        blobs.get(shas[0])
    stored(blobs, data[:1])
    assert blobs.get(shas[0]) == data[0]  # a loose copy now
    assert blobs.get(shas[1]) == data[1]


@pytest.mark.expect_log("memtab.store.history.packs", "WARNING", r"cannot be read: not a whole")
def test_a_pack_cut_short_counts_as_missing(blobs: BlobStore) -> None:
    data = contents(packs.PACK_MIN)
    shas = stored(blobs, data)
    (pack,) = packs.pack_paths(blobs.packs_dir)
    pack.write_bytes(pack.read_bytes()[:-5])
    with pytest.raises(BlobError, match="missing"):
        blobs.get(shas[0])
    stored(blobs, data)  # the next sync stores them again
    assert [blobs.get(sha) for sha in shas] == data


def test_pruning_dissolves_a_pack_holding_contents_nothing_refers_to(
    home: Home, blobs: BlobStore
) -> None:
    store = store_for(home)
    root = store.root(Scope.GLOBAL)
    root.mkdir(parents=True)
    for number, data in enumerate(contents(packs.PACK_MIN)):
        (root / f"n{number}.md").write_bytes(data)
    record_external(store)
    (pack,) = packs.pack_paths(blobs.packs_dir)
    (kept,) = [v for v in versions(store) if v.path.endswith("/n0.md")]
    # Every file but n0 rewritten outside, then the old versions pruned by age.
    for number in range(1, packs.PACK_MIN):
        (root / f"n{number}.md").write_text(f"rewritten {number}\n")
    record_external(store)
    old = time.time() - BLOB_GRACE_S - 60
    os.utime(pack, (old, old))
    report = prune(home, HistoryLimits(max_age_days=0), now_ms=int(time.time() * 1000))
    assert not pack.exists()
    assert report.blobs_removed >= packs.PACK_MIN - 1
    assert content_of(home, kept) == contents(1)[0]  # now a loose blob


def test_a_pack_every_content_of_which_is_referred_to_stays(home: Home, blobs: BlobStore) -> None:
    store = store_for(home)
    root = store.root(Scope.GLOBAL)
    root.mkdir(parents=True)
    for number, data in enumerate(contents(packs.PACK_MIN)):
        (root / f"n{number}.md").write_bytes(data)
    record_external(store)
    (pack,) = packs.pack_paths(blobs.packs_dir)
    old = time.time() - BLOB_GRACE_S - 60
    os.utime(pack, (old, old))
    prune(home, HistoryLimits(), now_ms=int(time.time() * 1000))
    assert pack.exists()
    assert all(content_of(home, v) == (root / v.path.rsplit("/", 1)[1]).read_bytes()
               for v in versions(store))  # fmt: skip


def test_a_recent_pack_is_not_dissolved(blobs: BlobStore) -> None:
    stored(blobs, contents(packs.PACK_MIN))
    (pack,) = packs.pack_paths(blobs.packs_dir)
    assert blobs.dissolve_packs(set(), older_than=time.time() - BLOB_GRACE_S) == 0
    assert pack.exists()


def test_a_packed_content_a_memtab_change_replaces_gets_a_durable_loose_copy(
    home: Home, blobs: BlobStore
) -> None:
    data = contents(packs.PACK_MIN)
    (sha,) = stored(blobs, data)[:1]
    blobs.put(data[0])
    assert blobs.path_of(sha).exists() and sha256_of(blobs.get(sha)) == sha


def test_a_damaged_loose_copy_of_a_packed_content_is_read_from_the_pack(
    blobs: BlobStore,
) -> None:
    data = contents(packs.PACK_MIN)
    sha = stored(blobs, data)[0]
    blobs.put(data[0])  # a Memtab change keeps a loose copy too
    blobs.path_of(sha).write_bytes(b"garbage")
    assert blobs.get(sha) == data[0]
