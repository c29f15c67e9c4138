"""EditorPanel: sha-checked saves, conflicts, disk changes, the save guard
(test_editor_fields.py: read-only files, the description field, preview)."""

from __future__ import annotations

import errno
import threading
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from gui import editor_support
from gui.editor_support import (
    NOTES,
    ORIGINAL,
    OTHER,
    disk_text,
    open_loaded,
    patch_choice,
    ref,
    replace_in_buffer,
    saved,
    settle,
    show_and_focus,
    type_at_end,
    wait_saved,
    write_disk,
)
from memtab.components import text_diff
from memtab.components.activity.own_writes import OwnWrites
from memtab.components.editor.leaving import DiscardChoice
from memtab.components.editor.session import BarKind
from memtab.components.jobs import JobContext
from memtab.components.text_diff import DiffResult, LineKind
from memtab.file_protocol.memory_file import MuxFile
from memtab.gui.editor.editor import EditorPanel
from memtab.gui.editor.text.view import EDITOR_ACCESSIBLE_NAME
from memtab.store.files import MAX_FILE_BYTES, content_sha256
from memtab.store.history.blobs import BlobStore
from memtab.store.home import Home
from memtab.store.paths import parse_virtual_path
from memtab.store.scopes.memory import MemoryStore

# Showing a top-level window on the offscreen platform logs this harmless warning.

store = editor_support.store
own_writes = editor_support.own_writes
panel = editor_support.panel


# --- opening -------------------------------------------------------------------------------


def test_open_file_shows_path_text_and_accessible_names(
    panel: EditorPanel, qtbot: QtBot, store: MemoryStore
) -> None:
    with qtbot.waitSignal(panel.file_opened) as opened:
        open_loaded(qtbot, panel, NOTES)
    assert opened.args == [ref(NOTES)]
    assert panel.current_path == NOTES
    assert panel.buffer_text() == ORIGINAL
    assert not panel.is_dirty
    assert panel.text_edit.accessibleName() == EDITOR_ACCESSIBLE_NAME == "Memory file content"
    assert panel.description_edit.accessibleName() == "Description"
    assert panel.save_button.accessibleName() == "Save"
    assert panel.preview.accessibleName() == "Markdown preview"
    path_labels = [
        w
        for w in panel.findChildren(QLabel)
        if w.accessibleName() == "Memory file path" and w.isVisibleTo(panel)
    ]
    assert len(path_labels) == 1
    # The tooltip also says where the file really is.
    real = panel.real_path
    assert real == store.physical(NOTES)
    assert path_labels[0].toolTip() == f"/memories/global/notes.md\nOn disk: {real}"
    assert not panel.save_button.isEnabled()


def test_close_file_goes_back_to_the_empty_state(panel: EditorPanel, qtbot: QtBot) -> None:
    open_loaded(qtbot, panel, NOTES)
    with qtbot.waitSignal(panel.file_closed):
        panel.close_tab(panel.current_tab)
    assert panel.current_path is None
    assert panel.buffer_text() == ""
    assert not panel.is_dirty


def test_set_store_for_another_workspace_closes_the_file(
    qtbot: QtBot, panel: EditorPanel, store: MemoryStore, tmp_path: Path
) -> None:
    open_loaded(qtbot, panel, NOTES)
    panel.set_store(MemoryStore(store.home))  # same home, same (no) workspace: stays open
    assert panel.current_path == NOTES
    panel.set_store(MemoryStore(Home(tmp_path / "elsewhere")))
    assert panel.current_path is None


def test_unreadable_path_opens_with_an_error_in_the_bar(qtbot: QtBot, panel: EditorPanel) -> None:
    missing = parse_virtual_path("/memories/global/missing.md")
    open_loaded(qtbot, panel, missing)
    assert panel.message_bar.isVisibleTo(panel)
    assert panel.message_bar.kind is BarKind.ERROR
    assert "No memory file" in panel.message_bar.text
    assert panel.is_read_only


