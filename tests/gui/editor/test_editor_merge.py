"""The editor's conflict choices: Enter shows the diff, and "Keep both" keeps the draft's
and the disk's changes when they touch different lines."""

from __future__ import annotations

import threading

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from gui import editor_support
from gui.editor_support import (
    NOTES,
    ORIGINAL,
    disk_text,
    open_loaded,
    ref,
    replace_in_buffer,
    saved,
    settle,
    show_and_focus,
    type_at_end,
    write_disk,
)
from memtab.components.editor import merge
from memtab.components.editor.merge import MergeResult
from memtab.components.editor.session import BarKind
from memtab.components.jobs import JobContext
from memtab.gui.editor.editor import EditorPanel
from memtab.gui.toolkit.text.diff_view import DiffDialog
from memtab.gui.toolkit.text.three_way import ThreeWayView
from memtab.store.scopes.memory import MemoryStore

store = editor_support.store
own_writes = editor_support.own_writes
panel = editor_support.panel

MINE = ORIGINAL.replace("- first", "- first, edited by me")
THEIRS = ORIGINAL + "- appended by the agent\n"  # `echo … >> notes.md`
MERGED = MINE + "- appended by the agent\n"


def edit_then_agent_appends(
    qtbot: QtBot, panel: EditorPanel, store: MemoryStore, theirs: str = THEIRS
) -> None:
    open_loaded(qtbot, panel, NOTES)
    replace_in_buffer(panel, "- first", "- first, edited by me")
    assert panel.buffer_text() == MINE and panel.is_dirty
    write_disk(store, theirs)
    panel.follow_changes({ref(NOTES)})
    settle(qtbot, panel)


def open_diff_with_enter(qtbot: QtBot, panel: EditorPanel) -> DiffDialog:
    """Press Enter on the bar (on a button that is not the default one, even)."""
    bar = panel.message_bar
    keep = bar.button(bar.action_ids()[-1])
    keep.setFocus()
    qtbot.keyClick(keep, Qt.Key.Key_Return)
    settle(qtbot, panel)
    dialog = panel.diff_dialog
    assert dialog is not None and dialog.isVisible()
    qtbot.waitUntil(lambda: dialog.view.result is not None)
    return dialog


def test_enter_on_the_changed_on_disk_bar_shows_the_diff(
    panel: EditorPanel, store: MemoryStore, qtbot: QtBot
) -> None:
    edit_then_agent_appends(qtbot, panel, store)
    show_and_focus(qtbot, panel)
    bar = panel.message_bar
    assert bar.action_ids() == ["show_diff", "keep_mine", "take_theirs"]
    assert bar.default_action == "show_diff"
    assert bar.button("show_diff").isDefault()
    assert not bar.button("keep_mine").isDefault()
    open_diff_with_enter(qtbot, panel)
    # Nothing was decided: the draft and the agent's change are both still there.
    assert panel.buffer_text() == MINE and panel.is_dirty
    assert disk_text(store) == THEIRS


def test_enter_on_the_save_conflict_bar_shows_the_diff_and_never_overwrites(
    panel: EditorPanel, store: MemoryStore, qtbot: QtBot
) -> None:
    open_loaded(qtbot, panel, NOTES)
    show_and_focus(qtbot, panel)
    type_at_end(qtbot, panel, "- mine\n")
    write_disk(store, THEIRS)
    assert not saved(qtbot, panel)
    assert panel.message_bar.action_ids() == ["show_diff", "overwrite", "reload"]
    assert panel.message_bar.default_action == "show_diff"
    open_diff_with_enter(qtbot, panel)
    assert disk_text(store) == THEIRS


def test_merge_both_keeps_the_draft_and_the_agents_change(
    panel: EditorPanel, store: MemoryStore, qtbot: QtBot
) -> None:
    edit_then_agent_appends(qtbot, panel, store)
    show_and_focus(qtbot, panel)
    dialog = open_diff_with_enter(qtbot, panel)
    merge_button = dialog.button("merge")
    qtbot.waitUntil(merge_button.isEnabled)
    assert merge_button.isDefault()
    assert not dialog.button("keep_mine").isDefault()
    assert not dialog.button("keep_mine").autoDefault()
    assert dialog.merge_note.text() == (
        "Your 1 change and 1 change on disk touch different lines: Keep both keeps them all."
    )
    qtbot.keyClick(dialog, Qt.Key.Key_Return)  # Enter merges
    assert panel.diff_dialog is None
    settle(qtbot, panel)
    assert panel.buffer_text() == MERGED
    assert panel.is_dirty  # the user reviews, then saves
    assert panel.message_bar.kind is BarKind.INFO
    assert panel.message_bar.text.startswith(
        "Merged: your 1 change and 1 change on disk are all in the text now. Review it"
    )
    assert disk_text(store) == THEIRS  # nothing written yet
    assert saved(qtbot, panel)  # based on the agent's version: no conflict
    assert disk_text(store) == MERGED


