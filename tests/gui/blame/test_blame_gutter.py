"""View → Blame on the demo: open a file, see who wrote each line, jump from a writer line
to its trace dump and from a consolidation line to its run and op (issue 22's "Done when")."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, QPoint, Qt
from PySide6.QtGui import QHelpEvent
from PySide6.QtWidgets import QApplication, QPlainTextEdit, QToolTip
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from gui.editor_support import open_loaded
from gui.memory_tree_support import WindowFactory, action, wait_for
from memtab.components.blame import GutterEntry
from memtab.demo import MAIN_ID
from memtab.fs.clock import now_ms
from memtab.gui.blame.feature import SHOWN_FLAG, BlameCard, BlameFeature, BlameGutter, card_html
from memtab.gui.first_paint.main_window import MainWindow
from memtab.gui.window import keys
from memtab.humanize import absolute_time
from memtab.store.catch_up.external import record_external
from memtab.store.home import Home
from memtab.store.paths import parse_file_path
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.registry import load_registry
from support.demo_homes import copied_demo_home

pytestmark = pytest.mark.no_background_runs  # no writer, no check at start: none is tested here

make_window = support.make_window

NOTES = parse_file_path("/memories/workspace/notes.md")
DEV_SETUP = parse_file_path("/memories/workspace/dev-setup.md")


@pytest.fixture
def demo(tmp_path: Path) -> Home:
    return copied_demo_home(tmp_path / "demo")


def blamed_window(qtbot: QtBot, make_window: WindowFactory, demo: Home) -> MainWindow:
    window = make_window(demo, MAIN_ID)
    window.show()
    editor = window.memory_tab.controller.editor
    open_loaded(qtbot, editor, NOTES)
    wait_for(qtbot, lambda: editor.current_path == NOTES)
    action(window, "blame.toggle").trigger()
    feature = feature_of(window)
    wait_for(qtbot, lambda: feature.gutter.entries and not feature.busy)
    return window


def feature_of(window: MainWindow) -> BlameFeature:
    assert window.part(keys.BLAME) is not None
    return window.part(keys.BLAME)


def entry_of(feature: BlameFeature, actor: str) -> tuple[int, GutterEntry]:
    return next((i, e) for i, e in enumerate(feature.gutter.entries) if e.actor == actor)


def test_the_gutter_names_who_wrote_each_line_of_the_open_file(
    qtbot: QtBot, make_window: WindowFactory, demo: Home
) -> None:
    window = blamed_window(qtbot, make_window, demo)
    feature = feature_of(window)
    text = window.memory_tab.controller.editor.buffer_text()
    assert len(feature.gutter.entries) == len(text.splitlines())
    actors = {e.actor for e in feature.gutter.entries}
    assert actors == {"before-memtab", "writer", "consolidator"}
    assert feature.gutter.isVisible()
    text_edit = window.memory_tab.controller.editor.text_edit
    numbers = text_edit.viewportMargins().left() - feature.gutter.width()
    assert feature.gutter.width() > 0 and numbers > 0  # beside the line numbers
    assert feature.gutter.x() + feature.gutter.width() == text_edit.viewport().x()
    _, writer = entry_of(feature, "writer")
    assert writer.title == "Memory writer" and writer.label.startswith("writer ")
    shown = "Shown the transcript from message user-0001 to assistant-0001"
    assert shown in writer.details
    assert "Memory writer" in card_html(writer)

    action(window, "blame.toggle").trigger()  # off again: the margin goes with it
    assert not feature.shown
    assert text_edit.viewportMargins().left() == numbers


def test_a_writer_line_opens_its_trace_dump_and_a_consolidation_line_its_run_and_op(
    qtbot: QtBot, make_window: WindowFactory, demo: Home
) -> None:
    window = blamed_window(qtbot, make_window, demo)
    feature = feature_of(window)
    line, writer = entry_of(feature, "writer")
    (trace,) = [link for link in writer.links if link.kind == "trace"]
    feature.gutter.card_requested.emit(line, QPoint(10, 10))
    card = feature.card
    assert isinstance(card, BlameCard) and card.isVisible()
    (button,) = [b for b in card.buttons if b.property("blameLink") == "trace"]
    button.click()
    traces = window.traces_tab
    assert traces is not None
    wait_for(qtbot, lambda: traces.selected_path() is not None)
    selected = traces.selected_path()
    assert selected is not None and selected.name == trace.target
    assert window.tabs.currentWidget() is not window.memory_tab

    _, consolidation = entry_of(feature, "consolidator")
    assert any(d.startswith("Why: refresh-race.md holds the fix") for d in consolidation.details)
    (run,) = [link for link in consolidation.links if link.kind == "run"]
    assert run.op_index is not None
    feature.open_link(run)
    assert window.part(keys.HISTORY) is not None
    dialog = window.part(keys.HISTORY).runs_dialog
    assert dialog is not None
    wait_for(qtbot, lambda: dialog.detail is not None and dialog.detail.run.id == run.target)
    wait_for(qtbot, lambda: dialog.ops.currentItem() is not None)
    assert dialog.ops.indexOfTopLevelItem(dialog.ops.currentItem()) == run.op_index
    dialog.close()


def test_typing_keeps_each_line_s_author_and_marks_new_lines_unsaved(
    qtbot: QtBot, make_window: WindowFactory, demo: Home
) -> None:
    window = blamed_window(qtbot, make_window, demo)
    feature = feature_of(window)
    before = [e.actor for e in feature.gutter.entries]
    editor = window.memory_tab.controller.editor
    cursor = editor.text_edit.textCursor()
    cursor.movePosition(cursor.MoveOperation.Start)
    editor.text_edit.setTextCursor(cursor)
    editor.text_edit.insertPlainText("A new first line\n")
    wait_for(qtbot, lambda: len(feature.gutter.entries) == len(before) + 1)
    assert [e.actor for e in feature.gutter.entries] == ["unsaved", *before]
    window.close_without_asking()  # the draft is the test's


def test_the_gutter_shown_is_remembered(
    qtbot: QtBot, make_window: WindowFactory, demo: Home, tmp_path: Path
) -> None:
    window = blamed_window(qtbot, make_window, demo)
    window.close_without_asking()
    assert window.ui_state is not None and window.ui_state.flag(SHOWN_FLAG)


def test_the_gutter_paints_and_finds_lines_on_any_text_widget(qtbot: QtBot) -> None:
    text = QPlainTextEdit()
    qtbot.addWidget(text)
    text.setPlainText("one\ntwo\nthree\n")
    text.resize(400, 200)
    gutter = BlameGutter(text)
    gutter.set_shown(True)
    text.show()
    entry = GutterEntry("user", "you 5m", "v1", "You, in Memtab", ("today",))
    gutter.set_entries([entry, entry, entry])
    qtbot.waitExposed(text)
    assert gutter.line_at(text.cursorRect().center().y()) == 0
    clicked: list[int] = []
    gutter.card_requested.connect(lambda line, _point: clicked.append(line))
    qtbot.mouseClick(
        gutter, Qt.MouseButton.LeftButton, pos=QPoint(5, text.cursorRect().center().y())
    )
    assert clicked == [0]
    assert not gutter.grab().isNull()
    gutter.set_status("Reading history…")
    assert gutter.entries == [] and gutter.status == "Reading history…"


def test_hovering_a_line_shows_its_card_once_the_history_is_read(qtbot: QtBot) -> None:
    text = QPlainTextEdit()
    qtbot.addWidget(text)
    text.setPlainText("one\ntwo\n")
    text.resize(400, 200)
    gutter = BlameGutter(text)
    gutter.set_shown(True)
    text.show()
    qtbot.waitExposed(text)
    gutter.set_status("Reading history…")
    entry = GutterEntry("user", "you 5m", "v1", "You", ("today",))
    gutter.set_entries([entry, entry])
    where = QPoint(5, text.cursorRect().center().y())
    hover = QHelpEvent(QEvent.Type.ToolTip, where, gutter.mapToGlobal(where))
    QApplication.sendEvent(gutter, hover)
    assert gutter.toolTip() == ""  # not "Reading history…" any more
    assert QToolTip.text() == card_html(entry)


def test_a_line_there_before_memtab_shows_when_its_file_was_written_not_when_it_was_seen(
    qtbot: QtBot, make_window: WindowFactory, demo: Home
) -> None:
    """The window records a file it meets for the first time; its card then says when the
    file was written (its mtime then), as `memtab blame` does, not when the window looked."""
    store = MemoryStore(demo, load_registry(demo).require_workspace(MAIN_ID))
    written = (now_ms() // 1000 - 9 * 24 * 60 * 60) * 1000  # nine days ago, whole seconds
    os.utime(store.physical(DEV_SETUP), (written / 1000, written / 1000))
    record_external(store)  # what the window's pass after its scan does
    window = make_window(demo, MAIN_ID)
    window.show()
    editor = window.memory_tab.controller.editor
    open_loaded(qtbot, editor, DEV_SETUP)
    wait_for(qtbot, lambda: editor.current_path == DEV_SETUP)
    action(window, "blame.toggle").trigger()
    feature = feature_of(window)
    wait_for(qtbot, lambda: feature.gutter.entries and not feature.busy)
    _, before = entry_of(feature, "before-memtab")
    assert before.details[0].startswith(
        f"In the file before Memtab saw it, written no later than {absolute_time(written)} ("
    )