# --- saving ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "modifiers"),
    [
        (Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier),
        (Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier),
        (
            Qt.Key.Key_Enter,
            Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.KeypadModifier,
        ),
    ],
    ids=["ctrl+s", "ctrl+return", "ctrl+keypad-enter"],
)
def test_keyboard_save_writes_the_file_and_notes_the_own_write(
    panel: EditorPanel,
    store: MemoryStore,
    own_writes: OwnWrites,
    qtbot: QtBot,
    key: Qt.Key,
    modifiers: Qt.KeyboardModifier,
) -> None:
    open_loaded(qtbot, panel, NOTES)
    show_and_focus(qtbot, panel)
    type_at_end(qtbot, panel, "- third")
    assert panel.is_dirty and panel.save_button.isEnabled()
    with qtbot.waitSignal(panel.saved) as saved:
        qtbot.keyClick(panel.text_edit, key, modifiers)
    assert saved.args == [ref(NOTES)]
    # The file ends with a line break, so a line an agent appends starts on its own.
    assert disk_text(store) == ORIGINAL + "- third\n"
    assert panel.buffer_text() == ORIGINAL + "- third\n"
    assert not panel.is_dirty
    assert not panel.save_button.isEnabled()
    sha = content_sha256(ORIGINAL + "- third\n")
    assert own_writes.is_own(NOTES, sha)
    assert own_writes.is_own(store.physical(NOTES), sha)
    assert not own_writes.is_own(NOTES, content_sha256("someone else's text"))


def test_a_line_an_agent_appends_after_a_save_starts_on_its_own_line(
    panel: EditorPanel, store: MemoryStore, qtbot: QtBot
) -> None:
    open_loaded(qtbot, panel, NOTES)
    type_at_end(qtbot, panel, "- my last line")  # no line break typed after it
    assert saved(qtbot, panel)
    with store.physical(NOTES).open("a", encoding="utf-8") as notes:
        notes.write("- the agent's line\n")  # echo "- the agent's line" >> notes.md
    assert disk_text(store).endswith("\n- my last line\n- the agent's line\n")


def test_save_button_saves_and_a_second_save_is_checked_against_the_new_sha(
    panel: EditorPanel, store: MemoryStore, qtbot: QtBot
) -> None:
    open_loaded(qtbot, panel, NOTES)
    type_at_end(qtbot, panel, "one")
    qtbot.mouseClick(panel.save_button, Qt.MouseButton.LeftButton)
    wait_saved(qtbot, panel)
    assert disk_text(store) == ORIGINAL + "one\n"
    qtbot.keyClicks(panel.text_edit, " two")  # the cursor stayed where it was typing
    assert saved(qtbot, panel)
    assert disk_text(store) == ORIGINAL + "one two\n"
    assert not panel.message_bar.isVisibleTo(panel)


def test_dirty_changed_is_emitted_on_edit_and_save(panel: EditorPanel, qtbot: QtBot) -> None:
    open_loaded(qtbot, panel, NOTES)
    with qtbot.waitSignal(panel.dirty_changed) as became_dirty:
        type_at_end(qtbot, panel, "x")
    assert became_dirty.args == [True]
    with qtbot.waitSignal(panel.dirty_changed) as became_clean:
        saved(qtbot, panel)
    assert became_clean.args == [False]


def test_cap_error_is_shown_inline_and_keeps_the_draft(
    panel: EditorPanel, store: MemoryStore, qtbot: QtBot
) -> None:
    open_loaded(qtbot, panel, NOTES)
    panel.text_edit.moveCursor(QTextCursor.MoveOperation.End)
    panel.text_edit.insertPlainText("x" * MAX_FILE_BYTES)
    big = ORIGINAL + "x" * MAX_FILE_BYTES
    assert not saved(qtbot, panel)
    assert panel.message_bar.kind is BarKind.ERROR
    assert panel.message_bar.isVisibleTo(panel)
    assert f"limited to {MAX_FILE_BYTES} bytes" in panel.message_bar.text
    assert disk_text(store) == ORIGINAL
    assert panel.is_dirty
    assert panel.buffer_text() == big


def test_crlf_files_stay_crlf_and_bom_is_kept(
    panel: EditorPanel, store: MemoryStore, qtbot: QtBot
) -> None:
    store.physical(NOTES).write_bytes("\ufeff# Title\r\n\r\nline\r\n".encode())
    open_loaded(qtbot, panel, NOTES)
    assert panel.buffer_text() == "# Title\n\nline\n"
    panel.text_edit.appendPlainText("more")
    assert saved(qtbot, panel)
    expected = "\ufeff# Title\r\n\r\nline\r\n\r\nmore\r\n"
    assert store.physical(NOTES).read_bytes() == expected.encode()


