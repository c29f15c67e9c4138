"""The editor's actions (ids `editor.*`): save, find, replace, find next/previous, go to line,
open externally, copy the real path. The editor claims its keys (`claim=True`: Ctrl+F finds in
the file); Save's work anywhere in the window. Replace is "Ctrl+H" on every desktop.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol

from PySide6.QtCore import QObject, QSize, Qt, Signal, Slot
from PySide6.QtGui import QAction, QGuiApplication, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QDialogButtonBox,
    QLabel,
    QLineEdit,
    QWidget,
)

from memtab.components.editor.find import LineTarget, go_to_hint, parse_target
from memtab.components.editor.panel import (
    actions_now,
    opened_elsewhere_note,
    tab_moves_focus_said,
    with_source,
)
from memtab.components.editor.session import BarKind
from memtab.components.window.ui_state import UiState
from memtab.gui.actions import ActionRegistry, Focus
from memtab.gui.editor.text.view import EditorView
from memtab.gui.toolkit.clock import qtimer
from memtab.gui.toolkit.dialog_layout import OK_CANCEL, button_box, fit_to_screen
from memtab.gui.toolkit.external_editor import ExternalOpener
from memtab.gui.toolkit.style import mute
from memtab.gui.toolkit.text.line_margin import go_to
from memtab.gui.toolkit.text.source_edit import SourceEdit
from memtab.gui.toolkit.widgets import holds_keyboard, named, vbox

AUTOSAVE_FLAG = "editor_autosave"
AUTOSAVE_DELAY_MS = 1000


class SavableTab(Protocol):
    """What auto save asks of a tab (`file_tab.FileTab`)."""

    @property
    def may_autosave(self) -> bool: ...
    def save(self, then: Callable[[bool], None] | None = None) -> None: ...


class AutoSave(QObject):
    """Saves the tabs of `editor` after a pause in typing and on focus loss, when on."""

    def __init__(
        self,
        editor: QWidget,
        tabs: Callable[[], Sequence[SavableTab]],
        ui_state: UiState | None,
        save_state: Callable[[], None],
    ) -> None:
        """Off, or as `ui_state` remembers it (`save_state()` writes it off the GUI
        thread); `tabs()` gives the tabs to save."""
        super().__init__(editor)
        self._editor = editor
        self._tabs = tabs
        self._ui_state = ui_state
        self._save_state = save_state
        self.enabled = ui_state.flag(AUTOSAVE_FLAG) if ui_state is not None else False
        self.timer = qtimer(self, self._on_timer_timeout, AUTOSAVE_DELAY_MS)
        app = QApplication.instance()
        if isinstance(app, QApplication):
            app.focusChanged.connect(self._on_application_focus_changed)

    def set_enabled(self, enabled: bool) -> None:
        """Turn auto save on or off (remembered); turning it on saves what waits."""
        self.enabled = enabled
        if self._ui_state is not None:
            self._ui_state.set_flag(AUTOSAVE_FLAG, enabled)
            self._save_state()
        if enabled:
            self.save_now()
        else:
            self.timer.stop()

    def edited(self) -> None:
        """A tab's text changed: save once the typing pauses."""
        if self.enabled:
            self.timer.start()

    def save_now(self) -> None:
        """Save every tab with unsaved changes that auto save may save."""
        self.timer.stop()
        for tab in list(self._tabs()):
            if tab.may_autosave:
                tab.save()

    @Slot()
    def _on_timer_timeout(self) -> None:
        if self.enabled:
            self.save_now()

    @Slot(QWidget, QWidget)
    def _on_application_focus_changed(self, old: QWidget | None, new: QWidget | None) -> None:
        if not self.enabled or old is None:
            return
        inside = self._editor.isAncestorOf
        if inside(old) and (new is None or not inside(new)):
            self.save_now()


