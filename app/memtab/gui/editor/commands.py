"""The editor's commands beside editing: find, replace, find next/previous, open in an
external editor, copy the real path — as actions and as methods.

The window's menus and the editor's "more" menu show the same `QAction`s. Their keys
work while the focus is anywhere in the editor, even when a window-wide shortcut uses
the same key (the Memory tab's Ctrl+F searches the tree): the editor claims its own keys
before shortcuts are looked up (an event filter accepting the `ShortcutOverride`), so
Ctrl+F in the editor always finds in the file.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, Qt, Signal, Slot
from PySide6.QtGui import QAction, QGuiApplication, QKeyEvent, QKeySequence

from memtab.gui.editor.bar import BarKind
from memtab.gui.editor.external import ExternalOpener
from memtab.gui.editor.view import EditorView, ViewMode

if TYPE_CHECKING:
    from memtab.gui.editor.editor import EditorPanel

logger = logging.getLogger(__name__)

StandardKey = QKeySequence.StandardKey


class EditorCommands(QObject):
    """The editor panel's find / external editor / real path commands and actions.

    Signals:
        notice(object, str): a `BarKind` and a message for the editor's bar.
    """

    notice = Signal(object, str)

    def __init__(self, panel: EditorPanel, view: EditorView) -> None:
        """Actions on `panel` (shortcuts while the focus is in it) acting on `view`."""
        super().__init__(panel)
        self._panel = panel
        self._view = view
        self.find_action = self._action(
            "&Find in file…", [StandardKey.Find], "Find in the open file", self._find_selection
        )
        self.replace_action = self._action(
            "&Replace in file…",
            [StandardKey.Replace],
            "Find and replace in the open file",
            self.replace_in_file,
        )
        self.find_next_action = self._action(
            "Find &next", [StandardKey.FindNext], "Next match", self.find_next
        )
        self.find_previous_action = self._action(
            "Find &previous", [StandardKey.FindPrevious], "Previous match", self.find_previous
        )
        self.open_external_action = self._action(
            "Open in &external editor",
            ["Ctrl+Shift+E"],
            "Open the file on disk in $VISUAL, $EDITOR or the desktop's default application",
            self.open_in_external_editor,
        )
        self.copy_real_path_action = self._action(
            "Copy &real path", [], "Copy where the file is on disk", self.copy_real_path
        )
        self._opener = ExternalOpener(self)
        self._opener.opened.connect(self._on_opener_opened)
        self._opener.failed.connect(self._on_opener_failed)
        view.set_file_actions(
            [
                self.find_action,
                self.replace_action,
                None,
                self.open_external_action,
                self.copy_real_path_action,
            ]
        )
        view.set_path_actions([self.copy_real_path_action, self.open_external_action])
        panel.installEventFilter(self)

    def _action(
        self, text: str, keys: list[StandardKey | str], tip: str, slot: Callable[[], None]
    ) -> QAction:
        action = QAction(text, self._panel)
        shortcuts: list[QKeySequence] = []
        for key in keys:
            if isinstance(key, str):
                shortcuts.append(QKeySequence(key))
            else:
                shortcuts.extend(QKeySequence.keyBindings(key))
        action.setShortcuts(shortcuts)
        action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        action.setToolTip(tip)
        action.setStatusTip(tip)
        action.triggered.connect(slot)
        self._panel.addAction(action)
        return action

    @property
    def actions(self) -> list[QAction]:
        """Every action, in menu order."""
        return [
            self.find_action,
            self.replace_action,
            self.find_next_action,
            self.find_previous_action,
            self.open_external_action,
            self.copy_real_path_action,
        ]

    def update(self) -> None:
        """Enable what applies to the file shown now."""
        panel = self._panel
        has_file = self._view.has_file
        for action in (self.find_action, self.find_next_action, self.find_previous_action):
            action.setEnabled(has_file)
        self.replace_action.setEnabled(has_file and not panel.is_read_only)
        on_disk = panel.real_path is not None
        self.open_external_action.setEnabled(on_disk)
        self.copy_real_path_action.setEnabled(on_disk)

    def stop(self) -> None:
        """Stop watching the editors started (they keep running)."""
        self._opener.stop()

    # --- the commands ------------------------------------------------------------------------

    def find_in_file(self, query: str | None = None) -> None:
        """Open the find bar (with `query`, else the selection) and select the first match
        from the cursor; the source is shown if only the preview was."""
        if self._show_source():
            self._view.find_bar.open(query)

    @Slot()
    def replace_in_file(self) -> None:
        """Open the find bar with its replace row."""
        if not self._panel.is_read_only and self._show_source():
            self._view.find_bar.open(replace=True)

    @Slot()
    def find_next(self) -> None:
        """Select the next match (opens the find bar if it is closed)."""
        if self._view.find_bar.isVisible():
            self._view.find_bar.find_next()
        else:
            self.find_in_file()

    @Slot()
    def find_previous(self) -> None:
        """Select the previous match (opens the find bar if it is closed)."""
        if self._view.find_bar.isVisible():
            self._view.find_bar.find_previous()
        else:
            self.find_in_file()

    @Slot()
    def open_in_external_editor(self) -> None:
        """Open the file on disk in $VISUAL / $EDITOR / the desktop default (a failure is
        a notice). What that editor writes comes back through the watcher."""
        path = self._panel.real_path
        if path is not None:
            self._opener.open(path)

    @Slot()
    def copy_real_path(self) -> None:
        """Put the file's path on disk on the clipboard."""
        path = self._panel.real_path
        if path is not None:
            QGuiApplication.clipboard().setText(str(path))

    @Slot()
    def _find_selection(self) -> None:
        self.find_in_file()

    def _show_source(self) -> bool:
        if not self._view.has_file:
            return False
        if self._view.view_mode is ViewMode.PREVIEW:
            self._view.set_view_mode(ViewMode.SPLIT)
        return True

    # --- keys --------------------------------------------------------------------------------

    def claims(self, event: QKeyEvent) -> QAction | None:
        """The enabled action whose shortcut `event` is, if any."""
        pressed = QKeySequence(event.keyCombination())
        for action in self.actions:
            if action.isEnabled() and any(
                shortcut.matches(pressed) == QKeySequence.SequenceMatch.ExactMatch
                for shortcut in action.shortcuts()
            ):
                return action
        return None

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Claim the editor's keys (`ShortcutOverride`), then carry them out when the key
        press arrives unhandled by the focused widget."""
        if watched is self._panel and isinstance(event, QKeyEvent):
            if event.type() == QEvent.Type.ShortcutOverride and self.claims(event):
                event.accept()
                return True
            if event.type() == QEvent.Type.KeyPress and (action := self.claims(event)):
                action.trigger()
                return True
        return super().eventFilter(watched, event)

    # --- slots -------------------------------------------------------------------------------

    @Slot(str)
    def _on_opener_opened(self, name: str) -> None:
        if self._panel.is_dirty:
            self.notice.emit(
                BarKind.INFO,
                f"Opened the file on disk with {name}; your unsaved changes here are not in "
                "it. Save first, or merge when it changes.",
            )

    @Slot(str)
    def _on_opener_failed(self, message: str) -> None:
        self.notice.emit(BarKind.ERROR, message)
