"""Run as a program by test_field_keys.py: a window on a real X display (xcb), every dialog
of the app opened from it (`gui.every_dialog`), and Ctrl+D pressed in each of their text
fields and the window's own, printing what each field held before and after as JSON.

Qt's X11 key bindings make Ctrl+D a text field's Delete; the offscreen platform tests use
binds it to nothing, so this runs in a process of its own, on Xvfb.
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # tests/: the support package

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QDialog,
    QLineEdit,
    QPlainTextEdit,
    QTabWidget,
    QTextEdit,
    QWidget,
)

from gui.every_dialog import open_every_dialog
from memtab.components.window.ui_state import UiState
from memtab.gui.activity.watch import HomeWatcher
from memtab.gui.first_paint.app import create_main_window
from memtab.gui.settings.dialog import SettingsDialog
from memtab.store.paths import parse_file_path
from support.memory_home import MAIN, make_home

GIT = "/memories/global/tools/git.md"
CTRL = Qt.KeyboardModifier.ControlModifier
TYPED = "Always run make check"
DEADLINE_S = 60
Field = QLineEdit | QPlainTextEdit | QTextEdit | QAbstractSpinBox | QComboBox


def text_of(field: Field) -> str:
    if isinstance(field, (QPlainTextEdit, QTextEdit)):
        return field.toPlainText()
    if isinstance(field, QComboBox):
        return field.currentText()
    return field.text()


def editable_fields(top: QWidget) -> list[Field]:
    """The text fields in `top` a user can type in: shown, enabled, not read-only (a spin
    box's or a combo box's line edit counts as its box)."""
    found: list[Field] = []
    for widget in top.findChildren(QWidget):
        if not (widget.isVisible() and widget.isEnabled()):
            continue
        if isinstance(widget, QLineEdit) and isinstance(
            widget.parentWidget(), (QAbstractSpinBox, QComboBox)
        ):
            continue
        if isinstance(widget, (QLineEdit, QPlainTextEdit, QTextEdit, QAbstractSpinBox)):
            if not widget.isReadOnly():
                found.append(widget)
        elif isinstance(widget, QComboBox) and widget.isEditable():
            found.append(widget)
    return found


def wait_until(condition: object, seconds: float = 5) -> bool:
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:  # type: ignore[operator]
        QApplication.processEvents()
        time.sleep(0.005)
    return bool(condition())  # type: ignore[operator]


def press_ctrl_d(field: Field, *, replace: bool) -> tuple[str, str]:
    """What `field` holds with the cursor at its start, and after Ctrl+D there: its own
    text (a path, a spin box's value) or, if it has none (or `replace`), some typed."""
    if isinstance(field, (QPlainTextEdit, QTextEdit)) and (replace or not text_of(field)):
        field.setPlainText(TYPED)
    elif isinstance(field, QComboBox) and (replace or not text_of(field)):
        field.setEditText(TYPED)
    elif isinstance(field, QLineEdit) and not field.text():
        field.setText(TYPED)
    field.setFocus(Qt.FocusReason.OtherFocusReason)
    if not wait_until(field.hasFocus):  # as a user's keys would: to the field they type in
        return text_of(field), "(the field never had the focus)"
    start = CTRL if isinstance(field, (QPlainTextEdit, QTextEdit)) else Qt.KeyboardModifier(0)
    QTest.keyClick(field, Qt.Key.Key_Home, start)
    before = text_of(field)
    QTest.keyClick(field, Qt.Key.Key_D, CTRL)
    QApplication.processEvents()
    return before, text_of(field)


def name_of(field: QWidget) -> str:
    return field.accessibleName() or field.objectName() or type(field).__name__


def main() -> None:
    pressed: list[list[str]] = []
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        home = make_home(root / "home")
        window = create_main_window(
            home,
            MAIN,
            ui_state=UiState(root / "ui.json"),
            watcher=HomeWatcher(debounce_ms=30, max_latency_ms=300),
            start_writer=False,
        )
        window.show()
        window.activateWindow()
        wait_until(lambda: window.memory_tab.is_idle, DEADLINE_S)
        editor = window.memory_tab.controller.editor
        editor.open_file(parse_file_path(GIT))
        wait_until(lambda: editor.current_path is not None and not editor.is_reading, DEADLINE_S)
        window.context.actions.action("editor.find").trigger()  # the find bar's fields

        def visit(dialog: QDialog) -> None:
            if isinstance(dialog, SettingsDialog):  # a provider whose model fields are used
                dialog.provider.setCurrentIndex(dialog.provider.findData("anthropic"))
            dialog.show()
            QTest.qWaitForWindowExposed(dialog)
            dialog.activateWindow()
            QTest.qWaitForWindowActive(dialog)
            done: set[int] = set()
            pages = [
                (tabs, i) for tabs in dialog.findChildren(QTabWidget) for i in range(tabs.count())
            ]
            for tabs, index in [(None, 0), *pages]:  # each page of a dialog's tabs in turn
                if tabs is not None:
                    tabs.setCurrentIndex(index)
                    QApplication.processEvents()
                for field in editable_fields(dialog):
                    if id(field) not in done:
                        done.add(id(field))
                        before, after = press_ctrl_d(field, replace=True)
                        pressed.append([type(dialog).__name__, name_of(field), before, after])
            dialog.reject()

        wait_until(window.isActiveWindow)
        for field in editable_fields(window):  # the window's own: Ctrl+D is Pin there
            before, after = press_ctrl_d(field, replace=False)
            pressed.append(["MainWindow", name_of(field), before, after])
        visited = open_every_dialog(window, home, visit)
        print(json.dumps({"pressed": pressed, "visited": visited}))
        window.close_without_asking()


if __name__ == "__main__":
    main()
