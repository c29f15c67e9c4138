"""Many files of one scope written at once (`store.restore.bulk_restore`), as one restore each."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from memtab.fs import atomic
from memtab.fs.atomic import FILESYSTEM_FLUSH_WORKS, Directory
from memtab.store.files import MAX_FILES_PER_SCOPE
from memtab.store.history.blobs import sha256_of
from memtab.store.paths import Scope, parse_file_path
from memtab.store.restore import bulk_restore
from memtab.store.restore.bulk_restore import Restore, restore_contents
from memtab.store.restore.from_history import file_history
from memtab.store.scopes.memory import MemoryStore
from support.memory_paths import vpath
from support.spies import calls_through

G = "/memories/global"
TAKEN = f"{G}/taken.md"


def _restore(path: str, data: bytes, expected: bytes | None) -> Restore:
    return Restore(parse_file_path(path), data, sha256_of(expected) if expected else None)


def test_files_are_created_and_replaced_over_what_was_seen(store: MemoryStore) -> None:
    store.create_file(vpath("/memories/global/kept.md"), "old\n")
    store.create_file(vpath("/memories/global/moved-on.md"), "seen\n")
    (store.root(Scope.GLOBAL) / "moved-on.md").write_text("an agent wrote meanwhile\n")

    done = restore_contents(
        store,
        Scope.GLOBAL,
        [
            _restore("/memories/global/kept.md", b"new\n", b"old\n"),
            _restore("/memories/global/deep/new.md", b"created\n", None),
            _restore("/memories/global/moved-on.md", b"theirs\n", b"seen\n"),
        ],
    )

    assert [str(p) for p in done.written] == [
        "/memories/global/kept.md",
        "/memories/global/deep/new.md",
    ]
    assert [str(p) for p in done.changed] == ["/memories/global/moved-on.md"]
    assert store.read_whole(vpath("/memories/global/kept.md")) == b"new\n"
    assert store.read_whole(vpath("/memories/global/deep/new.md")) == b"created\n"
    assert store.read_whole(vpath("/memories/global/moved-on.md")) == b"an agent wrote meanwhile\n"
    versions = file_history(store, vpath("/memories/global/kept.md"))
    assert [v.op for v in versions][:2] == ["edit", "create"]
    assert len(done.recorded) == 2
    assert not [p for p in store.root(Scope.GLOBAL).rglob("*") if p.name.endswith(".tmp")]


def test_a_file_that_appeared_is_never_replaced(store: MemoryStore) -> None:
    store.create_file(vpath("/memories/global/taken.md"), "mine\n")
    done = restore_contents(
        store, Scope.GLOBAL, [_restore("/memories/global/taken.md", b"x", None)]
    )
    assert [str(p) for p in done.changed] == ["/memories/global/taken.md"]
    assert store.read_whole(vpath("/memories/global/taken.md")) == b"mine\n"


def test_a_name_no_listing_shows_is_refused(store: MemoryStore) -> None:
    name = "/memories/global/.hidden.md"
    done = restore_contents(store, Scope.GLOBAL, [_restore(name, b"x\n", None)])
    assert list(done.failed) == [parse_file_path(name)]


def test_the_scope_cap_holds(store: MemoryStore) -> None:
    root = store.root(Scope.GLOBAL)
    root.mkdir(parents=True, exist_ok=True)
    for number in range(MAX_FILES_PER_SCOPE - 1):
        (root / f"n{number}.md").write_text("x\n")
    done = restore_contents(
        store,
        Scope.GLOBAL,
        [_restore(f"/memories/global/new{n}.md", b"y\n", None) for n in range(2)],
    )
    assert [str(p) for p in done.written] == ["/memories/global/new0.md"]
    assert "full" in done.failed[parse_file_path("/memories/global/new1.md")]


def test_files_new_to_the_scope_are_not_looked_for_one_by_one(
    store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A machine joining brings every file in new: publishing one never replaces a file
    # that appeared meanwhile, so none is looked up first (1,000 lookups a join).
    store.create_file(vpath(TAKEN), "mine\n")
    (store.root(Scope.GLOBAL) / "dir.md").mkdir()
    looked: list[str] = []
    lstat = Directory.lstat

    def counted(self: Directory, name: str) -> os.stat_result | None:
        looked.append(name)
        return lstat(self, name)

    monkeypatch.setattr(Directory, "lstat", counted)
    items = [_restore(f"/memories/global/n{number}.md", b"new\n", None) for number in range(20)]
    there = [_restore(TAKEN, b"x\n", None), _restore(f"{G}/dir.md", b"x\n", None)]
    done = restore_contents(store, Scope.GLOBAL, [*items, *there])
    monkeypatch.undo()

    assert len(done.written) == 20 and [str(p) for p in done.changed] == [TAKEN]
    assert done.failed == {parse_file_path(f"{G}/dir.md"): f"{G}/dir.md is a directory"}
    assert store.read_whole(vpath(TAKEN)) == b"mine\n"
    assert len([name for name in looked if name.startswith("n")]) <= 20  # its stat, once


def test_history_copies_a_batch_before_its_temps_on_the_calling_thread(
    store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    # On a thread of their own beside the temps, the copies and the temps handed the
    # interpreter to each other at every system call: twice as slow as one after the other.
    keep_contents, write_temp = MemoryStore.keep_contents, Directory.write_temp
    calls: list[tuple[str, threading.Thread]] = []

    def keep(self: MemoryStore, contents: Sequence[bytes], **kwargs: Any) -> bool:
        calls.append(("copies", threading.current_thread()))
        return keep_contents(self, contents, **kwargs)

    def temp(self: Directory, name: str, data: bytes, **kwargs: Any) -> str:
        if name.endswith(".md"):  # a memory file's (history's loose copies are others)
            calls.append(("temp", threading.current_thread()))
        return write_temp(self, name, data, **kwargs)

    monkeypatch.setattr(MemoryStore, "keep_contents", keep)
    monkeypatch.setattr(Directory, "write_temp", temp)
    items = [_restore(f"{G}/n{number}.md", b"new %d\n" % number, None) for number in range(20)]
    done = restore_contents(store, Scope.GLOBAL, items)
    monkeypatch.undo()

    assert calls[0][0] == "copies" and [kind for kind, _ in calls[1:]] == ["temp"] * 20
    assert {thread for _, thread in calls} == {threading.current_thread()}
    assert len(done.written) == 20 and len(done.recorded) == 20
    versions = file_history(store, vpath(f"{G}/n10.md"))
    assert [v.op for v in versions] == ["create"]


@pytest.mark.skipif(not FILESYSTEM_FLUSH_WORKS, reason="each temp is fsynced where a flush is not")
def test_a_batch_and_its_history_copies_are_made_durable_by_one_flush(
    store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The copies and the temps are flushed together once both are
    # written: a flush of the copies' own first, while the temps were still being
    # written, was a second `syncfs` a join waited for.
    store.create_file(vpath(TAKEN), "mine\n")  # history's folders made: not this batch's
    flushes = calls_through(monkeypatch, atomic, "_syncfs")
    items = [_restore(f"{G}/n{number}.md", b"new %d\n" % number, None) for number in range(20)]
    done = restore_contents(store, Scope.GLOBAL, items)
    monkeypatch.undo()

    assert len(done.written) == 20 and len(done.recorded) == 20
    assert len(flushes) == 1
    assert store.keep_contents([b"new 3\n"], each=True)  # the copy is there, intact
    assert [v.op for v in file_history(store, vpath(f"{G}/n3.md"))] == ["create"]


@pytest.mark.parametrize(("files", "fsynced"), [(20, 0), (3, 1), (0, 1)])
def test_what_the_caller_left_unflushed_is_durable_before_the_first_file_is_published(
    store: MemoryStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: int, fsynced: int
) -> None:
    # An import's intent must be on disk before its first file is published: a batch
    # whose temps the file system's flush makes durable makes it durable too, where it
    # is on that file system; otherwise (a few temps, each fsynced) it is fsynced.
    intent = tmp_path / "import.json"
    atomic.atomic_write_bytes(intent, b"{}\n", durable=False)
    events: list[str] = []
    make_file_durable, syncfs, publish = (
        bulk_restore.make_file_durable,
        atomic._syncfs,
        Directory.publish,
    )

    def fsynced_file(path: Path) -> None:
        events.append(f"fsync {path.name}")
        make_file_durable(path)

    def flushed(fd: int) -> int:
        events.append("flush")
        return syncfs(fd)

    def published(self: Directory, temp: str, name: str, **kwargs: Any) -> bool:
        if self.path == str(store.root(Scope.GLOBAL)):  # not history's copies
            events.append("publish")
        return publish(self, temp, name, **kwargs)

    monkeypatch.setattr(bulk_restore, "make_file_durable", fsynced_file)
    monkeypatch.setattr(atomic, "_syncfs", flushed)
    monkeypatch.setattr(Directory, "publish", published)
    items = [_restore(f"{G}/n{number}.md", b"new %d\n" % number, None) for number in range(files)]
    done = restore_contents(store, Scope.GLOBAL, items, unflushed=[intent])
    monkeypatch.undo()

    assert len(done.written) == files
    before = events[: events.index("publish")] if files else events
    flushes = FILESYSTEM_FLUSH_WORKS and not fsynced
    assert before.count("fsync import.json") == (0 if flushes else 1)
    assert before.count("flush") == (1 if flushes else 0)


def test_files_are_removed_only_over_what_was_seen_with_their_pins_kept(
    store: MemoryStore,
) -> None:
    store.create_file(vpath(f"{G}/gone.md"), "gone\n")
    store.set_pinned(vpath(f"{G}/gone.md"), True)
    store.create_file(vpath(f"{G}/edited.md"), "seen\n")
    (store.root(Scope.GLOBAL) / "edited.md").write_text("an agent wrote meanwhile\n")
    store.create_file(vpath(f"{G}/kept.md"), "old\n")
    removals = [
        Restore(vpath(f"{G}/gone.md"), None, sha256_of(b"gone\n")),
        Restore(vpath(f"{G}/edited.md"), None, sha256_of(b"seen\n")),
    ]

    done = restore_contents(
        store, Scope.GLOBAL, [*removals, _restore(f"{G}/kept.md", b"new\n", b"old\n")]
    )

    assert sorted(str(p) for p in done.written) == [f"{G}/gone.md", f"{G}/kept.md"]
    assert [str(p) for p in done.changed] == [f"{G}/edited.md"]
    assert store.read_whole(vpath(f"{G}/gone.md")) is None
    assert store.read_whole(vpath(f"{G}/edited.md")) == b"an agent wrote meanwhile\n"
    assert store.read_whole(vpath(f"{G}/kept.md")) == b"new\n"
    (deletion, created) = file_history(store, vpath(f"{G}/gone.md"))[:2]
    assert (deletion.op, deletion.deleted, deletion.sha256) == ("delete", True, created.sha256)
    assert deletion.meta is not None and deletion.meta.get("pinned") is True
    assert store.meta_key(vpath(f"{G}/gone.md")) not in store.meta.load()  # forgotten
    with pytest.raises(ValueError, match="names the content it removes"):
        restore_contents(store, Scope.GLOBAL, [Restore(vpath(f"{G}/kept.md"), None, None)])


_KILLED_WHILE_PUBLISHING = """
import os, sys
from memtab.store.home import Home
from memtab.store.paths import Scope, parse_file_path
from memtab.store.restore import bulk_restore
from memtab.store.restore.from_history import file_history
from memtab.store.scopes.memory import MemoryStore

