"""Write-ahead for other agents' files: what Memtab replaces or removes is in history
before the disk changes, so a crash between the write and its record loses nothing the
agent wrote (the record is made to raise right after the write)."""

from __future__ import annotations

import errno
import os
from typing import Any

import pytest

from memtab.blame.service import blame_source_file
from memtab.fs.clock import now_ms
from memtab.sources.agent_file import SourceVersions, restore_version
from memtab.sources.content import read_source_file, remove_created_file, save_source_file
from memtab.sources.copy import CopyOrigin, copy_note
from memtab.sources.listing import source_file
from memtab.store.errors import UnkeptChangeError
from memtab.store.history.blobs import BlobStore
from memtab.store.history.jsonlines import JsonLinesFile
from memtab.store.restore.from_history import content_of
from support.agent_machine import Machine

from .helpers import file_in


class CrashError(Exception):
    """Stands in for the process dying between a write and its record."""


def assert_restorable(history: SourceVersions, file_id: str, content: bytes) -> str:
    """The id of the newest version of `file_id` holding `content` (there must be one)."""
    held = [v for v in history.versions(file_id) if content_of(history.home, v) == content]
    assert held, f"{content!r} is not in the history of {file_id}"
    return held[0].id


def test_a_save_keeps_the_agents_content_before_writing_over_it(
    machine: Machine, monkeypatch: pytest.MonkeyPatch
) -> None:
    history = SourceVersions(machine.home)
    source, file = file_in(machine, "claude-code:user", "CLAUDE.md")
    save_source_file(source, file, "mine\n", read_source_file(source, file).sha256, history=history)
    file.physical.write_bytes(b"Claude Code's rewrite\n")  # not Memtab: no version of it
    loaded = read_source_file(source, file)
    with monkeypatch.context() as patch:
        patch.setattr(SourceVersions, "record", _crash)
        with pytest.raises(CrashError):
            save_source_file(source, file, "mine again\n", loaded.sha256, history=history)
    assert file.physical.read_bytes() == b"mine again\n"  # the write happened
    version = assert_restorable(history, file.id, b"Claude Code's rewrite\n")
    (kept,) = [v for v in history.versions(file.id) if v.id == version]
    assert (kept.op, kept.actor) == ("edit", "external")
    assert restore_version(history, source, file.id, version)
    assert file.physical.read_bytes() == b"Claude Code's rewrite\n"


def test_a_restore_keeps_the_agents_content_before_writing_over_it(
    machine: Machine, monkeypatch: pytest.MonkeyPatch
) -> None:
    history = SourceVersions(machine.home)
    source, file = file_in(machine, "claude-code:user", "CLAUDE.md")
    original = file.physical.read_bytes()
    save_source_file(source, file, "mine\n", read_source_file(source, file).sha256, history=history)
    first = history.versions(file.id)[-1]
    file.physical.write_bytes(b"Claude Code's rewrite\n")
    with monkeypatch.context() as patch:
        patch.setattr(SourceVersions, "record", _crash)
        with pytest.raises(CrashError):
            restore_version(history, source, file.id, first.id)
    assert file.physical.read_bytes() == original
    assert_restorable(history, file.id, b"Claude Code's rewrite\n")


def test_a_copy_whose_record_was_lost_is_kept_before_its_undo_removes_it(
    machine: Machine, monkeypatch: pytest.MonkeyPatch
) -> None:
    history = SourceVersions(machine.home)
    source, _ = file_in(machine, "claude-code:user", "CLAUDE.md")
    origin = CopyOrigin("/memories/global/tips.md", "# Tips\n\nUse uv.\n", "tips")
    with monkeypatch.context() as patch:
        patch.setattr(SourceVersions, "record", _crash)
        with pytest.raises(CrashError):  # the copy is written, its record lost
            copy_note(origin, "rules/tips.md", source=source, history=history)
        file = source_file(source, "rules/tips.md")
        assert file is not None and history.versions(file.id) == []
        copied = file.physical.read_bytes()
        with pytest.raises(CrashError):  # Edit → Undo removes it, and crashes again
            sha = read_source_file(source, file).sha256
            remove_created_file(source, file, sha, history=history)
    assert not file.physical.exists()
    version = assert_restorable(history, file.id, copied)
    assert restore_version(history, source, file.id, version)
    assert file.physical.read_bytes() == copied


def _crash(*_args: object, **_kwargs: object) -> None:
    raise CrashError


def _read_only(*_args: object, **_kwargs: object) -> None:
    raise OSError(errno.EROFS, "Read-only file system")


def test_a_save_over_what_history_cannot_keep_is_refused_unless_chosen(
    machine: Machine, monkeypatch: pytest.MonkeyPatch, expect_log: Any
) -> None:
    history = SourceVersions(machine.home)
    source, file = file_in(machine, "claude-code:user", "CLAUDE.md")
    original = file.physical.read_bytes()
    loaded = read_source_file(source, file).sha256
    monkeypatch.setattr(BlobStore, "put", _read_only)
    monkeypatch.setattr(JsonLinesFile, "append_locked", _read_only)
    with pytest.raises(UnkeptChangeError, match=rf"^{file.id} was not saved: history cannot"):
        save_source_file(source, file, "mine\n", loaded, history=history)
    assert file.physical.read_bytes() == original

    expect_log("memtab.store.history.recorder", "WARNING", rf"^{file.id} saved without a copy")
    expect_log("memtab.store.history.recorder", "WARNING", r"^Could not record the history")
    save_source_file(source, file, "mine\n", loaded, history=history, allow_unkept=True)
    assert file.physical.read_bytes() == b"mine\n"


def test_the_agents_lines_kept_ahead_of_a_first_save_are_dated_by_the_files_mtime(
    machine: Machine,
) -> None:
    """Memtab first sees the file as it saves over it: what Claude Code wrote before is
    dated when the file says it was written, not when Memtab saved."""
    history = SourceVersions(machine.home)
    source, file = file_in(machine, "claude-code:user", "CLAUDE.md")
    written_ns = (now_ms() // 1000 - 7 * 24 * 60 * 60) * 1_000_000_000
    os.utime(file.physical, ns=(written_ns, written_ns))
    before = read_source_file(source, file)
    save_source_file(source, file, before.text + "- mine\n", before.sha256, history=history)
    lines = blame_source_file(machine.home, source, file).lines
    assert {(line.actor, line.at) for line in lines[:-1]} == {("claude-code", written_ns // 10**6)}
    assert lines[-1].actor == "user" and lines[-1].at > written_ns // 10**6