def test_non_breaking_spaces_survive_a_save(
    panel: EditorPanel, store: MemoryStore, qtbot: QtBot
) -> None:
    write_disk(store, "a\u00a0b\n")
    open_loaded(qtbot, panel, NOTES)
    panel.text_edit.moveCursor(QTextCursor.MoveOperation.End)
    panel.text_edit.insertPlainText("c")
    assert saved(qtbot, panel)
    assert disk_text(store) == "a\u00a0b\nc\n"


# --- conflicts on save -------------------------------------------------------------------------

DRAFT_LINE = "- my draft line\n"
THEIRS = ORIGINAL + "- their line\n"


def make_conflict(panel: EditorPanel, store: MemoryStore, qtbot: QtBot, kind: str) -> str:
    """Bring the panel into a save conflict of `kind`; return the draft."""
    open_loaded(qtbot, panel, NOTES)
    if kind == "changed":
        write_disk(store, THEIRS)
    elif kind == "missing":
        store.physical(NOTES).unlink()
    elif kind == "exists":
        store.physical(NOTES).unlink()
        panel.follow_changes({ref(NOTES)})  # now a draft of a deleted file
        settle(qtbot, panel)
        write_disk(store, THEIRS)  # ... recreated by someone else, unseen yet
    type_at_end(qtbot, panel, DRAFT_LINE)
    draft = panel.buffer_text()
    assert not saved(qtbot, panel)
    assert panel.message_bar.kind is BarKind.WARNING
    assert "Your draft is kept" in panel.message_bar.text
    assert panel.buffer_text() == draft
    assert panel.is_dirty
    return draft


CONFLICT_MESSAGES = {
    "changed": "changed since it was loaded",
    "missing": "no longer exists",
    "exists": "already exists",
}


@pytest.mark.parametrize("kind", ["changed", "missing", "exists"])
def test_conflict_bar_offers_the_right_actions_and_never_touches_the_file(
    panel: EditorPanel, store: MemoryStore, qtbot: QtBot, kind: str
) -> None:
    make_conflict(panel, store, qtbot, kind)
    assert CONFLICT_MESSAGES[kind] in panel.message_bar.text
    if kind == "missing":
        # Nothing on disk to reload: Recreate (an overwrite against nothing) instead.
        assert panel.message_bar.action_ids() == ["show_diff", "overwrite"]
        assert panel.message_bar.button("overwrite").text() == "Recreate"
        assert not store.physical(NOTES).exists()
    else:
        assert panel.message_bar.action_ids() == ["show_diff", "overwrite", "reload"]
        assert disk_text(store) == THEIRS


def test_the_watcher_seeing_the_change_keeps_the_save_conflict_bar(
    panel: EditorPanel, store: MemoryStore, qtbot: QtBot
) -> None:
    """The save found the disk changed and said so; the watcher's later news of that same
    change does not replace "Not saved" and its choices with a vaguer question."""
    make_conflict(panel, store, qtbot, "changed")
    panel.follow_changes({ref(NOTES)})
    settle(qtbot, panel)
    assert CONFLICT_MESSAGES["changed"] in panel.message_bar.text
    assert panel.message_bar.action_ids() == ["show_diff", "overwrite", "reload"]


class _Relisted(MuxFile):
    """The same file as a rescan lists it again: equal in ref, a new object unequal to the
    one the tab holds (as another agent's file is when its writability is read again)."""

    def __eq__(self, other: object) -> bool:
        return self is other

    __hash__ = MuxFile.__hash__


def test_a_save_counts_when_a_rescan_hands_the_tab_its_file_anew_meanwhile(
    panel: EditorPanel, store: MemoryStore, qtbot: QtBot
) -> None:
    open_loaded(qtbot, panel, NOTES)
    type_at_end(qtbot, panel, "mine")
    outcome: list[bool] = []
    panel.save(outcome.append)  # on the file channel: lands after the rescan below
    relisted = _Relisted(store, NOTES)
    panel.follow_changes(set(), lambda found: relisted if found == ref(NOTES) else None)
    qtbot.waitUntil(lambda: bool(outcome))
    assert outcome == [True] and not panel.is_dirty
    panel.follow_changes({ref(NOTES)})  # the watcher's echo of the save
    settle(qtbot, panel)
    assert not panel.message_bar.isVisibleTo(panel)
    assert disk_text(store) == ORIGINAL + "mine\n"


