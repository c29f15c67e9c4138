"""Claude Code's cut of an open MEMORY.md, in the editor (docs/formats.md §17.6): drawn over
the text with a label that never covers it; the bar says how many lines Claude Code does
not read and follows the typing; a save past the cut waits for Save anyway; Go to the cut
from the bar and the tree; the lines past it moved to a topic file as one Undo step."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QRectF
from PySide6.QtGui import QTextCursor
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from gui.editor_support import replace_in_buffer, saved, settle
from gui.memory_tree_support import WAIT_MS, WindowFactory, activate, wait_idle
from memtab.components.loads.loads import GO_TO_CUT, MOVE_PAST_CUT, SAVE_PAST_CUT
from memtab.components.tree.nodes import ref_key
from memtab.components.window.mnemonics import mnemonic, without_mnemonic
from memtab.file_protocol.file_ref import MemoryFileRef
from memtab.gui.first_paint.main_window import MainWindow
from memtab.gui.loads.feature import CutLine
from memtab.gui.toolkit.text.line_margin import go_to
from memtab.gui.window import keys
from memtab.sources.claude.source import encode_project_path
from memtab.store.files import content_sha256 as sha256
from support.agent_machine import WORKSPACE_ID, Machine, build_machine

from ..tree.test_sources import open_key

pytestmark = pytest.mark.no_background_runs  # no writer, no check at start: none is tested here

make_window = support.make_window

NOTE = (
    "Claude Code does not read 49 lines of MEMORY.md, from line 201 on: it loads only its "
    "first 200 lines into a session."
)


@pytest.fixture
def machine(tmp_path: Path) -> Machine:
    return build_machine(tmp_path / "machine")


def index_ref(machine: Machine) -> MemoryFileRef:
    source_id = f"claude-code:memory-{encode_project_path(str(machine.project))}"
    return MemoryFileRef(source_id, "memory/MEMORY.md")


def open_memory_md(qtbot: QtBot, make_window: WindowFactory, machine: Machine) -> MainWindow:
    """A window with Claude Code's MEMORY.md of the project open (249 lines: 49 past the
    cut)."""
    window = make_window(machine.home, WORKSPACE_ID, source_context=lambda _home: machine.context())
    activate(qtbot, window)
    qtbot.waitUntil(lambda: window.memory_tab.is_sources_loaded, timeout=WAIT_MS)
    wait_idle(qtbot, window)
    open_key(qtbot, window, ref_key(index_ref(machine)))
    return window


def cut_line(window: MainWindow) -> CutLine:
    assert window.part(keys.LOADS) is not None
    line = window.part(keys.LOADS).cut_line()
    assert line is not None
    return line


def type_at_top(window: MainWindow, text: str) -> None:
    cursor = window.memory_tab.controller.editor.text_edit.textCursor()
    cursor.movePosition(QTextCursor.MoveOperation.Start)
    cursor.insertText(text)


def set_line(window: MainWindow, number: int, text: str) -> None:
    """Line `number` (1-based) of the buffer holds `text` instead."""
    block = window.memory_tab.controller.editor.text_edit.document().findBlockByNumber(number - 1)
    cursor = QTextCursor(block)
    cursor.movePosition(QTextCursor.MoveOperation.EndOfBlock, QTextCursor.MoveMode.KeepAnchor)
    cursor.insertText(text)


def text_rows(line: CutLine, numbers: tuple[int, ...]) -> list[QRectF]:
    """Where the text of lines `numbers` (1-based) is drawn, row by row, in the cut's
    coordinates."""
    text_edit = line.text_edit
    rows = []
    for number in numbers:
        block = text_edit.document().findBlockByNumber(number - 1)
        top = text_edit.blockBoundingGeometry(block).translated(text_edit.contentOffset())
        layout = block.layout()
        for index in range(layout.lineCount()):
            row = layout.lineAt(index)
            rows.append(
                QRectF(
                    top.left() + row.x(), top.top() + row.y(), row.naturalTextWidth(), row.height()
                )
            )
    return rows


def bar_buttons(window: MainWindow) -> dict[str, str]:
    bar = window.memory_tab.controller.editor.message_bar
    return {action: bar.button(action).text() for action in bar.action_ids()}


def test_the_bar_counts_the_lines_claude_code_does_not_read_and_follows_the_text(
    qtbot: QtBot, make_window: WindowFactory, machine: Machine
) -> None:
    window = open_memory_md(qtbot, make_window, machine)
    editor = window.memory_tab.controller.editor
    assert editor.message_bar.isVisible() and editor.message_bar.text == NOTE
    buttons = bar_buttons(window)
    assert buttons == {GO_TO_CUT: "&Go to the cut", MOVE_PAST_CUT: "&Move them to a topic file"}
    # Ten lines typed at the top: the cut moves up at once, the bar follows once typing rests.
    type_at_top(window, "- new\n" * 10)
    qtbot.waitUntil(lambda: cut_line(window).past_cut == 59, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: "does not read 59 lines" in editor.message_bar.text, timeout=WAIT_MS)
    # Deleting what is past the cut: the bar has nothing left to say, and goes.
    text = editor.buffer_text()
    cursor = editor.text_edit.textCursor()
    cursor.setPosition(len("\n".join(text.split("\n")[:200])))
    cursor.movePosition(QTextCursor.MoveOperation.End, QTextCursor.MoveMode.KeepAnchor)
    cursor.removeSelectedText()
    qtbot.waitUntil(lambda: not editor.message_bar.isVisible(), timeout=WAIT_MS)
    # The line recuts on a timer of its own: under load it may come after the bar.
    qtbot.waitUntil(lambda: cut_line(window).past_cut == 0, timeout=WAIT_MS)
    # Lines typed past a cut they were all within: the note comes back, before any save.
    cursor.movePosition(QTextCursor.MoveOperation.End)
    cursor.insertText("\n- one more\n- and another")
    qtbot.waitUntil(
        lambda: editor.message_bar.text.startswith("Claude Code does not read 2 lines"),
        timeout=WAIT_MS,
    )


def test_a_save_past_the_cut_waits_for_save_anyway_and_its_bar_goes_with_the_lines(
    qtbot: QtBot, make_window: WindowFactory, machine: Machine
) -> None:
    window = open_memory_md(qtbot, make_window, machine)
    index = machine.claude_memory / "MEMORY.md"
    before = index.read_text(encoding="utf-8")
    editor = window.memory_tab.controller.editor
    type_at_top(window, "- new\n")
    assert not saved(qtbot, editor)
    assert index.read_text(encoding="utf-8") == before
    assert editor.message_bar.text == (
        "Not saved: Claude Code would not read 50 lines of MEMORY.md, from line 201 on — 1 "
        "more than the file on disk."
    )
    buttons = bar_buttons(window)
    assert list(buttons) == [SAVE_PAST_CUT, MOVE_PAST_CUT, GO_TO_CUT]
    letters = [mnemonic(text) for text in buttons.values()]
    assert None not in letters and len(set(letters)) == len(letters)  # Alt+A, Alt+M, Alt+G
    # The line taken out again: the save would not wait, the bar gives way to the note.
    replace_in_buffer(editor, "- new\n", "")
    qtbot.waitUntil(lambda: editor.message_bar.text == NOTE, timeout=WAIT_MS)
    type_at_top(window, "- new\n- newer\n")
    assert not saved(qtbot, editor)
    assert "would not read 51 lines" in editor.message_bar.text
    assert "2 more than the file on disk" in editor.message_bar.text
    editor.message_bar.button(SAVE_PAST_CUT).click()  # saved: the note says what is not read
    qtbot.waitUntil(
        lambda: index.read_text(encoding="utf-8").startswith("- new\n- newer\n"), timeout=WAIT_MS
    )
    settle(qtbot, editor)
    assert not editor.is_dirty
    qtbot.waitUntil(lambda: "does not read 51 lines" in editor.message_bar.text, timeout=WAIT_MS)
    # A change that pushes nothing more past the cut saves at once; the note stays.
    replace_in_buffer(editor, "- new\n- newer\n", "- one\n- two\n")
    assert saved(qtbot, editor)
    assert index.read_text(encoding="utf-8").startswith("- one\n- two\n")


def test_one_line_past_the_cut_is_one_line(
    qtbot: QtBot, make_window: WindowFactory, machine: Machine
) -> None:
    index = machine.claude_memory / "MEMORY.md"
    lines = index.read_text(encoding="utf-8").split("\n")
    index.write_text("\n".join(lines[:201]) + "\n", encoding="utf-8")
    window = open_memory_md(qtbot, make_window, machine)
    assert window.memory_tab.controller.editor.message_bar.text.startswith(
        "Claude Code does not read 1 line of MEMORY.md, from line 201 on"
    )


def test_go_to_the_cut_from_the_bar_and_from_the_tree(
    qtbot: QtBot, make_window: WindowFactory, machine: Machine
) -> None:
    window = open_memory_md(qtbot, make_window, machine)
    editor = window.memory_tab.controller.editor
    text = editor.text_edit
    window.memory_tab.tree.setFocus()
    editor.message_bar.button(GO_TO_CUT).click()
    assert text.hasFocus() and text.textCursor().blockNumber() == 200  # line 201
    # From the tree: the row's menu offers it first.
    text.moveCursor(QTextCursor.MoveOperation.Start)
    window.memory_tab.tree.setFocus()
    node = window.memory_tab.model.node_for_key(ref_key(index_ref(machine)))
    assert node is not None
    menu = window.memory_tab.controller.file_actions.context_menu(node)
    first = menu.actions()[0]
    assert without_mnemonic(first.text()) == "Go to Claude Code's cut"
    letters = [mnemonic(a.text()) for a in menu.actions() if not a.isSeparator()]
    assert None not in letters and len(set(letters)) == len(letters)  # the row's own
    first.trigger()
    qtbot.waitUntil(lambda: text.textCursor().blockNumber() == 200, timeout=WAIT_MS)
    assert text.hasFocus()
    # Another agent's file has no cut: neither the row nor the editor offers it.
    claude_md = MemoryFileRef("claude-code:user", "CLAUDE.md")
    other = window.memory_tab.model.node_for_key(ref_key(claude_md))
    assert other is not None
    offered = window.memory_tab.controller.file_actions.context_menu(other).actions()
    assert "Go to Claude Code's cut" not in [without_mnemonic(a.text()) for a in offered]


def test_the_cut_s_label_never_covers_text(
    qtbot: QtBot, make_window: WindowFactory, machine: Machine
) -> None:
    window = open_memory_md(qtbot, make_window, machine)
    window.resize(1366, 768)
    qtbot.waitUntil(lambda: window.memory_tab.controller.editor.text_edit.viewport().width() > 600)
    line = cut_line(window)
    around = (199, 200, 201, 202)
    # The last line read fills its last row, the first not read is blank: below the cut.
    fill_last_row(window, 200)
    set_line(window, 201, "")
    go_to(window.memory_tab.controller.editor.text_edit, 201)  # the cut in view
    line.recut()
    label = line.label_rect()
    assert label is not None and label.top() > cut_top(line)
    assert not any(row.intersects(label) for row in text_rows(line, around))
    # Full rows on both sides: no label, only the line (the bar says what it means).
    fill_last_row(window, 201)
    line.recut()
    assert line.label_rect() is None
    # A short line above: the label beside it, above the cut.
    set_line(window, 200, "- short")
    line.recut()
    label = line.label_rect()
    assert label is not None and label.bottom() < cut_top(line)
    assert not any(row.intersects(label) for row in text_rows(line, around))
    # So narrow that the label fits nowhere: none.
    window.memory_tab.controller.editor.text_edit.setFixedWidth(260)
    qtbot.waitUntil(lambda: line.width() < 260)
    line.recut()
    assert line.label_rect() is None


def fill_last_row(window: MainWindow, number: int) -> None:
    """Line `number` (1-based) holds words up to the right end of its last row."""
    text_edit = window.memory_tab.controller.editor.text_edit
    words = ["- entry"]
    while True:
        set_line(window, number, " ".join(words))
        layout = text_edit.document().findBlockByNumber(number - 1).layout()
        last = layout.lineAt(layout.lineCount() - 1)
        if layout.lineCount() > 1 and last.naturalTextWidth() > text_edit.viewport().width() - 60:
            return
        words.append("entry")


def cut_top(line: CutLine) -> float:
    text_edit = line.text_edit
    assert line.cut is not None and line.cut.cut_at_line is not None
    block = text_edit.document().findBlockByNumber(line.cut.cut_at_line - 1)
    return text_edit.blockBoundingGeometry(block).translated(text_edit.contentOffset()).top()


def test_the_lines_past_the_cut_move_into_a_topic_file_as_one_undo_step(
    qtbot: QtBot, make_window: WindowFactory, machine: Machine
) -> None:
    window = open_memory_md(qtbot, make_window, machine)
    index = machine.claude_memory / "MEMORY.md"
    original = index.read_text(encoding="utf-8")
    editor = window.memory_tab.controller.editor
    type_at_top(window, "- new\n")  # an unsaved line: the save waits, the bar offers Move
    assert not saved(qtbot, editor)
    editor.message_bar.button(MOVE_PAST_CUT).click()
    topic = machine.claude_memory / "MEMORY-continued.md"
    qtbot.waitUntil(lambda: topic.exists(), timeout=WAIT_MS)
    settle(qtbot, editor)
    qtbot.waitUntil(lambda: not editor.is_dirty, timeout=WAIT_MS)  # the move saved it
    lines = ("- new\n" + original).split("\n")
    on_disk = index.read_text(encoding="utf-8")
    assert editor.buffer_text() == on_disk
    assert on_disk.split("\n")[:199] == lines[:199]
    assert on_disk.split("\n")[199].startswith("- [More of this index](MEMORY-continued.md)")
    assert on_disk.count("\n") == 200  # within the cut: the bar has nothing left to say
    written = topic.read_text(encoding="utf-8")
    assert written.startswith("---\nname: MEMORY.md, continued\n")
    assert written.split("---\n\n", 1)[1].split("\n") == lines[199:]
    qtbot.waitUntil(lambda: cut_line(window).past_cut == 0, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: not editor.message_bar.isVisible(), timeout=WAIT_MS)
    assert window.status_bar.currentMessage() == (
        "Moved the last 51 lines of MEMORY.md into MEMORY-continued.md; line 200 links to it"
    )
    # Both files are in history, and one Edit → Undo takes the move back.
    index_file = editor.current_file
    assert index_file is not None
    assert [v.sha256 for v in index_file.versions()][:2] == [sha256(on_disk), sha256(original)]
    window.context.actions.action("files.undo").trigger()
    qtbot.waitUntil(lambda: not topic.exists(), timeout=WAIT_MS)
    assert index.read_text(encoding="utf-8") == original
    wait_idle(qtbot, window)
    qtbot.waitUntil(lambda: editor.buffer_text() == original, timeout=WAIT_MS)
    assert not editor.is_dirty
    qtbot.waitUntil(lambda: editor.message_bar.text == NOTE, timeout=WAIT_MS)  # past it again