def test_merge_can_be_undone_to_the_draft(
    panel: EditorPanel, store: MemoryStore, qtbot: QtBot
) -> None:
    edit_then_agent_appends(qtbot, panel, store)
    panel.show_diff()
    settle(qtbot, panel)
    dialog = panel.diff_dialog
    assert dialog is not None
    qtbot.waitUntil(dialog.button("merge").isEnabled)
    dialog.button("merge").click()
    settle(qtbot, panel)
    assert panel.buffer_text() == MERGED
    panel.message_bar.button("restore_draft").click()
    assert panel.buffer_text() == MINE
    assert panel.is_dirty


def test_overlapping_changes_are_not_merged_and_the_dialog_says_where(
    panel: EditorPanel, store: MemoryStore, qtbot: QtBot
) -> None:
    edit_then_agent_appends(
        qtbot, panel, store, ORIGINAL.replace("- first", "- first, per the agent")
    )
    show_and_focus(qtbot, panel)
    dialog = open_diff_with_enter(qtbot, panel)
    qtbot.waitUntil(dialog.merge_note.isVisible)
    assert not dialog.button("merge").isEnabled()
    assert "both changed line 7" in dialog.merge_note.text()
    assert "cannot be merged automatically" in dialog.merge_note.text()
    assert dialog.close_button.isDefault()
    with qtbot.waitSignal(dialog.finished):
        qtbot.keyClick(dialog, Qt.Key.Key_Return)  # Enter only closes
    assert panel.buffer_text() == MINE and panel.is_dirty
    assert disk_text(store) == ORIGINAL.replace("- first", "- first, per the agent")


def test_a_merge_of_a_version_that_changed_again_looks_again(
    panel: EditorPanel, store: MemoryStore, qtbot: QtBot
) -> None:
    edit_then_agent_appends(qtbot, panel, store)
    panel.show_diff()
    settle(qtbot, panel)
    first = panel.diff_dialog
    assert first is not None
    qtbot.waitUntil(first.button("merge").isEnabled)
    newer = THEIRS + "- and another line\n"
    write_disk(store, newer)  # before the watcher told the editor
    first.button("merge").click()
    settle(qtbot, panel)
    assert panel.buffer_text() == MINE  # nothing merged with a version not shown
    second = panel.diff_dialog
    assert second is not None and second is not first
    qtbot.waitUntil(second.button("merge").isEnabled)
    second.button("merge").click()
    settle(qtbot, panel)
    assert panel.buffer_text() == MINE + "- appended by the agent\n- and another line\n"


