"""Quick open (Ctrl+P) and the command palette (Ctrl+Shift+P): typed letters narrow the
list, Enter opens the file or runs the command — from the keyboard, whatever has focus."""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QApplication, QDialog
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from gui.memory_tree_support import WAIT_MS, WindowFactory, activate
from memtab.gui.first_paint.main_window import MainWindow
from memtab.gui.window.palette import MATCHED_ROLE, PaletteDialog, PaletteEntry
from memtab.store.home import Home
from memtab.store.paths import parse_file_path

home = support.home
make_window = support.make_window
CTRL = Qt.KeyboardModifier.ControlModifier
CTRL_SHIFT = CTRL | Qt.KeyboardModifier.ShiftModifier


def answer_with(window: object, typed: str, keys: tuple[Qt.Key, ...] = ()) -> list[QDialog]:
    """Answer the next palettes by typing `typed`, pressing `keys`, then Enter."""
    shown: list[QDialog] = []

    def run(dialog: QDialog) -> int:
        assert isinstance(dialog, PaletteDialog)
        shown.append(dialog)
        dialog.field.setText(typed)
        for key in keys:
            QApplication.sendEvent(dialog.field, _press(key))
        QApplication.sendEvent(dialog.field, _press(Qt.Key.Key_Return))
        return dialog.result()

    window.exec_dialog = run  # type: ignore[attr-defined]
    return shown


def opened(window: MainWindow) -> str | None:
    ref = window.memory_tab.controller.editor.current_ref
    return None if ref is None else ref.key


def _press(key: Qt.Key) -> QKeyEvent:
    return QKeyEvent(QEvent.Type.KeyPress, key, Qt.KeyboardModifier.NoModifier)


def test_ctrl_p_opens_the_file_typed_from_the_editor(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window = make_window(home)
    activate(qtbot, window)
    shown = answer_with(window, "tools py")
    window.memory_tab.controller.editor.text_edit.setFocus()
    qtbot.keyClick(window.focusWidget(), Qt.Key.Key_P, CTRL)
    [dialog] = shown
    assert dialog.shown[0].detail == "/memories/global/tools/python.md"
    qtbot.waitUntil(lambda: opened(window) == "/memories/global/tools/python.md", timeout=WAIT_MS)


def test_quick_open_lists_every_scope_and_down_moves_the_choice(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window = make_window(home)
    activate(qtbot, window)
    shown = answer_with(window, "md", (Qt.Key.Key_Down,))
    window.context.actions.action("window.quick_open").trigger()
    [dialog] = shown
    details = {entry.detail for entry in dialog.entries}
    assert {
        "/memories/global/preferences.md",
        "/memories/project/architecture.md",
        "/memories/workspace/notes.md",
    } <= details
    second = dialog.shown[1].detail
    qtbot.waitUntil(lambda: opened(window) == second, timeout=WAIT_MS)


def test_ctrl_shift_p_runs_the_command_typed(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window = make_window(home)
    activate(qtbot, window)
    shown = answer_with(window, "split")
    qtbot.keyClick(window, Qt.Key.Key_P, CTRL_SHIFT)
    [dialog] = shown
    labels = [entry.label for entry in dialog.entries]
    assert "Command palette" not in labels and "Quick open" not in labels
    assert dialog.chosen is not None and dialog.chosen.label == "Split"
    assert window.context.actions.action("window.view_split").isChecked()


def test_nothing_matching_chooses_nothing(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window = make_window(home)
    shown = answer_with(window, "zzzzqqq")
    window.context.actions.action("window.command_palette").trigger()
    [dialog] = shown
    assert dialog.shown == [] and dialog.chosen is None and dialog.empty.isVisibleTo(dialog)


def test_what_an_entry_is_called_ranks_before_where_it_is(qtbot: QtBot) -> None:
    def nothing() -> None:
        pass

    entries = [
        PaletteEntry("Recently deleted", "View", nothing),
        PaletteEntry("Previous tab", "View · Ctrl+Shift+Tab", nothing),
        PaletteEntry("notes.md", "/memories/review/notes.md", nothing),
    ]
    dialog = PaletteDialog("Command palette", "", entries)
    qtbot.addWidget(dialog)
    dialog.field.setText("rev")
    # "Previous" holds r-e-v in its name; the others only with their menu or path.
    labels = [entry.label for entry in dialog.shown]
    assert labels[0] == "Previous tab"
    assert sorted(labels[1:]) == ["Recently deleted", "notes.md"]


def test_the_letters_typed_show_bold_in_each_row(qtbot: QtBot) -> None:
    """Quick open highlights the letters that matched (issue 74): the row with them in
    bold looks other than the same row plain."""

    def nothing() -> None:
        pass

    entries = [PaletteEntry("git.md", "/memories/global/tools/git.md", nothing)]
    dialog = PaletteDialog("Quick open", "", entries)
    qtbot.addWidget(dialog)
    dialog.resize(560, 300)
    dialog.show()
    qtbot.waitExposed(dialog)
    item = dialog.list.item(0)
    assert item is not None and item.data(MATCHED_ROLE) == ()
    plain = dialog.list.viewport().grab().toImage()
    dialog.field.setText("gtm")
    item = dialog.list.item(0)
    assert item is not None and item.data(MATCHED_ROLE) == (0, 2, 4)
    bold = dialog.list.viewport().grab().toImage()
    assert bold != plain


def test_typing_matches_a_commands_name_and_menu_never_its_key(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    # "recall" listed Who wrote this line for its Ctrl+Alt+L (and Reject proposals for
    # its Del), the key's letters bold.
    window = make_window(home)
    activate(qtbot, window)
    editor = window.memory_tab.controller.editor
    editor.open_file(parse_file_path("/memories/global/tools/git.md"), keep=True)
    qtbot.waitUntil(lambda: editor.current_ref is not None and not editor.is_reading)
    shown = answer_with(window, "recall", (Qt.Key.Key_Escape,))
    window.context.actions.action("window.command_palette").trigger()
    [dialog] = shown
    assert "Who wrote this line" in [entry.label for entry in dialog.entries]
    labels = [entry.label for entry in dialog.shown]
    assert labels and "Who wrote this line" not in labels
    for row in range(dialog.list.count()):
        item = dialog.list.item(row)
        entry = dialog.shown[row]
        key_starts = len(entry.text) - len(entry.keys) if entry.keys else len(entry.text)
        assert all(at < key_starts for at in item.data(MATCHED_ROLE)), entry.text
