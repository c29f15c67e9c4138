"""Focus and the keys that move it: Tab never traps the keyboard in the editor (Ctrl+M,
the frontmatter), the footer's buttons are reached by Tab, a new file takes the typing;
Redo for the tree and the text; dialog buttons with Alt+letters."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QApplication, QMessageBox, QPushButton, QToolButton, QWidget
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from gui.editor_support import open_loaded, settle
from gui.memory_tree_support import (
    WAIT_MS,
    FakeDialogs,
    WindowFactory,
    action,
    activate,
    wait_for,
    wait_idle,
)
from memtab.components.editor.leaving import DiscardChoice
from memtab.components.tree.tree import file_key
from memtab.components.window.mnemonics import with_mnemonic
from memtab.gui.editor.tab import held_keys
from memtab.gui.files.file_actions import CodexNoteDialog
from memtab.gui.first_paint.main_window import MainWindow
from memtab.gui.toolkit.dialog_layout import give_mnemonics
from memtab.gui.toolkit.text.source_edit import SourceEdit
from memtab.gui.window import keys
from memtab.gui.writer.inbox_body import EditProposalDialog
from memtab.store.home import Home
from memtab.store.paths import parse_file_path
from memtab.writer.inbox.inbox import InboxItem
from support.syntax_trees import walk

home = support.home
make_window = support.make_window

CTRL = Qt.KeyboardModifier.ControlModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier
GIT = "/memories/global/tools/git.md"
APP = Path(__file__).resolve().parents[3] / "app" / "memtab"


@pytest.fixture(autouse=True)
def _tab_indents_again() -> Iterator[None]:
    yield
    SourceEdit.set_tab_moves_focus(False)  # one mode for the application: reset it


@pytest.fixture
def windows(make_window: WindowFactory) -> WindowFactory:
    """`make_window`, whose windows drop a draft when a tab closes (the unsaved-changes
    question would wait for an answer nobody gives)."""

    def make(home: Home) -> MainWindow:
        window = make_window(home)
        editor = window.memory_tab.controller.editor

        def discard(_names: list[str], answer: Callable[[DiscardChoice], None]) -> None:
            answer(DiscardChoice.DISCARD)

        editor._ask_unsaved = discard  # type: ignore[method-assign]
        return window

    return make


def opened(qtbot: QtBot, windows: WindowFactory, home: Home) -> MainWindow:
    window = windows(home)
    activate(qtbot, window)
    wait_idle(qtbot, window)
    tab = window.memory_tab
    tab.controller.editor_link.select_key(file_key(parse_file_path(GIT)), open_it=True)
    wait_for(qtbot, lambda: tab.controller.editor.current_path == parse_file_path(GIT))
    settle(qtbot, tab.controller.editor)
    return window


def focused() -> QWidget | None:
    return QApplication.focusWidget()


def tab_through(qtbot: QtBot, presses: int) -> list[QWidget | None]:
    seen = []
    for _ in range(presses):
        widget = focused()
        assert widget is not None
        qtbot.keyClick(widget, Qt.Key.Key_Tab)
        seen.append(focused())
    return seen


def test_tab_leaves_the_frontmatter_and_ctrl_m_lets_it_leave_the_text(
    qtbot: QtBot, windows: WindowFactory, home: Home
) -> None:
    window = opened(qtbot, windows, home)
    editor = window.memory_tab.controller.editor
    text = editor.text_edit
    before = editor.buffer_text()
    text.setFocus()
    text.moveCursor(QTextCursor.MoveOperation.Start)
    text.moveCursor(QTextCursor.MoveOperation.Down)  # on `description:`
    qtbot.keyClick(text, Qt.Key.Key_Tab)
    assert editor.buffer_text() == before and not text.hasFocus()  # no tab in the YAML
    text.setFocus()
    qtbot.keyClick(text, Qt.Key.Key_Backtab, SHIFT)
    assert editor.buffer_text() == before and not text.hasFocus()
    # In the body, Tab indents…
    text.setFocus()
    text.moveCursor(QTextCursor.MoveOperation.End)
    qtbot.keyClick(text, Qt.Key.Key_Tab)
    assert editor.buffer_text().endswith("\t") and text.hasFocus()
    # …until Ctrl+M: then Tab goes on to the footer's buttons.
    qtbot.keyClick(text, Qt.Key.Key_M, CTRL)
    assert window.context.actions.action("editor.tab_moves_focus").isChecked()
    assert "Tab moves the focus" in window.statusBar().currentMessage()
    indicator = mode_indicator(window, "Tab moves focus")
    assert not indicator.isHidden()  # the mode stays in view after the note has gone
    footer = window.memory_tab.controller.footer
    seen = tab_through(qtbot, 6)
    for button in (footer.details_button, footer.runs_button, footer.consolidate_button):
        assert button in seen
    assert editor.buffer_text().endswith("\t")  # nothing more typed
    text.setFocus()
    qtbot.keyClick(text, Qt.Key.Key_M, CTRL)
    assert indicator.isHidden()
    qtbot.keyClick(text, Qt.Key.Key_Tab)
    assert editor.buffer_text().endswith("\t\t")
    # A click on the indicator turns the mode off, as Ctrl+M does.
    qtbot.keyClick(text, Qt.Key.Key_M, CTRL)
    assert not indicator.isHidden()
    qtbot.mouseClick(indicator, Qt.MouseButton.LeftButton)
    assert indicator.isHidden()
    assert not window.context.actions.action("editor.tab_moves_focus").isChecked()


def mode_indicator(window: MainWindow, text: str) -> QToolButton:
    """The status bar's button that says a mode is on."""
    found = [
        button
        for button in window.statusBar().findChildren(QToolButton)
        if button.accessibleName() == text
    ]
    assert len(found) == 1
    return found[0]


