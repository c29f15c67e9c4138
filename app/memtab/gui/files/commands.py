"""The Memory tab's commands: actions with shortcuts, the row context menu, and what each
does — new file or folder, pin, rename or move (also by drag and drop), delete, undo the
last of these, copy the path, open the containing folder, a file's history, what a scope
lost (Recently deleted), delete an orphaned project dir, and Copy to… (a memory into
another agent's scope, `gui.sources.copy`), also for other agents' files; and the
search (Ctrl+Shift+F, next and previous result) and Reload (F5) the tab carries out.

Every change runs as a file operation on the tab's worker, through `components.files.undo`, which
pushes how to take it back on the tab's undo stack (Edit → Undo, Ctrl+Z in the tree); the
rescan it causes shows the result, like any other change on disk. What Memtab is about to
write is noted in `OwnWrites` first, so it gets no "agent edited" badge. A drop into
another scope asks first, unless the user said not to (remembered in the UI state).
"""

from __future__ import annotations

import dataclasses
import functools
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from PySide6.QtCore import QObject, QPoint, Qt, QUrl, Signal, Slot
from PySide6.QtGui import QAction, QDesktopServices, QGuiApplication, QKeySequence
from PySide6.QtWidgets import QMenu, QToolButton, QWidget

from memtab.components.activity.own_writes import OwnWrites
from memtab.components.files import ops as file_ops
from memtab.components.files import undo
from memtab.components.history.history import SCOPE_TITLES
from memtab.components.tree.scan import HomeScan
from memtab.components.tree.text import PIN_NOTE
from memtab.components.tree.tree import NodeKind, TreeNode
from memtab.gui.files.dialogs import NewKind, TabDialogs
from memtab.gui.tasks.file_ops import Operation, OpFollowUp
from memtab.gui.tree.model import MemoryTreeModel
from memtab.gui.tree.view import MemoryTreeView
from memtab.gui.ui_state import UiState
from memtab.store.home import Home
from memtab.store.memory import MemoryStore
from memtab.store.paths import Scope, VirtualPath

ASK_CROSS_SCOPE_DROPS = "ask-before-cross-scope-drops"
"""The UI-state flag: ask before a drop moves files into another scope (default yes)."""

logger = logging.getLogger(__name__)


class ActionEditor(Protocol):
    """What the commands need of the editor (`editor.EditorPanel`)."""

    @property
    def current_path(self) -> VirtualPath | None: ...

    @property
    def current_source_file(self) -> str | None: ...

    @property
    def is_dirty(self) -> bool: ...

    def confirm_discard(self) -> bool: ...

    def close_file(self) -> None: ...


class ActionHost(Protocol):
    """What the commands need of the tab (`tab.MemoryTab`)."""

    @property
    def home(self) -> Home: ...

    @property
    def dialogs(self) -> TabDialogs: ...

    @property
    def ui_state(self) -> UiState | None: ...

    @property
    def scan(self) -> HomeScan | None: ...

    def store(self) -> MemoryStore: ...

    def run_op(self, operation: Operation, follow_up: OpFollowUp | None = None) -> None: ...

    def show_menu(self, menu: QMenu, where: QPoint) -> None: ...

    def show_status(self, text: str) -> None: ...

    def show_error(self, text: str) -> None: ...

    def focus_search(self) -> None: ...

    def is_searching(self) -> bool: ...

    def next_match(self) -> None: ...

    def previous_match(self) -> None: ...

    def rescan_all(self) -> None: ...


