"""The editor panel: one memory file, saved only if the disk still holds what was loaded.

What it guarantees:

- Saves are sha-checked (`MemoryStore.save(path, text, loaded_sha)`) and end the file
  with a line break (the buffer gets it too, as an undoable edit; the cursor stays). A
  conflict never loses the draft: the bar (not a modal) offers Show diff (Enter) /
  Reload / Overwrite; the 100 KiB cap and other save errors show there too.
- Disk changes (`handle_disk_change`, after each rescan): a clean buffer reloads silently,
  keeping cursor and scroll; a dirty one gets a "changed on disk" bar (Show diff / Keep
  mine / Take theirs); a deleted file keeps the draft and Save recreates it. Whether
  anything changed is decided by sha, so the echo of our own save is a no-op.
- Reload, Take theirs and the diff window's "Merge both" (`views.merge`, when the two
  sides changed different lines) replace the buffer with one undoable edit and offer
  "Restore my draft", so they need not ask first.
- The description field edits the frontmatter `description:` line and follows it.
- Binary (NUL) and over-cap files open read-only with a note; so does another agent's
  file that agent writes itself (Codex's generated files, loki-mode's), the bar saying who.
- Diffs and merges are computed on a worker thread (`TaskRunner`), never blocking.

What is open is a `views.documents.Document`: a mux file through the workspace's store,
or another agent's file through `memtab.sources` — read, saved and followed alike.

The rules (what a disk change means, which choices to offer) are the Qt-free
`views.editor_session`; the bar, the diff window and the unsaved-changes question are
`editor_prompts`; widgets and text mechanics `editor_view`; find, external editor and
real path `editor_commands`. This module carries out what the rules decide.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
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

from memtab.gui.memory_tab.diff_view import DiffDialog
from memtab.gui.memory_tab.editor_bar import BarKind, MessageBar
from memtab.gui.memory_tab.editor_commands import EditorCommands
from memtab.gui.memory_tab.editor_find import FindBar
from memtab.gui.memory_tab.editor_frontmatter import with_description
from memtab.gui.memory_tab.editor_prompts import DiscardChoice, EditorPrompts
from memtab.gui.memory_tab.editor_view import EditorView, ViewMode
from memtab.gui.memory_tab.preview import MarkdownPreview
from memtab.gui.tasks.runner import TaskRunner
from memtab.gui.widgets import short_name
from memtab.store.files import FileContent, read_file_content
from memtab.store.memory import MemoryStore, SaveConflictError
from memtab.store.paths import VirtualPath
from memtab.views.documents import (
    Document,
    DocumentError,
    DocumentMissingError,
    MuxDocument,
    SourceDocument,
)
from memtab.views.editor_session import (
    CLOSE_FILE,
    KEEP_MINE,
    MERGE,
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
from memtab.views.text_buffer import with_final_newline

if TYPE_CHECKING:
    from memtab.sources.model import Source, SourceFile
    from memtab.views.source_scan import SourcesScan

logger = logging.getLogger(__name__)

__all__ = ["DiscardChoice", "EditorPanel"]


class EditorPanel(QWidget):
    """Shows and edits one memory file of the selected workspace, or of another agent.

    Signals:
        saved(object): a VirtualPath (another agent's file: its file id), after a save.
        dirty_changed(bool): whether there are unsaved changes.
        file_opened(object): a VirtualPath (another agent's file: its file id), after a
            file was opened (or reopened).
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
        self._document: Document | None = None
        self._file = OpenFile()
        self._real_path: Path | None = None
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
        self.commands = EditorCommands(self, self._view)
        self.commands.notice.connect(self._on_commands_notice)
        self._refresh_chrome()

    # --- the seam ----------------------------------------------------------------------------

    @property
    def current_path(self) -> VirtualPath | None:
        """The open mux file, or None (also for another agent's file, and a read-only file
        opened by physical path)."""
        return self._file.path

    @property
    def current_key(self) -> str | None:
        """The tree key of the open file (a mux or another agent's file), or None."""
        return self._document.key if self._document is not None else None

    @property
    def current_source_file(self) -> str | None:
        """The file id of another agent's open file, or None."""
        document = self._document
        return document.file.id if isinstance(document, SourceDocument) else None

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

    @property
    def find_bar(self) -> FindBar:
        """The find / replace bar under the text."""
        return self._view.find_bar

    @property
    def real_path(self) -> Path | None:
        """Where the open file is on disk (None: no file, or one Memtab cannot place)."""
        return self._real_path

    def buffer_text(self) -> str:
        """What the editor holds, with `\\n` line breaks (exactly, unlike toPlainText)."""
        return self._view.buffer_text()

    def set_store(self, store: MemoryStore | None) -> None:
        """Use another workspace's store. Closes the open file unless the store is for the
        same workspace of the same home, or the file is another agent's (then it stays
        open). Call `confirm_discard` first."""
        same_place = (
            store is not None
            and self._store is not None
            and store.home.root == self._store.home.root
            and _workspace_id(store) == _workspace_id(self._store)
        )
        self._store = store
        if not same_place and not isinstance(self._document, SourceDocument):
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
        if self._store is None:
            self._reset_state()
            self._show_page(str(path), "", "no workspace is selected")
            return True
        self._open(MuxDocument(self._store, path))
        return True

    def open_source_file(self, source: Source, file: SourceFile) -> bool:
        """Open another agent's file (read-only when that agent writes it); False if the
        user cancelled at the unsaved-changes prompt."""
        document = SourceDocument(source, file)
        if document.key == self.current_key:
            self.file_opened.emit(file.id)
            return True
        if not self.confirm_discard():
            return False
        self._open(document)
        return True

    def open_read_only(self, physical: Path, title: str, note: str) -> bool:
        """Show a file that is not in a scope of this workspace (e.g. an orphan project
        dir), read-only with `note`; `title` takes the place of the virtual path."""
        if not self.confirm_discard():
            return False
        self._reset_state()
        self._real_path = physical
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
        self._follow_disk()

    def handle_source_change(self, sources: SourcesScan) -> None:
        """The same for another agent's open file, after a scan of the sources: follow
        the file if it changed, and its listing (who may write it) in any case."""
        document = self._document
        if not isinstance(document, SourceDocument):
            return
        listed = sources.find(document.file.id)
        if listed is not None:
            self._document = SourceDocument(*listed)
        changes = sources.changes
        if document.file.id in changes.changed or document.file.id in changes.deleted:
            self._follow_disk()

    def _follow_disk(self) -> None:
        document = self._document
        if document is None:
            return
        disk = self._read_disk()
        decision = self._file.decide(disk, self._buffer())
        if decision is Decision.MISSING:
            self._on_disk_file_missing()
        elif decision is Decision.REOPEN:
            self._open(document)
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
                f"{document.name} changed on disk while you were editing it. Your draft is kept.",
                self._file.changed_on_disk_choices(),
            )

    def save(self) -> bool:
        """Save the buffer if the file on disk is still the one loaded; True on success.

        Nothing to save counts as success. Conflicts and errors go to the bar.
        """
        if self._document is None or self._file.is_read_only:
            return False
        if not self.is_dirty:
            return True
        return self._save_against(self._file.save_expectation())

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
        document = self._document
        if document is None:
            return
        disk = self._read_disk()
        if disk is DiskAbsence.UNREADABLE:
            return
        on_disk = isinstance(disk, FileContent)
        old = self._file.codec.to_buffer(disk.content) if isinstance(disk, FileContent) else ""
        self._prompts.open_diff(
            f"Differences — {short_name(document.name)}",
            "On disk" if on_disk else "On disk (deleted)",
            old,
            self.buffer_text(),
            self._file.diff_choices(on_disk),
            self._file.merge_basis(disk),
        )

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

    # --- opening and loading ---------------------------------------------------------------

    def _reset_state(self, document: Document | None = None) -> None:
        path = document.path if isinstance(document, MuxDocument) else None
        self._document = document
        self._file = OpenFile(path, key=document.key if document is not None else None)
        self._real_path = document.physical() if document is not None else None
        self._prompts.close_diff()
        self._clear_bar()

    def _open(self, document: Document) -> None:
        self._reset_state(document)
        self._load(document)
        self.file_opened.emit(_opened_name(document))

    def _load(self, document: Document) -> None:
        title = document.title
        try:
            content = document.read()
        except DocumentError as error:
            self._show_page(title, "", str(error))
            self._show_bar(Situation.ERROR, BarKind.ERROR, f"Cannot open {title}: {error}")
            return
        owner = document.read_only_reason
        if owner is not None or not is_editable(content):
            reason = owner or not_editable_reason(content)
            self._file.loaded(content, reason)
            self._show_page(title, display_text(content), reason)
            said = f"Read-only: {reason}." if owner else f"Read-only: this file is {reason}."
            self._show_bar(Situation.NOTE, BarKind.INFO, said)
            return
        self._file.loaded(content)
        codec = self._file.codec
        self._show_page(title, codec.to_buffer(content.content), None)
        if document.note:
            self._show_bar(Situation.NOTE, BarKind.WARNING, document.note)
        elif not codec.round_trips(content.content):
            self._show_bar(
                Situation.NOTE,
                BarKind.INFO,
                "This file has mixed or unusual line breaks; saving it writes plain line breaks.",
            )

    def _show_page(self, title: str, text: str, read_only_reason: str | None) -> None:
        self._file.read_only_reason = read_only_reason
        real = f"\nOn disk: {self._real_path}" if self._real_path is not None else ""
        self._view.show_file(title, text, read_only_reason is not None, f"{title}{real}")
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
            self._replace_draft(
                self._file.codec.to_buffer(disk.content),
                disk,
                "Loaded the version on disk. Your draft is kept: restore it here or with Undo.",
            )

    def _replace_draft(self, text: str, disk: FileContent, message: str) -> None:
        """Put `text` (the disk version, or a merge with it) in place of the draft, based
        on `disk`; the draft stays restorable (`message` says so)."""
        draft = self.buffer_text()
        with self._quietly():
            self._view.replace_text(text)
            if text == self._file.codec.to_buffer(disk.content):
                self._adopt_disk_version(disk)
            else:
                self._file.kept_mine(disk)
                self._view.set_modified(True)
        if draft == self.buffer_text():
            self._clear_bar()
            return
        self._file.draft_backup = draft
        self._show_bar(
            Situation.DRAFT_REPLACED, BarKind.INFO, message, [(RESTORE_DRAFT, "Restore my draft")]
        )

    def _restore_draft(self) -> None:
        if self._file.draft_backup is None:
            return
        self._view.replace_text(self._file.draft_backup)
        self._file.draft_backup = None
        self._clear_bar()
        self._refresh_chrome()

    def _merge_with_disk(self) -> None:
        """Merge both: the merged text replaces the draft (restorable), based on the disk
        version it merged — unless the disk changed again since, then look again."""
        outcome = self._prompts.merge
        disk = self._read_disk()
        if outcome is None or disk is DiskAbsence.UNREADABLE:
            return
        if disk is DiskAbsence.MISSING:
            self._on_disk_file_missing()
            return
        assert isinstance(disk, FileContent)
        if disk.sha256 != outcome.disk_sha:
            self.show_diff()  # a newer version to compare and merge with
            return
        self._replace_draft(
            outcome.text,
            disk,
            f"Merged: {outcome.result.counts().lower()} are all in the text now. Review it, "
            "then save; your draft is kept: restore it here or with Undo.",
        )

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
        document = self._document
        if document is None:
            return
        if self._file.is_read_only:
            self._show_bar(Situation.DELETED, BarKind.WARNING, f"{document.title} was deleted.")
            return
        self._file.gone()
        self._show_bar(
            Situation.DELETED,
            BarKind.WARNING,
            f"{document.name} was deleted on disk. Your text is kept here; Save recreates "
            "the file.",
            [(CLOSE_FILE, "Close")],
        )
        self._refresh_chrome()

    # --- saving ------------------------------------------------------------------------------

    def _save_against(self, expected_sha: str | None) -> bool:
        document = self._document
        assert document is not None
        # Saved files end with a line break, so an agent's `echo >>` starts a new line.
        content = self._file.codec.from_buffer(with_final_newline(self.buffer_text()))
        try:
            sha = document.save(content, expected_sha)
        except SaveConflictError as conflict:
            self._file.conflicted(conflict.kind)
            self._show_bar(
                Situation.CONFLICT,
                BarKind.WARNING,
                f"Not saved: {conflict}. Your draft is kept.",
                self._file.conflict_choices(conflict.kind),
            )
            return False
        except DocumentError as error:
            self._show_bar(Situation.ERROR, BarKind.ERROR, f"Not saved: {error}")
            return False
        if self._file.path is not None:
            self._own_writes.note(self._file.path, sha)
        # The virtual path is what counts; the physical one is noted for watcher paths.
        if self._real_path is not None:
            self._own_writes.note(self._real_path, sha)
        with self._view.quietly():
            self._view.end_with_newline()  # the buffer shows what was written
        self._file.saved(sha, self.buffer_text())
        self._view.set_modified(False)
        if self._file.situation is not Situation.NOTE:
            self._clear_bar()
        self._refresh_chrome()
        self.saved.emit(_opened_name(document))
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
        document = self._document
        if document is None:
            return DiskAbsence.UNREADABLE
        try:
            return document.read()
        except DocumentMissingError:
            return DiskAbsence.MISSING
        except DocumentError as error:
            self._show_bar(Situation.ERROR, BarKind.ERROR, f"Cannot read {document.title}: {error}")
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
        elif action == MERGE:
            self._merge_with_disk()
        elif action == RESTORE_DRAFT:
            self._restore_draft()
        elif action == CLOSE_FILE and self.confirm_discard():
            self.close_file()

    # --- chrome ------------------------------------------------------------------------------

    def _refresh_chrome(self) -> None:
        dirty = self.is_dirty
        state = self._file.state(self._view.is_modified())
        self._view.show_state(state, can_save=not self._file.is_read_only and dirty)
        self.commands.update()
        if dirty != self._last_dirty:
            self._last_dirty = dirty
            self.dirty_changed.emit(dirty)

    def _ask_unsaved_choice(self) -> DiscardChoice:
        """Ask Save / Discard / Cancel about the unsaved changes (patched in tests)."""
        document = self._document
        return self._prompts.ask_unsaved(document.name if document is not None else None)

    # --- slots -------------------------------------------------------------------------------

    @Slot()
    def _on_view_save_requested(self) -> None:
        self.save()

    @Slot(bool)
    def _on_view_modified_changed(self, _modified: bool) -> None:
        self._refresh_chrome()

    @Slot(str)
    def _on_view_description_edited(self, text: str) -> None:
        if self._file.is_read_only or self._document is None:
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

    @Slot(object, str)
    def _on_commands_notice(self, kind: BarKind, text: str) -> None:
        self._show_bar(Situation.ERROR if kind is BarKind.ERROR else Situation.NOTE, kind, text)


def _workspace_id(store: MemoryStore) -> str | None:
    return store.workspace.id if store.workspace is not None else None


def _opened_name(document: Document) -> VirtualPath | str:
    """What `file_opened` and `saved` carry: a virtual path, or another agent's file id."""
    if isinstance(document, MuxDocument):
        return document.path
    if isinstance(document, SourceDocument):
        return document.file.id
    return document.title
