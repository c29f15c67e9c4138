"""A machine joining brings in a scope that has no files yet whole: its files staged in a
folder of Memtab's own and published by one rename of that folder (issue 54;
docs/formats.md §18.3) — with every guarantee an import file by file keeps: the files
recorded in history as sync's, with the stat each has; a kill before or after the rename
finished by the next sync as sync's own, never sent back as this machine's change; a note
written into the scope meanwhile kept (the files then come in one by one); a staging folder
on another file system, or a rename the system cannot make, not used; a kill's leftover
removed."""

from __future__ import annotations

import contextlib
import errno
import os
import subprocess
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from memtab.diagnostics.home import check_history, check_locks
from memtab.diagnostics.sync import check_sync
from memtab.diagnostics.watching import check_depth, check_xum_temps
from memtab.fs import atomic
from memtab.fs.atomic import FILESYSTEM_FLUSH_WORKS, Directory
from memtab.store.history.runs import RunsLog
from memtab.store.history.versions import ScopeHistory
from memtab.store.paths import Scope
from memtab.store.restore import new_scope
from memtab.sync.importer import Importer
from memtab.sync.records import ImportIntent
from memtab.sync.repository.layout import STAGING_NAME
from memtab.sync.repository.objects import ObjectReader
from memtab.sync.state import load_state
from support.spies import calls_through
from support.sync_faults import Killed, anywhere, killed_at_write
from support.sync_machines import Machine

pytestmark = pytest.mark.skipif(
    not FILESYSTEM_FLUSH_WORKS, reason="file by file where one flush is not durable"
)

G = "/memories/global"
FILES = 12  # more than a batch fsyncs one by one: the batch is flushed at once


