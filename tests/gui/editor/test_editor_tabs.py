"""The editor's tabs: VS Code's preview tab, a draft per tab, closing that asks without
blocking, the tab keys, and tabs that follow their files."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication, QLabel, QLineEdit, QMessageBox, QPlainTextEdit
from pytestqt.qtbot import QtBot

from gui import editor_support
from gui.editor_support import (
    NOTES,
    ORIGINAL,
    OTHER,
    disk_text,
    open_loaded,
    patch_choice,
    saved,
    settle,
    show_and_focus,
    type_at_end,
    wait_saved,
    write_disk,
)
from memtab.components.editor.leaving import DiscardChoice
from memtab.components.editor.panel import ViewMode
from memtab.file_protocol.memory_file import MuxFile
from memtab.gui.editor.editor import EditorPanel
from memtab.store.paths import parse_virtual_path
from memtab.store.scopes.memory import MemoryStore
from support.gui_thread_io import GuiThreadIo
from support.memory_paths import vpath

pytestmark = pytest.mark.fsync  # real fsyncs, even in make test-fast

store = editor_support.store
own_writes = editor_support.own_writes
panel = editor_support.panel

THIRD = parse_virtual_path("/memories/global/third.md")


def tab_names(panel: EditorPanel) -> list[str]:
    return [panel.tab_bar.tabText(index) for index in range(panel.tab_bar.count())]


def empty_states_shown(panel: EditorPanel) -> list[QLabel]:
    return [
        label
        for label in panel.findChildren(QLabel)
        if label.text() == "Select a memory file to view or edit it." and label.isVisible()
    ]


# --- no tab open -------------------------------------------------------------------------------


def test_with_no_tab_open_no_text_is_built_until_one_is_asked_for(
    qtbot: QtBot, panel: EditorPanel
) -> None:
    """The empty state answers what is open without a text of its own; the first file
    opened builds its tab's text alone; the current text asked for with no tab open is the
    empty page's, built then and shown, saying what the empty state says."""
    panel.show()
    assert len(empty_states_shown(panel)) == 1
    assert panel.current_file is panel.current_ref is panel.current_path is None
    assert panel.current_key is panel.real_path is None
    assert not (panel.is_dirty or panel.is_reading or panel.is_read_only or panel.has_file)
    assert not panel.reading and panel.view_mode is ViewMode.SOURCE
    panel.set_badge(None)
    assert panel.findChildren(QPlainTextEdit) == []
    open_loaded(qtbot, panel, NOTES)
    assert panel.findChildren(QPlainTextEdit) == [panel.text_edit]
    assert panel.has_file and not empty_states_shown(panel)
    with qtbot.waitSignal(panel.file_closed):
        panel.close_tab(panel.current_tab)
    assert len(empty_states_shown(panel)) == 1
    text = panel.text_edit
    assert text.toPlainText() == "" and not text.isVisible()
    assert len(empty_states_shown(panel)) == 1  # now the empty page's


# --- the preview tab ---------------------------------------------------------------------------


def test_a_preview_tab_is_replaced_by_the_next_file(qtbot: QtBot, panel: EditorPanel) -> None:
    assert not panel.tab_bar.isVisibleTo(panel)  # no tab: the empty state only
    open_loaded(qtbot, panel, NOTES)
    assert tab_names(panel) == ["notes.md"]
    assert panel.tab_bar.is_preview(0)
    open_loaded(qtbot, panel, OTHER)
    assert tab_names(panel) == ["other.md"]
    assert panel.current_path == OTHER
    assert panel.tab_bar.is_preview(0)


def test_editing_a_preview_keeps_it_and_its_draft(panel: EditorPanel, qtbot: QtBot) -> None:
    open_loaded(qtbot, panel, NOTES)
    type_at_end(qtbot, panel, "draft")
    assert not panel.tab_bar.is_preview(0)
    assert tab_names(panel) == ["● notes.md"]
    open_loaded(qtbot, panel, OTHER)  # no question: the draft stays in its tab
    assert tab_names(panel) == ["● notes.md", "other.md"]
    assert panel.current_path == OTHER and not panel.is_dirty
    open_loaded(qtbot, panel, NOTES)
    assert panel.current_path == NOTES
    assert panel.buffer_text() == ORIGINAL + "draft"
    assert panel.is_dirty