@pytest.mark.parametrize("kind", ["changed", "exists"])
def test_conflict_reload_takes_the_disk_version_and_the_draft_can_be_restored(
    panel: EditorPanel, store: MemoryStore, qtbot: QtBot, kind: str
) -> None:
    draft = make_conflict(panel, store, qtbot, kind)
    panel.message_bar.button("reload").click()
    settle(qtbot, panel)
    assert panel.buffer_text() == THEIRS
    assert not panel.is_dirty
    assert panel.message_bar.action_ids() == ["restore_draft"]
    panel.message_bar.button("restore_draft").click()
    assert panel.buffer_text() == draft
    assert panel.is_dirty
    assert saved(qtbot, panel)  # now based on their version: saves without a conflict
    assert disk_text(store) == draft


def test_reload_is_undoable_too(panel: EditorPanel, store: MemoryStore, qtbot: QtBot) -> None:
    draft = make_conflict(panel, store, qtbot, "changed")
    panel.message_bar.button("reload").click()
    settle(qtbot, panel)
    panel.text_edit.undo()
    assert panel.buffer_text() == draft
    assert panel.is_dirty


@pytest.mark.parametrize("kind", ["changed", "missing", "exists"])
def test_conflict_overwrite_saves_the_draft_over_the_disk(
    panel: EditorPanel, store: MemoryStore, qtbot: QtBot, kind: str
) -> None:
    draft = make_conflict(panel, store, qtbot, kind)
    with qtbot.waitSignal(panel.saved):
        panel.message_bar.button("overwrite").click()
        settle(qtbot, panel)
    assert disk_text(store) == draft
    assert not panel.is_dirty
    assert not panel.message_bar.isVisibleTo(panel)


@pytest.mark.parametrize("kind", ["changed", "missing", "exists"])
def test_conflict_show_diff_compares_disk_with_the_draft(
    panel: EditorPanel, store: MemoryStore, qtbot: QtBot, kind: str
) -> None:
    draft = make_conflict(panel, store, qtbot, kind)
    panel.message_bar.button("show_diff").click()
    settle(qtbot, panel)
    dialog = panel.diff_dialog
    assert dialog is not None and dialog.isVisible()
    qtbot.waitUntil(lambda: dialog.view.result is not None)
    result = dialog.view.result
    assert result is not None
    added = [line.text for line in result.lines if line.kind is LineKind.ADDED]
    removed = [line.text for line in result.lines if line.kind is LineKind.REMOVED]
    if kind == "missing":
        assert added == draft.splitlines() and removed == []
    else:
        assert "- my draft line" in added and "- their line" in removed
    assert "+" in dialog.view.toPlainText()
    # The draft survives looking at the diff, and the dialog offers the bar's choice.
    assert panel.buffer_text() == draft
    with qtbot.waitSignal(panel.saved):
        dialog.button("overwrite").click()
        settle(qtbot, panel)
    assert disk_text(store) == draft


