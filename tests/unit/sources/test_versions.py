"""Memtab's history of other agents' files: what a save, a copy and the undo of a copy
wrote over is kept in the home's history, and a version comes back."""

from __future__ import annotations

import pytest

from memtab.components.files.undo import UndoStack, restore_version, undo_step
from memtab.sources.agent_file import AgentFile, SourceVersions, index_key
from memtab.sources.agent_file import restore_version as restore_agent_version
from memtab.sources.content import read_source_file, remove_created_file, save_source_file
from memtab.sources.copy import CopyOrigin, copy_note
from memtab.sources.listing import source_file
from memtab.sources.model import ReadOnlyError
from memtab.store.history.prune import HistoryLimits, prune
from memtab.store.history.versions import ScopeHistory
from memtab.store.restore.from_history import HistoryError, content_of
from memtab.store.scopes.memory import SaveConflictError
from support.agent_machine import Machine
from support.codex_home import ROLLOUT

from .helpers import file_in


def test_a_save_keeps_what_it_wrote_over_and_what_the_agent_wrote_before(
    machine: Machine,
) -> None:
    history = SourceVersions(machine.home)
    source, file = file_in(machine, "claude-code:user", "CLAUDE.md")
    original = file.physical.read_bytes()
    loaded = read_source_file(source, file)
    save_source_file(source, file, "mine\n", loaded.sha256, history=history)
    file.physical.write_text("Claude Code's rewrite\n", encoding="utf-8")  # not Memtab
    again = read_source_file(source, file)
    save_source_file(source, file, "mine again\n", again.sha256, history=history)
    versions = history.versions(file.id)
    assert [(v.op, v.actor) for v in versions] == [
        ("edit", "user"),
        ("edit", "external"),  # recorded before Memtab wrote over it
        ("edit", "user"),
        ("seen", "external"),  # what the file held when Memtab first wrote it
    ]
    assert content_of(machine.home, versions[-1]) == original
    assert content_of(machine.home, versions[1]) == b"Claude Code's rewrite\n"
    assert all(v.path == file.id for v in versions)
    assert ScopeHistory(machine.home, index_key(source.id)).versions()  # its own index
    assert not (machine.home.history_index_dir / "global.jsonl").exists()


def test_a_version_comes_back_only_over_what_was_loaded(machine: Machine) -> None:
    history = SourceVersions(machine.home)
    source, file = file_in(machine, "claude-code:user", "CLAUDE.md")
    original = file.physical.read_bytes()
    save_source_file(source, file, "mine\n", read_source_file(source, file).sha256, history=history)
    first = history.versions(file.id)[-1]
    assert restore_agent_version(history, source, file.id, first.id)
    assert file.physical.read_bytes() == original
    assert history.versions(file.id)[0].op == "restore"
    assert history.versions(file.id)[0].restored_from == first.id
    assert not restore_agent_version(history, source, file.id, first.id)  # already holds it
    with pytest.raises(HistoryError, match="No version 'nope'"):
        restore_agent_version(history, source, file.id, "nope")


def test_a_copy_and_its_removal_are_recorded_and_the_copy_can_come_back(
    machine: Machine,
) -> None:
    history = SourceVersions(machine.home)
    source, _file = file_in(machine, "claude-code:user", "CLAUDE.md")
    origin = CopyOrigin("/memories/global/tips.md", "---\ndescription: Tips\n---\n# Tips\n", "tips")
    copied = copy_note(origin, "rules/tips.md", source=source, history=history)
    file = source_file(source, "rules/tips.md")
    assert file is not None and copied.target == file.id
    remove_created_file(source, file, copied.sha256, history=history)
    assert not file.physical.exists()
    versions = history.versions(file.id)
    assert [(v.op, v.deleted) for v in versions] == [("delete", True), ("create", False)]
    assert restore_agent_version(history, source, file.id, versions[0].id)  # the deleted content
    assert file.physical.read_text(encoding="utf-8") == copied.content


def test_read_only_files_are_not_restored_and_pruning_keeps_the_newest(
    machine: Machine,
) -> None:
    history = SourceVersions(machine.home)
    source, file = file_in(machine, "codex:memories", ROLLOUT)
    assert not file.writable
    assert history.versions(file.id) == []
    source_w, writable = file_in(machine, "claude-code:user", "CLAUDE.md")
    save_source_file(
        source_w, writable, "x\n", read_source_file(source_w, writable).sha256, history=history
    )
    history.record(file, None, file.physical.read_bytes(), "seen")  # as if once written
    (seen,) = history.versions(file.id)
    with pytest.raises(ReadOnlyError):
        restore_agent_version(history, source, file.id, seen.id)
    prune(machine.home, HistoryLimits(max_bytes=1, max_age_days=0))
    assert history.versions(writable.id)  # the newest version of each file stays
    with pytest.raises(SaveConflictError):
        save_source_file(source_w, writable, "y\n", "0" * 64, history=history)


def test_undoing_a_restore_brings_back_what_it_replaced_unless_changed_since(
    machine: Machine,
) -> None:
    history = SourceVersions(machine.home)
    source, file = file_in(machine, "claude-code:user", "CLAUDE.md")
    original = file.physical.read_text(encoding="utf-8")
    save_source_file(source, file, "mine\n", read_source_file(source, file).sha256, history=history)
    first = history.versions(file.id)[-1]
    stack = UndoStack()
    agent_file = AgentFile(source, file, history)
    assert restore_version(stack, agent_file, first.id).ok
    assert file.physical.read_text(encoding="utf-8") == original
    step = stack.pop()
    assert step is not None and step.description == "restore of CLAUDE.md"
    assert undo_step(machine.home, step).ok
    assert file.physical.read_text(encoding="utf-8") == "mine\n"
    restore_version(stack, agent_file, first.id)
    file.physical.write_text("Claude Code's rewrite\n", encoding="utf-8")
    step = stack.pop()
    assert step is not None
    refused = undo_step(machine.home, step)
    assert not refused.ok and "changed since" in (refused.error or "")
    assert file.physical.read_text(encoding="utf-8") == "Claude Code's rewrite\n"