def test_double_clicking_a_tab_or_opening_for_good_keeps_it(
    panel: EditorPanel, qtbot: QtBot
) -> None:
    open_loaded(qtbot, panel, NOTES)
    panel.show()
    qtbot.waitExposed(panel)
    centre = panel.tab_bar.tabRect(0).center()
    qtbot.mouseDClick(panel.tab_bar, Qt.MouseButton.LeftButton, pos=centre)
    assert not panel.tab_bar.is_preview(0)
    open_loaded(qtbot, panel, OTHER)
    assert tab_names(panel) == ["notes.md", "other.md"]
    assert panel.tab_bar.is_preview(1)
    open_loaded(qtbot, panel, OTHER, keep=True)
    assert not panel.tab_bar.is_preview(1)
    open_loaded(qtbot, panel, THIRD)  # not on disk: opens with the error, in a new preview tab
    assert len(panel.tabs) == 3


def test_switching_tabs_keeps_each_tabs_buffer_and_bar(
    panel: EditorPanel, store: MemoryStore, qtbot: QtBot
) -> None:
    open_loaded(qtbot, panel, NOTES)
    type_at_end(qtbot, panel, "mine")
    write_disk(store, "# Theirs\n")
    assert not saved(qtbot, panel)  # a conflict, in this tab
    assert "changed since it was loaded" in panel.message_bar.text
    open_loaded(qtbot, panel, OTHER)
    assert not panel.message_bar.isVisibleTo(panel)
    assert panel.buffer_text() == "# Other\n"
    panel.previous_tab()
    assert panel.current_path == NOTES
    assert panel.message_bar.isVisibleTo(panel)
    assert panel.buffer_text().endswith("mine")


# --- closing -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("choice", "closed", "saved"),
    [
        (DiscardChoice.CANCEL, False, False),
        (DiscardChoice.DISCARD, True, False),
        (DiscardChoice.SAVE, True, True),
    ],
)
def test_closing_a_tab_with_a_draft_asks(
    panel: EditorPanel,
    store: MemoryStore,
    qtbot: QtBot,
    monkeypatch: pytest.MonkeyPatch,
    choice: DiscardChoice,
    closed: bool,
    saved: bool,
) -> None:
    open_loaded(qtbot, panel, NOTES)
    type_at_end(qtbot, panel, "draft")
    open_loaded(qtbot, panel, OTHER)
    asked = patch_choice(monkeypatch, panel, choice)
    panel.close_current_tab()  # other.md: clean, closes without asking
    assert asked == []
    assert panel.current_path == NOTES
    panel.close_current_tab()
    assert asked == [["notes.md"]]
    wait_saved(qtbot, panel)
    assert (panel.current_path is None) is closed
    assert disk_text(store) == (ORIGINAL + "draft\n" if saved else ORIGINAL)