def test_diff_is_computed_on_the_worker_thread(
    panel: EditorPanel, store: MemoryStore, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads: list[threading.Thread] = []
    real = text_diff.compute_diff

    def watched(old: str, new: str, ctx: JobContext | None = None) -> DiffResult:
        threads.append(threading.current_thread())
        return real(old, new, ctx)

    monkeypatch.setattr(text_diff, "compute_diff", watched)
    make_conflict(panel, store, qtbot, "changed")
    panel.show_diff()
    settle(qtbot, panel)
    dialog = panel.diff_dialog
    assert dialog is not None
    qtbot.waitUntil(lambda: dialog.view.result is not None)
    assert len(threads) == 1
    assert threads[0] is not threading.main_thread()


# --- disk changes --------------------------------------------------------------------------


def test_clean_buffer_reloads_silently_keeping_the_cursor(
    panel: EditorPanel, store: MemoryStore, qtbot: QtBot
) -> None:
    open_loaded(qtbot, panel, NOTES)
    cursor = panel.text_edit.textCursor()
    cursor.setPosition(ORIGINAL.index("# Notes") + 3)
    panel.text_edit.setTextCursor(cursor)
    write_disk(store, THEIRS)
    with qtbot.assertNotEmitted(panel.dirty_changed):
        panel.follow_changes({ref(NOTES)})
        settle(qtbot, panel)
    assert panel.buffer_text() == THEIRS
    assert not panel.is_dirty
    assert not panel.message_bar.isVisibleTo(panel)
    assert panel.text_edit.textCursor().position() == ORIGINAL.index("# Notes") + 3
    # ... and the next save is checked against the reloaded version.
    type_at_end(qtbot, panel, "x")
    assert saved(qtbot, panel)


def test_unrelated_changes_and_own_save_echoes_are_ignored(
    panel: EditorPanel, store: MemoryStore, qtbot: QtBot
) -> None:
    open_loaded(qtbot, panel, NOTES)
    type_at_end(qtbot, panel, "mine")
    panel.follow_changes({ref(OTHER)})
    settle(qtbot, panel)
    assert panel.is_dirty
    assert saved(qtbot, panel)
    panel.follow_changes({ref(NOTES)})  # the watcher's echo of our save
    settle(qtbot, panel)
    assert not panel.message_bar.isVisibleTo(panel)
    assert panel.buffer_text() == ORIGINAL + "mine\n"


def make_dirty_disk_change(panel: EditorPanel, store: MemoryStore, qtbot: QtBot) -> str:
    open_loaded(qtbot, panel, NOTES)
    type_at_end(qtbot, panel, DRAFT_LINE)
    draft = panel.buffer_text()
    write_disk(store, THEIRS)
    panel.follow_changes({ref(NOTES)})
    settle(qtbot, panel)
    assert panel.message_bar.isVisibleTo(panel)
    assert "changed on disk" in panel.message_bar.text
    assert panel.message_bar.action_ids() == ["show_diff", "keep_mine", "take_theirs"]
    assert panel.buffer_text() == draft
    return draft


def test_dirty_buffer_changed_on_disk_keep_mine(
    panel: EditorPanel, store: MemoryStore, qtbot: QtBot
) -> None:
    draft = make_dirty_disk_change(panel, store, qtbot)
    panel.message_bar.button("keep_mine").click()
    settle(qtbot, panel)
    assert panel.buffer_text() == draft
    assert panel.is_dirty
    assert not panel.message_bar.isVisibleTo(panel)
    assert disk_text(store) == THEIRS  # nothing written until Save
    assert saved(qtbot, panel)  # no conflict: the draft is now based on their version
    assert disk_text(store) == draft


def test_dirty_buffer_changed_on_disk_take_theirs(
    panel: EditorPanel, store: MemoryStore, qtbot: QtBot
) -> None:
    draft = make_dirty_disk_change(panel, store, qtbot)
    panel.message_bar.button("take_theirs").click()
    settle(qtbot, panel)
    assert panel.buffer_text() == THEIRS
    assert not panel.is_dirty
    assert panel.message_bar.action_ids() == ["restore_draft"]
    panel.message_bar.button("restore_draft").click()
    assert panel.buffer_text() == draft


def test_dirty_buffer_changed_on_disk_show_diff_offers_keep_and_take(
    panel: EditorPanel, store: MemoryStore, qtbot: QtBot
) -> None:
    make_dirty_disk_change(panel, store, qtbot)
    panel.message_bar.button("show_diff").click()
    settle(qtbot, panel)
    dialog = panel.diff_dialog
    assert dialog is not None
    qtbot.waitUntil(lambda: dialog.view.result is not None)
    dialog.button("take_theirs").click()
    settle(qtbot, panel)
    assert panel.buffer_text() == THEIRS
    assert panel.diff_dialog is None


def test_disk_catching_up_with_the_draft_makes_it_clean(
    panel: EditorPanel, store: MemoryStore, qtbot: QtBot
) -> None:
    open_loaded(qtbot, panel, NOTES)
    type_at_end(qtbot, panel, "same")
    write_disk(store, ORIGINAL + "same")
    panel.follow_changes({ref(NOTES)})
    settle(qtbot, panel)
    assert not panel.is_dirty
    assert not panel.message_bar.isVisibleTo(panel)


def test_deleted_file_keeps_the_draft_and_save_recreates_it(
    panel: EditorPanel, store: MemoryStore, qtbot: QtBot
) -> None:
    open_loaded(qtbot, panel, NOTES)
    type_at_end(qtbot, panel, DRAFT_LINE)
    draft = panel.buffer_text()
    store.physical(NOTES).unlink()
    panel.follow_changes({ref(NOTES)})
    settle(qtbot, panel)
    assert "deleted" in panel.message_bar.text
    assert panel.buffer_text() == draft
    assert panel.is_dirty
    assert saved(qtbot, panel)
    assert disk_text(store) == draft
    assert not panel.message_bar.isVisibleTo(panel)


def test_deleted_clean_file_still_counts_as_unsaved_and_can_be_closed(
    panel: EditorPanel, store: MemoryStore, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    open_loaded(qtbot, panel, NOTES)
    store.physical(NOTES).unlink()
    with qtbot.waitSignal(panel.dirty_changed) as dirty:
        panel.follow_changes({ref(NOTES)})
        settle(qtbot, panel)
    assert dirty.args == [True]
    asked = patch_choice(monkeypatch, panel, DiscardChoice.DISCARD)
    panel.message_bar.button("close_file").click()
    assert asked == [["notes.md"]]
    assert panel.current_path is None


def test_file_turning_binary_under_a_draft_never_drops_the_draft(
    panel: EditorPanel, store: MemoryStore, qtbot: QtBot
) -> None:
    open_loaded(qtbot, panel, NOTES)
    type_at_end(qtbot, panel, DRAFT_LINE)
    draft = panel.buffer_text()
    store.physical(NOTES).write_bytes(b"now\x00binary")
    panel.follow_changes({ref(NOTES)})
    settle(qtbot, panel)
    assert "changed on disk" in panel.message_bar.text
    panel.message_bar.button("take_theirs").click()
    settle(qtbot, panel)
    assert panel.message_bar.kind is BarKind.ERROR
    assert "cannot be loaded for editing" in panel.message_bar.text
    assert panel.buffer_text() == draft
    assert not panel.is_read_only


def test_clean_buffer_of_a_file_turning_binary_follows_read_only(
    qtbot: QtBot, panel: EditorPanel, store: MemoryStore
) -> None:
    open_loaded(qtbot, panel, NOTES)
    store.physical(NOTES).write_bytes(b"now\x00binary")
    panel.follow_changes({ref(NOTES)})
    settle(qtbot, panel)
    assert panel.is_read_only
    assert "NUL" in panel.message_bar.text


def _disk_full(*_args: object, **_kwargs: object) -> None:
    raise OSError(errno.ENOSPC, "No space left on device")


@pytest.mark.expect_log("memtab.store.history.recorder", "WARNING", r"saved without a copy")
@pytest.mark.expect_log("memtab.store.history.recorder", "WARNING", r"Could not record")
def test_a_save_history_cannot_keep_a_copy_for_is_refused_until_chosen(
    panel: EditorPanel, store: MemoryStore, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_disk(store, "their rewrite, not in history\n")
    open_loaded(qtbot, panel, NOTES)
    replace_in_buffer(panel, "their rewrite", "mine")
    monkeypatch.setattr(BlobStore, "put", _disk_full)
    assert not saved(qtbot, panel)
    assert panel.message_bar.kind is BarKind.ERROR
    assert panel.message_bar.text.startswith(
        f"Not saved: {NOTES} was not saved: history cannot keep a copy of what it holds "
        f"(the disk holding {store.home.history_dir} is full). Your draft is kept"
    )
    assert panel.message_bar.action_ids() == ["save_without_copy"]
    assert disk_text(store) == "their rewrite, not in history\n"
    assert panel.is_dirty

    with qtbot.waitSignal(panel.saved):
        panel.message_bar.button("save_without_copy").click()
    assert disk_text(store) == "mine, not in history\n"
    assert not panel.is_dirty