class TabActions(QObject):
    """The tab's actions and the commands behind them (see the module docstring).

    Signals:
        history_requested(VirtualPath): show the History panel for this file.
        trash_requested(object): show Recently deleted (of a Scope, or None: all).
    """

    history_requested = Signal(object)
    trash_requested = Signal(object)

    def __init__(
        self,
        widget: QWidget,
        tree: MemoryTreeView,
        model: MemoryTreeModel,
        editor: ActionEditor,
        own_writes: OwnWrites,
        host: ActionHost,
    ) -> None:
        """Actions on `widget` (the tab) and `tree`; commands run through `host`."""
        super().__init__(widget)
        self._widget = widget
        self._tree = tree
        self._editor = editor
        self._own_writes = own_writes
        self._host = host
        self.undo_stack = undo.UndoStack()
        self._build(tree)
        tree.context_menu_requested.connect(self._on_tree_context_menu_requested)
        model.move_requested.connect(self._on_model_move_requested)

    def add_action(
        self,
        text: str,
        slot: Callable[[], None],
        shortcut: str | QKeySequence.StandardKey | None = None,
        *,
        on: QWidget | None = None,
        context: Qt.ShortcutContext = Qt.ShortcutContext.WidgetWithChildrenShortcut,
        tip: str | None = None,
    ) -> QAction:
        """An action on the tab (or `on`) running `slot`, with its shortcut and tip."""
        action = QAction(text, self._widget)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
            action.setShortcutContext(context)
        if tip:
            action.setToolTip(tip)
            action.setStatusTip(tip)
        action.triggered.connect(slot)
        (on or self._widget).addAction(action)
        return action

    def _build(self, tree: MemoryTreeView) -> None:
        tree_only = Qt.ShortcutContext.WidgetShortcut
        self.new_file_action = self.add_action("New memory file…", self.new_file, "Ctrl+N")
        self.new_folder_action = self.add_action("New folder…", self.new_folder, "Ctrl+Shift+N")
        self.pin_action = self.add_action(
            "Pin", self.toggle_pin, "Ctrl+D", on=tree, context=tree_only, tip=PIN_NOTE
        )
        self.rename_action = self.add_action(
            "Rename or move…", self.rename_selected, "F2", on=tree, context=tree_only
        )
        self.delete_action = self.add_action(
            "Delete…",
            self.delete_selected,
            QKeySequence.StandardKey.Delete,
            on=tree,
            context=tree_only,
        )
        self.copy_path_action = self.add_action(
            "Copy path", self.copy_selected_path, "Ctrl+Shift+C", on=tree, context=tree_only
        )
        self.reveal_action = self.add_action("Open containing folder", self.reveal_selected)
        self.undo_action = self.add_action(
            "Undo", self.undo_last, QKeySequence.StandardKey.Undo, on=tree, context=tree_only
        )
        self.history_action = self.add_action("History", self.show_selected_history)
        self.trash_action = self.add_action("Recently deleted…", self.show_selected_trash)
        self.delete_orphan_action = self.add_action(
            "Delete orphaned project memory…", self.delete_selected_orphan
        )
        self.copy_to_action = self.add_action(
            "Copy to…",
            self.copy_selected_to,
            on=tree,
            context=tree_only,
            tip="Copy this memory into another agent's memory (or another mux scope)",
        )
        host = self._host
        self.find_action = self.add_action("Search memories", host.focus_search, "Ctrl+Shift+F")
        # F3 in the tree; in the editor its own F3 (find next in the file) wins.
        self.next_match_action = self.add_action(
            "Next search result", host.next_match, QKeySequence.StandardKey.FindNext
        )
        self.previous_match_action = self.add_action(
            "Previous search result", host.previous_match, QKeySequence.StandardKey.FindPrevious
        )
        self.reload_action = self.add_action("Reload from disk", host.rescan_all, "F5")

    def set_pin_note(self, note: str) -> None:
        """What the pin action's tooltip says about mux (it depends on mux running)."""
        self.pin_action.setToolTip(note)
        self.pin_action.setStatusTip(note)

    def fill_new_menu(self, button: QToolButton) -> None:
        """Give the "New" button its menu (new file, new folder)."""
        menu = QMenu(button)
        menu.addAction(self.new_file_action)
        menu.addAction(self.new_folder_action)
        button.setMenu(menu)

    def context_menu(self, node: TreeNode) -> QMenu:
        """The actions offered for a row (also what tests inspect)."""
        menu = QMenu(self._widget)
        menu.setToolTipsVisible(True)  # the pin action's note about mux
        if node.source_id is not None:  # another agent's
            if node.kind is NodeKind.FILE:
                menu.addAction(self.copy_to_action)
            if node.physical:
                menu.addAction(self.reveal_action)
            return menu
        if node.read_only:
            if node.kind is NodeKind.ORPHAN_DIR:
                menu.addAction(self.delete_orphan_action)
            if node.physical:
                menu.addAction(self.reveal_action)
            return menu
        if node.kind is NodeKind.FILE:
            self.pin_action.setText("Unpin" if node.pinned else "Pin")
            menu.addAction(self.pin_action)
            menu.addAction(self.history_action)
            menu.addAction(self.copy_to_action)
        if node.kind in (NodeKind.SECTION, NodeKind.DIRECTORY) and node.accepts_drops:
            menu.addAction(self.new_file_action)
            menu.addAction(self.new_folder_action)
        if node.kind is NodeKind.SECTION and node.path is not None:
            menu.addAction(self.trash_action)
        if node.kind in (NodeKind.FILE, NodeKind.DIRECTORY):
            menu.addSeparator()
            menu.addAction(self.rename_action)
            menu.addAction(self.copy_path_action)
            menu.addAction(self.reveal_action)
            menu.addSeparator()
            menu.addAction(self.delete_action)
        return menu

    # --- the commands ---------------------------------------------------------------------

    def new_file(self) -> None:
        """Ask for a name (and description) and create a memory file; open it."""
        self._new_item(NewKind.FILE)

    def new_folder(self) -> None:
        """Ask for a name and create a folder."""
        self._new_item(NewKind.FOLDER)

    def toggle_pin(self) -> None:
        """Pin the selected file, or unpin it if pinned (Ctrl+D)."""
        node = self._tree.current_node()
        if node is None or node.kind is not NodeKind.FILE or node.read_only or node.path is None:
            return
        self._host.run_op(
            functools.partial(
                undo.set_pinned, self.undo_stack, self._host.store(), node.path, not node.pinned
            )
        )

    def rename_selected(self) -> None:
        """Rename or move the current file or folder through a dialog (F2)."""
        node = self._tree.current_node()
        if node is None or node.kind not in (NodeKind.FILE, NodeKind.DIRECTORY):
            return
        if node.read_only or node.path is None:
            return
        target = self._host.dialogs.ask_move_target(self._host.store(), node.path)
        if target is not None:
            self.move_paths([(node.path, target)])

    def move_paths(self, moves: list[tuple[VirtualPath, VirtualPath]]) -> None:
        """Move files/folders (across scopes too); an open file follows if it is clean."""
        open_path = self._editor.current_path
        reopen: dict[VirtualPath, VirtualPath] = {}
        for old, new in moves:
            if open_path is not None and open_path.is_within(old):
                if not self._editor.confirm_discard():
                    return
                reopen[open_path] = VirtualPath(
                    new.scope, new.segments + open_path.segments[len(old.segments) :]
                )
            self._own_writes.note(new)
        self._host.run_op(
            functools.partial(undo.move, self.undo_stack, self._host.store(), moves),
            OpFollowUp(reopen=reopen),
        )

    def delete_selected(self) -> None:
        """Delete the selected files/folders after confirmation (Del)."""
        nodes = self._selected_scope_nodes()
        if not nodes:
            return
        # A folder's contents go with it: don't list them twice.
        paths = [node.path for node in nodes if node.path is not None]
        roots = [p for p in paths if not any(p != q and p.is_within(q) for q in paths)]
        scan = self._host.scan
        if scan is None:
            return
        # Counted from the scan, not the rows: a search filter hides files a folder holds.
        rows = self._tree.memory_model().nodes()
        shown = (
            {row.path for row in rows if row.kind is NodeKind.FILE and row.path is not None}
            if self._host.is_searching()
            else None
        )
        count = file_ops.count_deletion(scan, roots, shown)
        only_files = all(node.kind is NodeKind.FILE for node in nodes if node.path in roots)
        open_path = self._editor.current_path
        affects_open = open_path is not None and any(open_path.is_within(p) for p in roots)
        loses_draft = affects_open and self._editor.is_dirty
        names = [p.name for p in roots]
        if not self._host.dialogs.confirm_delete(names, count, only_files, loses_draft):
            return
        if affects_open:
            self._editor.close_file()
        delete = functools.partial(undo.delete, self.undo_stack, self._host.store(), roots)
        self._host.run_op(
            delete, OpFollowUp(without_copy=functools.partial(delete, allow_unkept=True))
        )

    def delete_selected_orphan(self) -> None:
        """Delete the selected orphaned project dir after confirmation."""
        node = self._tree.current_node()
        if node is None or node.kind is not NodeKind.ORPHAN_DIR or node.orphan_dir is None:
            return
        if not self._host.dialogs.confirm_delete_orphan(node.orphan_dir, node.file_count):
            return
        self._host.run_op(
            functools.partial(undo.delete_orphan, self.undo_stack, self._host.home, node.orphan_dir)
        )

    def copy_selected_to(self) -> None:
        """Copy the current memory file into another agent's scope (or another mux one)."""
        from memtab.gui.sources.copy import copy_node

        copy_node(self._host, self._tree.current_node(), self._own_writes, self.undo_stack)

    def copy_selected_path(self) -> None:
        """Copy the virtual paths of the selection (Ctrl+Shift+C)."""
        paths = [str(node.path) for node in self._selected_scope_nodes() if node.path is not None]
        if paths:
            QGuiApplication.clipboard().setText("\n".join(paths))
            self._host.show_status(
                f"Copied {paths[0]}" if len(paths) == 1 else f"Copied {len(paths)} paths"
            )

    def reveal_selected(self) -> None:
        """Open the folder holding the current item in the system file manager."""
        node = self._tree.current_node()
        if node is None or not node.physical:
            return
        folder = (
            node.physical if node.kind is not NodeKind.FILE else str(Path(node.physical).parent)
        )
        if not self.open_url(QUrl.fromLocalFile(folder)):
            QGuiApplication.clipboard().setText(folder)
            self._host.show_error(
                f"No file manager could open {folder} (none is set up for folders here); "
                "its path is on the clipboard."
            )

    # --- undo, history, trash -------------------------------------------------------------

    @property
    def undo_description(self) -> str | None:
        """What Edit → Undo would take back (`delete of notes.md`), or None."""
        step = self.undo_stack.peek()
        return step.description if step is not None else None

    def undo_last(self) -> None:
        """Take the last file operation back (Edit → Undo; Ctrl+Z in the tree)."""
        step = self.undo_stack.peek()
        if step is None:
            self._host.show_status("Nothing to undo")
            return
        open_path = self._editor.current_path
        affects_open = (
            open_path is not None and any(open_path.is_within(path) for path in step.affected)
        ) or self._editor.current_source_file in step.removed_source_files
        if affects_open and not self._editor.confirm_discard():
            return
        if not self.undo_stack.take(step):  # a worker may have pushed a newer one meanwhile
            return
        follow_up = OpFollowUp(open_created=True)
        if affects_open:
            moved_to = step.relocated(open_path) if open_path is not None else None
            self._editor.close_file()
            if open_path is not None and moved_to is not None:
                follow_up = OpFollowUp(open_created=True, reopen={open_path: moved_to})
        for path in step.written:
            self._own_writes.note(path)
        take_back = functools.partial(undo.undo_step, self._host.home, step)
        without_copy = functools.partial(take_back, allow_unkept=True)
        self._host.run_op(take_back, dataclasses.replace(follow_up, without_copy=without_copy))

    def show_selected_history(self) -> None:
        """Open the selected file and show its History panel."""
        node = self._tree.current_node()
        if node is not None and node.kind is NodeKind.FILE and node.path is not None:
            self.history_requested.emit(node.path)

    def show_selected_trash(self) -> None:
        """Show what the selected scope lost (Recently deleted)."""
        node = self._tree.current_node()
        scope = node.path.scope if node is not None and node.path is not None else None
        self.trash_requested.emit(scope)

    def open_url(self, url: QUrl) -> bool:
        """Hand a URL to the desktop (a seam for tests); False when nothing opened it."""
        return QDesktopServices.openUrl(url)

    # --- helpers --------------------------------------------------------------------------

    def _new_item(self, kind: NewKind) -> None:
        store = self._host.store()
        answer = self._host.dialogs.ask_new_item(store, self._target_location(store), kind)
        if answer is None:
            return
        path, description = answer
        if kind is NewKind.FILE:
            content = file_ops.initial_content(description)
            self._own_writes.note(path, file_ops.new_file_sha(content))
            self._host.run_op(
                functools.partial(undo.create_file, self.undo_stack, store, path, content),
                OpFollowUp(open_created=True),
            )
        else:
            self._own_writes.note(path)
            self._host.run_op(
                functools.partial(undo.create_directory, self.undo_stack, store, path)
            )

    def _selected_scope_nodes(self) -> list[TreeNode]:
        """Selected files and directories inside scopes (not orphans, sections, messages)."""
        return [
            node
            for node in self._tree.selected_nodes()
            if node.kind in (NodeKind.FILE, NodeKind.DIRECTORY)
            and not node.read_only
            and node.path is not None
        ]

    def _target_location(self, store: MemoryStore) -> VirtualPath:
        """Where "New" creates things: the selected folder or section, a file's folder,
        else the workspace scope (or global when there is no workspace)."""
        node = self._tree.current_node()
        while node is not None and not (node.accepts_drops and node.path is not None):
            node = node.parent
        if node is not None and node.path is not None:
            return node.path
        for scope in (Scope.WORKSPACE, Scope.PROJECT, Scope.GLOBAL):
            if store.unavailable_reason(scope) is None:
                return VirtualPath(scope)
        return VirtualPath(Scope.GLOBAL)

    # --- slots ----------------------------------------------------------------------------

    @Slot(QPoint)
    def _on_tree_context_menu_requested(self, position: QPoint) -> None:
        node = self._tree.node_at(self._tree.indexAt(position))
        if node is None:
            return
        menu = self.context_menu(node)
        if menu.actions():
            self._host.show_menu(menu, self._tree.viewport().mapToGlobal(position))

    def _confirm_cross_scope(self, sources: list[VirtualPath], target_dir: VirtualPath) -> bool:
        """Whether a drop may move `sources` into `target_dir` (asks when a source is in
        another scope, unless the user said not to ask again)."""
        if all(source.scope == target_dir.scope for source in sources):
            return True
        state = self._host.ui_state
        if state is not None and not state.flag(ASK_CROSS_SCOPE_DROPS, default=True):
            return True
        assert target_dir.scope is not None
        where = f"{SCOPE_TITLES[target_dir.scope].lower()} memory ({target_dir})"
        moved, dont_ask = self._host.dialogs.confirm_cross_scope_move(
            [source.name for source in sources], where
        )
        if dont_ask and state is not None:
            state.set_flag(ASK_CROSS_SCOPE_DROPS, False)
            state.save()
        return moved

    @Slot(object, object)
    def _on_model_move_requested(self, sources: list[VirtualPath], target_dir: VirtualPath) -> None:
        moves = []
        for source in sources:
            try:
                moves.append((source, target_dir.child(source.name)))
            except ValueError as error:
                self._host.show_error(str(error))
                return
        if self._confirm_cross_scope(sources, target_dir):
            self.move_paths(moves)