def test_every_tab_has_the_source_text_with_its_keys_and_margins(
    qtbot: QtBot, windows: WindowFactory, home: Home
) -> None:
    window = opened(qtbot, windows, home)
    editor = window.memory_tab.controller.editor
    python = parse_file_path("/memories/global/tools/python.md")
    open_loaded(qtbot, editor, python, keep=True)
    wait_for(qtbot, lambda: editor.current_path == python and len(editor.tabs) == 2)
    texts = [tab.view.text_edit for tab in editor.tabs]
    assert all(isinstance(text, SourceEdit) for text in texts) and texts[0] is not texts[1]
    text = editor.text_edit
    assert text is texts[1]
    before = editor.buffer_text()
    text.setFocus()
    text.moveCursor(QTextCursor.MoveOperation.Start)
    qtbot.keyClick(text, Qt.Key.Key_Tab)  # the second tab's frontmatter: Tab leaves too
    assert editor.buffer_text() == before and not text.hasFocus()
    action(window, "blame.toggle").trigger()  # the per-line margins attach to this text
    assert window.part(keys.BLAME) is not None and window.part(keys.BLAME).gutter.parent() is text
    action(window, "blame.toggle").trigger()


@pytest.mark.parametrize("width", [1280, 683], ids=["wide", "half a laptop"])
def test_after_new_file_the_typing_goes_into_its_body(
    qtbot: QtBot, windows: WindowFactory, home: Home, width: int
) -> None:
    window = windows(home)
    window.resize(width, 700)
    activate(qtbot, window)
    wait_idle(qtbot, window)
    assert window.memory_tab.panes.narrow == (width == 683)  # one pane at a time: the tree
    dialogs = FakeDialogs()
    tab = window.memory_tab
    tab.controller.dialogs = dialogs  # type: ignore[assignment]
    dialogs.new_item = (parse_file_path("/memories/global/fresh.md"), "Fresh notes")
    tab.tree.setFocus()
    qtbot.keyClick(tab.tree, Qt.Key.Key_N, CTRL)
    wait_for(
        qtbot,
        lambda: tab.controller.editor.current_path == parse_file_path("/memories/global/fresh.md"),
    )
    text = tab.controller.editor.text_edit
    wait_for(qtbot, lambda: text.hasFocus() and text.isVisible())  # narrow: the editor's pane
    qtbot.keyClicks(focused(), "first words")  # where the keyboard is: not the tree's search
    assert tab.controller.editor.buffer_text().endswith("first words")
    assert tab.controller.editor.buffer_text().startswith("---\ndescription:")