def test_a_save_that_conflicts_keeps_the_tab_open(
    panel: EditorPanel, store: MemoryStore, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    open_loaded(qtbot, panel, NOTES)
    type_at_end(qtbot, panel, "draft")
    write_disk(store, "# Theirs\n")
    patch_choice(monkeypatch, panel, DiscardChoice.SAVE)
    panel.close_current_tab()
    qtbot.waitUntil(lambda: "changed since it was loaded" in panel.message_bar.text)
    assert panel.current_path == NOTES


def test_the_question_does_not_block_and_names_the_file(panel: EditorPanel, qtbot: QtBot) -> None:
    open_loaded(qtbot, panel, NOTES)
    type_at_end(qtbot, panel, "draft")
    panel.show()
    qtbot.waitExposed(panel)
    panel.close_current_tab()  # returns at once: the box is open, not exec()'d
    box = panel.findChild(QMessageBox)
    assert box is not None and box.isVisible()
    assert box.text() == "Save the changes to notes.md?"
    discard = box.button(QMessageBox.StandardButton.Discard)
    assert discard is not None and discard.text() == "&Discard"  # Alt+D
    assert panel.current_path == NOTES
    discard.click()
    qtbot.waitUntil(lambda: panel.current_path is None)


def test_leave_asks_once_for_every_draft(
    panel: EditorPanel, store: MemoryStore, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    open_loaded(qtbot, panel, NOTES)
    type_at_end(qtbot, panel, "one")
    open_loaded(qtbot, panel, OTHER)
    type_at_end(qtbot, panel, "two")
    asked = patch_choice(monkeypatch, panel, DiscardChoice.SAVE)
    left: list[bool] = []
    panel.leave(lambda: left.append(True))
    assert asked == [["notes.md", "other.md"]]
    qtbot.waitUntil(lambda: left == [True])
    assert disk_text(store) == ORIGINAL + "one\n"
    assert disk_text(store, OTHER) == "# Other\ntwo\n"


# --- keys --------------------------------------------------------------------------------------


def test_tab_keys_cycle_and_close(panel: EditorPanel, qtbot: QtBot) -> None:
    for path in (NOTES, OTHER):
        open_loaded(qtbot, panel, path, keep=True)
    show_and_focus(qtbot, panel)
    qtbot.keyClick(panel.text_edit, Qt.Key.Key_Tab, Qt.KeyboardModifier.ControlModifier)
    assert panel.current_path == NOTES
    qtbot.keyClick(panel.text_edit, Qt.Key.Key_PageDown, Qt.KeyboardModifier.ControlModifier)
    assert panel.current_path == OTHER
    qtbot.keyClick(panel.text_edit, Qt.Key.Key_PageUp, Qt.KeyboardModifier.ControlModifier)
    assert panel.current_path == NOTES
    backtab = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    qtbot.keyClick(panel.text_edit, Qt.Key.Key_Backtab, backtab)
    assert panel.current_path == OTHER
    qtbot.keyClick(panel.text_edit, Qt.Key.Key_W, Qt.KeyboardModifier.ControlModifier)
    assert [str(ref.key) for ref in panel.open_refs] == [str(NOTES)]


def test_a_middle_click_closes_a_tab(panel: EditorPanel, qtbot: QtBot) -> None:
    open_loaded(qtbot, panel, NOTES, keep=True)
    open_loaded(qtbot, panel, OTHER, keep=True)
    panel.show()
    qtbot.waitExposed(panel)
    centre: QPoint = panel.tab_bar.tabRect(0).center()
    qtbot.mouseClick(panel.tab_bar, Qt.MouseButton.MiddleButton, pos=centre)
    assert [str(ref.key) for ref in panel.open_refs] == [str(OTHER)]
    QApplication.processEvents()


# --- following the files -----------------------------------------------------------------------


def test_a_moved_file_takes_its_tab_and_draft_along(
    panel: EditorPanel, store: MemoryStore, qtbot: QtBot
) -> None:
    open_loaded(qtbot, panel, NOTES)
    type_at_end(qtbot, panel, "draft")
    moved = parse_virtual_path("/memories/global/renamed.md")
    store.move(vpath(NOTES), vpath(moved))
    panel.follow_moves([(NOTES, moved)])
    assert panel.current_path == moved
    assert tab_names(panel) == ["● renamed.md"]
    assert saved(qtbot, panel)
    assert disk_text(store, moved) == ORIGINAL + "draft\n"
    assert not store.physical(NOTES).exists()


# --- auto save ---------------------------------------------------------------------------------


def test_auto_save_is_off_until_turned_on(
    panel: EditorPanel, store: MemoryStore, qtbot: QtBot
) -> None:
    assert not panel.autosave.enabled
    assert not panel.editor_actions.autosave_action.isChecked()
    open_loaded(qtbot, panel, NOTES)
    type_at_end(qtbot, panel, "draft")
    assert not panel.autosave.timer.isActive()
    panel.editor_actions.autosave_action.trigger()  # File → Auto save: saves what waits
    assert panel.autosave.enabled
    wait_saved(qtbot, panel)
    assert disk_text(store) == ORIGINAL + "draft\n"


def test_auto_save_saves_after_a_pause_and_on_focus_loss(
    panel: EditorPanel, store: MemoryStore, qtbot: QtBot
) -> None:
    panel.autosave.set_enabled(True)
    panel.autosave.timer.setInterval(10)
    open_loaded(qtbot, panel, NOTES)
    type_at_end(qtbot, panel, "one")
    qtbot.waitUntil(lambda: disk_text(store) == ORIGINAL + "one\n")
    wait_saved(qtbot, panel)
    assert not panel.is_dirty
    panel.autosave.timer.setInterval(60_000)
    show_and_focus(qtbot, panel)
    type_at_end(qtbot, panel, "two")
    wait_saved(qtbot, panel)
    assert disk_text(store) == ORIGINAL + "one\n"
    panel.tab_bar.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
    panel.tab_bar.setFocus()  # still in the editor: nothing yet
    assert disk_text(store) == ORIGINAL + "one\n"
    panel.text_edit.setFocus()
    outside = QLineEdit()
    qtbot.addWidget(outside)
    outside.show()
    outside.activateWindow()
    outside.setFocus()
    qtbot.waitUntil(lambda: disk_text(store) == ORIGINAL + "one\ntwo\n")


def test_auto_save_never_overwrites_a_change_on_disk(
    panel: EditorPanel, store: MemoryStore, qtbot: QtBot
) -> None:
    panel.autosave.set_enabled(True)
    open_loaded(qtbot, panel, NOTES)
    write_disk(store, "# Theirs\n")
    type_at_end(qtbot, panel, "mine")
    panel.autosave.save_now()
    wait_saved(qtbot, panel)
    assert disk_text(store) == "# Theirs\n"
    assert "changed since it was loaded" in panel.message_bar.text
    assert panel.current_tab is not None and not panel.current_tab.may_autosave
    type_at_end(qtbot, panel, " more")
    panel.autosave.save_now()
    assert not panel.saving  # nothing asked: it waits for the user's choice
    assert disk_text(store) == "# Theirs\n"
    assert panel.buffer_text().endswith("mine more")


def test_a_conflict_arriving_while_typing_does_not_move_the_text(
    panel: EditorPanel, store: MemoryStore, qtbot: QtBot
) -> None:
    open_loaded(qtbot, panel, NOTES)
    show_and_focus(qtbot, panel)
    type_at_end(qtbot, panel, "typing")
    page = panel.text_edit.parentWidget()
    assert page is not None
    before = panel.text_edit.mapTo(panel, QPoint(0, 0))
    height = panel.text_edit.height()
    write_disk(store, "# Theirs\n")
    panel.follow_changes({editor_support.ref(NOTES)})
    settle(qtbot, panel)
    bar = panel.message_bar
    assert bar.isVisible() and "changed on disk" in bar.text
    qtbot.waitUntil(lambda: panel.text_edit.viewportMargins().bottom() > 0)
    assert panel.text_edit.mapTo(panel, QPoint(0, 0)) == before
    assert panel.text_edit.height() == height
    # The bar lies over the foot of the text, which keeps room for it.
    text_bottom = panel.text_edit.mapTo(panel, QPoint(0, panel.text_edit.height()))
    assert bar.mapTo(panel, QPoint(0, bar.height())).y() == text_bottom.y()
    assert panel.text_edit.viewportMargins().bottom() == bar.height()
    bar.button("keep_mine").click()
    settle(qtbot, panel)
    qtbot.waitUntil(lambda: panel.text_edit.viewportMargins().bottom() == 0)


# --- off the GUI thread ------------------------------------------------------------------------


def test_saves_run_on_the_file_channel_not_the_gui_thread(
    panel: EditorPanel, store: MemoryStore, qtbot: QtBot, gui_thread_io: GuiThreadIo
) -> None:
    open_loaded(qtbot, panel, NOTES)
    open_loaded(qtbot, panel, OTHER, keep=True)
    type_at_end(qtbot, panel, "two")
    panel.previous_tab()
    type_at_end(qtbot, panel, "one")
    with gui_thread_io.watching(store.home.root):
        assert saved(qtbot, panel)  # the lock, the write and its fsync: on the worker
        panel.autosave.set_enabled(True)  # saves other.md too
        wait_saved(qtbot, panel)
    assert disk_text(store) == ORIGINAL + "one\n"
    assert disk_text(store, OTHER) == "# Other\ntwo\n"


def test_typing_on_while_a_save_is_written_stays_unsaved(
    panel: EditorPanel, store: MemoryStore, qtbot: QtBot
) -> None:
    open_loaded(qtbot, panel, NOTES)
    type_at_end(qtbot, panel, "one")
    panel.save()
    type_at_end(qtbot, panel, " two")  # before the worker reports back
    panel.save()  # waits for the first, then saves from what it wrote
    wait_saved(qtbot, panel)
    assert disk_text(store) == ORIGINAL + "one two\n"
    assert not panel.is_dirty
    assert not panel.message_bar.isVisibleTo(panel)


def test_a_file_renamed_outside_memtab_takes_its_tab_along(
    panel: EditorPanel, store: MemoryStore, qtbot: QtBot
) -> None:
    open_loaded(qtbot, panel, NOTES)
    type_at_end(qtbot, panel, "draft")
    renamed = parse_virtual_path("/memories/global/renamed.md")
    store.physical(NOTES).rename(store.physical(renamed))  # an agent's `mv`
    panel.follow_changes(
        {editor_support.ref(NOTES), editor_support.ref(renamed), editor_support.ref(OTHER)},
        lambda ref: MuxFile(store, parse_virtual_path(ref.path)),
    )
    settle(qtbot, panel)
    assert panel.current_path == renamed
    assert tab_names(panel) == ["● renamed.md"]
    assert panel.message_bar.text == "notes.md was renamed on disk: this is it now."
    assert saved(qtbot, panel)
    assert disk_text(store, renamed) == ORIGINAL + "draft\n"
    assert not store.physical(NOTES).exists()


def test_a_file_deleted_outside_memtab_says_so_in_its_tab(
    panel: EditorPanel, store: MemoryStore, qtbot: QtBot
) -> None:
    open_loaded(qtbot, panel, NOTES)
    open_loaded(qtbot, panel, OTHER, keep=True)
    store.physical(NOTES).unlink()
    panel.follow_changes(
        {editor_support.ref(NOTES)}, lambda ref: MuxFile(store, parse_virtual_path(ref.path))
    )
    settle(qtbot, panel)
    assert panel.current_path == OTHER and not panel.message_bar.isVisibleTo(panel)
    panel.previous_tab()
    assert "notes.md was deleted on disk" in panel.message_bar.text
