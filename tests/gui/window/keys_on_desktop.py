"""Run as a program by test_keys.py: a window on a real X display (xcb) under the desktop
XDG_CURRENT_DESKTOP names, printing every action's keys and any conflict as JSON.

Qt's standard keys come from the desktop's theme, which only the xcb platform asks (the
offscreen one tests use has one scheme for every desktop), so this runs in a process of
its own, on Xvfb.
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # tests/: the support package

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QLineEdit, QPlainTextEdit

from memtab.components.window.ui_state import UiState
from memtab.gui.activity.watch import HomeWatcher
from memtab.gui.editor.editor import EditorPanel
from memtab.gui.first_paint.app import create_main_window
from memtab.store.paths import parse_file_path
from support.memory_home import MAIN, make_home

GIT = "/memories/global/tools/git.md"
CTRL = Qt.KeyboardModifier.ControlModifier

DEADLINE_S = 60


def redone_by(field: QLineEdit | QPlainTextEdit) -> list[str]:
    """Which of Ctrl+Shift+Z and Ctrl+Y redo what Ctrl+Z took back in `field`."""
    text = field.text if isinstance(field, QLineEdit) else field.toPlainText
    field.setFocus()
    redone = []
    for name, key, modifiers in (
        ("Ctrl+Shift+Z", Qt.Key.Key_Z, CTRL | Qt.KeyboardModifier.ShiftModifier),
        ("Ctrl+Y", Qt.Key.Key_Y, CTRL),
    ):
        QTest.keyClicks(field, "typed")
        typed = text()
        QTest.keyClick(field, Qt.Key.Key_Z, CTRL)
        QTest.keyClick(field, key, modifiers)
        if text() == typed:
            redone.append(name)
    return redone


def went_to_line(editor: EditorPanel) -> bool:
    """Whether Ctrl+G in the text opens Go to line (GNOME's and XFCE's standard Find next
    is Ctrl+G too)."""
    editor.text_edit.setFocus()
    QTest.keyClick(editor.text_edit, Qt.Key.Key_G, CTRL)
    dialog = editor.editor_actions.go_to_line_dialog
    if dialog is not None:
        dialog.reject()
    return dialog is not None


def main() -> None:
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
        deadline = time.monotonic() + DEADLINE_S
        while not window.memory_tab.is_idle and time.monotonic() < deadline:
            QApplication.processEvents()
            time.sleep(0.01)
        actions = window.context.actions
        portable = QKeySequence.SequenceFormat.PortableText
        editor = window.memory_tab.controller.editor
        editor.open_file(parse_file_path(GIT))
        # Open, and its text shown (it is read on the file channel).
        while (editor.current_path is None or editor.is_reading) and time.monotonic() < deadline:
            QApplication.processEvents()
            time.sleep(0.01)
        go_to_line = went_to_line(editor)
        print(
            json.dumps(
                {
                    "go_to_line": go_to_line,
                    "keys": {
                        entry.id: [key.toString(portable) for key in entry.keys]
                        for entry in actions.entries()
                    },
                    "redone": {
                        field: redone_by(widget)
                        for field, widget in (
                            ("text", editor.text_edit),
                            ("description", editor.description_edit),
                        )
                    },
                    "conflicts": [
                        [conflict.key, conflict.first, conflict.second]
                        for conflict in actions.conflicts()
                    ],
                }
            )
        )
        window.close_without_asking()


if __name__ == "__main__":
    main()
