"""What the rest of the window reads of the editor: the current tab's file, widgets and
state (`EditorPanel` inherits it). With no tab open the empty page stands in for the
widgets, built when one is first asked for; what is open, or unsaved, is answered without it."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QLineEdit, QPushButton

from memtab.components.editor.panel import ViewMode
from memtab.components.editor.session import RELOAD
from memtab.file_protocol.file_ref import MemoryFileRef
from memtab.file_protocol.memory_file import MemoryFile
from memtab.gui.editor.tab.bar import MessageBar
from memtab.gui.editor.tab.file_tab import FileTab
from memtab.gui.editor.text.preview import MarkdownPreview
from memtab.gui.toolkit.text.diff_view import DiffDialog
from memtab.gui.toolkit.text.find_bar import FindBar
from memtab.gui.toolkit.text.source_edit import SourceEdit
from memtab.store.paths import VirtualPath


class CurrentTab:
    """The current tab's side of `EditorPanel` (a mixin: `_current` is the panel's)."""

    @property
    def _current(self) -> FileTab:
        """The current tab, else the empty page (built now if it was not)."""
        raise NotImplementedError

    @property
    def _shown(self) -> FileTab | None:
        """The current tab, else the empty page if built (None: the empty state, no page:
        no file, nothing typed, the text shown as it is by default)."""
        raise NotImplementedError

    @property
    def current_file(self) -> MemoryFile | None:
        """The current tab's memory file (None: no file, or one opened by physical path)."""
        tab = self._shown
        return tab.file if tab is not None else None

    @property
    def current_ref(self) -> MemoryFileRef | None:
        """Which memory file the current tab shows (None: none)."""
        tab = self._shown
        return tab.ref if tab is not None else None

    @property
    def current_path(self) -> VirtualPath | None:
        """The current file's virtual path, for mux's own operations (None: no file, or
        another agent's, which has none)."""
        tab = self._shown
        return tab.path if tab is not None else None

    @property
    def current_key(self) -> str | None:
        """The tree key of the current file, or None."""
        tab = self._shown
        return tab.key if tab is not None else None

    @property
    def has_file(self) -> bool:
        """Whether the current tab shows a file's page (not the empty state)."""
        tab = self._shown
        return tab is not None and tab.view.has_file

    @property
    def is_dirty(self) -> bool:
        """Whether the current tab has unsaved changes."""
        tab = self._shown
        return tab is not None and tab.is_dirty

    @property
    def expected_on_disk(self) -> str | None:
        """The sha the current file's next save expects on disk (None: it must not exist):
        what another operation writing the buffer's text checks too."""
        return self._current.doc.file.save_expectation()

    def revert_to_disk(self) -> None:
        """File → Revert file: the version on disk in place of the draft, which stays
        restorable with Undo (as the conflict bar's Reload)."""
        self._current.doc.perform(RELOAD)

    @property
    def is_reading(self) -> bool:
        """Whether the current tab's file is still being read ("Reading…")."""
        tab = self._shown
        return tab is not None and tab.reading

    @property
    def is_read_only(self) -> bool:
        """Whether the current file cannot be edited here (binary, over the cap, orphan)."""
        tab = self._shown
        return tab is not None and tab.is_read_only

    @property
    def view_mode(self) -> ViewMode:
        """Source, split or preview (of the current tab)."""
        tab = self._shown
        return tab.view.view_mode if tab is not None else ViewMode.SOURCE  # a new view's

    @property
    def text_edit(self) -> SourceEdit:
        """The current tab's source editor widget (for focus handling and tests)."""
        return self._current.view.text_edit

    @property
    def description_edit(self) -> QLineEdit:
        """The current tab's description field."""
        return self._current.view.description_edit

    @property
    def message_bar(self) -> MessageBar:
        """The current tab's bar for conflicts, disk changes, notes and errors."""
        return self._current.prompts.bar

    @property
    def preview(self) -> MarkdownPreview:
        """The current tab's rendered Markdown preview."""
        return self._current.view.preview

    @property
    def save_button(self) -> QPushButton:
        """The current tab's Save button."""
        return self._current.view.save_button

    @property
    def diff_dialog(self) -> DiffDialog | None:
        """The current tab's diff window, while one is open."""
        return self._current.prompts.diff_dialog

    @property
    def find_bar(self) -> FindBar:
        """The current tab's find / replace bar."""
        return self._current.view.find_bar

    @property
    def real_path(self) -> Path | None:
        """Where the current file is on disk (None: no file, or one Memtab cannot place)."""
        tab = self._shown
        return tab.real_path if tab is not None else None

    def buffer_text(self) -> str:
        """What the current tab holds, with `\\n` line breaks."""
        return self._current.view.buffer_text()

    def set_view_mode(self, mode: ViewMode) -> None:
        """Show the source, the preview, or both (in the current tab)."""
        self._current.view.set_view_mode(mode)

    def set_badge(self, text: str | None, tooltip: str = "") -> None:
        """Show who changed the current file since it was opened (the tab decides), or not."""
        tab = self._current if text is not None else self._shown
        if tab is not None:  # else no badge is shown
            tab.view.set_badge(text, tooltip)

    @property
    def badge_text(self) -> str:
        """The badge shown in the current tab's header ("" when none)."""
        label = self._current.view.badge_label
        return label.text() if label.isVisibleTo(self._current) else ""

    def show_diff(self) -> None:
        """Open a window with the differences between the disk version and the draft."""
        self._current.doc.show_diff()

    def edit_at_end(self) -> None:
        """Put the cursor at the end of the current text, with the focus (a new file's
        body: what the user types next goes there)."""
        view = self._current.view
        if view.has_file and not self.is_read_only:
            view.text_edit.moveCursor(QTextCursor.MoveOperation.End)
            view.text_edit.setFocus(Qt.FocusReason.OtherFocusReason)
