"""What a machine joining waits for on disk (issue 54: joining ≤ 1.5× `git clone`): each
durable write of its own is a flush it waits for, so a join writes its state once — not
after an export that sent nothing, nor again after its import saved the same state — and
flushes the file system once for the files it brings and their copies in history; each
git it starts is a process it waits for, so it reads the repository through one; and what
it does for each file is done a thousand times, so a content is hashed once and history's
missing folders are listed, not each tried."""

from __future__ import annotations

import gc
import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from memtab.fs import atomic
from memtab.fs.atomic import FILESYSTEM_FLUSH_WORKS, Directory
from memtab.store.errors import MemoryStoreError
from memtab.store.history import blobs, recorder
from memtab.store.history.jsonlines import JsonLinesFile
from memtab.sync import importer, service
from memtab.sync.repository import objects, scopes
from memtab.sync.repository.git import Git
from memtab.sync.state import load_state
from support.spies import calls_through
from support.sync_machines import Machine

G = "/memories/global"


def test_a_machine_joining_writes_its_state_once(
    alpha: Machine, beta: Machine, monkeypatch: pytest.MonkeyPatch
) -> None:
    for number in range(3):
        alpha.write(f"{G}/n{number}.md", f"note {number}\n")
    alpha.sync()
    replaced = calls_through(monkeypatch, Directory, "replace")
    report = beta.sync()
    monkeypatch.undo()

    assert report.targets[0].pulled == tuple(f"{G}/n{number}.md" for number in range(3))
    assert [name for _, name, *_ in replaced].count("state.json") == 1
    state = load_state(beta.sync_dir / "state.json")
    assert state.head is not None and state.last_sync_at is not None
    assert state.last_attempt_at is not None and state.last_attempt_at <= state.last_sync_at


@pytest.mark.skipif(not FILESYSTEM_FLUSH_WORKS, reason="each file is fsynced where a flush is not")
def test_a_machine_joining_flushes_the_file_system_once(
    alpha: Machine, beta: Machine, monkeypatch: pytest.MonkeyPatch
) -> None:
    for number in range(20):  # more than a batch fsyncs one by one
        alpha.write(f"{G}/n{number}.md", f"note {number}\n")
    alpha.sync()
    beta.write(f"{G}/mine.md", "mine\n")  # history's folders made before the join
    flushes = calls_through(monkeypatch, atomic, "_syncfs")
    beta.sync()
    monkeypatch.undo()

    assert len(beta.files()) == 21
    assert len(flushes) == 1


def test_a_machine_joining_hashes_each_content_once_and_tries_no_missing_folder(
    alpha: Machine, beta: Machine, monkeypatch: pytest.MonkeyPatch
) -> None:
    # History's copy of a content is named by its sha256, which its version names too:
    # worked out once. A new home's history has none of its 256 shard folders: listed
    # once, not each opened and found missing.
    alpha.share_notes(12)
    hashed = calls_through(monkeypatch, blobs, "sha256_of")
    monkeypatch.setattr(recorder, "sha256_of", blobs.sha256_of)  # the one it imported
    looked: list[str] = []
    open_shard = blobs._open_shard

    def opened(directory: Path, digest: str, **options: Any) -> Directory:
        if not options.get("create", True):
            looked.append(digest[:2])
        return open_shard(directory, digest, **options)

    monkeypatch.setattr(blobs, "_open_shard", opened)
    beta.sync()
    monkeypatch.undo()

    assert beta.files() == alpha.files()
    contents = [data for (data,) in hashed]
    assert len(contents) == len(set(contents)) == 12
    assert looked == []  # none there to look in: each made as its first blob is written


