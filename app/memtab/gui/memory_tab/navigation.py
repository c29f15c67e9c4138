"""Back and Forward through the files the editor showed (Alt+Left, Alt+Right; View menu):
the actions over `components.memory_tab.VisitedFiles`, which keeps the steps; a
step shows its file as Quick open does, the keyboard in its text.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject

from memtab.components.memory_tab import VisitedFiles
from memtab.gui.actions import ActionRegistry


class FileNavigation(QObject):
    """The Back and Forward actions over the editor's `VisitedFiles`; `opens(key)` shows a
    file by its key (False: the tree does not show it)."""

    def __init__(
        self,
        actions: ActionRegistry,
        opens: Callable[[str], bool],
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.history = VisitedFiles()
        self._opens = opens
        actions.add(
            "editor.back",
            "&Back",
            self.back,
            keys=["Alt+Left", "Back"],  # not StandardKey.Back: Backspace on some desktops
            tip="The file shown before this one (as after following a link)",
            enabled_when=lambda: self.history.can_go(-1),
        )
        actions.add(
            "editor.forward",
            "&Forward",
            self.forward,
            keys=["Alt+Right", "Forward"],
            tip="The file shown after this one, before going back",
            enabled_when=lambda: self.history.can_go(1),
        )

    def visited(self, key: str) -> None:
        """The editor shows `key`'s file."""
        self.history.visited(key)

    def back(self) -> None:
        """Show the file shown before this one."""
        self.history.go(-1, self._opens)

    def forward(self) -> None:
        """Show the file shown after this one."""
        self.history.go(1, self._opens)