def test_keys_typed_while_a_new_file_is_made_go_into_its_body(
    qtbot: QtBot, windows: WindowFactory, home: Home, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The keys are held until the file is there, at most HOLD_MS (5 s): at load, making,
    # showing and reading it took longer, the keys were dropped and the test failed.
    monkeypatch.setattr(held_keys, "HOLD_MS", WAIT_MS)
    window = windows(home)
    activate(qtbot, window)
    wait_idle(qtbot, window)
    dialogs = FakeDialogs()
    tab = window.memory_tab
    tab.controller.dialogs = dialogs  # type: ignore[assignment]
    fresh = parse_file_path("/memories/global/fresh.md")
    dialogs.new_item = (fresh, "Fresh notes")
    preferences = file_key(parse_file_path("/memories/global/preferences.md"))
    assert tab.tree.select_key(preferences)
    tab.tree.setFocus()
    # The dialog closes and the user types on at once, before the file exists: in the
    # tree, "p" would have jumped to preferences.md and opened it.
    qtbot.keyClick(tab.tree, Qt.Key.Key_N, CTRL)
    qtbot.keyClicks(tab.tree, "plan")
    wait_for(qtbot, lambda: tab.controller.editor.current_path == fresh)
    wait_for(qtbot, lambda: tab.controller.editor.buffer_text().endswith("plan"))
    assert tab.controller.editor.text_edit.hasFocus()
    qtbot.keyClicks(tab.controller.editor.text_edit, " ahead")
    assert tab.controller.editor.buffer_text().endswith("plan ahead")


def test_redo_from_the_tree_with_either_key_and_from_the_menu(
    qtbot: QtBot, windows: WindowFactory, home: Home
) -> None:
    window = windows(home)
    activate(qtbot, window)
    wait_idle(qtbot, window)
    tab = window.memory_tab
    actions = window.context.actions
    path = home.global_root / "preferences.md"
    assert tab.tree.select_key(file_key(parse_file_path("/memories/global/preferences.md")))
    dialogs = FakeDialogs()
    tab.controller.dialogs = dialogs  # type: ignore[assignment]
    tab.tree.setFocus()
    qtbot.keyClick(tab.tree, Qt.Key.Key_Delete)
    wait_for(qtbot, lambda: not path.exists())
    wait_idle(qtbot, window)
    tab.tree.setFocus()
    qtbot.keyClick(tab.tree, Qt.Key.Key_Z, CTRL)
    wait_for(qtbot, path.exists)
    wait_idle(qtbot, window)
    window.part(keys.MENUS).menu("edit").aboutToShow.emit()
    assert actions.action("files.redo").text() == "&Redo delete of preferences.md"
    window.part(keys.MENUS).menu("edit").aboutToHide.emit()
    tab.tree.setFocus()
    qtbot.keyClick(tab.tree, Qt.Key.Key_Z, CTRL | SHIFT)  # Redo: deleted again
    wait_for(qtbot, lambda: not path.exists())
    wait_idle(qtbot, window)
    tab.tree.setFocus()
    qtbot.keyClick(tab.tree, Qt.Key.Key_Z, CTRL)
    wait_for(qtbot, path.exists)
    wait_idle(qtbot, window)
    tab.tree.setFocus()
    qtbot.keyClick(tab.tree, Qt.Key.Key_Y, CTRL)  # Ctrl+Y too
    wait_for(qtbot, lambda: not path.exists())
    wait_idle(qtbot, window)
    actions.action("files.undo").trigger()  # Edit → Undo, Edit → Redo
    wait_for(qtbot, path.exists)
    wait_idle(qtbot, window)
    tab.tree.setFocus()
    actions.action("files.redo").trigger()
    wait_for(qtbot, lambda: not path.exists())


def test_redo_of_typing_on_every_key_and_from_the_menu(
    qtbot: QtBot, windows: WindowFactory, home: Home
) -> None:
    window = opened(qtbot, windows, home)
    editor = window.memory_tab.controller.editor
    text = editor.text_edit
    before = editor.buffer_text()
    text.setFocus()
    text.moveCursor(QTextCursor.MoveOperation.End)
    qtbot.keyClicks(text, "more")
    qtbot.keyClick(text, Qt.Key.Key_Z, CTRL)
    assert editor.buffer_text() == before
    qtbot.keyClick(text, Qt.Key.Key_Y, CTRL)
    assert editor.buffer_text() == before + "more"
    qtbot.keyClick(text, Qt.Key.Key_Z, CTRL)
    qtbot.keyClick(text, Qt.Key.Key_Z, CTRL | SHIFT)
    assert editor.buffer_text() == before + "more"
    actions = window.context.actions
    window.part(keys.MENUS).menu("edit").aboutToShow.emit()
    assert actions.action("files.undo").text() == "&Undo typing"
    window.part(keys.MENUS).menu("edit").aboutToHide.emit()
    actions.action("files.undo").trigger()  # Edit → Undo acts on the text with the focus
    assert editor.buffer_text() == before
    actions.action("files.redo").trigger()
    assert editor.buffer_text() == before + "more"


def test_tab_leaves_the_prose_of_a_dialog_for_its_buttons(qtbot: QtBot) -> None:
    item = InboxItem(
        id="s-1", kind="suggestion", workspace_id="main", text="Always use pnpm.",
        section="Directives", memory_path="/memories/workspace/notes.md", source="writer",
    )  # fmt: skip
    for dialog in (CodexNoteDialog(), EditProposalDialog(item)):
        qtbot.addWidget(dialog)
        dialog.show()
        qtbot.waitExposed(dialog)
        before = dialog.text
        dialog.text_edit.setFocus()
        qtbot.keyClick(dialog.text_edit, Qt.Key.Key_Tab)
        assert dialog.text == before and isinstance(dialog.focusWidget(), QPushButton)
        dialog.reject()


def test_a_box_of_standard_buttons_gets_a_letter_for_each(qtbot: QtBot) -> None:
    box = QMessageBox()
    qtbot.addWidget(box)
    buttons = QMessageBox.StandardButton
    box.setStandardButtons(buttons.Save | buttons.Discard | buttons.Cancel)
    give_mnemonics(box)
    texts = {
        box.button(button).text() for button in (buttons.Save, buttons.Discard, buttons.Cancel)
    }
    assert texts == {"&Save", "&Discard", "&Cancel"}  # Alt+D: Discard
    assert with_mnemonic("Close", {"c"}) == "C&lose"


@pytest.mark.slow
def test_every_dialog_button_box_the_app_makes_gets_mnemonics() -> None:
    """Each module that makes a QMessageBox or a QDialogButtonBox gives its buttons
    Alt+letters (`widgets.give_mnemonics`) — the static QMessageBox helpers, which cannot,
    only for Yes/No (Qt's own have them) and About (one button); a QInputDialog is made
    whole, its buttons named with their letters."""
    missing = []
    for path in APP.rglob("*.py"):
        source = path.read_text(encoding="utf-8")
        tree = ast.parse(source)
        makes = any(
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("QMessageBox", "QDialogButtonBox")
            for node in walk(tree)
        )
        if makes and "give_mnemonics(" not in source:
            missing.append(str(path.relative_to(APP)))
        asks = [  # QInputDialog.getText & co.: their OK and Cancel cannot get letters
            node.func.attr
            for node in walk(tree)
            if isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "QInputDialog"
        ]
        if asks:
            missing.append(f"{path.relative_to(APP)}: QInputDialog.{asks[0]}")
    assert missing == []


def test_ctrl_m_works_from_the_tree_and_the_search_field(
    qtbot: QtBot, windows: WindowFactory, home: Home
) -> None:
    window = opened(qtbot, windows, home)
    toggle = window.context.actions.action("editor.tab_moves_focus")
    for widget in (window.memory_tab.tree, window.memory_tab.controller.search_box.edit):
        widget.setFocus()
        before = toggle.isChecked()
        qtbot.keyClick(focused() or widget, Qt.Key.Key_M, CTRL)
        assert toggle.isChecked() is not before
