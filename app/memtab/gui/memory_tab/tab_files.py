"""The Memory tab's open file and file operations, followed through the rescans.

- The file the user opens — mux's or another agent's, by its ref's key — is remembered
  per workspace (`UiState.set_open_file`) and reopened when the tab next shows that
  workspace, once the tree shows it (other agents' rows come after the first scan), if it
  still exists. Only opening is remembered: a file closed or deleted since is skipped.
- A file operation's result (`FileOpTasks.op_finished`) shows in the tab's bar and the
  status bar; the row it created, the new place of a moved open file, or the row asked
  for is selected (and opened) once the rescan the operation causes shows it
  (`after_tree_shown`); a new file then takes the typing in its body (beside a terminal,
  on one pane at a time, the editor is shown for it), and what was typed while it was
  made goes there too (`TypedAhead`), not to the tree's type-ahead.
- Opening or closing a file keeps the tree's selection, the line highlight and other
  agents' sections in step (`TreeEditorSync`, `SourcesSync`).
- A file with unsaved changes in an editor tab is marked "● unsaved" on its row (the
  tab's ● is out of sight when the tabs are many, or beside a terminal, where the tree
  and the editor take turns).
- An `@`-import followed in a Claude Code instruction file opens the memory file it names
  where the tree shows it, else the file on disk in the external editor.
- Each file shown is a step of Back and Forward (`navigation.FileNavigation`), which
  show a file as a link does, its row selected and opened, and put the keyboard in its
  text (`edit_key`, as Quick open does).
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Protocol

from PySide6.QtCore import QObject, Slot

from memtab.components.files.ops import OpResult, ref_on_disk
from memtab.components.memory_tab import (
    FileFollowUps,
    OpShown,
    op_shown,
    remembered_ref,
    tabs_to_reopen,
    unsaved_marks,
)
from memtab.components.tree.nodes import ref_key
from memtab.file_protocol.file_ref import MemoryFileRef
from memtab.gui.activity.edit_marks import EditMarks
from memtab.gui.context import WindowContext
from memtab.gui.editor.editor import EditorPanel
from memtab.gui.editor.tab.bar import MessageBar
from memtab.gui.editor.tab.held_keys import TypedAhead
from memtab.gui.files.dialogs import TabDialogs
from memtab.gui.memory_tab.navigation import FileNavigation
from memtab.gui.memory_tab.panes import Pane, PaneSwitch
from memtab.gui.tasks.file_ops import OpFollowUp
from memtab.gui.tree.editor_link import TreeEditorLink
from memtab.gui.tree.model import MemoryTreeModel
from memtab.gui.tree.scan_scheduler import ScanScheduler
from memtab.gui.tree.sources import SourcesFollower

logger = logging.getLogger(__name__)


class FilesHost(Protocol):
    """What `TabFiles` needs of the tab (`MemoryTab`)."""

    @property
    def is_loaded(self) -> bool: ...

    @property
    def dialogs(self) -> TabDialogs: ...

    def show_error(self, text: str) -> None: ...


class TabFiles(QObject):
    """Follows the open file and file operations (see the module docstring)."""

    def __init__(
        self,
        context: WindowContext,
        host: FilesHost,
        *,
        model: MemoryTreeModel,
        editor_link: TreeEditorLink,
        editor: EditorPanel,
        marks: EditMarks,
        sources: SourcesFollower,
        scans: ScanScheduler,
        message_bar: MessageBar,
        panes: PaneSwitch,
        parent: QObject | None = None,
    ) -> None:
        """Listen to `editor`'s opened and closed files and the file operations' results."""
        super().__init__(parent)
        self._context = context
        self._host = host
        self._model = model
        self._editor_link = editor_link
        self._editor = editor
        self._marks = marks
        self._sources = sources
        self._scans = scans
        self._message_bar = message_bar
        self._panes = panes
        self._follow_ups = FileFollowUps()
        self._typed_ahead = TypedAhead(self)
        self.navigation = FileNavigation(context.actions, self.edit_key, self)
        context.file_ops.op_queued.connect(self._on_file_ops_op_queued)
        context.file_ops.op_finished.connect(self._on_file_ops_op_finished)
        context.file_ops.op_failed.connect(self._on_file_ops_op_failed)
        editor.file_opened.connect(self._on_editor_file_opened)
        editor.file_closed.connect(self._on_editor_file_closed)
        editor.tabs_changed.connect(self._on_editor_tabs_changed)
        editor.link_opened.connect(self._on_editor_link_opened)
        editor.path_opened.connect(self._on_editor_path_opened)
        for changed in (editor.dirty_changed, editor.tabs_changed, editor.saved):
            changed.connect(self._mark_unsaved)

    def workspace_shown(self) -> None:
        """Another workspace is shown: reopen its remembered file once its tree is."""
        self._follow_ups.workspace_shown()

    def after_tree_shown(self) -> None:
        """A tree was merged: reopen the remembered file if due, select what is pending."""
        follow_ups = self._follow_ups
        if follow_ups.reopens(self._host.is_loaded, self._editor.current_ref is None):
            self.reopen_remembered_file()
        self._editor_link.show_open_file()
        self._editor_link.reveal_if_shown()
        if (pending := follow_ups.to_select) is not None:
            key, open_it = pending
            if self._model.reveal(key) is not None:
                follow_ups.selected()
                self._editor_link.select_key(key, open_it)

    def reopen_remembered_file(self) -> None:
        """Open the file that was open last time in this workspace, if it still exists;
        one the tree does not show yet is looked for again until the sources show."""
        ui_state, shown = self._context.ui_state, self._context.shown
        if ui_state is None or self._editor.current_path is not None:
            return
        remembered = ui_state.open_file_for(self._context.home.root, shown.workspace_id)
        if remembered is None:
            return
        ref = remembered_ref(remembered)
        if ref is None:
            return
        key = ref_key(ref)
        if self._model.reveal(key) is not None:
            with self._marks.opening_quietly():  # the user has not looked at it yet
                self._reopen_remembered_tabs()
                self._editor_link.select_key(key, open_it=True)
        else:
            self._follow_ups.not_shown(self._sources.is_shown)

    def _reopen_remembered_tabs(self) -> None:
        """Open behind the current one the other tabs that were open, if still there."""
        ui_state, shown = self._context.ui_state, self._context.shown
        if ui_state is None:
            return
        keys = ui_state.open_tabs_for(self._context.home.root, shown.workspace_id)
        is_open = self._editor.tab_for
        for file in tabs_to_reopen(keys, shown.scan, lambda ref: is_open(ref) is not None):
            self._editor.open(file, keep=True, show=False)

    # -- the open file -----------------------------------------------------------------------

    @Slot()
    def _mark_unsaved(self) -> None:
        """Mark the rows of the files with unsaved changes in a tab (and only those)."""
        tabs = ((tab.ref, tab.is_dirty) for tab in self._editor.tabs)
        self._model.set_marks("unsaved", unsaved_marks(tabs))

    def _show_key(self, key: str) -> bool:
        """Select and open the row of `key` (False: the tree does not show it)."""
        if self._model.reveal(key) is None:
            return False
        self._editor_link.select_key(key, open_it=True)
        return True

    def edit_key(self, key: str) -> bool:
        """Open the row of `key` and put the keyboard in its text — past its frontmatter
        when it was just opened — as Quick open, Back and Forward do (False: the tree does
        not show it, and the keyboard stays)."""
        if not self._show_key(key):
            return False
        self._panes.show_pane(Pane.EDITOR)
        return True

    @Slot(object)
    def _on_editor_file_opened(self, ref: MemoryFileRef) -> None:
        self.navigation.visited(ref_key(ref))
        self._sources.file_opened(ref)
        self._editor_link.clear_line_highlight()
        self._editor_link.show_open_file()
        self._remember_open_file(ref.key)
        if self._follow_ups.edits(ref):  # a new file: the cursor goes to its body
            self._panes.show_pane(Pane.EDITOR, focus=False)  # narrow: the text, not the tree
            self._editor.edit_at_end()
            self._typed_ahead.send_to(self._editor.text_edit)

    @Slot()
    def _on_editor_file_closed(self) -> None:
        # Nothing in the tree stays selected for a file the editor no longer shows.
        self._editor_link.clear_selection()
        self._sources.file_closed()

    @Slot(object)
    def _on_editor_link_opened(self, ref: MemoryFileRef) -> None:
        if not self._show_key(ref_key(ref)):
            self._editor.link_missing(ref)

    @Slot(object)
    def _on_editor_path_opened(self, path: Path) -> None:
        # An `@`-import: a memory file where the tree shows it, else the file on disk.
        scan = self._context.shown.scan
        ref = ref_on_disk(scan, path) if scan is not None else None
        if ref is not None and self._show_key(ref_key(ref)):
            return
        if path.is_file():
            self._editor.open_external(path)
        else:
            self._editor.path_missing(path)

    @Slot()
    def _on_editor_tabs_changed(self) -> None:
        ui_state, shown = self._context.ui_state, self._context.shown
        if ui_state is not None and self._host.is_loaded:
            keys = [ref.key for ref in self._editor.open_refs]
            ui_state.set_open_tabs(self._context.home.root, shown.workspace_id, keys)
        if (current := self._editor.current_ref) is not None:  # opened, its text may follow
            self._remember_open_file(current.key)

    def _remember_open_file(self, path: str) -> None:
        # Only opening is remembered: a file closed or deleted since is skipped on reopen.
        ui_state, shown = self._context.ui_state, self._context.shown
        if ui_state is not None and self._host.is_loaded:
            ui_state.set_open_file(self._context.home.root, shown.workspace_id, path)

    # -- file-operation follow-ups -----------------------------------------------------------

    @Slot(object)
    def _on_file_ops_op_queued(self, follow_up: OpFollowUp) -> None:
        if follow_up.edit_created:  # New file: the user types on, into the file to come
            self._typed_ahead.hold(self._editor.window())

    @Slot(object, object)
    def _on_file_ops_op_finished(self, result: OpResult, follow_up: OpFollowUp) -> None:
        if follow_up.edit_created and result.created is None:
            self._typed_ahead.drop()  # no file was made: nothing to type into
        shown, words = op_shown(result, follow_up.without_copy is not None)
        if shown is OpShown.DONE:
            self._message_bar.clear()
            self._context.status.show(words)
        elif shown is OpShown.ASK_WITHOUT_COPY:
            self._offer_without_copy(words, result, follow_up)
        else:
            self._host.show_error(words)
        for old, _new in result.moved:
            self._marks.moved_away(old)
        self._editor.follow_moves(result.moved)
        self._follow_ups.created(
            result, open_created=follow_up.open_created, edit_created=follow_up.edit_created
        )
        self._scans.request([path for path in result.touched if path])

    def _offer_without_copy(self, refusal: str, result: OpResult, follow_up: OpFollowUp) -> None:
        """History could not keep a copy of what the operation would destroy: ask, and
        make it without one only if the user chooses to (docs/formats.md §14.2)."""
        assert result.unkept is not None and follow_up.without_copy is not None
        if self._host.dialogs.confirm_without_copy(refusal, result.unkept):
            self._context.file_ops.run(follow_up.without_copy, follow_up)
        else:
            self._context.status.show(f"{result.message}: nothing was {result.unkept}")

    @Slot(str)
    def _on_file_ops_op_failed(self, message: str) -> None:
        self._typed_ahead.drop()
        self._host.show_error(message)
