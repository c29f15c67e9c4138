"""A sync reads only the files changed since a sync read them (docs/formats.md §18.2): the
others are known by their size, mtime, ctime and inode, and what a sync does not read, the
repository holds. Nothing another program wrote is missed for it, and everything a sync
does with a file it did not read (a conflict, a merge it could not write, an import a kill
cut short) goes as with one it read."""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from memtab.store.history.capture import read_whole
from memtab.sync import importer
from memtab.sync.repository import scopes
from memtab.sync.repository.scopes import seen_files_path
from support.memory_paths import vpath
from support.sync_faults import Killed, in_scopes, killed_at_write
from support.sync_machines import Machine

G = "/memories/global"
A, B, NOTES = f"{G}/a.md", f"{G}/b.md", f"{G}/notes.md"
LATER_NS = 10 * 10**9


def later(*machines: Machine) -> None:
    """Their syncs look at the files 10 s from now: what was just written is settled (no
    write can share its mtime any more), so they know it by its stat once read."""
    for machine in machines:
        machine.service.now_ns = lambda: time.time_ns() + LATER_NS


@contextlib.contextmanager
def reads(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The names of the memory files the syncs within read."""
    names: list[str] = []

    def read(directory: object, name: str) -> bytes | None:
        names.append(name)
        return read_whole(directory, name)  # type: ignore[arg-type]

    with monkeypatch.context() as patch:
        patch.setattr(scopes, "read_whole", read)
        yield names


def test_a_sync_reads_only_the_files_changed_since_the_last(
    alpha: Machine, beta: Machine, monkeypatch: pytest.MonkeyPatch
) -> None:
    later(alpha)
    for number in range(5):
        alpha.write(f"{G}/n{number}.md", f"note {number}\n")
    alpha.sync()
    alpha.write(f"{G}/n1.md", "note 1, changed\n")

    with reads(monkeypatch) as read:
        alpha.sync()

    assert read == ["n1.md"]
    beta.sync()
    assert beta.files() == alpha.files()
    assert alpha.service.status().targets[0].to_send == ()


def test_a_file_rewritten_with_its_size_and_mtime_is_read_again(
    alpha: Machine, beta: Machine, monkeypatch: pytest.MonkeyPatch
) -> None:
    later(alpha)
    alpha.write(A, "one\n")
    alpha.write(B, "two\n")
    alpha.sync()
    path = alpha.home.global_root / "a.md"
    seen = path.stat()
    path.write_text("ONE\n")  # another program: the same size, its mtime set back
    os.utime(path, ns=(seen.st_atime_ns, seen.st_mtime_ns))

    with reads(monkeypatch) as read:
        alpha.sync()

    assert read == ["a.md"]  # its ctime says it was written; b.md is known
    beta.sync()
    assert beta.text(A) == "ONE\n"


def test_a_file_written_just_before_its_read_is_read_again(
    alpha: Machine, monkeypatch: pytest.MonkeyPatch
) -> None:
    alpha.write(A, "one\n")
    alpha.write(B, "two\n")
    alpha.sync()  # within 2 s of the writes: a write now could keep the mtimes
    with reads(monkeypatch) as read:
        alpha.sync()
    assert sorted(read) == ["a.md", "b.md"]
    later(alpha)
    with reads(monkeypatch) as read:
        alpha.sync()  # settled now: read once more, and known after
    with reads(monkeypatch) as read_after:
        alpha.sync()
    assert sorted(read) == ["a.md", "b.md"] and read_after == []


@pytest.mark.parametrize(
    "cache", [b'{"version": 1, "files": ', b'{"version": 1, "home": "/else", "target": "memory"}']
)
def test_a_damaged_or_foreign_cache_is_ignored_and_written_again(
    alpha: Machine, monkeypatch: pytest.MonkeyPatch, cache: bytes
) -> None:
    later(alpha)
    alpha.write(A, "one\n")
    alpha.sync()
    written = seen_files_path(alpha.home.root, "memory")
    written.write_bytes(cache)

    with reads(monkeypatch) as read:
        alpha.sync()
    with reads(monkeypatch) as read_after:
        alpha.sync()

    assert read == ["a.md"] and read_after == []


def test_a_conflicted_file_known_by_its_stat_stays_a_conflict_until_it_agrees(
    alpha: Machine, beta: Machine
) -> None:
    later(alpha, beta)
    alpha.conflict_with(beta, NOTES)
    alpha.sync()
    alpha.sync()  # its text is read whatever the cache says: it waits for the user
    assert alpha.conflicts() == [NOTES]
    alpha.write(NOTES, "one\ntwo from beta\nthree\n")
    alpha.sync()
    assert alpha.conflicts() == []
    beta.sync()
    assert beta.text(NOTES) == alpha.text(NOTES) == "one\ntwo from beta\nthree\n"


def test_a_merge_not_written_over_a_file_not_read_is_merged_again(
    alpha: Machine, beta: Machine, monkeypatch: pytest.MonkeyPatch
) -> None:
    later(alpha, beta)
    alpha.publish(NOTES, "a\nb\nc\n", beta)
    beta.sync()  # notes.md known by its stat here now
    alpha.write(NOTES, "A\nb\nc\n")
    alpha.sync()
    real_write = importer.restore_contents

    def agent_writes_first(store, scope, items, **kwargs):  # type: ignore[no-untyped-def]
        (beta.home.global_root / "notes.md").write_text("a\nb\nc\nagent\n")  # mux, no lock
        monkeypatch.setattr(importer, "restore_contents", real_write)
        return real_write(store, scope, items, **kwargs)

    monkeypatch.setattr(importer, "restore_contents", agent_writes_first)
    beta.sync()
    assert beta.service.status().targets[0].unapplied == (NOTES,)
    beta.sync()
    alpha.sync()
    assert beta.text(NOTES) == alpha.text(NOTES) == "A\nb\nc\nagent\n"


def test_an_import_cut_short_over_files_not_read_is_finished(
    alpha: Machine, beta: Machine, monkeypatch: pytest.MonkeyPatch
) -> None:
    later(alpha, beta)
    for name in ("f0", "f1", "f2"):
        alpha.write(f"{G}/{name}.md", f"{name}\n")
    alpha.sync()
    beta.sync()
    beta.sync()  # beta knows its files by their stat
    alpha.store.move(vpath(f"{G}/f1.md"), vpath(f"{G}/h1.md"))
    alpha.write(f"{G}/f2.md", "f2\nalpha's line\n")
    alpha.sync()

    with killed_at_write(monkeypatch, 1, in_scopes), contextlib.suppress(Killed):
        beta.sync()
    beta.sync()

    expected = {f"{G}/f0.md": "f0\n", f"{G}/h1.md": "f1\n", f"{G}/f2.md": "f2\nalpha's line\n"}
    assert beta.files() == alpha.files() == expected
    assert not (beta.sync_dir / "import.json").exists()


def test_a_sync_stats_each_file_once(
    alpha: Machine, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # History's look for other programs' changes walks the scope and stats each file; the
    # listing the sync reads then took each file's stat again, and the read a third time.
    later(alpha)
    alpha.fill(40)
    (alpha.home.global_root / "outside.md").write_text("written by another program\n")
    alpha.sync()
    (alpha.home.global_root / "note-0003.md").write_text("changed by another program\n")
    stats: list[str] = []
    lstat = os.lstat

    def counted(path: object, *args: object, **kwargs: object) -> os.stat_result:
        stats.append(str(path))
        return lstat(path, *args, **kwargs)  # type: ignore[arg-type]

    with reads(monkeypatch) as read, monkeypatch.context() as patch:
        patch.setattr(os, "lstat", counted)
        alpha.sync()

    assert read == ["note-0003.md"]
    memory = [path for path in stats if os.path.basename(path).startswith(("note-", "outside"))]
    assert memory == []  # each known by the walk's own stat
    assert alpha.service.status().targets[0].to_send == ()
