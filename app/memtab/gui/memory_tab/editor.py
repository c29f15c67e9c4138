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
"""

from __future__ import annotations

import contextlib
import functools
import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager
from enum import Enum
from pathlib import Path

from PySide6.QtCore import QEvent, Qt, QTimer, Signal, Slot
from PySide6.QtGui import (
    QFontDatabase,
    QFontMetricsF,
    QKeySequence,
    QResizeEvent,
    QShortcut,
    QTextCursor,
)
from PySide6.QtWidgets import (
    QButtonGroup,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QSplitter,
    QStackedWidget,
    QStyle,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from memtab.gui.memory_tab import diff_view
from memtab.gui.memory_tab.diff_view import DiffDialog, DiffResult
from memtab.gui.memory_tab.editor_bar import BarKind, MessageBar
from memtab.gui.memory_tab.editor_buffer import (
    TextCodec,
    buffer_from_raw,
    changed_span,
    utf16_offset,
)
from memtab.gui.memory_tab.editor_colors import Accent, accent_text, muted_text
from memtab.gui.memory_tab.editor_frontmatter import read_description, with_description
from memtab.gui.memory_tab.editor_highlighter import MarkdownHighlighter
from memtab.gui.memory_tab.own_writes import OwnWrites
from memtab.gui.memory_tab.preview import MarkdownPreview
from memtab.gui.tasks.runner import TaskContext, TaskRunner
from memtab.store.files import MAX_FILE_BYTES, FileContent, read_file_content
from memtab.store.memory import (
    MemoryStore,
    MemoryStoreError,
    NotFoundError,
    SaveConflictError,
)
from memtab.store.paths import PathError, VirtualPath

logger = logging.getLogger(__name__)

EDITOR_ACCESSIBLE_NAME = "Memory file content"
_SYNC_DELAY_MS = 120  # description field ← frontmatter, after typing pauses
_PREVIEW_DELAY_MS = 250
_PREVIEW_MAX_DELAY_MS = 2000


class ViewMode(Enum):
    """What the panel shows: the source, the rendered preview, or both side by side."""

    SOURCE = "Source"
    SPLIT = "Split"
    PREVIEW = "Preview"


class DiscardChoice(Enum):
    """The answer to the unsaved-changes question."""

    SAVE = "save"
    DISCARD = "discard"
    CANCEL = "cancel"


class _Disk(Enum):
    """What `_read_disk` found instead of a file."""

    MISSING = "missing"
    UNREADABLE = "unreadable"


class _Situation(Enum):
    """Why the message bar is showing (decides what its actions mean)."""

    NONE = "none"
    CONFLICT = "conflict"
    CHANGED_ON_DISK = "changed_on_disk"
    DELETED = "deleted"
    DRAFT_REPLACED = "draft_replaced"
    ERROR = "error"
    NOTE = "note"


# Action ids shared by the bar and the diff dialog.
RELOAD = "reload"
SHOW_DIFF = "show_diff"
OVERWRITE = "overwrite"
KEEP_MINE = "keep_mine"
TAKE_THEIRS = "take_theirs"
RESTORE_DRAFT = "restore_draft"
CLOSE_FILE = "close_file"


class _ElidedLabel(QLabel):
    """A one-line label that elides its text in the middle (paths keep both ends)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._full_text = ""
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

    def full_text(self) -> str:
        return self._full_text

    def set_full_text(self, text: str) -> None:
        self._full_text = text
        self.setToolTip(text)
        self._elide()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._elide()

    def _elide(self) -> None:
        metrics = QFontMetricsF(self.font())
        self.setText(
            metrics.elidedText(self._full_text, Qt.TextElideMode.ElideMiddle, max(40, self.width()))
        )