def test_the_merge_is_computed_on_the_worker_thread(
    panel: EditorPanel, store: MemoryStore, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads: list[threading.Thread] = []
    real = merge.merge_three_way

    def watched(base: str, mine: str, theirs: str, ctx: JobContext | None = None) -> MergeResult:
        threads.append(threading.current_thread())
        return real(base, mine, theirs, ctx)

    monkeypatch.setattr(merge, "merge_three_way", watched)
    edit_then_agent_appends(qtbot, panel, store)
    panel.show_diff()
    settle(qtbot, panel)
    dialog = panel.diff_dialog
    assert dialog is not None
    qtbot.waitUntil(dialog.button("merge").isEnabled)
    assert len(threads) == 1 and threads[0] is not threading.main_thread()


# --- three ways --------------------------------------------------------------------------------


def three_way_of(dialog: DiffDialog) -> ThreeWayView:
    view = dialog.views.widget(0)
    assert isinstance(view, ThreeWayView) and dialog.views.tabText(0) == "Three ways"
    return view


def test_the_conflict_shows_three_ways_each_side_tinted_by_who_changed_it(
    panel: EditorPanel, store: MemoryStore, qtbot: QtBot
) -> None:
    edit_then_agent_appends(qtbot, panel, store)
    dialog = open_diff_with_enter(qtbot, panel)
    view = three_way_of(dialog)
    assert dialog.views.currentIndex() == 0  # shown first; the unified diff a tab away
    legend = dialog.findChildren(QLabel)[0]
    assert "On disk" in legend.text() and not legend.isVisibleTo(dialog)  # the diff's − / +
    dialog.views.setCurrentIndex(1)
    assert legend.isVisibleTo(dialog)
    dialog.views.setCurrentIndex(0)
    qtbot.waitUntil(lambda: view.texts is not None)
    texts = view.texts
    assert texts is not None
    assert (texts.base, texts.mine, texts.theirs) == (ORIGINAL, MINE, THEIRS)
    assert [pane.title.text() for pane in (view.base, view.mine, view.theirs)] == [
        "When you opened it",
        "Your draft",
        "On disk now",
    ]
    # The agent's added line is the agent's change (theirs, tinted), not a red "−".
    agents_line = THEIRS.splitlines().index("- appended by the agent")
    my_line = MINE.splitlines().index("- first, edited by me")
    assert texts.theirs_changed == {agents_line}
    assert texts.mine_changed == {my_line}
    assert view.merged_text() == MERGED
    dialog.button("merge").click()
    settle(qtbot, panel)
    assert panel.buffer_text() == MERGED


def both_change_the_first_line(
    qtbot: QtBot, panel: EditorPanel, store: MemoryStore
) -> tuple[DiffDialog, ThreeWayView]:
    """The draft and the agent changed the same line: the diff window's three ways."""
    edit_then_agent_appends(
        qtbot, panel, store, ORIGINAL.replace("- first", "- first, agent's way")
    )
    dialog = open_diff_with_enter(qtbot, panel)
    view = three_way_of(dialog)
    qtbot.waitUntil(lambda: view.texts is not None)
    return dialog, view


def test_a_text_made_by_hand_in_the_three_way_view_can_be_kept(
    panel: EditorPanel, store: MemoryStore, qtbot: QtBot
) -> None:
    dialog, view = both_change_the_first_line(qtbot, panel, store)
    assert not dialog.button("merge").isEnabled()  # both changed the same line
    assert view.merged_text() == MINE  # it starts as the draft
    resolved = ORIGINAL.replace("- first", "- first, both ways")
    assert dialog.button("merge").text().replace("&", "") == "Keep both"
    view.merged.setPlainText(resolved)
    assert dialog.button("merge").isEnabled()
    # It keeps the text below now, and says so in Resolve conflicts…' words.
    assert dialog.button("merge").text().replace("&", "") == "Keep the text below"
    dialog.button("merge").click()
    settle(qtbot, panel)
    assert panel.buffer_text() == resolved
    assert "The text you kept in the three-way view" in panel.message_bar.text
    panel.message_bar.button("restore_draft").click()
    assert panel.buffer_text() == MINE


def test_tab_in_the_text_to_keep_goes_on_to_the_buttons_and_ctrl_y_redoes(
    panel: EditorPanel, store: MemoryStore, qtbot: QtBot
) -> None:
    dialog, view = both_change_the_first_line(qtbot, panel, store)
    dialog.activateWindow()
    view.merged.setFocus()
    qtbot.waitUntil(view.merged.hasFocus)
    view.merged.moveCursor(QTextCursor.MoveOperation.End)
    qtbot.keyClick(view.merged, Qt.Key.Key_Tab)
    assert view.merged_text() == MINE  # no tab typed: the keyboard is not held there
    assert not view.merged.hasFocus()
    view.merged.setFocus()
    qtbot.keyClicks(view.merged, "x")
    view.merged.undo()
    qtbot.keyClick(view.merged, Qt.Key.Key_Y, Qt.KeyboardModifier.ControlModifier)
    assert view.merged_text() == MINE + "x"


def test_after_merge_both_the_text_has_the_focus_to_review_it(
    panel: EditorPanel, store: MemoryStore, qtbot: QtBot
) -> None:
    edit_then_agent_appends(qtbot, panel, store)
    show_and_focus(qtbot, panel)
    panel.show_diff()
    settle(qtbot, panel)
    dialog = panel.diff_dialog
    assert dialog is not None
    qtbot.waitUntil(dialog.button("merge").isEnabled)
    panel.save_button.setFocus()  # the keyboard was on the bar or elsewhere
    dialog.button("merge").click()
    settle(qtbot, panel)
    assert panel.buffer_text() == MERGED
    assert panel.window().focusWidget() is panel.text_edit
