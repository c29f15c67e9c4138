"""Other agents' files changed outside Memtab, recorded in their source's history."""

from __future__ import annotations

import pytest

from memtab.sources import external
from memtab.sources.agent_file import SourceVersions
from memtab.sources.content import SourceContent, read_source_file, save_source_file
from memtab.sources.listing import list_source
from memtab.sources.model import Source, SourceFile
from support.agent_machine import Machine

from .helpers import file_in


def test_a_file_memtab_saved_is_read_once_not_at_every_pass(
    machine: Machine, monkeypatch: pytest.MonkeyPatch
) -> None:
    source, file = file_in(machine, "claude-code:user", "CLAUDE.md")
    history = SourceVersions(machine.home)
    external.record_source_external(machine.home, list_source(source))  # the baseline
    shown = read_source_file(source, file)
    save_source_file(source, file, shown.text + "- more\n", shown.sha256, history=history)
    reads: list[str] = []

    def counted(source: Source, file: SourceFile) -> SourceContent:
        reads.append(file.id)
        return read_source_file(source, file)

    monkeypatch.setattr(external, "read_source_file", counted)
    for _ in range(3):
        report = external.record_source_external(machine.home, list_source(source))
        assert not report.changed  # Memtab's own save: recorded already, as the user's
    assert reads == [file.id]
    assert [(v.actor, v.op) for v in history.versions(file.id)] == [
        ("user", "edit"),
        ("external", "seen"),
    ]