def test_a_sync_runs_without_the_cycle_collector(
    alpha: Machine, beta: Machine, monkeypatch: pytest.MonkeyPatch
) -> None:
    # What a sync reads (a thousand files' stats and paths) and an import's objects
    # (contents, changes, versions, ops: ~100 a file) all live until it ends: the
    # collector's walks of them only cost. It runs again once the sync ends.
    alpha.share_notes(3)
    collecting: list[tuple[str, bool]] = []
    write, read = importer.Importer.write, scopes.read_scope

    def written(self: importer.Importer, *args: Any, **kwargs: Any) -> None:
        collecting.append(("write", gc.isenabled()))
        write(self, *args, **kwargs)

    def reading(*args: Any, **kwargs: Any) -> Any:
        collecting.append(("read", gc.isenabled()))
        return read(*args, **kwargs)

    monkeypatch.setattr(importer.Importer, "write", written)
    monkeypatch.setattr(scopes, "read_scope", reading)
    monkeypatch.setattr(service, "read_scope", reading)
    beta.sync()
    monkeypatch.undo()

    assert collecting == [("read", False), ("write", False)]
    assert gc.isenabled()
    assert beta.files() == alpha.files()


def _started(monkeypatch: pytest.MonkeyPatch, *, rename: str | None = None) -> list[str]:
    """The long-running gits a sync starts (`Git.start`), by their arguments; `rename`:
    `--batch-command` asked as that option (one an old git does not know)."""
    started: list[str] = []
    start = Git.start

    def counted(self: Git, args: Sequence[str]) -> Any:
        started.append(" ".join(args))
        if rename is not None:
            args = [rename if arg == "--batch-command" else arg for arg in args]
        return start(self, args)

    monkeypatch.setattr(Git, "start", counted)
    return started


