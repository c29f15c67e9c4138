"""The Memory tab's open file through rescans and file operations, without Qt
(`components.memory_tab`)."""

from __future__ import annotations

from pathlib import Path

from memtab.components.files.ops import OpResult
from memtab.components.memory_tab import (
    UNSAVED_MARK,
    FileFollowUps,
    OpShown,
    op_shown,
    remembered_ref,
    tabs_to_reopen,
    unsaved_marks,
)
from memtab.components.tree.nodes import ref_key
from memtab.file_protocol.file_ref import MemoryFileRef
from memtab.store.paths import parse_file_path
from support.memory_home import MAIN, make_home, scanned

NOTES = MemoryFileRef.of_mux(parse_file_path("/memories/global/notes.md"))
TOOLS = MemoryFileRef.of_mux(parse_file_path("/memories/global/tools"))


def test_the_remembered_file_reopens_once_the_workspace_s_tree_is_shown() -> None:
    follow = FileFollowUps()
    assert not follow.reopens(loaded=True, nothing_open=True)  # no workspace shown yet
    follow.workspace_shown()
    assert not follow.reopens(loaded=False, nothing_open=True)  # not before the first scan
    assert follow.reopens(loaded=True, nothing_open=True)
    assert not follow.reopens(loaded=True, nothing_open=True)  # once
    follow.not_shown(sources_shown=False)  # another agent's file: after the sources
    assert not follow.reopens(loaded=True, nothing_open=False)  # one was opened meanwhile
    assert not follow.reopens(loaded=True, nothing_open=True)  # and it stopped waiting
    follow.not_shown(sources_shown=False)
    assert follow.reopens(loaded=True, nothing_open=True)
    follow.not_shown(sources_shown=True)  # gone for good: no waiting
    assert not follow.reopens(loaded=True, nothing_open=True)


def test_what_an_operation_created_is_selected_and_a_new_file_takes_the_typing() -> None:
    follow = FileFollowUps()
    follow.created(OpResult("Moved"), open_created=True, edit_created=True)
    assert follow.to_select is None
    follow.created(OpResult("Created", created=NOTES), open_created=True, edit_created=True)
    assert follow.to_select == (ref_key(NOTES), True)
    follow.selected()
    assert follow.to_select is None
    assert not follow.edits(TOOLS) and follow.edits(NOTES) and not follow.edits(NOTES)
    follow.created(OpResult("Created", created=TOOLS), open_created=False, edit_created=False)
    assert follow.to_select == (ref_key(TOOLS, folder=True), False)


def test_a_result_is_said_asked_about_or_shown_as_an_error() -> None:
    assert op_shown(OpResult("Deleted a.md"), True) == (OpShown.DONE, "Deleted a.md")
    refused = OpResult("Deleting a.md failed", error="no room for a copy", unkept="deleted")
    assert op_shown(refused, True) == (OpShown.ASK_WITHOUT_COPY, "no room for a copy")
    assert op_shown(refused, False) == (
        OpShown.FAILED,
        "Deleting a.md failed: no room for a copy",
    )


def test_only_tabs_with_unsaved_changes_mark_their_rows() -> None:
    marks = unsaved_marks([(NOTES, True), (TOOLS, False), (None, True)])
    assert marks == {ref_key(NOTES): UNSAVED_MARK}


def test_the_remembered_tabs_reopen_in_order_but_those_open_or_unreadable(tmp_path: Path) -> None:
    scan = scanned(make_home(tmp_path / "home"), MAIN)
    git, notes = "/memories/global/tools/git.md", "/memories/global/notes.md"
    assert remembered_ref(git) is not None
    assert remembered_ref("not a key") is None
    keys = [notes, "not a key", git]
    files = tabs_to_reopen(keys, scan, lambda _ref: False)
    assert [file.ref.key for file in files] == [notes, git]  # in order, the unreadable skipped
    reopened = tabs_to_reopen(keys, scan, lambda ref: ref.key == git)  # open already
    assert [file.ref.key for file in reopened] == [notes]
    assert tabs_to_reopen(keys, None, lambda _ref: False) == []  # no tree yet
