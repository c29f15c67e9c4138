"""History storage: deduplicated blobs, tolerant indexes, pruning, two processes at once."""

from __future__ import annotations

import hashlib
import os
import secrets
import subprocess
import sys
import zlib
from itertools import pairwise
from pathlib import Path

import pytest

from memtab.store.history import jsonlines
from memtab.store.history.blobs import BlobError, BlobStore
from memtab.store.history.prune import HistoryLimits, load_history_limits, prune
from memtab.store.history.recorder import FileChange, HistoryRecorder
from memtab.store.history.versions import ScopeHistory, Version, parse_version
from memtab.store.home import Home
from memtab.store.restore.from_history import file_history
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.registry import load_registry
from support.memory_paths import vpath
from support.spies import calls_through

from .helpers import WS, new_home, store_for, versions

DAY_MS = 24 * 60 * 60 * 1000
WORKER = Path(__file__).with_name("workers.py")


@pytest.fixture
def home(tmp_path: Path) -> Home:
    return new_home(tmp_path / "home")


def index_file(home: Home) -> Path:
    return home.history_index_dir / "global.jsonl"


def test_the_same_content_is_stored_once(home: Home) -> None:
    store = store_for(home)
    for name in ("a", "b", "c"):
        store.create_file(vpath(f"/memories/global/{name}.md"), "same text\n")
    assert len(list(BlobStore(home.history_blobs_dir).all())) == 1


@pytest.mark.expect_log(
    "memtab.store.history.jsonlines",
    "WARNING",
    r"^Skipped \d+ unreadable line\(s\) of .*history/index/global",
)
def test_corrupt_and_torn_lines_are_skipped_never_fatal(home: Home) -> None:
    store = store_for(home)
    store.create_file(vpath("/memories/global/a.md"), "one\n")
    with index_file(home).open("ab") as index:
        index.write(b'{"broken json\n[1, 2]\n{"id": "x", "at": "soon"}\n{"id": "torn", "at')
    # The next change closes the torn line and appends after it.
    store.save(
        vpath("/memories/global/a.md"), "two\n", store.read(vpath("/memories/global/a.md")).sha256
    )
    assert [v.op for v in versions(store)] == ["create", "edit"]
    assert [v.op for v in _reread(home)] == ["create", "edit"]


def _reread(home: Home) -> list[Version]:
    """The index parsed from scratch (another process's view)."""
    jsonlines._caches.clear()
    return ScopeHistory(home, "global").versions()


def test_an_index_line_is_written_back_as_it_was_read() -> None:
    """A version keeps only what its fields cannot say (to stay small: every version of a
    read index stays in memory), and writes a line back whole: fields Memtab does not
    know, and optional ones it could not read, as they were."""
    sha = "ab" * 32
    written = Version(
        id="v1",
        at=1,
        path="/memories/global/a.md",
        actor="user",
        op="edit",
        sha256=sha,
        size_bytes=3,
        stat=(3, 9),
    )
    again = parse_version(written.to_json())
    assert again == written and again.unknown == {}
    foreign = {
        **written.to_json(),
        "futureField": {"kept": [1, 2]},
        "movedFrom": 5,  # not a path: not read, but kept
        "revertOf": None,
    }
    read = parse_version(foreign)
    assert read is not None and read.moved_from is None and read.stat == (3, 9)
    assert read.unknown == {"futureField": {"kept": [1, 2]}, "movedFrom": 5, "revertOf": None}
    assert read.to_json() == foreign


def test_a_damaged_blob_is_reported_not_returned(home: Home) -> None:
    store = store_for(home)
    store.create_file(vpath("/memories/global/a.md"), "one\n")
    (version,) = versions(store)
    blobs = BlobStore(home.history_blobs_dir)
    blobs.path_of(version.sha256).write_bytes(b"garbage")
    with pytest.raises(BlobError, match="cannot be read"):
        blobs.get(version.sha256)


def test_a_note_is_kept_with_a_window_its_size_and_an_earlier_memtabs_blob_still_reads(
    home: Home, tmp_path: Path
) -> None:
    # zlib's default window and hash table (~256 KB, set up at each call) cost ~10× the
    # compression of a 2 KB note; a window as large as the note compresses it as well.
    blobs = BlobStore(home.history_blobs_dir)
    note = b"# Cart\n" + b"".join(
        b"- the cart total rounds line %d to cents\n" % n for n in range(60)
    )
    stored = blobs.path_of(blobs.put(note)).read_bytes()
    assert 2048 < len(note) < 4096
    assert stored[0] >> 4 == 12 - 8  # the zlib header's window: 2**12 bytes
    assert len(stored) <= len(zlib.compress(note, 6)) + 1
    earlier = note + b"- one more line\n"  # written at zlib's defaults by an earlier Memtab
    digest = hashlib.sha256(earlier).hexdigest()
    blobs.path_of(digest).parent.mkdir(parents=True, exist_ok=True)
    blobs.path_of(digest).write_bytes(zlib.compress(earlier, 6))
    assert BlobStore(home.history_blobs_dir).get(digest) == earlier
    assert blobs.get(hashlib.sha256(note).hexdigest()) == note