class _EmptyState(QWidget):
    """What the panel shows with no file open."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._label = QLabel("Select a memory file to view or edit it.", self)
        self._label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self._label.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addStretch(1)
        layout.addWidget(self._label)
        layout.addStretch(2)
        self._recolor()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.PaletteChange:
            self._recolor()
        super().changeEvent(event)

    def _recolor(self) -> None:
        self._label.setStyleSheet(f"color: {muted_text(self.palette()).name()}")


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
        self._tasks = tasks
        self._owns_tasks = tasks is None
        self._store: MemoryStore | None = None
        self._path: VirtualPath | None = None
        self._title = ""
        self._loaded_sha: str | None = None  # sha on disk the buffer is based on; None: absent
        self._clean_text = ""  # the buffer as last loaded or saved
        self._exists_on_disk = False
        self._read_only_reason: str | None = None
        self._codec = TextCodec()
        self._situation = _Situation.NONE
        self._conflict_kind: str | None = None
        self._draft_backup: str | None = None
        self._last_dirty = False
        self._applying_description = False
        self._loading = False
        self._diff_job: int | None = None
        self._quiet = False  # inside a programmatic edit: chrome is refreshed once after
        self._diff_dialog: DiffDialog | None = None
        self._view_mode = ViewMode.SOURCE

        self._build_ui()
        self._sync_timer = QTimer(self)
        self._sync_timer.setSingleShot(True)
        self._sync_timer.setInterval(_SYNC_DELAY_MS)
        self._sync_timer.timeout.connect(self._on_sync_timer_timeout)
        self._preview_timer = QTimer(self)
        self._preview_timer.setSingleShot(True)
        self._preview_timer.setInterval(_PREVIEW_DELAY_MS)
        self._preview_timer.timeout.connect(self._on_preview_timer_timeout)
        self._install_shortcuts()
        if tasks is not None:
            self._connect_tasks(tasks)
        self._refresh_chrome()

    # --- construction -------------------------------------------------------------------

    def _build_ui(self) -> None:
        self._stack = QStackedWidget(self)
        self._empty = _EmptyState(self._stack)
        self._page = QWidget(self._stack)
        self._stack.addWidget(self._empty)
        self._stack.addWidget(self._page)

        self._path_label = _ElidedLabel(self._page)
        self._path_label.setAccessibleName("Memory file path")
        path_font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        self._path_label.setFont(path_font)
        self._state_label = QLabel(self._page)
        self._state_label.setAccessibleName("Editor state")

        self._mode_buttons: dict[ViewMode, QToolButton] = {}
        self._mode_group = QButtonGroup(self)
        self._mode_group.setExclusive(True)
        modes = QHBoxLayout()
        modes.setSpacing(0)
        for mode in ViewMode:
            button = QToolButton(self._page)
            button.setText(mode.value)
            button.setCheckable(True)
            button.setAutoRaise(True)
            button.setAccessibleName(f"{mode.value} view")
            button.setToolTip(
                {
                    ViewMode.SOURCE: "Edit the Markdown source",
                    ViewMode.SPLIT: "Source and rendered preview side by side",
                    ViewMode.PREVIEW: "Rendered preview only",
                }[mode]
            )
            button.setProperty("viewMode", mode.value)
            button.clicked.connect(self._on_mode_button_clicked)
            self._mode_group.addButton(button)
            self._mode_buttons[mode] = button
            modes.addWidget(button)
        self._mode_buttons[ViewMode.SOURCE].setChecked(True)

        self._save_button = QPushButton("Save", self._page)
        self._save_button.setIcon(
            self.style().standardIcon(QStyle.StandardPixmap.SP_DialogSaveButton)
        )
        self._save_button.setToolTip("Save (Ctrl+S or Ctrl+Enter)")
        self._save_button.setAccessibleName("Save")
        self._save_button.clicked.connect(self._on_save_button_clicked)

        header = QHBoxLayout()
        header.setSpacing(10)
        header.addWidget(self._path_label, 1)
        header.addWidget(self._state_label)
        header.addLayout(modes)
        header.addWidget(self._save_button)

        self._description_label = QLabel("Description", self._page)
        self._description = QLineEdit(self._page)
        self._description.setAccessibleName("Description")
        self._description.setPlaceholderText("What this file is for — shown in the tree")
        self._description.setToolTip(
            "The frontmatter description: line of this file. Agents and the tree show it."
        )
        self._description_label.setBuddy(self._description)
        self._description.textEdited.connect(self._on_description_text_edited)
        description_row = QHBoxLayout()
        description_row.setSpacing(8)
        description_row.addWidget(self._description_label)
        description_row.addWidget(self._description, 1)

        self._bar = MessageBar(self._page)
        self._bar.action_triggered.connect(self._on_bar_action_triggered)
        self._bar.dismissed.connect(self._on_bar_dismissed)

        self._editor = QPlainTextEdit(self._page)
        self._editor.setAccessibleName(EDITOR_ACCESSIBLE_NAME)
        editor_font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        self._editor.setFont(editor_font)
        self._editor.setTabStopDistance(QFontMetricsF(editor_font).horizontalAdvance(" ") * 4)
        self._editor.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self._editor.document().setDocumentMargin(8)
        self._highlighter = MarkdownHighlighter(self._editor.document(), self.palette())
        self._editor.document().contentsChanged.connect(self._on_document_contents_changed)
        self._editor.document().modificationChanged.connect(self._on_document_modification_changed)

        self._preview = MarkdownPreview(self._page)
        self._splitter = QSplitter(Qt.Orientation.Horizontal, self._page)
        self._splitter.setChildrenCollapsible(False)
        self._splitter.addWidget(self._editor)
        self._splitter.addWidget(self._preview)
        self._preview.hide()

        page_layout = QVBoxLayout(self._page)
        page_layout.setContentsMargins(0, 0, 0, 0)
        page_layout.setSpacing(6)
        page_layout.addLayout(header)
        page_layout.addLayout(description_row)
        page_layout.addWidget(self._bar)
        page_layout.addWidget(self._splitter, 1)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.addWidget(self._stack)

    def _install_shortcuts(self) -> None:
        context = Qt.ShortcutContext.WidgetWithChildrenShortcut
        for sequence in (
            QKeySequence(QKeySequence.StandardKey.Save),
            QKeySequence("Ctrl+Return"),
            QKeySequence("Ctrl+Enter"),
        ):
            shortcut = QShortcut(sequence, self)
            shortcut.setContext(context)
            shortcut.activated.connect(self._on_save_shortcut_activated)

    # --- the seam ----------------------------------------------------------------------------

    @property
    def current_path(self) -> VirtualPath | None:
        """The open file, or None (also for a read-only file opened by physical path)."""
        return self._path

    @property
    def is_dirty(self) -> bool:
        """Unsaved changes: an edited buffer, or a draft whose file is gone from disk."""
        if self._path is None or self._read_only_reason is not None:
            return False
        return self._editor.document().isModified() or not self._exists_on_disk

    @property
    def is_read_only(self) -> bool:
        """Whether the open file cannot be edited here (binary, over the cap, orphan)."""
        return self._read_only_reason is not None

    @property
    def view_mode(self) -> ViewMode:
        """Source, split or preview."""
        return self._view_mode

    @property
    def text_edit(self) -> QPlainTextEdit:
        """The source editor widget (for focus handling and tests)."""
        return self._editor

    @property
    def description_edit(self) -> QLineEdit:
        """The description field."""
        return self._description

    @property
    def message_bar(self) -> MessageBar:
        """The inline bar for conflicts, disk changes, notes and errors."""
        return self._bar

    @property
    def preview(self) -> MarkdownPreview:
        """The rendered Markdown preview."""
        return self._preview

    @property
    def save_button(self) -> QPushButton:
        """The Save button."""
        return self._save_button

    @property
    def diff_dialog(self) -> DiffDialog | None:
        """The diff window, while one is open."""
        return self._diff_dialog

    def buffer_text(self) -> str:
        """What the editor holds, with `\\n` line breaks (exactly, unlike toPlainText)."""
        return buffer_from_raw(self._editor.document().toRawText())

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
        if path == self._path:
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
            self._show_bar(_Situation.ERROR, BarKind.ERROR, f"Cannot read {title}: {error}")
            return True
        self._show_page(title, self._display_text(content), note)
        self._show_bar(_Situation.NOTE, BarKind.INFO, note)
        return True

    def close_file(self) -> None:
        """Go back to the empty state, dropping the buffer (the caller asked first)."""
        self._reset_state()
        self._load_buffer("")
        self._description.clear()
        self._preview.set_markdown_source("")
        self._stack.setCurrentWidget(self._empty)
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
        path = self._path
        if path is None or self._store is None or (path not in changed and path not in deleted):
            return
        disk = self._read_disk()
        if disk is _Disk.UNREADABLE:
            return
        if disk is _Disk.MISSING:
            self._on_disk_file_missing()
            return
        if disk.sha256 == self._loaded_sha and self._exists_on_disk:
            return  # the echo of our own save, or a touch
        if self._read_only_reason is not None or (not self._editable(disk) and not self.is_dirty):
            self._open(path)  # read-only views, and clean buffers of now binary files, follow
            return
        if self._codec.to_buffer(disk.content) == self.buffer_text():
            self._adopt_disk_version(disk)  # the disk caught up with the draft
            return
        if not self.is_dirty:
            with self._quietly():
                self._replace_buffer(self._codec.to_buffer(disk.content))
                self._adopt_disk_version(disk)
            return
        self._show_bar(
            _Situation.CHANGED_ON_DISK,
            BarKind.WARNING,
            f"{path.name} changed on disk while you were editing it. Your draft is kept.",
            [(SHOW_DIFF, "Show diff"), (KEEP_MINE, "Keep mine"), (TAKE_THEIRS, "Take theirs")],
        )

    def save(self) -> bool:
        """Save the buffer if the file on disk is still the one loaded; True on success.

        Nothing to save counts as success. Conflicts and errors go to the bar.
        """
        if self._path is None or self._store is None or self._read_only_reason is not None:
            return False
        if not self.is_dirty:
            return True
        expected = self._loaded_sha if self._exists_on_disk else None
        return self._save_against(expected)

    def set_view_mode(self, mode: ViewMode) -> None:
        """Show the source, the preview, or both."""
        self._view_mode = mode
        self._mode_buttons[mode].setChecked(True)
        self._editor.setVisible(mode is not ViewMode.PREVIEW)
        self._preview.setVisible(mode is not ViewMode.SOURCE)
        if mode is not ViewMode.SOURCE:
            self._preview_timer.stop()
            self._render_preview()
        if mode is ViewMode.SPLIT:
            half = max(1, self._splitter.width() // 2)
            self._splitter.setSizes([half, half])

    def shutdown(self) -> None:
        """Stop the diff worker thread the panel started (call on close)."""
        if self._owns_tasks and self._tasks is not None:
            self._tasks.shutdown()
            self._tasks = None

    # --- opening and loading ---------------------------------------------------------------

    def _reset_state(self) -> None:
        self._path = None
        self._title = ""
        self._loaded_sha = None
        self._exists_on_disk = False
        self._read_only_reason = None
        self._codec = TextCodec()
        self._draft_backup = None
        self._conflict_kind = None
        self._close_diff_dialog()
        self._clear_bar()

    def _open(self, path: VirtualPath) -> None:
        self._reset_state()
        self._path = path
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
            self._show_bar(_Situation.ERROR, BarKind.ERROR, f"Cannot open {path}: {error}")
            return
        if not self._editable(content):
            reason = _not_editable_reason(content)
            self._loaded_sha = content.sha256
            self._exists_on_disk = True
            self._show_page(str(path), self._display_text(content), reason)
            self._show_bar(_Situation.NOTE, BarKind.INFO, f"Read-only: this file is {reason}.")
            return
        self._codec = TextCodec.detect(content.content)
        self._loaded_sha = content.sha256
        self._exists_on_disk = True
        self._show_page(str(path), self._codec.to_buffer(content.content), None)
        if not self._codec.round_trips(content.content):
            self._show_bar(
                _Situation.NOTE,
                BarKind.INFO,
                "This file has mixed or unusual line breaks; saving it writes plain line breaks.",
            )

    def _show_page(self, title: str, text: str, read_only_reason: str | None) -> None:
        self._title = title
        self._read_only_reason = read_only_reason
        self._path_label.set_full_text(title)
        self._load_buffer(text)
        self._clean_text = text
        self._editor.setReadOnly(read_only_reason is not None)
        self._description.setReadOnly(read_only_reason is not None)
        self._sync_description_field()
        self._stack.setCurrentWidget(self._page)
        if self._view_mode is not ViewMode.SOURCE:
            self._preview.set_markdown_source(text)
        self._refresh_chrome()

    def _load_buffer(self, text: str) -> None:
        """A new file: fresh text and a fresh undo history."""
        self._loading = True
        self._quiet = True
        try:
            self._editor.setPlainText(text)
            self._editor.document().setModified(False)
        finally:
            self._loading = False
            self._quiet = False

    def _display_text(self, content: FileContent) -> str:
        text = content.content
        if content.over_cap:
            text = text[:MAX_FILE_BYTES]
        return text.replace("\x00", "\u2400")  # show NULs as ␀ rather than cutting lines

    @staticmethod
    def _editable(content: FileContent) -> bool:
        return not content.binary and not content.over_cap

    # --- buffer edits -----------------------------------------------------------------------

    def _replace_buffer(self, new_text: str) -> None:
        """Replace the buffer with one undoable edit of the changed middle part, so the
        cursor and scroll position survive wherever the text did not change."""
        old_text = self.buffer_text()
        start, old_end, new_end = changed_span(old_text, new_text)
        if start == old_end == new_end:
            return
        scroll = self._editor.verticalScrollBar().value()
        cursor = QTextCursor(self._editor.document())
        cursor.beginEditBlock()
        cursor.setPosition(utf16_offset(old_text, start))
        cursor.setPosition(utf16_offset(old_text, old_end), QTextCursor.MoveMode.KeepAnchor)
        cursor.insertText(new_text[start:new_end])
        cursor.endEditBlock()
        self._editor.verticalScrollBar().setValue(scroll)

    @contextmanager
    def _quietly(self) -> Iterator[None]:
        """Programmatic edits: refresh the chrome (and `dirty_changed`) once, at the end."""
        self._quiet = True
        try:
            yield
        finally:
            self._quiet = False
            self._refresh_chrome()

    def _adopt_disk_version(self, disk: FileContent) -> None:
        """The buffer now equals `disk`: base the next save on it and mark it clean."""
        self._loaded_sha = disk.sha256
        self._exists_on_disk = True
        self._codec = TextCodec.detect(disk.content)
        self._clean_text = self.buffer_text()
        self._editor.document().setModified(False)
        if self._situation in (_Situation.CHANGED_ON_DISK, _Situation.DELETED, _Situation.CONFLICT):
            self._clear_bar()
        self._refresh_chrome()

    def _take_disk_version(self) -> None:
        """Reload / Take theirs: load the disk version, keeping the draft restorable."""
        disk = self._read_disk()
        if disk is _Disk.UNREADABLE:
            return
        if disk is _Disk.MISSING:
            self._on_disk_file_missing()
            return
        assert self._path is not None
        if not self._editable(disk):
            # Loading it would make the panel read-only and drop the draft: refuse.
            self._show_bar(
                _Situation.ERROR,
                BarKind.ERROR,
                f"The file on disk is now {_not_editable_reason(disk)}, so it cannot be "
                "loaded for editing. Your draft is kept here; copy what you need, then close "
                "the file.",
                [(CLOSE_FILE, "Close")],
            )
            return
        draft = self.buffer_text()
        with self._quietly():
            self._replace_buffer(self._codec.to_buffer(disk.content))
            self._adopt_disk_version(disk)
        if draft != self.buffer_text():
            self._draft_backup = draft
            self._show_bar(
                _Situation.DRAFT_REPLACED,
                BarKind.INFO,
                "Loaded the version on disk. Your draft is kept: restore it here or with Undo.",
                [(RESTORE_DRAFT, "Restore my draft")],
            )
        else:
            self._clear_bar()

    def _restore_draft(self) -> None:
        if self._draft_backup is None:
            return
        self._replace_buffer(self._draft_backup)
        self._draft_backup = None
        self._clear_bar()
        self._refresh_chrome()

    def _keep_mine(self) -> None:
        """Keep the draft and base the next save on what is on disk now."""
        disk = self._read_disk()
        if disk is _Disk.UNREADABLE:
            return
        if disk is _Disk.MISSING:
            self._on_disk_file_missing()
            return
        self._loaded_sha = disk.sha256
        self._exists_on_disk = True
        self._editor.document().setModified(True)
        self._clear_bar()
        self._refresh_chrome()

    def _on_disk_file_missing(self) -> None:
        if self._path is None:
            return
        if self._read_only_reason is not None:
            self._show_bar(_Situation.DELETED, BarKind.WARNING, f"{self._path} was deleted.")
            return
        self._exists_on_disk = False
        self._loaded_sha = None
        self._show_bar(
            _Situation.DELETED,
            BarKind.WARNING,
            f"{self._path.name} was deleted on disk. Your text is kept here; Save recreates "
            "the file.",
            [(CLOSE_FILE, "Close")],
        )
        self._refresh_chrome()

    # --- saving ------------------------------------------------------------------------------

    def _save_against(self, expected_sha: str | None) -> bool:
        assert self._path is not None and self._store is not None
        path = self._path
        content = self._codec.from_buffer(self.buffer_text())
        try:
            result = self._store.save(str(path), content, expected_sha)
        except SaveConflictError as conflict:
            self._show_conflict(conflict)
            return False
        except (MemoryStoreError, PathError, OSError) as error:
            self._show_bar(_Situation.ERROR, BarKind.ERROR, f"Not saved: {error}")
            return False
        self._own_writes.note(path, result.sha256)
        # The virtual path is what counts; the physical one is noted for watcher paths.
        with contextlib.suppress(MemoryStoreError, PathError):
            self._own_writes.note(self._store.physical(path), result.sha256)
        self._loaded_sha = result.sha256
        self._exists_on_disk = True
        self._clean_text = self.buffer_text()
        self._draft_backup = None
        self._editor.document().setModified(False)
        if self._situation is not _Situation.NOTE:
            self._clear_bar()
        self._refresh_chrome()
        self.saved.emit(path)
        return True

    def _show_conflict(self, conflict: SaveConflictError) -> None:
        self._conflict_kind = conflict.kind
        actions = [(SHOW_DIFF, "Show diff")]
        if conflict.kind == "missing":
            actions.append((OVERWRITE, "Recreate"))
            self._exists_on_disk = False
        else:
            actions = [(RELOAD, "Reload"), *actions, (OVERWRITE, "Overwrite")]
        self._show_bar(
            _Situation.CONFLICT,
            BarKind.WARNING,
            f"Not saved: {conflict}. Your draft is kept.",
            actions,
        )

    def _overwrite(self) -> None:
        """Save the draft over whatever is on disk now (or recreate it)."""
        disk = self._read_disk()
        if disk is _Disk.UNREADABLE:
            return
        expected = disk.sha256 if isinstance(disk, FileContent) else None
        self._save_against(expected)

    # --- diff --------------------------------------------------------------------------------

    def show_diff(self) -> None:
        """Open a window with the differences between the disk version and the draft."""
        if self._path is None:
            return
        disk = self._read_disk()
        if disk is _Disk.UNREADABLE:
            return
        old = self._codec.to_buffer(disk.content) if isinstance(disk, FileContent) else ""
        new = self.buffer_text()
        if self._situation is _Situation.CHANGED_ON_DISK:
            actions = [(KEEP_MINE, "Keep mine"), (TAKE_THEIRS, "Take theirs")]
        elif isinstance(disk, FileContent):
            actions = [(OVERWRITE, "Overwrite with my draft"), (RELOAD, "Reload from disk")]
        else:
            actions = [(OVERWRITE, "Recreate from my draft")]
        self._close_diff_dialog()
        old_label = "On disk" if isinstance(disk, FileContent) else "On disk (deleted)"
        dialog = DiffDialog(
            f"Differences — {self._path.name}", old_label, "Your draft", actions, self
        )
        dialog.action_triggered.connect(self._on_diff_dialog_action_triggered)
        dialog.finished.connect(self._on_diff_dialog_finished)
        self._diff_dialog = dialog
        runner = self._diff_runner()
        # Looked up on the module at call time, so the job is what tests observe.
        self._diff_job = runner.submit(functools.partial(_diff_job, old, new), key="editor-diff")
        dialog.show()

    def _diff_runner(self) -> TaskRunner:
        if self._tasks is None:
            self._tasks = TaskRunner("editor-diff", parent=self)
            self._owns_tasks = True
            self._connect_tasks(self._tasks)
        return self._tasks

    def _connect_tasks(self, tasks: TaskRunner) -> None:
        tasks.job_finished.connect(self._on_tasks_job_finished)
        tasks.job_failed.connect(self._on_tasks_job_failed)

    def _close_diff_dialog(self) -> None:
        if self._diff_dialog is not None:
            dialog, self._diff_dialog = self._diff_dialog, None
            dialog.finished.disconnect(self._on_diff_dialog_finished)
            dialog.close()
            dialog.deleteLater()
        if self._diff_job is not None and self._tasks is not None:
            self._tasks.cancel(self._diff_job)
        self._diff_job = None

    # --- the bar -----------------------------------------------------------------------------

    def _show_bar(
        self,
        situation: _Situation,
        kind: BarKind,
        text: str,
        actions: list[tuple[str, str]] | None = None,
    ) -> None:
        self._situation = situation
        self._bar.show_message(kind, text, actions or [])

    def _clear_bar(self) -> None:
        self._situation = _Situation.NONE
        self._bar.clear()

    def _read_disk(self) -> FileContent | _Disk:
        """The file on disk now, or why there is none (when unreadable, the bar says why)."""
        if self._path is None or self._store is None:
            return _Disk.UNREADABLE
        try:
            return self._store.read(str(self._path))
        except NotFoundError:
            return _Disk.MISSING
        except (MemoryStoreError, PathError) as error:
            self._show_bar(_Situation.ERROR, BarKind.ERROR, f"Cannot read {self._path}: {error}")
            return _Disk.UNREADABLE

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

    # --- description field and preview ------------------------------------------------------

    def _sync_description_field(self) -> None:
        value = read_description(self.buffer_text())
        if self._description.text() != value:
            self._description.setText(value)
            self._description.setCursorPosition(0)

    # --- chrome ------------------------------------------------------------------------------

    def _refresh_chrome(self) -> None:
        dirty = self.is_dirty
        has_file = self._stack.currentWidget() is self._page
        self._save_button.setEnabled(has_file and self._read_only_reason is None and dirty)
        palette = self.palette()
        if self._read_only_reason is not None:
            text, color = "Read-only", muted_text(palette)
        elif self._path is not None and not self._exists_on_disk:
            text, color = "Not on disk", accent_text(palette, Accent.WARNING)
        elif dirty:
            text, color = "● Unsaved", accent_text(palette, Accent.WARNING)
        else:
            text, color = "", muted_text(palette)
        self._state_label.setText(text)
        self._state_label.setStyleSheet(f"color: {color.name()}")
        self._description_label.setStyleSheet(f"color: {muted_text(palette).name()}")
        if dirty != self._last_dirty:
            self._last_dirty = dirty
            self.dirty_changed.emit(dirty)

    def changeEvent(self, event: QEvent) -> None:
        """Follow palette changes (light ↔ dark) in highlighting and labels."""
        if event.type() == QEvent.Type.PaletteChange:
            self._highlighter.set_palette(self.palette())
            self._refresh_chrome()
        super().changeEvent(event)

    def _ask_unsaved_choice(self) -> DiscardChoice:
        """Ask Save / Discard / Cancel about the unsaved changes (patched in tests)."""
        name = self._path.name if self._path else "this file"
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
    def _on_save_shortcut_activated(self) -> None:
        self.save()

    @Slot()
    def _on_save_button_clicked(self) -> None:
        self.save()

    @Slot()
    def _on_mode_button_clicked(self) -> None:
        button = self.sender()
        if isinstance(button, QToolButton):
            self.set_view_mode(ViewMode(str(button.property("viewMode"))))

    @Slot(str)
    def _on_bar_action_triggered(self, action: str) -> None:
        self._perform(action)

    @Slot()
    def _on_bar_dismissed(self) -> None:
        self._situation = _Situation.NONE

    @Slot(str)
    def _on_diff_dialog_action_triggered(self, action: str) -> None:
        self._perform(action)

    @Slot(int)
    def _on_diff_dialog_finished(self, _result: int) -> None:
        dialog, self._diff_dialog = self._diff_dialog, None
        if dialog is not None:
            dialog.deleteLater()
        if self._diff_job is not None and self._tasks is not None:
            self._tasks.cancel(self._diff_job)
        self._diff_job = None

    @Slot(int, object)
    def _on_tasks_job_finished(self, job: int, result: object) -> None:
        if job != self._diff_job:
            return
        self._diff_job = None
        if self._diff_dialog is not None and isinstance(result, DiffResult):
            self._diff_dialog.set_diff(result)

    @Slot(int, str)
    def _on_tasks_job_failed(self, job: int, message: str) -> None:
        if job != self._diff_job:
            return
        self._diff_job = None
        if self._diff_dialog is not None:
            self._diff_dialog.show_failure(message)

    @Slot(str)
    def _on_description_text_edited(self, text: str) -> None:
        if self._read_only_reason is not None or self._path is None:
            return
        self._applying_description = True
        try:
            new_text = with_description(self.buffer_text(), text)
            self._replace_buffer(new_text)
            if new_text == self._clean_text and self._exists_on_disk:
                # Typed and then cleared again: nothing to save.
                self._editor.document().setModified(False)
        finally:
            self._applying_description = False

    @Slot()
    def _on_document_contents_changed(self) -> None:
        if self._loading:
            return
        if not self._applying_description:
            self._sync_timer.start()
        if self._view_mode is not ViewMode.SOURCE:
            self._preview_timer.start()

    @Slot(bool)
    def _on_document_modification_changed(self, _modified: bool) -> None:
        if not self._quiet:
            self._refresh_chrome()

    @Slot()
    def _on_sync_timer_timeout(self) -> None:
        self._sync_description_field()

    @Slot()
    def _on_preview_timer_timeout(self) -> None:
        if self._view_mode is not ViewMode.SOURCE:
            self._render_preview()

    def _render_preview(self) -> None:
        """Render now; a slow render (a big file) waits for longer typing pauses next time."""
        started = time.perf_counter()
        self._preview.set_markdown_source(self.buffer_text())
        elapsed_ms = (time.perf_counter() - started) * 1000
        self._preview_timer.setInterval(
            int(min(_PREVIEW_MAX_DELAY_MS, max(_PREVIEW_DELAY_MS, elapsed_ms * 4)))
        )


def _diff_job(old: str, new: str, ctx: TaskContext) -> DiffResult:
    """The diff, on the worker thread (resolved through the module so tests can watch)."""
    return diff_view.compute_diff(old, new, ctx)


def _workspace_id(store: MemoryStore) -> str | None:
    return store.workspace.id if store.workspace is not None else None


def _not_editable_reason(content: FileContent) -> str:
    if content.binary:
        return "not a text file (it contains NUL bytes)"
    return (
        f"larger than the {MAX_FILE_BYTES // 1024} KiB cap for memory files "
        f"({content.size_bytes:,} bytes); only the start is shown"
    )
