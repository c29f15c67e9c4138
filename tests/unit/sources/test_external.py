"""Other agents' files changed outside Memtab, recorded in their source's history."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from memtab.sources import external
from memtab.sources.agent_file import SourceVersions
from memtab.sources.content import SourceContent, read_source_file, save_source_file
from memtab.sources.discovery import discover
from memtab.sources.listing import list_source
from memtab.sources.model import Source, SourceFile
from memtab.store.restore.from_history import content_of
from memtab.watch.events import change_events, restore_event
from support.agent_machine import Machine

from .helpers import file_in

HOUR_NS = 3600 * 1_000_000_000


def passes_at(monkeypatch: pytest.MonkeyPatch, *, later_ns: int = 0) -> None:
    """Recording passes from here on run at this moment, `later_ns` on (a file written before it
    then modified that long before: a ctime cannot be set back)."""
    fixed_ms = (time.time_ns() + later_ns) // 1_000_000
    monkeypatch.setattr(external, "now_ms", lambda: fixed_ms)


def rewrite_keeping_stat(path: Path, text: str) -> None:
    """What a coarse clock does: new content of the same size under the same mtime."""
    before = path.stat()
    assert len(text.encode()) == before.st_size
    path.write_text(text, "utf-8")
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))


def recorded_contents(machine: Machine, file: SourceFile) -> list[bytes]:
    """What history holds of `file`, oldest first."""
    versions = reversed(SourceVersions(machine.home).versions(file.id))
    return [content_of(machine.home, version) for version in versions]


def counted_reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The ids of the files recording passes read from here on."""
    reads: list[str] = []

    def counted(source: Source, file: SourceFile) -> SourceContent:
        reads.append(file.id)
        return read_source_file(source, file)

    monkeypatch.setattr(external, "read_source_file", counted)
    return reads


def test_a_same_size_rewrite_under_the_recorded_stat_is_recorded(machine: Machine) -> None:
    source, file = file_in(machine, "claude-code:user", "CLAUDE.md")
    file.physical.write_text("- one\n", "utf-8")
    external.record_source_external(machine.home, list_source(source))  # the baseline
    rewrite_keeping_stat(file.physical, "+ one\n")
    assert external.record_source_external(machine.home, list_source(source)).recorded == 1
    assert recorded_contents(machine, file) == [b"- one\n", b"+ one\n"]


def test_an_unchanged_content_read_too_soon_is_not_vouched_for_by_its_stat(
    machine: Machine,
) -> None:
    source, file = file_in(machine, "claude-code:user", "CLAUDE.md")
    file.physical.write_text("- one\n", "utf-8")
    old = time.time_ns() - HOUR_NS
    os.utime(file.physical, ns=(old, old))
    external.record_source_external(machine.home, list_source(source))  # the baseline
    file.physical.write_text("- one\n", "utf-8")  # touched: a new mtime, the same content
    assert not external.record_source_external(machine.home, list_source(source)).changed
    rewrite_keeping_stat(file.physical, "+ one\n")
    assert external.record_source_external(machine.home, list_source(source)).recorded == 1
    assert recorded_contents(machine, file) == [b"- one\n", b"+ one\n"]


def test_a_file_recorded_as_it_changed_is_read_until_it_is_old(
    machine: Machine, monkeypatch: pytest.MonkeyPatch
) -> None:
    source, file = file_in(machine, "claude-code:user", "CLAUDE.md")
    listed = sorted(listed.id for listed in list_source(source).files)
    assert file.id in listed
    passes_at(monkeypatch)
    external.record_source_external(machine.home, list_source(source))  # the baseline
    reads = counted_reads(monkeypatch)
    assert not external.record_source_external(machine.home, list_source(source)).changed
    assert sorted(reads) == listed  # modified as their versions were recorded: stat cannot tell
    passes_at(monkeypatch, later_ns=HOUR_NS)
    reads.clear()
    assert not external.record_source_external(machine.home, list_source(source)).changed
    assert sorted(reads) == listed  # old by now: read once more, as of a pass that can vouch
    for _ in range(3):
        assert not external.record_source_external(machine.home, list_source(source)).changed
    assert sorted(reads) == listed  # then their stat vouches for them


def test_a_file_memtab_saved_is_read_once_not_at_every_pass(
    machine: Machine, monkeypatch: pytest.MonkeyPatch
) -> None:
    source, file = file_in(machine, "claude-code:user", "CLAUDE.md")
    history = SourceVersions(machine.home)
    passes_at(monkeypatch, later_ns=HOUR_NS)  # the passes long after the files' writes
    external.record_source_external(machine.home, list_source(source))  # the baseline
    shown = read_source_file(source, file)
    save_source_file(source, file, shown.text + "- more\n", shown.sha256, history=history)
    reads = counted_reads(monkeypatch)
    for _ in range(3):
        report = external.record_source_external(machine.home, list_source(source))
        assert not report.changed  # Memtab's own save: recorded already, as the user's
    assert reads == [file.id]
    assert [(v.actor, v.op) for v in history.versions(file.id)] == [
        ("user", "edit"),
        ("external", "seen"),
    ]


def test_files_restored_after_the_listing_are_not_recorded_deleted_again(
    machine: Machine, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A recording pass lists the source, then reads history: a restore between the two
    # (Recently deleted's Restore all, on another thread) is history's newest version of
    # each file, yet missing from the listing.
    monkeypatch.setenv("HOME", str(machine.user))  # where the restore finds the source
    (source,) = [
        s for s in discover(machine.context()).sources if s.root == machine.claude_memory.parent
    ]
    topics = [machine.claude_memory / f"topic_{index}.md" for index in range(3)]
    for topic in topics:
        topic.write_text(f"# {topic.stem}\n", "utf-8")
    external.record_source_external(machine.home, list_source(source))
    for topic in topics:
        topic.unlink()
    assert external.record_source_external(machine.home, list_source(source)).deleted == 3
    listed_before = list_source(source)
    (burst,) = change_events(machine.home, min_files=2)
    assert len(restore_event(machine.home, burst).restored) == 3
    report = external.record_source_external(machine.home, listed_before)
    assert report.deleted == 0 and all(topic.exists() for topic in topics)
    (burst,) = change_events(machine.home, min_files=2)  # no burst of deletions after it
    assert burst.restored_words() == "restored"


def test_a_file_deleted_between_its_listing_and_its_read_is_no_problem(
    machine: Machine, monkeypatch: pytest.MonkeyPatch
) -> None:
    # An agent deleting its memory while a pass records it: the file was listed and
    # stat'ed, then gone when read. The next pass records it deleted.
    source, file = file_in(machine, "claude-code:user", "CLAUDE.md")
    listing = list_source(source)

    def deleted_first(source: Source, file: SourceFile) -> SourceContent:
        file.physical.unlink()
        return read_source_file(source, file)

    monkeypatch.setattr(external, "read_source_file", deleted_first)
    report = external.record_source_external(machine.home, listing)
    assert report.problems == [] and not report.changed and not file.physical.exists()
    monkeypatch.undo()
    assert external.record_source_external(machine.home, list_source(source)).problems == []