store = MemoryStore(Home(sys.argv[1]))
path = parse_file_path(sys.argv[2])
deletion, created = file_history(store, path)[:2]
item = bulk_restore.Restore(path, b"gone\\n", None, restored_from=created.id, meta=deletion.meta)
bulk_restore._publish = lambda *args, **kwargs: os._exit(9)  # killed before it is there
bulk_restore.restore_contents(store, Scope.GLOBAL, [item])
"""


@pytest.mark.parametrize("create", ["create_file", "save", "restore_content"])
def test_a_file_created_where_a_killed_restore_gave_pins_back_starts_unpinned(
    store: MemoryStore, create: str
) -> None:
    """A restore killed after it gave a deleted file's pins back and before the file was
    there leaves an entry for no file; a file made there later is a new file: unpinned,
    one use, never the old one's pin and usage (nor counted pinned by the guard)."""
    path = vpath(f"{G}/gone.md")
    store.create_file(path, "gone\n")
    store.set_pinned(path, True)
    store.delete(path)
    killed = subprocess.run(
        [sys.executable, "-c", _KILLED_WHILE_PUBLISHING, str(store.home.root), str(path)],
        check=False,
    )
    assert killed.returncode == 9
    assert store.read_whole(path) is None
    assert store.meta.load()[store.meta_key(path)].pinned  # what the kill left

    if create == "create_file":
        store.create_file(path, "a new note\n")
    elif create == "save":
        store.save(path, "a new note\n", None)
    else:
        store.restore_content(path, b"a new note\n", expected_sha256=None, op="create")

    entry = store.meta.load()[store.meta_key(path)]
    assert (entry.pinned, entry.access_count) == (False, 1)
    assert entry.last_write_at is not None
    assert store.pinned_within(path) == []