class GoToLineDialog(QDialog):
    """Asks for a line of a text of `lines` lines whose cursor is on `current`."""

    chosen = Signal(object)  # the `LineTarget` typed, on Enter (or Go)

    def __init__(self, current: int, lines: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)  # a small dialog: `fit_to_screen` sets its flags
        self.setObjectName("goToLineDialog")
        self.setWindowTitle("Go to line")
        self._lines = lines
        self.field = named(QLineEdit(self), accessible="Line number")
        self.field.setPlaceholderText(f"{current}")
        self.hint = mute(QLabel(go_to_hint(current, lines), self), wrap=True)
        label = QLabel("&Line:", self)
        label.setBuddy(self.field)
        self.buttons = button_box(self, OK_CANCEL, ok="&Go")
        vbox(label, self.field, self.hint, self.buttons, on=self)
        self.field.textChanged.connect(self._on_field_text_changed)
        self._on_field_text_changed("")
        self.setWindowModality(Qt.WindowModality.WindowModal)
        fit_to_screen(self, QSize(380, 0))
        self.field.setFocus()

    def target(self) -> LineTarget | None:
        """What the field asks for now (None: no line number)."""
        return parse_target(self.field.text(), self._lines)

    @Slot(str)
    def _on_field_text_changed(self, _text: str) -> None:
        go = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        go.setEnabled(self.target() is not None)

    def accept(self) -> None:
        """Go (or Enter): close and say the line typed, if one is."""
        target = self.target()
        if target is not None:
            super().accept()
            self.chosen.emit(target)


StandardKey = QKeySequence.StandardKey


class EditorForActions(Protocol):
    """What the actions act on (`editor.EditorPanel`)."""

    @property
    def is_dirty(self) -> bool: ...
    @property
    def has_file(self) -> bool: ...
    @property
    def is_read_only(self) -> bool: ...
    @property
    def real_path(self) -> Path | None: ...
    def save(self, then: Callable[[bool], None] | None = None) -> None: ...
    def revert_to_disk(self) -> None: ...
    def close_current_tab(self) -> None: ...
    @property
    def autosave(self) -> AutoSave: ...
    def next_tab(self) -> None: ...
    def previous_tab(self) -> None: ...