def test_a_machine_joining_reads_the_repository_through_one_git(
    alpha: Machine, beta: Machine, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The types and sizes were asked of a `cat-file --batch-check`, the contents of a
    # `cat-file --batch`: two processes each sync started and waited for.
    for number in range(3):
        alpha.write(f"{G}/n{number}.md", f"note {number}\n")
    alpha.sync()
    started = _started(monkeypatch)
    beta.sync()
    monkeypatch.undo()

    assert len(beta.files()) == 3
    assert started == ["cat-file --batch-command"]


def test_a_git_without_batch_command_reads_through_two(
    alpha: Machine, beta: Machine, monkeypatch: pytest.MonkeyPatch
) -> None:
    # git before 2.36 ends at once on `--batch-command` (an unknown option): the sync
    # asks the two processes instead, and still brings every file in.
    alpha.write(f"{G}/n.md", "note\n")
    alpha.write(f"{G}/sub/m.md", "more\n")
    alpha.sync()
    monkeypatch.setattr(objects, "_ANSWERS_BOTH", {})
    started = _started(monkeypatch, rename="--no-such-option")
    beta.sync()
    monkeypatch.undo()

    assert beta.files() == alpha.files()
    assert started == ["cat-file --batch-command", "cat-file --batch-check", "cat-file --batch"]


def test_a_machine_joining_moves_its_branch_while_it_logs_the_run(
    alpha: Machine, beta: Machine, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Moving the branch is a git the join waited for before it logged the import's run:
    # the two are independent (a kill between them is finished from the intent, the run
    # logged once), so the git runs while the run is written.
    alpha.write(f"{G}/n.md", "note\n")
    alpha.sync()
    logging_run = threading.Event()
    overlapped: list[bool] = []
    set_branch, log_imports = Git.set_branch, importer.log_imports

    def move(self: Git, *args: Any) -> None:
        overlapped.append(logging_run.wait(timeout=10))  # a timeout only one after the other
        set_branch(self, *args)

    def log(*args: Any, **kwargs: Any) -> None:
        logging_run.set()
        log_imports(*args, **kwargs)

    monkeypatch.setattr(Git, "set_branch", move)
    monkeypatch.setattr(importer, "log_imports", log)
    beta.sync()
    monkeypatch.undo()

    assert overlapped == [True]
    assert beta.files() == alpha.files()
    assert beta.service.status().targets[0].behind == 0


def test_a_machine_joining_makes_its_run_and_state_durable_together_then_drops_its_intent(
    alpha: Machine, beta: Machine, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Each was flushed as it was written (the run, then the state's temp and its folder):
    # three waits on the disk where one does, as the intent, durable since before the
    # first file was written, finishes both after a crash until it goes. Its removal is
    # not flushed either: a crash that brings it back brings what a kill before its
    # removal leaves (the next sync finishes it again, writing nothing twice), and the
    # next state saved there makes the removal durable.
    alpha.write(f"{G}/n.md", "note\n")
    alpha.sync()
    events: list[str] = []
    fsync, append, replace = os.fsync, JsonLinesFile.append_locked, Directory.replace
    unlink = Path.unlink

    def fsynced(fd: int) -> None:
        events.append(f"flush {Path(os.readlink(f'/proc/self/fd/{fd}')).name}")
        fsync(fd)

    def appended(self: JsonLinesFile[Any], records: Any, **kwargs: Any) -> None:
        events.append(f"write {self.path.name}")
        append(self, records, **kwargs)

    def replaced(self: Directory, name: str, data: bytes, **kwargs: Any) -> None:
        events.append(f"write {name}")
        replace(self, name, data, **kwargs)

    def unlinked(self: Path, **kwargs: Any) -> None:
        events.append(f"remove {self.name}")
        unlink(self, **kwargs)

    monkeypatch.setattr(os, "fsync", fsynced)
    monkeypatch.setattr(JsonLinesFile, "append_locked", appended)
    monkeypatch.setattr(Directory, "replace", replaced)
    monkeypatch.setattr(Path, "unlink", unlinked)
    beta.sync()
    monkeypatch.undo()

    end = events[events.index("write runs.jsonl") :]
    assert end[:2] == ["write runs.jsonl", "write state.json"]
    assert set(end[2:-1]) == {
        "flush state.json",
        "flush memory",
        "flush runs.jsonl",
        "flush history",
    }
    assert end[-1] == "remove import.json"  # and no flush after it
    assert not (beta.sync_dir / "import.json").exists()
    assert beta.files() == alpha.files()


@pytest.mark.skipif(not FILESYSTEM_FLUSH_WORKS, reason="each file is fsynced where a flush is not")
def test_a_machine_joining_makes_its_intent_durable_with_the_files_flush(
    alpha: Machine, beta: Machine, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The intent must be on disk before the first file is published; the batch's flush
    # of its files, which comes before that too, makes it so: its own two fsyncs (the
    # file, the sync folder) were two more waits of a join. Beta's scope has no file yet:
    # its files are published by one rename of the folder they were staged in.
    for number in range(20):  # more than a batch fsyncs one by one
        alpha.write(f"{G}/n{number}.md", f"note {number}\n")
    alpha.sync()
    intent = beta.sync_dir / "import.json"
    events: list[str] = []
    fsync, syncfs, move = os.fsync, atomic._syncfs, Directory.move_whole

    def fsynced(fd: int) -> None:
        where = os.readlink(f"/proc/self/fd/{fd}")  # the intent's temp, or its folder
        if where == str(intent.parent) or intent.name in where:
            events.append("fsync")
        fsync(fd)

    def flushed(fd: int) -> int:
        events.append(f"flush {intent.exists()}")
        return syncfs(fd)

    def published(self: Directory, name: str, target: Directory, new_name: str) -> bool:
        if target.display(new_name) == str(beta.home.global_root):
            events.append("publish")
        return move(self, name, target, new_name)

    monkeypatch.setattr(os, "fsync", fsynced)
    monkeypatch.setattr(atomic, "_syncfs", flushed)
    monkeypatch.setattr(Directory, "move_whole", published)
    beta.sync()
    monkeypatch.undo()

    first = events.index("publish")
    assert events[:first] == ["flush True"]
    assert beta.files() == alpha.files()


def test_an_intent_no_batch_flushed_is_made_durable_before_the_import_goes_on(
    alpha: Machine, beta: Machine, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Its flush was left to the first batch's: every batch refused, the intent is still
    # made durable before the import writes its meta and state.
    for number in range(3):
        alpha.write(f"{G}/n{number}.md", f"note {number}\n")
    alpha.sync()

    def refused(*_args: object, **_kwargs: object) -> object:
        raise MemoryStoreError("Cannot write the global memory: disk full")

    monkeypatch.setattr(importer, "restore_contents", refused)
    durable = calls_through(monkeypatch, importer, "make_file_durable")
    beta.sync()
    monkeypatch.undo()

    assert [path.name for (path,) in durable] == ["import.json", "state.json"]  # then the end
