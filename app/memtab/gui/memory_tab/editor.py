"""The editor panel: one memory file, saved only if the disk still holds what was loaded.

What it guarantees:

- Saves are sha-checked (`MemoryStore.save(path, text, loaded_sha)`). A conflict never
  loses the draft: a bar (not a modal) offers Reload / Show diff / Overwrite. Reload and
  "Take theirs" replace the buffer with an undoable edit and offer "Restore my draft", so
  they do not need to ask first. Save errors (the 100 KiB cap, a file that became binary)
  are shown in the bar too.
- Disk changes (`handle_disk_change`, called by the tab after each rescan): a clean buffer
  reloads silently, keeping the cursor and scroll position; a dirty one gets a "changed on
  disk" bar (Show diff / Keep mine / Take theirs); a deleted file keeps the draft and Save
  recreates it. Whether anything changed is decided by sha, so the watcher echo of our own
  save is a no-op.
- The description field edits the frontmatter `description:` line of the buffer, and
  edits of the frontmatter in the text update the field.
- Binary (NUL) and over-cap files open read-only with a note.
- Diffs are computed on a worker thread (`TaskRunner`), so a large one never blocks.

The rules (what a disk change means, what Reload does, which choices to offer) are the
Qt-free `views.editor_session`; the bar and the diff window are `editor_prompts`; the
widgets and the text mechanics are `editor_view`. This module carries out what the
rules decide.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from enum import Enum
from pathlib import Path

from PySide6.QtCore import Signal, Slot
from PySide6.QtWidgets import (
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from memtab.gui.memory_tab.diff_view import DiffDialog
from memtab.gui.memory_tab.editor_bar import BarKind, MessageBar
from memtab.gui.memory_tab.editor_frontmatter import with_description
from memtab.gui.memory_tab.editor_prompts import EditorPrompts
from memtab.gui.memory_tab.editor_view import EditorView, FileState, ViewMode
from memtab.gui.memory_tab.preview import MarkdownPreview
from memtab.gui.tasks.runner import TaskRunner
from memtab.store.files import FileContent, read_file_content
from memtab.store.memory import (
    MemoryStore,
    MemoryStoreError,
    NotFoundError,
    SaveConflictError,
)
from memtab.store.paths import PathError, VirtualPath
from memtab.views.editor_session import (
    CLOSE_FILE,
    KEEP_MINE,
    OVERWRITE,
    RELOAD,
    RESTORE_DRAFT,
    SHOW_DIFF,
    TAKE_THEIRS,
    Buffer,
    Choice,
    Decision,
    DiskAbsence,
    DiskRead,
    OpenFile,
    Situation,
    TakeDecision,
    display_text,
    is_editable,
    not_editable_reason,
)
from memtab.views.own_writes import OwnWrites

logger = logging.getLogger(__name__)


class DiscardChoice(Enum):
    """The answer to the unsaved-changes question."""

    SAVE = "save"
    DISCARD = "discard"
    CANCEL = "cancel"


class EditorPanel(QWidget):
    """Shows and edits one memory file of the selected workspace.

    Signals:
        saved(object): a VirtualPath, after a successful save.
        dirty_changed(bool): whether there are unsaved changes.
        file_opened(object): a VirtualPath, after a file was opened (or reopened).
        file_closed(): the panel went back to its empty state.
    """

    saved = Signal(object)
    dirty_changed = Signal(bool)
    file_opened = Signal(object)
    file_closed = Signal()

    def __init__(
        self,
        own_writes: OwnWrites,
        parent: QWidget | None = None,
        *,
        tasks: TaskRunner | None = None,
    ) -> None:
        """`tasks` runs the diffs; without one the panel starts its own worker thread on
        first use, and `shutdown()` must be called on close (the tab does)."""
        super().__init__(parent)
        self._own_writes = own_writes
        self._store: MemoryStore | None = None
        self._file = OpenFile()
        self._last_dirty = False

        self._view = EditorView(self)
        self._prompts = EditorPrompts(self._view.page, tasks)
        self._view.set_bar(self._prompts.bar)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self._view)
        self._view.save_requested.connect(self._on_view_save_requested)
        self._view.modified_changed.connect(self._on_view_modified_changed)
        self._view.description_edited.connect(self._on_view_description_edited)
        self._prompts.action_chosen.connect(self._on_prompts_action_chosen)
        self._prompts.dismissed.connect(self._on_prompts_dismissed)
        self._refresh_chrome()

    # --- the seam ----------------------------------------------------------------------------

    @property
    def current_path(self) -> VirtualPath | None:
        """The open file, or None (also for a read-only file opened by physical path)."""
        return self._file.path

    @property
    def is_dirty(self) -> bool:
        """Unsaved changes: an edited buffer, or a draft whose file is gone from disk."""
        return self._file.is_dirty(self._view.is_modified())

    @property
    def is_read_only(self) -> bool:
        """Whether the open file cannot be edited here (binary, over the cap, orphan)."""
        return self._file.is_read_only

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

    def buffer_text(self) -> str:
        """What the editor holds, with `\\n` line breaks (exactly, unlike toPlainText)."""
        return self._view.buffer_text()

    def set_store(self, store: MemoryStore | None) -> None:
        """Use another workspace's store. Closes the open file unless the store is for the
        same workspace of the same home (then the file stays open). Call `confirm_discard`
        first."""
        same_place = (
            store is not None
            and self._store is not None
            and store.home.root == self._store.home.root
            and _workspace_id(store) == _workspace_id(self._store)
        )
        self._store = store
        if not same_place:
            self.close_file()

    def open_file(self, path: VirtualPath) -> bool:
        """Open `path`; False if the user cancelled at the unsaved-changes prompt.

        Reopening the open file keeps the buffer as it is. A file that cannot be read
        opens with the error in the bar.
        """
        if path == self._file.path:
            self.file_opened.emit(path)
            return True
        if not self.confirm_discard():
            return False
        self._open(path)
        return True

    def open_read_only(self, physical: Path, title: str, note: str) -> bool:
        """Show a file that is not in a scope of this workspace (e.g. an orphan project
        dir), read-only with `note`; `title` takes the place of the virtual path."""
        if not self.confirm_discard():
            return False
        self._reset_state()
        try:
            content = read_file_content(physical)
        except OSError as error:
            self._show_page(title, "", f"Cannot read {title}: {error.strerror or error}")
            self._show_bar(Situation.ERROR, BarKind.ERROR, f"Cannot read {title}: {error}")
            return True
        self._show_page(title, display_text(content), note)
        self._show_bar(Situation.NOTE, BarKind.INFO, note)
        return True

    def close_file(self) -> None:
        """Go back to the empty state, dropping the buffer (the caller asked first)."""
        self._reset_state()
        self._view.show_empty()
        self._refresh_chrome()
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

    def handle_disk_change(self, changed: set[VirtualPath], deleted: set[VirtualPath]) -> None:
        """Apply what a rescan found on disk to the open file (see the module docstring)."""
        path = self._file.path
        if path is None or self._store is None or (path not in changed and path not in deleted):
            return
        disk = self._read_disk()
        decision = self._file.decide(disk, self._buffer())
        if decision is Decision.MISSING:
            self._on_disk_file_missing()
        elif decision is Decision.REOPEN:
            self._open(path)
        elif isinstance(disk, FileContent) and decision is Decision.ADOPT:
            self._adopt_disk_version(disk)
        elif isinstance(disk, FileContent) and decision is Decision.RELOAD:
            with self._quietly():
                self._view.replace_text(self._file.codec.to_buffer(disk.content))
                self._adopt_disk_version(disk)
        elif decision is Decision.ASK:
            self._show_bar(
                Situation.CHANGED_ON_DISK,
                BarKind.WARNING,
                f"{path.name} changed on disk while you were editing it. Your draft is kept.",
                [(SHOW_DIFF, "Show diff"), (KEEP_MINE, "Keep mine"), (TAKE_THEIRS, "Take theirs")],
            )

    def save(self) -> bool:
        """Save the buffer if the file on disk is still the one loaded; True on success.

        Nothing to save counts as success. Conflicts and errors go to the bar.
        """
        if self._file.path is None or self._store is None or self._file.is_read_only:
            return False
        if not self.is_dirty:
            return True
        return self._save_against(self._file.save_expectation())

    def set_view_mode(self, mode: ViewMode) -> None:
        """Show the source, the preview, or both."""
        self._view.set_view_mode(mode)

    def show_diff(self) -> None:
        """Open a window with the differences between the disk version and the draft."""
        path = self._file.path
        if path is None:
            return
        disk = self._read_disk()
        if disk is DiskAbsence.UNREADABLE:
            return
        on_disk = isinstance(disk, FileContent)
        old = self._file.codec.to_buffer(disk.content) if isinstance(disk, FileContent) else ""
        self._prompts.open_diff(
            f"Differences — {path.name}",
            "On disk" if on_disk else "On disk (deleted)",
            old,
            self.buffer_text(),
            self._file.diff_choices(on_disk),
        )

    def shutdown(self) -> None:
        """Stop the diff worker thread the panel started (call on close)."""
        self._prompts.shutdown()

    # --- opening and loading ---------------------------------------------------------------

    def _reset_state(self, path: VirtualPath | None = None) -> None:
        self._file = OpenFile(path)
        self._prompts.close_diff()
        self._clear_bar()

    def _open(self, path: VirtualPath) -> None:
        self._reset_state(path)
        self._load(path)
        self.file_opened.emit(path)

    def _load(self, path: VirtualPath) -> None:
        if self._store is None:
            self._show_page(str(path), "", "no workspace is selected")
            return
        try:
            content = self._store.read(str(path))
        except (MemoryStoreError, PathError) as error:
            self._show_page(str(path), "", str(error))
            self._show_bar(Situation.ERROR, BarKind.ERROR, f"Cannot open {path}: {error}")
            return
        if not is_editable(content):
            reason = not_editable_reason(content)
            self._file.loaded(content, reason)
            self._show_page(str(path), display_text(content), reason)
            self._show_bar(Situation.NOTE, BarKind.INFO, f"Read-only: this file is {reason}.")
            return
        self._file.loaded(content)
        codec = self._file.codec
        self._show_page(str(path), codec.to_buffer(content.content), None)
        if not codec.round_trips(content.content):
            self._show_bar(
                Situation.NOTE,
                BarKind.INFO,
                "This file has mixed or unusual line breaks; saving it writes plain line breaks.",
            )

    def _show_page(self, title: str, text: str, read_only_reason: str | None) -> None:
        self._file.read_only_reason = read_only_reason
        self._view.show_file(title, text, read_only_reason is not None)
        self._file.clean_text = text
        self._refresh_chrome()

    def _buffer(self) -> Buffer:
        return Buffer(self.buffer_text(), self._view.is_modified())

    # --- buffer edits -----------------------------------------------------------------------

    @contextmanager
    def _quietly(self) -> Iterator[None]:
        """Programmatic edits: refresh the chrome (and `dirty_changed`) once, at the end."""
        try:
            with self._view.quietly():
                yield
        finally:
            self._refresh_chrome()

    def _adopt_disk_version(self, disk: FileContent) -> None:
        """The buffer now equals `disk`: base the next save on it and mark it clean."""
        self._file.adopted(disk, self.buffer_text())
        self._view.set_modified(False)
        if self._file.bar_clears_on_adopt():
            self._clear_bar()
        self._refresh_chrome()

    def _take_disk_version(self) -> None:
        """Reload / Take theirs: load the disk version, keeping the draft restorable."""
        disk = self._read_disk()
        decision = self._file.decide_take(disk)
        if decision is TakeDecision.MISSING:
            self._on_disk_file_missing()
        elif isinstance(disk, FileContent) and decision is TakeDecision.REFUSE:
            # Loading it would make the panel read-only and drop the draft: refuse.
            self._show_bar(
                Situation.ERROR,
                BarKind.ERROR,
                f"The file on disk is now {not_editable_reason(disk)}, so it cannot be "
                "loaded for editing. Your draft is kept here; copy what you need, then close "
                "the file.",
                [(CLOSE_FILE, "Close")],
            )
        elif isinstance(disk, FileContent) and decision is TakeDecision.REPLACE:
            draft = self.buffer_text()
            with self._quietly():
                self._view.replace_text(self._file.codec.to_buffer(disk.content))
                self._adopt_disk_version(disk)
            if draft == self.buffer_text():
                self._clear_bar()
                return
            self._file.draft_backup = draft
            self._show_bar(
                Situation.DRAFT_REPLACED,
                BarKind.INFO,
                "Loaded the version on disk. Your draft is kept: restore it here or with Undo.",
                [(RESTORE_DRAFT, "Restore my draft")],
            )

    def _restore_draft(self) -> None:
        if self._file.draft_backup is None:
            return
        self._view.replace_text(self._file.draft_backup)
        self._file.draft_backup = None
        self._clear_bar()
        self._refresh_chrome()

    def _keep_mine(self) -> None:
        """Keep the draft and base the next save on what is on disk now."""
        disk = self._read_disk()
        if disk is DiskAbsence.MISSING:
            self._on_disk_file_missing()
        elif isinstance(disk, FileContent):
            self._file.kept_mine(disk)
            self._view.set_modified(True)
            self._clear_bar()
            self._refresh_chrome()

    def _on_disk_file_missing(self) -> None:
        path = self._file.path
        if path is None:
            return
        if self._file.is_read_only:
            self._show_bar(Situation.DELETED, BarKind.WARNING, f"{path} was deleted.")
            return
        self._file.gone()
        self._show_bar(
            Situation.DELETED,
            BarKind.WARNING,
            f"{path.name} was deleted on disk. Your text is kept here; Save recreates the file.",
            [(CLOSE_FILE, "Close")],
        )
        self._refresh_chrome()

    # --- saving ------------------------------------------------------------------------------

    def _save_against(self, expected_sha: str | None) -> bool:
        path, store = self._file.path, self._store
        assert path is not None and store is not None
        content = self._file.codec.from_buffer(self.buffer_text())
        try:
            result = store.save(str(path), content, expected_sha)
        except SaveConflictError as conflict:
            self._file.conflicted(conflict.kind)
            self._show_bar(
                Situation.CONFLICT,
                BarKind.WARNING,
                f"Not saved: {conflict}. Your draft is kept.",
                self._file.conflict_choices(conflict.kind),
            )
            return False
        except (MemoryStoreError, PathError, OSError) as error:
            self._show_bar(Situation.ERROR, BarKind.ERROR, f"Not saved: {error}")
            return False
        self._own_writes.note(path, result.sha256)
        # The virtual path is what counts; the physical one is noted for watcher paths.
        with contextlib.suppress(MemoryStoreError, PathError):
            self._own_writes.note(store.physical(path), result.sha256)
        self._file.saved(result.sha256, self.buffer_text())
        self._view.set_modified(False)
        if self._file.situation is not Situation.NOTE:
            self._clear_bar()
        self._refresh_chrome()
        self.saved.emit(path)
        return True

    def _overwrite(self) -> None:
        """Save the draft over whatever is on disk now (or recreate it)."""
        disk = self._read_disk()
        if disk is not DiskAbsence.UNREADABLE:
            self._save_against(disk.sha256 if isinstance(disk, FileContent) else None)

    # --- the bar -----------------------------------------------------------------------------

    def _show_bar(
        self,
        situation: Situation,
        kind: BarKind,
        text: str,
        choices: list[Choice] | None = None,
    ) -> None:
        self._file.situation = situation
        self._prompts.show(kind, text, choices)

    def _clear_bar(self) -> None:
        self._file.situation = Situation.NONE
        self._prompts.clear()

    def _read_disk(self) -> DiskRead:
        """The file on disk now, or why there is none (when unreadable, the bar says why)."""
        path = self._file.path
        if path is None or self._store is None:
            return DiskAbsence.UNREADABLE
        try:
            return self._store.read(str(path))
        except NotFoundError:
            return DiskAbsence.MISSING
        except (MemoryStoreError, PathError) as error:
            self._show_bar(Situation.ERROR, BarKind.ERROR, f"Cannot read {path}: {error}")
            return DiskAbsence.UNREADABLE

    def _perform(self, action: str) -> None:
        if action in (RELOAD, TAKE_THEIRS):
            self._take_disk_version()
        elif action == SHOW_DIFF:
            self.show_diff()
        elif action == OVERWRITE:
            self._overwrite()
        elif action == KEEP_MINE:
            self._keep_mine()
        elif action == RESTORE_DRAFT:
            self._restore_draft()
        elif action == CLOSE_FILE and self.confirm_discard():
            self.close_file()

    # --- chrome ------------------------------------------------------------------------------

    def _refresh_chrome(self) -> None:
        dirty = self.is_dirty
        if self._file.is_read_only:
            state = FileState.READ_ONLY
        elif self._file.path is not None and not self._file.exists_on_disk:
            state = FileState.NOT_ON_DISK
        else:
            state = FileState.UNSAVED if dirty else FileState.CLEAN
        self._view.show_state(state, can_save=not self._file.is_read_only and dirty)
        if dirty != self._last_dirty:
            self._last_dirty = dirty
            self.dirty_changed.emit(dirty)

    def _ask_unsaved_choice(self) -> DiscardChoice:
        """Ask Save / Discard / Cancel about the unsaved changes (patched in tests)."""
        name = self._file.path.name if self._file.path else "this file"
        box = QMessageBox(self)
        box.setIcon(QMessageBox.Icon.Warning)
        box.setWindowTitle("Unsaved changes")
        box.setText(f"Save the changes to {name}?")
        box.setInformativeText("Your changes are lost if you don't save them.")
        box.setStandardButtons(
            QMessageBox.StandardButton.Save
            | QMessageBox.StandardButton.Discard
            | QMessageBox.StandardButton.Cancel
        )
        box.setDefaultButton(QMessageBox.StandardButton.Save)
        answer = box.exec()
        if answer == QMessageBox.StandardButton.Save:
            return DiscardChoice.SAVE
        if answer == QMessageBox.StandardButton.Discard:
            return DiscardChoice.DISCARD
        return DiscardChoice.CANCEL

    # --- slots -------------------------------------------------------------------------------

    @Slot()
    def _on_view_save_requested(self) -> None:
        self.save()

    @Slot(bool)
    def _on_view_modified_changed(self, _modified: bool) -> None:
        self._refresh_chrome()

    @Slot(str)
    def _on_view_description_edited(self, text: str) -> None:
        if self._file.is_read_only or self._file.path is None:
            return
        new_text = with_description(self.buffer_text(), text)
        # Typed and then cleared again: nothing to save.
        clean = new_text == self._file.clean_text and self._file.exists_on_disk
        self._view.apply_description(new_text, clean=clean)

    @Slot(str)
    def _on_prompts_action_chosen(self, action: str) -> None:
        self._perform(action)

    @Slot()
    def _on_prompts_dismissed(self) -> None:
        self._file.situation = Situation.NONE


def _workspace_id(store: MemoryStore) -> str | None:
    return store.workspace.id if store.workspace is not None else None
