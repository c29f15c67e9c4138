"""Moving the lines of Claude Code's MEMORY.md past its cut into a topic file (no Qt): the
topic and the index written together, one Edit → Undo step for both, made again by Redo,
nothing moved when the index changed on disk since it was read (docs/formats.md §17.6)."""

from __future__ import annotations

from pathlib import Path

import pytest

from memtab.components.files.ops import open_file
from memtab.components.files.undo import (
    MovedPastCut,
    UndoStack,
    move_lines_past_cut,
    redo_step,
    undo_step,
)
from memtab.components.tree.scan import HomeScan
from memtab.file_protocol.file_ref import MemoryFileRef
from memtab.file_protocol.memory_file import MemoryFile
from memtab.sources.model import Source
from memtab.store.files import content_sha256
from memtab.store.scopes.memory import MemoryStore
from support.agent_machine import Machine, build_machine, scan_machine


@pytest.fixture
def machine(tmp_path: Path) -> Machine:
    return build_machine(tmp_path)


def memory_index(scan: HomeScan) -> tuple[Source, MemoryFile]:
    assert scan.sources is not None
    source = next(
        listing.source
        for listing in scan.sources.listings
        if listing.source.id.startswith("claude-code:memory-")
    )
    index = open_file(scan, MemoryFileRef(source.id, "memory/MEMORY.md"))
    assert index is not None
    return source, index


def test_the_move_writes_both_files_and_one_undo_takes_both_back(machine: Machine) -> None:
    scan = scan_machine(machine)
    source, index = memory_index(scan)
    on_disk = machine.claude_memory / "MEMORY.md"
    original = on_disk.read_text(encoding="utf-8")
    text = "- typed, not saved\n" + original
    stack = UndoStack()
    store = MemoryStore(machine.home, scan.workspace)
    result = move_lines_past_cut(stack, store, source, index, text, content_sha256(original))
    assert isinstance(result, MovedPastCut) and result.ok, result.error
    topic = machine.claude_memory / "MEMORY-continued.md"
    lines = text.split("\n")
    assert on_disk.read_text(encoding="utf-8") == result.index_text
    assert result.index_text.split("\n")[:199] == lines[:199]
    assert result.index_text.split("\n")[199].startswith(
        "- [More of this index](MEMORY-continued.md)"
    )
    assert topic.read_text(encoding="utf-8").split("---\n\n", 1)[1].split("\n") == lines[199:]
    assert result.message == (
        "Moved the last 51 lines of MEMORY.md into MEMORY-continued.md; line 200 links to it"
    )
    assert {str(topic), str(on_disk)} <= set(result.touched)
    assert [v.sha256 for v in index.versions()][:2] == [
        content_sha256(result.index_text),
        content_sha256(original),
    ]
    assert len(stack) == 1
    step = stack.pop()
    assert step is not None
    undone = undo_step(machine.home, step, stack=stack)
    assert undone.ok, undone.error
    assert on_disk.read_text(encoding="utf-8") == original and not topic.exists()
    again = stack.peek_redo()
    assert again is not None and stack.take_redo(again)
    redone = redo_step(machine.home, again, stack=stack)
    assert redone.ok, redone.error
    assert on_disk.read_text(encoding="utf-8") == result.index_text and topic.exists()


def test_nothing_is_moved_when_the_index_changed_on_disk_since_it_was_read(
    machine: Machine,
) -> None:
    scan = scan_machine(machine)
    source, index = memory_index(scan)
    on_disk = machine.claude_memory / "MEMORY.md"
    original = on_disk.read_text(encoding="utf-8")
    on_disk.write_text(original + "- Claude Code wrote this meanwhile\n", encoding="utf-8")
    stack = UndoStack()
    store = MemoryStore(machine.home, scan.workspace)
    result = move_lines_past_cut(stack, store, source, index, original, content_sha256(original))
    assert not result.ok
    assert result.error == "MEMORY.md changed on disk since it was read; nothing was moved"
    assert on_disk.read_text(encoding="utf-8").endswith("meanwhile\n")
    assert not (machine.claude_memory / "MEMORY-continued.md").exists()
    assert len(stack) == 0


def test_a_text_claude_code_reads_whole_moves_nothing(machine: Machine) -> None:
    scan = scan_machine(machine)
    source, index = memory_index(scan)
    stack = UndoStack()
    store = MemoryStore(machine.home, scan.workspace)
    short = "# Memory\n\n- one\n"
    result = move_lines_past_cut(stack, store, source, index, short, None)
    assert result.error == "Claude Code reads the whole index"
    assert not (machine.claude_memory / "MEMORY-continued.md").exists() and len(stack) == 0