class EditorActions(QObject):
    """The editor panel's find / external editor / real path actions."""

    notice = Signal(object, str)  # a `BarKind` and a message for the editor's bar
    said = Signal(str)  # a passing note for the status bar

    def __init__(
        self,
        actions: ActionRegistry,
        widget: QWidget,
        panel: EditorForActions,
        view: Callable[[], EditorView],
        *,
        tab_keys_in: QWidget | None = None,
    ) -> None:
        """Register the editor's actions on `widget` (keys while the focus is in it),
        acting on `panel` and the view `view()` gives (the current tab's); the keys that
        close and switch tabs and replace work in `tab_keys_in` (the Memory tab: from the
        tree as in the text), else in `widget` too."""
        super().__init__(widget)
        self._actions = actions
        self._widget = widget
        self._panel = panel
        self._current_view = view
        # Keys that win while the focus is in the editor (or the tab: claimed); `update()`
        # keeps each action enabled only when it applies, so that a claimed key of one that
        # does not reaches the window's shortcut instead.
        in_editor = functools.partial(actions.add, focus=Focus.WITHIN, on=widget, claim=True)
        in_tab = functools.partial(
            actions.add, focus=Focus.WITHIN, on=tab_keys_in or widget, claim=True
        )
        self.save_action = actions.add(
            "editor.save",
            "&Save",
            self.save_saying,
            keys=["Ctrl+S", StandardKey.Save, "Ctrl+Return", "Ctrl+Enter"],
            menu="file",
            tip="Save the open file",
            enabled_when=lambda: panel.is_dirty,
        )
        self.find_action = in_editor(
            "editor.find",
            "&Find in file…",
            self.find_in_file,
            keys=["Ctrl+F", StandardKey.Find],
            tip="Find in the open file",
        )
        self.replace_action = in_tab(
            "editor.replace",
            "Re&place in file…",
            self.replace_in_file,
            keys=["Ctrl+H", StandardKey.Replace],
            tip="Find and replace in the open file",
        )
        self._steps_elsewhere: tuple[Callable[[], object], Callable[[], object]] | None = None
        # F3 and Shift+F3: one action each, by where the keyboard is (`find_next`).
        self.find_next_action = in_tab(
            "editor.find_next",
            "Find &next",
            self.find_next,
            keys=["F3"],  # not StandardKey.FindNext: Ctrl+G on GNOME and XFCE, Go to line
            tip="Next match in the open file; from the tree or the search field, the search's "
            "next matching line",
        )
        self.find_previous_action = in_tab(
            "editor.find_previous",
            "Find pre&vious",
            self.find_previous,
            keys=["Shift+F3"],  # not StandardKey.FindPrevious: Ctrl+Shift+G on GNOME
            tip="Previous match in the open file; from the tree or the search field, the "
            "search's previous matching line",
        )
        self.go_to_line_action = in_tab(
            "editor.go_to_line",
            "&Go to line…",
            self.go_to_line,
            keys=["Ctrl+G"],
            tip="Put the cursor on a line of the open file (line, or line:column)",
        )
        self.go_to_line_dialog: GoToLineDialog | None = None
        """The dialog Go to line opened last, while it is open."""
        self.open_external_action = in_editor(
            "editor.open_external",
            "Open in &external editor",
            self.open_in_external_editor,
            keys=["Ctrl+Shift+E"],
            tip="Open the file on disk in $VISUAL, $EDITOR or the desktop's default application",
        )
        self.tab_moves_focus_action = actions.add(
            "editor.tab_moves_focus",
            "&Tab moves focus",
            self.toggle_tab_moves_focus,
            keys=["Ctrl+M"],
            focus=Focus.WINDOW,  # from the tree too: Tab is what leaves the text
            tip="Tab and Shift+Tab move the focus instead of indenting (in the frontmatter "
            "they always do)",
            checkable=True,
            checked_when=lambda: SourceEdit.tab_moves_focus,
        )
        self.copy_real_path_action = in_editor(
            "editor.copy_real_path",
            "Copy &real path",
            self.copy_real_path,
            tip="Copy where the file is on disk",
        )
        self.close_tab_action = in_tab(
            "editor.close_tab",
            "&Close tab",
            panel.close_current_tab,
            keys=["Ctrl+W", StandardKey.Close],
            tip="Close the current tab (asks first if it has unsaved changes)",
            menu="file",
        )
        in_tab(
            "editor.next_tab",
            "Next tab",
            panel.next_tab,
            keys=["Ctrl+Tab", "Ctrl+PgDown"],
            tip="Show the next open file",
        )
        in_tab(
            "editor.previous_tab",
            "Previous tab",
            panel.previous_tab,
            keys=["Ctrl+Shift+Tab", "Ctrl+Shift+Backtab", "Ctrl+PgUp"],
            tip="Show the previous open file",
        )
        self.revert_action = actions.add(
            "editor.revert",
            "Rever&t file",
            panel.revert_to_disk,
            menu="file",
            tip="Load the file as it is on disk in place of your unsaved changes (Undo brings "
            "them back)",
            enabled_when=lambda: panel.is_dirty,
        )
        self.autosave_action = actions.add(
            "editor.autosave",
            "Auto sa&ve",
            self._on_autosave_toggled,
            menu="file",
            checkable=True,
            checked_when=lambda: panel.autosave.enabled,
            tip="Save files a moment after you stop typing, and when you leave the editor "
            "(never over a change made on disk meanwhile)",
        )
        self.autosave_action.setChecked(panel.autosave.enabled)
        self._opener = ExternalOpener(self)
        self._opener.opened.connect(self._on_opener_opened)
        self._opener.failed.connect(self._on_opener_failed)

    @property
    def file_actions(self) -> list[QAction | None]:
        """A tab's "more" menu (None: a separator)."""
        return [
            self.find_action,
            self.replace_action,
            None,
            self.open_external_action,
            self.copy_real_path_action,
        ]

    @property
    def path_actions(self) -> list[QAction]:
        """A tab's path label's context menu."""
        return [self.copy_real_path_action, self.open_external_action]

    @property
    def _view(self) -> EditorView:
        return self._current_view()

    def save_saying(self) -> None:
        """Save (Ctrl+S), and say so in the status bar once the file is on disk ("Saved
        notes.md"; a refused save says why in the editor's bar instead)."""
        path = self._panel.real_path
        name = path.name if path is not None else None

        def said(saved: bool) -> None:
            if saved and name is not None:
                self.said.emit(f"Saved {name}")

        self._panel.save(said)

    def update(self) -> None:
        """Enable what applies to the file shown now (`actions_now`)."""
        panel = self._panel
        now = actions_now(
            has_file=panel.has_file,
            read_only=panel.is_read_only,
            on_disk=panel.real_path is not None,
        )
        for action in (self.find_action, self.go_to_line_action):
            action.setEnabled(now.find)
        for action in (self.find_next_action, self.find_previous_action):
            action.setEnabled(now.find or self._steps_elsewhere is not None)
        self.replace_action.setEnabled(now.replace)
        self.open_external_action.setEnabled(now.on_disk)
        self.copy_real_path_action.setEnabled(now.on_disk)
        self.close_tab_action.setEnabled(now.close)

    def stop(self) -> None:
        """Stop watching the editors started (they keep running)."""
        self._opener.stop()

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
    def find_next(self, back: bool = False) -> None:
        """F3: with the keyboard in the open file, its next match (opens the find bar if it
        is closed); elsewhere, the next step `steps_elsewhere` gave (the search's)."""
        if self._steps_elsewhere is not None and not self._in_the_file():
            self._steps_elsewhere[back]()
        elif self._view.finding:
            bar = self._view.find_bar
            (bar.find_previous if back else bar.find_next)()
        else:
            self.find_in_file()

    @Slot()
    def find_previous(self) -> None:
        """Shift+F3: `find_next`'s way back."""
        self.find_next(back=True)

    def steps_elsewhere(self, forward: Callable[[], object], back: Callable[[], object]) -> None:
        """What F3 and Shift+F3 do with the keyboard out of the open file (in the tree, the
        search field): the search's next and previous matching line. One key, one action,
        one entry in Edit — two were there, Find next and Next search result."""
        self._steps_elsewhere = (forward, back)
        self.update()

    def _in_the_file(self) -> bool:
        """Whether the keyboard is in the editor (its text, its find bar) with a file shown
        — from a menu, where it was before the menu opened."""
        return holds_keyboard(self._widget) and self._panel.has_file

    @Slot()
    def go_to_line(self) -> None:
        """Ask for a line of the open file, then put the cursor there (the source is
        shown if only the preview was)."""
        if not self._show_source():
            return
        text = self._view.text_edit
        dialog = GoToLineDialog(
            text.textCursor().blockNumber() + 1, text.document().blockCount(), self._widget
        )
        dialog.chosen.connect(lambda target: go_to(text, target.line, target.column))
        dialog.finished.connect(self._on_go_to_line_dialog_finished)
        self.go_to_line_dialog = dialog
        dialog.open()

    @Slot()
    def _on_go_to_line_dialog_finished(self) -> None:
        dialog, self.go_to_line_dialog = self.go_to_line_dialog, None
        if dialog is not None:
            dialog.deleteLater()

    @Slot()
    def toggle_tab_moves_focus(self) -> None:
        """Ctrl+M: Tab moves the focus (or indents again), as in VS Code."""
        on = not SourceEdit.tab_moves_focus
        SourceEdit.set_tab_moves_focus(on)
        self.tab_moves_focus_action.setChecked(on)
        self.said.emit(tab_moves_focus_said(on))

    @Slot()
    def open_in_external_editor(self) -> None:
        """Open the file on disk in $VISUAL / $EDITOR / the desktop default (a failure is
        a notice). What that editor writes comes back through the watcher."""
        path = self._panel.real_path
        if path is not None:
            self._opener.open(path)

    def open_path(self, path: Path) -> None:
        """Open `path` (any file on disk) in the external editor (a failure is a notice)."""
        self._opener.open(path)

    @Slot()
    def copy_real_path(self) -> None:
        """Put the file's path on disk on the clipboard."""
        path = self._panel.real_path
        if path is not None:
            QGuiApplication.clipboard().setText(str(path))

    def _on_autosave_toggled(self) -> None:
        self._panel.autosave.set_enabled(self.autosave_action.isChecked())

    def _show_source(self) -> bool:
        if not self._view.has_file:
            return False
        mode = with_source(self._view.view_mode)
        if mode is not self._view.view_mode:
            self._view.set_view_mode(mode)
        return True

    @Slot(str)
    def _on_opener_opened(self, name: str) -> None:
        note = opened_elsewhere_note(name, dirty=self._panel.is_dirty)
        if note is not None:
            self.notice.emit(BarKind.INFO, note)

    @Slot(str)
    def _on_opener_failed(self, message: str) -> None:
        self.notice.emit(BarKind.ERROR, message)