def _moves(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Where a staged scope is moved to (`Directory.move_whole`), each move made."""
    moved: list[str] = []
    move = Directory.move_whole

    def recorded(self: Directory, name: str, target: Directory, new_name: str) -> bool:
        done = move(self, name, target, new_name)
        if done and name == STAGING_NAME:
            moved.append(target.display(new_name))
        return done

    monkeypatch.setattr(Directory, "move_whole", recorded)
    return moved


def _staging(machine: Machine) -> Path:
    return machine.sync_dir / STAGING_NAME


def _remote_tip(remote: Path) -> str:
    done = subprocess.run(
        ["git", "--git-dir", str(remote), "rev-parse", "main"],
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()


def _assert_brought_in_as_syncs(machine: Machine, files: dict[str, str]) -> None:
    """Every file there, each with one version in history (sync's, a create, the stat it
    has on disk), one sync run naming each, no staging folder left."""
    assert machine.files() == files
    key = machine.store.history_key(Scope.GLOBAL)
    versions = ScopeHistory(machine.home, key).versions()
    assert sorted((v.path, v.actor, v.op) for v in versions) == [
        (path, "sync", "create") for path in sorted(files)
    ]
    for version in versions:
        on_disk = machine.home.global_root / version.path.removeprefix(f"{G}/")
        info = on_disk.stat()
        if version.stat is not None:  # None: recorded by the sync that finished a kill's
            assert version.stat == (info.st_size, info.st_mtime_ns), version.path
    [run] = RunsLog(machine.home).runs(kind="sync")
    assert sorted(op.path for op in run.ops) == sorted(files)
    assert not os.path.lexists(_staging(machine))


def test_a_scope_with_no_files_yet_comes_in_by_one_rename(
    alpha: Machine, beta: Machine, remote: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = alpha.share_notes(FILES, folder="topic")
    moves = _moves(monkeypatch)
    published = calls_through(monkeypatch, Directory, "publish")
    report = beta.sync()
    monkeypatch.undo()

    assert moves == [str(beta.home.global_root)]
    scope = str(beta.home.global_root)
    assert [call for call in published if call[0].path.startswith(scope)] == []  # no temps
    assert report.targets[0].pulled == tuple(sorted(files))
    _assert_brought_in_as_syncs(beta, files)
    tip = _remote_tip(remote)
    assert beta.sync().targets[0].commits == 0  # nothing of it taken for beta's change
    assert _remote_tip(remote) == tip


def test_each_file_of_a_scope_staged_is_written_as_git_hands_its_content_over(
    alpha: Machine, beta: Machine, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Not every content read from the repository first, then every file written: git
    # answers the next while this one is written (and its copy kept in history).
    files = alpha.share_notes(FILES, folder="topic")
    readers: list[ObjectReader] = []
    restore = Importer._restore

    def restoring(self: Importer, *args: Any) -> Any:
        readers.append(self.repo.reader)
        return restore(self, *args)

    read_by_then: list[int] = []  # at each file staged: how many contents were read
    write_new = Directory.write_new

    def staged(self: Directory, name: str, data: bytes) -> Any:
        if self.path.startswith(str(_staging(beta))):
            read_by_then.append(len(readers[-1]._blobs))
        return write_new(self, name, data)

    monkeypatch.setattr(Importer, "_restore", restoring)
    monkeypatch.setattr(Directory, "write_new", staged)
    beta.sync()
    monkeypatch.undo()

    assert len(read_by_then) == FILES
    assert [then - before for before, then in pairwise(read_by_then)] == [1] * (FILES - 1)
    _assert_brought_in_as_syncs(beta, files)


def test_an_import_builds_its_intent_from_its_own_values_unchecked(
    alpha: Machine, beta: Machine, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The intent names every file of a join: built checked, each of a thousand records is
    # read again field by field, twice (as it is begun and once its files are written).
    files = alpha.share_notes(FILES, folder="topic")
    checked = calls_through(monkeypatch, ImportIntent, "__init__")
    beta.sync()
    monkeypatch.undo()

    assert checked == []
    _assert_brought_in_as_syncs(beta, files)


def test_an_empty_scope_root_is_replaced_by_the_folder_staged(
    alpha: Machine, beta: Machine, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = alpha.share_notes(FILES, folder="topic")
    beta.home.global_root.mkdir(parents=True, exist_ok=True)
    moves = _moves(monkeypatch)
    beta.sync()
    monkeypatch.undo()

    assert moves == [str(beta.home.global_root)]
    _assert_brought_in_as_syncs(beta, files)


def test_a_note_written_into_the_scope_meanwhile_is_kept_and_the_files_come_one_by_one(
    alpha: Machine, beta: Machine, monkeypatch: pytest.MonkeyPatch
) -> None:
    # An agent writes a note (a plain write, no lock) while the files are staged: the root
    # is no longer empty when the scope's lock is had, so nothing is renamed over it.
    files = alpha.share_notes(FILES, folder="topic")
    flush = new_scope.make_durable_before_publishing
    mine = beta.home.global_root / "mine.md"

    def staged_then_written(*args: Any, **kwargs: Any) -> None:
        flush(*args, **kwargs)
        mine.parent.mkdir(parents=True, exist_ok=True)
        mine.write_text("mine\n")

    monkeypatch.setattr(new_scope, "make_durable_before_publishing", staged_then_written)
    moves = _moves(monkeypatch)
    beta.sync()
    monkeypatch.undo()

    assert moves == []
    assert beta.files() == {**files, f"{G}/mine.md": "mine\n"}
    assert not os.path.lexists(_staging(beta))
    key = beta.store.history_key(Scope.GLOBAL)
    actors = {v.path: v.actor for v in ScopeHistory(beta.home, key).versions()}
    assert {actors[path] for path in files} == {"sync"}


def test_a_staging_folder_on_another_file_system_is_not_made(
    alpha: Machine, beta: Machine, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = alpha.share_notes(FILES, folder="topic")
    monkeypatch.setattr(new_scope, "on_one_file_system", lambda *_paths: False)
    staged = calls_through(monkeypatch, Directory, "write_new")
    beta.sync()
    monkeypatch.undo()

    assert staged == []
    _assert_brought_in_as_syncs(beta, files)


def test_a_rename_the_system_cannot_make_leaves_the_files_to_come_one_by_one(
    alpha: Machine, beta: Machine, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The staging folder and the scope on two file systems after all (a bind mount the
    # check could not tell): renameat2 says EXDEV, nothing is moved.
    files = alpha.share_notes(FILES, folder="topic")
    rename = atomic._no_replace_call()

    def across(old_fd: int, old: bytes, new_fd: int, new: bytes, flags: int) -> int:
        if old == os.fsencode(_staging(beta).name):
            return -1  # with the errno below
        return int(rename(old_fd, old, new_fd, new, flags))

    monkeypatch.setattr(atomic, "_no_replace_call", lambda: across)
    monkeypatch.setattr(atomic, "_errno", lambda: errno.EXDEV)
    staged = calls_through(monkeypatch, Directory, "write_new")
    beta.sync()
    monkeypatch.undo()

    assert len(staged) == FILES  # staged, then written one by one
    _assert_brought_in_as_syncs(beta, files)


def _killed_moving(monkeypatch: pytest.MonkeyPatch, *, after: bool) -> None:
    """The sync dies right before the staged scope is renamed into place, or right after."""
    move = Directory.move_whole

    def killed(self: Directory, name: str, target: Directory, new_name: str) -> bool:
        if not after:
            raise Killed
        move(self, name, target, new_name)
        raise Killed

    monkeypatch.setattr(Directory, "move_whole", killed)


@pytest.mark.parametrize("after", [False, True], ids=["before the rename", "after the rename"])
def test_a_join_killed_at_its_rename_is_finished_by_the_next_sync_as_syncs(
    alpha: Machine, beta: Machine, remote: Path, monkeypatch: pytest.MonkeyPatch, after: bool
) -> None:
    files = alpha.share_notes(FILES, folder="topic")
    tip = _remote_tip(remote)
    _killed_moving(monkeypatch, after=after)
    with contextlib.suppress(Killed):
        beta.sync()
    monkeypatch.undo()
    assert (beta.sync_dir / "import.json").exists()  # what it was about to write
    published = sorted(p.name for p in beta.home.global_root.rglob("*.md")) if after else []
    assert len(published) == FILES * after
    assert os.path.lexists(_staging(beta)) is not after  # a kill's leftover, or moved

    moves = _moves(monkeypatch)
    report = beta.sync()
    monkeypatch.undo()

    assert moves == ([] if after else [str(beta.home.global_root)])
    assert set(report.targets[0].pulled) == set(files)
    _assert_brought_in_as_syncs(beta, files)
    assert load_state(beta.sync_dir / "state.json").unpushed == 0
    assert beta.sync().targets[0].commits == 0  # the import's files are not beta's change
    assert _remote_tip(remote) == tip


# slow: a join of 12 files killed at each of its 49 writes, each on a machine of its own (~16 s)
@pytest.mark.slow
def test_a_join_killed_at_any_write_ends_as_one_not_killed(
    alpha: Machine, remote: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = alpha.share_notes(FILES, folder="topic")
    kill_at = 0
    while True:
        kill_at += 1
        machine = Machine.create(tmp_path, f"joining-{kill_at}")
        machine.connect(remote)
        with killed_at_write(monkeypatch, kill_at, anywhere) as writes, contextlib.suppress(Killed):
            machine.sync()
        machine.sync()
        _assert_brought_in_as_syncs(machine, files)
        assert machine.sync().targets[0].commits == 0, f"killed at write {kill_at}"
        if not writes.killed:  # past the last write: every one was a kill point
            break
    assert kill_at > FILES


def _home_findings(machine: Machine) -> list[str]:
    """What `memtab doctor`'s checks of the home find."""
    home = machine.home
    checks: list[Callable[[], Any]] = [
        lambda: check_sync(home)[1].items,
        lambda: check_history(home)[1].items,
        lambda: check_locks(home)[1].items,
        lambda: check_depth(home).items,
        lambda: check_xum_temps(home).items,
    ]
    return [finding.message for check in checks for finding in check()]


def test_a_staging_folder_a_kill_left_is_not_reported_and_the_next_sync_removes_it(
    alpha: Machine, beta: Machine, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = alpha.share_notes(FILES, folder="topic")
    _killed_moving(monkeypatch, after=False)
    with contextlib.suppress(Killed):
        beta.sync()
    monkeypatch.undo()
    left = _staging(beta)
    assert sorted(p.name for p in left.rglob("*.md")) == sorted(
        path.rsplit("/", 1)[1] for path in files
    )

    found = _home_findings(beta)
    (left.parent / "aside").mkdir()
    left.rename(left.parent / "aside" / left.name)
    assert _home_findings(beta) == found  # said nothing of it
    (left.parent / "aside" / left.name).rename(left)
    (left.parent / "aside").rmdir()

    beta.sync()
    _assert_brought_in_as_syncs(beta, files)
