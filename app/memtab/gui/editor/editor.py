"""The editor panel: one memory file, saved only if the disk still holds what was loaded.

What it guarantees:

- Saves are sha-checked (`MemoryStore.save(path, text, loaded_sha)`) and end the file
  with a line break (the buffer gets it too, as an undoable edit; the cursor stays). A
  conflict never loses the draft: the bar (not a modal) offers Show diff (Enter) /
  Reload / Overwrite; the 100 KiB cap and other save errors show there too.
- Disk changes (`follow_changes`, after each rescan): a clean buffer reloads silently,
  keeping cursor and scroll; a dirty one gets a "changed on disk" bar (Show diff / Keep
  mine / Take theirs); a deleted file keeps the draft and Save recreates it. Whether
  anything changed is decided by sha, so the echo of our own save is a no-op.
- Reload, Take theirs and the diff window's "Merge both" (`components.editor.merge`, when the two
  sides changed different lines) replace the buffer with one undoable edit and offer
  "Restore my draft", so they need not ask first.
- The description field edits the frontmatter `description:` line and follows it.
- Binary (NUL) and over-cap files open read-only with a note; so does another agent's
  file that agent writes itself (Codex's generated files, loki-mode's), the bar saying who.
- Diffs and merges are computed on a worker thread (`TaskRunner`), never blocking.

What is open is a `memtab.sources.memory_file.MemoryFile`: a mux file through the
workspace's store, or another agent's file through `memtab.sources` — read, saved and
followed alike, never asked which kind it is.

The rules (what a disk change means, which choices to offer) are the Qt-free
`components.editor.session`; `document.OpenDocument` carries out what they decide
(loading, saving, following the disk, the bar's choices); the bar, the diff window and
the unsaved-changes question are `prompts`; widgets and text mechanics `view`; Save, find,
external editor and real path `commands` (registered as `editor.*` actions). This module
is the widget: what other code opens, saves and asks, its signals and its chrome.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Signal, Slot
from PySide6.QtWidgets import (
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from memtab.components.editor.session import Situation, display_text
from memtab.components.tree.nodes import ref_key
from memtab.gui.context import WindowContext
from memtab.gui.diff_view import DiffDialog
from memtab.gui.editor.bar import BarKind, MessageBar
from memtab.gui.editor.commands import EditorCommands
from memtab.gui.editor.document import OpenDocument
from memtab.gui.editor.frontmatter import with_description
from memtab.gui.editor.preview import MarkdownPreview
from memtab.gui.editor.prompts import DiscardChoice, EditorPrompts
from memtab.gui.editor.view import EditorView, ViewMode
from memtab.gui.find_bar import FindBar
from memtab.gui.tasks.runner import TaskRunner
from memtab.sources.memory_file import MemoryFile, MuxFile
from memtab.sources.model import MemoryFileRef
from memtab.store.files import read_file_content
from memtab.store.memory import MemoryStore
from memtab.store.paths import VirtualPath

if TYPE_CHECKING:
    from collections.abc import Callable, Collection

logger = logging.getLogger(__name__)

__all__ = ["DiscardChoice", "EditorPanel"]


class EditorPanel(QWidget):
    """Shows and edits one memory file of the selected workspace, or of another agent.

    Signals:
        saved(object): the file's MemoryFileRef, after a save.
        dirty_changed(bool): whether there are unsaved changes.
        file_opened(object): the file's MemoryFileRef, after it was opened (or reopened).
        file_closed(): the panel went back to its empty state.
    """

    saved = Signal(object)
    dirty_changed = Signal(bool)
    file_opened = Signal(object)
    file_closed = Signal()

    def __init__(
        self,
        context: WindowContext,
        parent: QWidget | None = None,
        *,
        tasks: TaskRunner | None = None,
    ) -> None:
        """An empty editor; its commands are registered in `context.actions`. `tasks`
        runs the diffs; without one the panel starts its own worker thread on first use,
        and `shutdown()` must be called on close (the tab does)."""
        super().__init__(parent)
        self._context = context  # its registry claims the editor's keys: keep it alive
        self._store: MemoryStore | None = None
        self._last_dirty = False

        self._view = EditorView(self)
        self._prompts = EditorPrompts(self._view.page, tasks)
        self._view.set_bar(self._prompts.bar)
        self._doc = OpenDocument(self, self._view, self._prompts, context.own_writes)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self._view)
        self._view.save_requested.connect(self._on_view_save_requested)
        self._view.modified_changed.connect(self._on_view_modified_changed)
        self._view.description_edited.connect(self._on_view_description_edited)
        self._prompts.action_chosen.connect(self._on_prompts_action_chosen)
        self._prompts.dismissed.connect(self._on_prompts_dismissed)
        self.commands = EditorCommands(context.actions, self, self, self._view)
        self.commands.notice.connect(self._on_commands_notice)
        self.refresh_chrome()

    # --- the seam ----------------------------------------------------------------------------

    @property
    def current_file(self) -> MemoryFile | None:
        """The open memory file (None: no file, or one opened by physical path)."""
        return self._doc.document

    @property
    def current_ref(self) -> MemoryFileRef | None:
        """Which memory file is open, mux's or another agent's (None: none)."""
        return self._doc.file.ref

    @property
    def current_path(self) -> VirtualPath | None:
        """The open file's virtual path, for mux's own operations (None: no file, or
        another agent's, which has none)."""
        ref = self._doc.file.ref
        return ref.virtual_path if ref is not None else None

    @property
    def current_key(self) -> str | None:
        """The tree key of the open file, or None."""
        ref = self._doc.file.ref
        return ref_key(ref) if ref is not None else None

    @property
    def is_dirty(self) -> bool:
        """Unsaved changes: an edited buffer, or a draft whose file is gone from disk."""
        return self._doc.file.is_dirty(self._view.is_modified())

    @property
    def is_read_only(self) -> bool:
        """Whether the open file cannot be edited here (binary, over the cap, orphan)."""
        return self._doc.file.is_read_only

    @property
    def view_mode(self) -> ViewMode:
        """Source, split or preview."""
        return self._view.view_mode

    @property
    def text_edit(self) -> QPlainTextEdit:
        """The source editor widget (for focus handling and tests)."""
        return self._view.text_edit

    @property
    def description_edit(self) -> QLineEdit:
        """The description field."""
        return self._view.description_edit

    @property
    def message_bar(self) -> MessageBar:
        """The inline bar for conflicts, disk changes, notes and errors."""
        return self._prompts.bar

    @property
    def preview(self) -> MarkdownPreview:
        """The rendered Markdown preview."""
        return self._view.preview

    @property
    def save_button(self) -> QPushButton:
        """The Save button."""
        return self._view.save_button

    @property
    def diff_dialog(self) -> DiffDialog | None:
        """The diff window, while one is open."""
        return self._prompts.diff_dialog

    @property
    def find_bar(self) -> FindBar:
        """The find / replace bar under the text."""
        return self._view.find_bar

    @property
    def real_path(self) -> Path | None:
        """Where the open file is on disk (None: no file, or one Memtab cannot place)."""
        return self._doc.real_path

    def buffer_text(self) -> str:
        """What the editor holds, with `\\n` line breaks (exactly, unlike toPlainText)."""
        return self._view.buffer_text()

    def set_store(self, store: MemoryStore | None) -> None:
        """Use another workspace's store. Closes the open file unless it is still there
        (`MemoryFile.in_store`: the same workspace of the same home, or another agent's
        file). Call `confirm_discard` first."""
        self._store = store
        document = self._doc.document
        kept = document.in_store(store) if document is not None else None
        if kept is None:
            self.close_file()
        else:
            self._doc.document = kept

    def open_file(self, path: VirtualPath) -> bool:
        """Open the mux file at `path` through the workspace's store (see `open`)."""
        if self._store is None:
            if not self.confirm_discard():
                return False
            self._doc.reset()
            self._doc.show_page(str(path), "", "no workspace is selected")
            return True
        return self.open(MuxFile(self._store, path))

    def open(self, file: MemoryFile) -> bool:
        """Open `file` (read-only when its agent writes it); False if the user cancelled
        at the unsaved-changes prompt.

        Reopening the open file keeps the buffer as it is. A file that cannot be read
        opens with the error in the bar.
        """
        if file.ref == self._doc.file.ref:
            self.file_opened.emit(file.ref)
            return True
        if not self.confirm_discard():
            return False
        self._doc.open(file)
        return True

    def open_read_only(self, physical: Path, title: str, note: str) -> bool:
        """Show a file that is not in a scope of this workspace (e.g. an orphan project
        dir), read-only with `note`; `title` takes the place of the virtual path."""
        if not self.confirm_discard():
            return False
        self._doc.reset()
        self._doc.real_path = physical
        try:
            content = read_file_content(physical)
        except OSError as error:
            self._doc.show_page(title, "", f"Cannot read {title}: {error.strerror or error}")
            self._doc.show_bar(Situation.ERROR, BarKind.ERROR, f"Cannot read {title}: {error}")
            return True
        self._doc.show_page(title, display_text(content), note)
        self._doc.show_bar(Situation.NOTE, BarKind.INFO, note)
        return True

    def close_file(self) -> None:
        """Go back to the empty state, dropping the buffer (the caller asked first)."""
        self._doc.reset()
        self._view.show_empty()
        self.refresh_chrome()
        self.file_closed.emit()

    def confirm_discard(self) -> bool:
        """The unsaved-changes guard: True when it is fine to leave the file.

        Asks Save / Discard / Cancel when there are unsaved changes; Save that fails
        (conflict, cap) keeps the user here.
        """
        if not self.is_dirty:
            return True
        choice = self._ask_unsaved_choice()
        if choice is DiscardChoice.SAVE:
            return self.save()
        return choice is DiscardChoice.DISCARD

    def follow_changes(
        self,
        changed: Collection[MemoryFileRef],
        listed: Callable[[MemoryFileRef], MemoryFile | None] | None = None,
    ) -> None:
        """A rescan saw the files `changed` (created, modified or gone): the open file
        follows the disk when it is one of them (see the module docstring), and takes
        what `listed` says of it now (who may write it) in any case."""
        document = self._doc.document
        if document is None:
            return
        now = listed(document.ref) if listed is not None else None
        if now is not None and now != document and now.ref == document.ref:
            self._doc.document = now
        if document.ref in changed:
            self._doc.follow_disk()

    def save(self) -> bool:
        """Save the buffer if the file on disk is still the one loaded; True on success.

        Nothing to save counts as success. Conflicts and errors go to the bar.
        """
        if self._doc.document is None or self._doc.file.is_read_only:
            return False
        if not self.is_dirty:
            return True
        return self._doc.save_against(self._doc.file.save_expectation())

    def set_view_mode(self, mode: ViewMode) -> None:
        """Show the source, the preview, or both."""
        self._view.set_view_mode(mode)

    def set_badge(self, text: str | None, tooltip: str = "") -> None:
        """Show who changed the open file since it was opened (the tab decides), or not."""
        self._view.set_badge(text, tooltip)

    @property
    def badge_text(self) -> str:
        """The badge shown in the header ("" when none)."""
        return self._view.badge_label.text() if self._view.badge_label.isVisibleTo(self) else ""

    def show_diff(self) -> None:
        """Open a window with the differences between the disk version and the draft."""
        self._doc.show_diff()

    def find_in_file(self, query: str | None = None) -> None:
        """Open the find bar (with `query`, else the selection) and select the first match
        from the cursor (the window's Edit → Find; also Ctrl+F in the editor)."""
        self.commands.find_in_file(query)

    def select_lines(self, first: int, last: int) -> None:
        """Select lines `first` to `last` of the text (1-based) and scroll to them."""
        self._view.select_lines(first, last)

    def shutdown(self) -> None:
        """Stop the diff worker thread the panel started (call on close)."""
        self.commands.stop()
        self._prompts.shutdown()

    # --- chrome (DocumentHost) -------------------------------------------------------------

    def refresh_chrome(self) -> None:
        """Show the open file's state (header, Save, commands); `dirty_changed` on a change."""
        dirty = self.is_dirty
        state = self._doc.file.state(self._view.is_modified())
        self._view.show_state(state, can_save=not self._doc.file.is_read_only and dirty)
        self.commands.update()
        if dirty != self._last_dirty:
            self._last_dirty = dirty
            self.dirty_changed.emit(dirty)

    def document_opened(self, ref: MemoryFileRef) -> None:
        """`file_opened` for the document just opened (`DocumentHost`)."""
        self.file_opened.emit(ref)

    def document_saved(self, ref: MemoryFileRef) -> None:
        """`saved` for the document just saved (`DocumentHost`)."""
        self.saved.emit(ref)

    def close_after_asking(self) -> None:
        """The bar's Close: close the file if the user agrees to leave unsaved changes."""
        if self.confirm_discard():
            self.close_file()

    def _ask_unsaved_choice(self) -> DiscardChoice:
        """Ask Save / Discard / Cancel about the unsaved changes (patched in tests)."""
        document = self._doc.document
        return self._prompts.ask_unsaved(document.name if document is not None else None)

    # --- slots -------------------------------------------------------------------------------

    @Slot()
    def _on_view_save_requested(self) -> None:
        self.save()

    @Slot(bool)
    def _on_view_modified_changed(self, _modified: bool) -> None:
        self.refresh_chrome()

    @Slot(str)
    def _on_view_description_edited(self, text: str) -> None:
        if self._doc.file.is_read_only or self._doc.document is None:
            return
        new_text = with_description(self.buffer_text(), text)
        # Typed and then cleared again: nothing to save.
        clean = new_text == self._doc.file.clean_text and self._doc.file.exists_on_disk
        self._view.apply_description(new_text, clean=clean)

    @Slot(str)
    def _on_prompts_action_chosen(self, action: str) -> None:
        self._doc.perform(action)

    @Slot()
    def _on_prompts_dismissed(self) -> None:
        self._doc.file.situation = Situation.NONE

    @Slot(object, str)
    def _on_commands_notice(self, kind: BarKind, text: str) -> None:
        self._doc.show_bar(Situation.ERROR if kind is BarKind.ERROR else Situation.NOTE, kind, text)
