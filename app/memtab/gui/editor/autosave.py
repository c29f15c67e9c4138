"""Auto save, Obsidian's habit and VS Code's File → Auto save: off unless the user turns
it on (remembered in the UI state).

When on, every tab with unsaved changes is saved a short pause after the last edit, and
at once when the focus leaves the editor (another part of the window, another program).
It is the same sha-checked save as Ctrl+S: a file changed on disk meanwhile is never
overwritten — the tab's bar says so, and auto save leaves that tab alone until the user
has chosen (Compare, Keep mine, Keep theirs…). A draft whose file is gone from disk is
not recreated behind the user's back either.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from PySide6.QtCore import QObject, QTimer, Slot
from PySide6.QtWidgets import QApplication, QWidget

from memtab.components.window.ui_state import UiState

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
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(AUTOSAVE_DELAY_MS)
        self.timer.timeout.connect(self._on_timer_timeout)
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