def test_a_batch_of_changes_draws_its_versions_random_digits_at_once(
    home: Home, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A machine joining records a thousand versions in one batch: one system call for
    # their ids' random digits, not one each.
    recorder = HistoryRecorder(home, actor="sync", run_id=None, workspace_id=None, clock=lambda: 7)
    changes = [
        FileChange(f"/memories/global/n{n}.md", None, b"note %d\n" % n, "create") for n in range(20)
    ]
    drawn = calls_through(monkeypatch, os, "urandom")
    recorded = recorder.record("global", changes, after_kept=True)  # their copies made
    monkeypatch.undo()

    assert drawn == [(60,)]
    ids = [change.after.id for change in recorded]
    assert len(set(ids)) == 20 and all(i.startswith(f"{7:011x}") and len(i) == 16 for i in ids)


def test_pruning_drops_old_versions_but_keeps_each_files_newest(home: Home) -> None:
    clock = [1_000_000_000_000]
    workspace = load_registry(home).require_workspace(WS)
    store = MemoryStore(home, workspace, clock=lambda: clock[0])
    store.create_file(vpath("/memories/global/old.md"), "untouched for a year\n")
    store.create_file(vpath("/memories/global/busy.md"), "v0\n")
    for number in range(1, 4):
        store.save(vpath("/memories/global/busy.md"), f"v{number}\n",
                   store.read(vpath("/memories/global/busy.md")).sha256)  # fmt: skip
    store.delete(vpath("/memories/global/old.md"))
    now = clock[0] + 200 * DAY_MS
    report = prune(home, HistoryLimits(max_age_days=180), now_ms=now)
    left = _reread(home)
    assert [(v.path, v.op) for v in left] == [
        ("/memories/global/busy.md", "edit"),
        ("/memories/global/old.md", "delete"),
    ]
    assert report.versions_removed == 4
    # The deleted file's content is still there to restore.
    assert BlobStore(home.history_blobs_dir).get(left[1].sha256) == b"untouched for a year\n"


def test_pruning_by_size_removes_the_oldest_first(home: Home) -> None:
    store = store_for(home)
    store.create_file(vpath("/memories/global/big.md"), "start\n")
    for _ in range(5):
        current = store.read(vpath("/memories/global/big.md")).sha256
        store.save(vpath("/memories/global/big.md"), secrets.token_hex(20_000), current)
    sizes = {blob.sha256: blob.size_bytes for blob in BlobStore(home.history_blobs_dir).all()}
    newest = versions(store)[-1]
    # Room for the newest and the one before it, not for more.
    room = sizes[newest.sha256] + sizes[versions(store)[-2].sha256]
    prune(home, HistoryLimits(max_bytes=room))
    assert [v.id for v in _reread(home)] == [v.id for v in versions(store)[-2:]]
    prune(home, HistoryLimits(max_bytes=1))
    assert [v.id for v in _reread(home)] == [newest.id]  # the newest is never pruned


@pytest.mark.expect_log(
    "memtab.fs.config.declared",
    "WARNING",
    r"settings.json: history\.max_age_days = 'x' is invalid \(a number ≥ 1\); using the default",
)
def test_history_limits_come_from_settings(
    home: Home, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = tmp_path / "config"
    config.mkdir()
    (config / "settings.json").write_text('{"history": {"max_mb": 5, "max_age_days": "x"}}')
    monkeypatch.setenv("MEMTAB_CONFIG_DIR", str(config))
    limits = load_history_limits()
    assert limits.max_bytes == 5 * 1024 * 1024 and limits.max_age_days == 180


# slow: starts other processes (two processes recording at once; ~0.5 s of CPU or more)
@pytest.mark.slow
def test_two_processes_recording_at_once_lose_nothing(home: Home) -> None:
    store = store_for(home)
    store.create_file(vpath("/memories/global/shared.md"), "")
    count = 15
    workers = [
        subprocess.Popen(
            [sys.executable, str(WORKER), str(home.root), tag, str(count)],
            env={**os.environ, "PYTHONPATH": str(Path(__file__).parent)},
        )
        for tag in ("p", "q")
    ]
    assert all(worker.wait(120) == 0 for worker in workers)
    recorded = _reread(home)
    created = {v.path for v in recorded if v.op == "create"}
    assert len(created) == 2 * count + 1
    shared = file_history(store, vpath("/memories/global/shared.md"))
    assert len(shared) == 2 * count + 1  # every edit of both processes, and the create
    assert all(v.actor == "user" for v in shared)
    # Each edit's "before" is the version before it: a chain with no gap.
    chain = list(reversed(shared))
    assert all(later.prev_sha256 == earlier.sha256 for earlier, later in pairwise(chain))


def test_a_rewrite_on_the_old_files_inode_number_is_read_from_the_start(tmp_path: Path) -> None:
    """Pruning rewrites an index into a new file; the file system may give it the inode
    number an earlier version freed. A reader that last read that earlier version (same
    device and inode, the new file no shorter) parsed only the bytes past its old offset:
    records of another file, its own lost. Here the same inode is rewritten in place."""
    path = tmp_path / "index.jsonl"
    lines = jsonlines.JsonLinesFile(path, tmp_path / "index.lock", lambda value: value["n"])
    lines.append([{"n": "old-1"}, {"n": "old-2"}])
    assert lines.records() == ["old-1", "old-2"]
    rewritten = b"".join(jsonlines.dump_line({"n": f"new-{i}"}) for i in range(1, 5))
    with open(path, "r+b") as handle:  # the same inode, now another file, longer
        handle.write(rewritten)
        handle.truncate()
    assert lines.records() == ["new-1", "new-2", "new-3", "new-4"]
    lines.append([{"n": "new-5"}])  # and appends after it are still read alone
    assert lines.records()[-2:] == ["new-4", "new-5"]
