"""The tree's file actions (ids `tree.*`) and the row's context menu: new, pin, rename or
move, delete, copy path, history, Copy to…; each runs as a file operation Edit → Undo takes
back. The rules are `components/files/rules.py`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection, Iterable
from typing import Protocol

from PySide6.QtCore import QModelIndex, QObject, QPoint, QUrl, Signal, SignalInstance, Slot
from PySide6.QtGui import QAction, QDesktopServices, QGuiApplication, QKeySequence
from PySide6.QtWidgets import QDialog, QLabel, QMenu, QPlainTextEdit, QToolButton, QWidget

from memtab.components.consolidation.consolidation import CONSOLIDATE_SCOPE
from memtab.components.files import ops as file_ops
from memtab.components.files import rules, undo
from memtab.components.files.ops import OpResult
from memtab.components.files.questions import NewKind
from memtab.components.files.rules import RowAction
from memtab.components.files.steps import UndoStep
from memtab.components.loads.loads import GO_TO_CUT
from memtab.components.tree.nodes import NodeKind, TreeNode, file_key, ref_key
from memtab.components.tree.text import PIN_NOTE
from memtab.file_protocol.file_ref import MemoryFileRef, SourceError
from memtab.gui.actions import ActionRegistry, Focus
from memtab.gui.context import WindowContext
from memtab.gui.files.dialogs import TabDialogs, copy_node
from memtab.gui.tasks.file_ops import OpFollowUp
from memtab.gui.toolkit.dialog_layout import give_menu_letters, lay_out_prose_dialog
from memtab.gui.toolkit.style import mute
from memtab.gui.toolkit.text.text_fields import field_can, focused_text_field
from memtab.gui.toolkit.widgets import named
from memtab.sources.copy import add_codex_note, codex_memories
from memtab.sources.layouts import CODEX_NOTES_DIR
from memtab.sources.model import Source
from memtab.store.home import Home
from memtab.store.paths import VirtualPath
from memtab.store.scopes.memory import MemoryStore


class TabsToClose(Protocol):
    """What undo and redo need of the editor (`editor.EditorPanel`): its open files."""

    @property
    def open_refs(self) -> list[MemoryFileRef]: ...
    def close_files_asking(
        self, refs: Collection[MemoryFileRef], then: Callable[[], object]
    ) -> None: ...


class UndoRedoActions(QObject):
    """Edit → Undo and Edit → Redo (see the module docstring)."""

    def __init__(
        self,
        context: WindowContext,
        actions: ActionRegistry,
        tree: QWidget,
        editor: TabsToClose,
    ) -> None:
        """Register the actions; their keys work while `tree` has the focus (in a text
        field the field's own keys do the same)."""
        super().__init__(tree)
        self._context = context
        self._editor = editor
        self.undo_stack = context.undo_stack
        self._waiting: bool | None = None
        """A turn asked for while file operations ran (True: a redo), made once they end."""
        self.undo_action = actions.add(
            "files.undo",
            "&Undo",
            self.undo_last,
            keys=["Ctrl+Z", QKeySequence.StandardKey.Undo],
            focus=Focus.WIDGET,
            on=tree,
            menu="edit",
            tip=rules.UNDO_UNAVAILABLE,
            enabled_when=lambda: self._can_turn(redo=False),
            text_when=lambda: self._turn_text(redo=False),
        )
        self.redo_action = actions.add(
            "files.redo",
            "&Redo",
            self.redo_last,
            keys=["Ctrl+Shift+Z", "Ctrl+Y", QKeySequence.StandardKey.Redo],
            focus=Focus.WIDGET,
            on=tree,
            menu="edit",
            tip=rules.REDO_UNAVAILABLE,
            enabled_when=lambda: self._can_turn(redo=True),
            text_when=lambda: self._turn_text(redo=True),
        )

    def undo_last(self) -> None:
        """Take the last file operation back (Edit → Undo; Ctrl+Z in the tree) — in a
        text field with the focus, its last edit."""
        self._turn(redo=False)

    def redo_last(self) -> None:
        """Make again the last file operation taken back (Edit → Redo; Ctrl+Shift+Z or
        Ctrl+Y in the tree) — in a text field with the focus, its last undone edit."""
        self._turn(redo=True)

    def _can_turn(self, *, redo: bool) -> bool:
        field = focused_text_field()
        if field is not None:
            return field_can(field, redo=redo)
        stack = self.undo_stack
        step = stack.peek_redo() if redo else stack.peek()
        return step is not None or self._context.file_ops.busy

    def _turn_text(self, *, redo: bool) -> str:
        """ "Undo delete of notes.md", "Redo typing"… (the menus' text; the name stays)."""
        step = self.undo_stack.peek_redo() if redo else self.undo_stack.peek()
        text, tip = rules.turn_words(
            step.description if step is not None else None,
            redo=redo,
            typing=focused_text_field() is not None,
            busy=self._context.file_ops.busy,
        )
        action = self.redo_action if redo else self.undo_action
        action.setToolTip(tip)
        action.setStatusTip(tip)  # the menu's hover line: never "Nothing to undo" beside a step
        return text

    def _turn(self, *, redo: bool) -> None:
        field = focused_text_field()
        if field is not None:
            if redo:
                field.redo()
            else:
                field.undo()
            return
        self._turn_files(redo=redo)

    def _turn_files(self, *, redo: bool) -> None:
        file_ops = self._context.file_ops
        if file_ops.busy:
            if self._waiting is None:
                file_ops.ended.connect(self._ops_ended)
            self._waiting = redo  # pressed again while waiting: still one turn, the last asked
            verb = "Redo" if redo else "Undo"
            self._context.status.show(f"{verb} once the file operation in progress has ended…")
            return
        stack = self.undo_stack
        step = stack.peek_redo() if redo else stack.peek()
        if step is None:
            self._context.status.show("Nothing to redo" if redo else "Nothing to undo")
            return
        # The tabs of files it takes away close (asking about their drafts first); the
        # others follow what it writes: moved back (`follow_moves`), or changed on disk.
        going = [ref for ref in self._editor.open_refs if step.relocated(ref) is None]
        self._editor.close_files_asking(going, functools.partial(self._apply, step, redo=redo))

    def _ops_ended(self, *_result: object) -> None:
        file_ops = self._context.file_ops
        if file_ops.busy or self._waiting is None:
            return
        redo, self._waiting = self._waiting, None
        file_ops.ended.disconnect(self._ops_ended)
        self._turn_files(redo=redo)  # a file's turn, wherever the focus went meanwhile

    def _apply(self, step: UndoStep, *, redo: bool) -> None:
        stack = self.undo_stack
        taken = stack.take_redo(step) if redo else stack.take(step)
        if not taken:  # a worker may have pushed a newer one meanwhile
            return
        for ref in step.written:
            self._context.own_writes.note(ref.key)
        turn = undo.redo_step if redo else undo.undo_step
        apply = functools.partial(turn, self._context.home, step, stack=stack)
        without_copy = functools.partial(apply, allow_unkept=True)
        self._context.file_ops.run(apply, OpFollowUp(open_created=True, without_copy=without_copy))


ACTION_ID = "files.codex_note"


def add_note(home: Home, source: Source, text: str) -> OpResult:
    """The operation (on the worker): write the note, or say why not."""
    try:
        file = add_codex_note(home, source, text)
    except (SourceError, OSError) as error:
        return OpResult.failed("Adding a note to Codex memory failed", error)
    return OpResult(
        f"Added a note to Codex memory: {file.relative}",
        created=file.ref,
        touched=(str(file.physical),),
    )


class CodexNoteDialog(QDialog):
    """Asks for the note's text."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Add a note to Codex memory — Memtab")
        about = QLabel(
            "Codex takes what you want it to remember from notes in "
            f"{CODEX_NOTES_DIR}/, at its next memory consolidation, and marks what it took "
            "[ad-hoc note].",
            self,
        )
        mute(about, wrap=True)
        self.text_edit = named(QPlainTextEdit(self), accessible="Note for Codex")
        self.text_edit.setPlaceholderText("What Codex should remember…")
        lay_out_prose_dialog(self, about, self.text_edit, "&Add note", height=220)

    @property
    def text(self) -> str:
        return self.text_edit.toPlainText()


class CodexNoteAction(QObject):
    """Registers and carries out File → Add a note to Codex memory…"""

    def __init__(self, context: WindowContext, parent: QWidget) -> None:
        super().__init__(parent)
        self._context = context
        self._parent = parent
        self.action = context.actions.add(
            ACTION_ID,
            "Add a note to Codex memory…",
            self.add_note,
            menu="file",
            tip=f"Write a note in Codex's {CODEX_NOTES_DIR}/: its next consolidation reads it",
            enabled_when=lambda: self.codex_source() is not None,
        )

    def codex_source(self) -> Source | None:
        """Codex's `memories/` folder, as the shown scan found it."""
        scan = self._context.shown.scan
        sources = scan.sources if scan is not None else None
        return codex_memories(sources.discovery) if sources is not None else None

    def add_note(self) -> None:
        """Ask for the text, then write the note off the GUI thread and open it."""
        source = self.codex_source()
        if source is None:
            self._context.status.show("Codex's memories folder was not found")
            return
        text = self.ask_text()
        if text is None or not text.strip():
            return
        operation = functools.partial(add_note, self._context.home, source, text)
        self._context.file_ops.run(operation, OpFollowUp(open_created=True))

    def ask_text(self) -> str | None:
        """The note's text, or None when the user cancels (a seam for tests)."""
        dialog = CodexNoteDialog(self._parent)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        return dialog.text


ASK_CROSS_SCOPE_DROPS = "ask-before-cross-scope-drops"
"""The UI-state flag: ask before a drop moves files into another scope (default yes)."""


class ActionTree(Protocol):
    """What the actions need of the tree (`MemoryTreeView`): its rows, where a context menu
    was asked for, and the widget their keys work on while it has the focus."""

    @property
    def context_menu_requested(self) -> SignalInstance: ...
    def as_widget(self) -> QWidget: ...
    def hasFocus(self) -> bool: ...
    def current_node(self) -> TreeNode | None: ...
    def selected_nodes(self) -> list[TreeNode]: ...
    def node_at(self, index: QModelIndex) -> TreeNode | None: ...
    def indexAt(self, point: QPoint) -> QModelIndex: ...
    def viewport(self) -> QWidget: ...
    def select_key(self, key: str) -> bool: ...


class ActionRows(Protocol):
    """What the actions need of the tree's model (`MemoryTreeModel`): its rows, and the
    moves dropped on them."""

    @property
    def move_requested(self) -> SignalInstance: ...
    def node_for_key(self, key: str) -> TreeNode | None: ...
    def nodes(self) -> Iterable[TreeNode]: ...


class ActionEditor(Protocol):
    """What the actions need of the editor (`editor.EditorPanel`)."""

    @property
    def current_path(self) -> VirtualPath | None: ...
    @property
    def current_ref(self) -> MemoryFileRef | None: ...
    @property
    def open_refs(self) -> list[MemoryFileRef]: ...
    def close_files_asking(
        self, refs: Collection[MemoryFileRef], then: Callable[[], object]
    ) -> None: ...
    def unsaved_within(self, paths: Collection[VirtualPath]) -> bool: ...
    def close_tabs_within(self, paths: Collection[VirtualPath]) -> None: ...


class TabForFileActions(Protocol):
    """What the actions ask of the tab that shows the tree (`tab.MemoryTab`)."""

    @property
    def dialogs(self) -> TabDialogs: ...
    def is_searching(self) -> bool: ...
    def show_menu(self, menu: QMenu, where: QPoint) -> None: ...
    def show_error(self, text: str) -> None: ...
    def rescan_all(self) -> None: ...


class FileActions(QObject):
    """The tree's file actions (see the module docstring)."""

    history_requested = Signal(object)  # (VirtualPath) show the History panel for this file
    trash_requested = Signal(object)  # show Recently deleted (of a Scope, or None: all)

    def __init__(
        self,
        context: WindowContext,
        widget: QWidget,
        tree: ActionTree,
        model: ActionRows,
        editor: ActionEditor,
        host: TabForFileActions,
    ) -> None:
        """Register the actions on `widget` (the tab) and `tree`; actions run through
        the context's file-operation worker and ask through `host`."""
        super().__init__(widget)
        self._context = context
        self._widget = widget
        self._tree = tree
        self._model = model
        self._editor = editor
        self._own_writes = context.own_writes
        self._host = host
        self.undo_stack = context.undo_stack
        keys_on = tree.as_widget()
        self._register(context.actions, widget, keys_on)
        self.turns = UndoRedoActions(context, context.actions, keys_on, editor)  # Edit → Undo…
        self.codex_note = CodexNoteAction(context, widget)  # File → Add a note to Codex…
        tree.context_menu_requested.connect(self._on_tree_context_menu_requested)
        model.move_requested.connect(self._on_model_move_requested)

    def _shown_store(self) -> MemoryStore:
        """The store of the shown workspace's scopes: what the actions change."""
        return MemoryStore.of(self._context.shown.view())

    def _register(self, actions: ActionRegistry, tab: QWidget, tree: QWidget) -> None:
        # within the tab, or only while the tree has the focus
        in_tab = functools.partial(actions.add, focus=Focus.WITHIN, on=tab)
        tree_only = functools.partial(actions.add, focus=Focus.WIDGET, on=tree)
        editable_row = self._applies_to_current(rules.is_editable)
        in_tab("tree.reload", "Reload from disk", self._host.rescan_all, keys=["F5"])
        self.new_file_action = in_tab(
            "tree.new_file", "New memory file…", self.new_file, keys=["Ctrl+N"], menu="file"
        )
        self.new_folder_action = in_tab(
            "tree.new_folder", "New folder…", self.new_folder, keys=["Ctrl+Shift+N"], menu="file"
        )
        self.pin_action = in_tab(
            "tree.pin",
            "Pin",
            self.toggle_pin,
            keys=["Ctrl+D"],  # in the text too: the open file (SourceEdit leaves it to us)
            menu="edit",
            tip=PIN_NOTE,
            enabled_when=lambda: rules.is_pinnable(self._pin_node()),
            text_when=lambda: rules.pin_text(self._pin_node()),
        )
        self.rename_action = tree_only(
            "tree.rename",
            "Rename or move…",
            self.rename_selected,
            keys=["F2"],
            menu="edit",
            enabled_when=editable_row,
        )
        self.delete_action = tree_only(
            "tree.delete",
            "Delete…",
            self.delete_selected,
            keys=["Del"],  # not StandardKey.Delete: on X11 it is Ctrl+D too, which pins
            menu="edit",
            enabled_when=editable_row,
        )
        self.copy_to_action = tree_only(
            "tree.copy_to",
            "Copy to…",
            self.copy_selected_to,
            menu="edit",
            tip="Copy this memory into another agent's memory (or another mux scope)",
            enabled_when=self._applies_to_current(rules.is_copyable),
        )
        self.copy_path_action = tree_only(
            "tree.copy_path",
            "Copy path",
            self.copy_selected_path,
            keys=["Ctrl+Shift+C"],
            enabled_when=editable_row,
        )
        self.reveal_action = in_tab(
            "tree.reveal",
            "Open containing folder",
            self.reveal_selected,
            enabled_when=self._applies_to_current(self._on_disk),
        )
        self.history_action = in_tab("tree.history", "History", self.show_selected_history)
        self.trash_action = in_tab(
            "tree.trash",
            "Recently deleted in this scope…",
            self.show_selected_trash,
            text_when=lambda: rules.scope_trash_text(self._tree.current_node()),
            enabled_when=self._applies_to_current(rules.has_scope),
        )
        self.open_linked_action = tree_only(
            "tree.open_linked",
            "Open the original in Claude Code's memory",
            self.open_linked,
            tip="Codex's import of a Claude Code memory file, and its original: open the other",
            enabled_when=self._applies_to_current(
                lambda node: node is not None and node.linked is not None
            ),
            text_when=lambda: rules.linked_text(self._tree.current_node()),
        )
        self.delete_orphan_action = in_tab(
            "tree.delete_orphan", "Delete orphaned project memory…", self.delete_selected_orphan
        )

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
        actions = self._row_actions()
        for action in rules.row_actions(node):
            if action is RowAction.SEPARATOR:
                menu.addSeparator()
            elif action in actions:  # another feature's, when the window has it
                menu.addAction(actions[action])
        if node.kind is NodeKind.FILE and not node.read_only:
            self.pin_action.setText(rules.pin_text(node))
        if node.linked is not None:
            self.open_linked_action.setText(rules.linked_text(node))
        if rules.has_scope(node):  # the row's scope, whichever row is current
            self.trash_action.setText(rules.scope_trash_text(node))
            self.trash_action.setEnabled(True)
        if RowAction.CONSOLIDATE in actions and rules.consolidated_scope(node) is not None:
            actions[RowAction.CONSOLIDATE].setText(rules.consolidate_text(node))
        give_menu_letters(menu)  # its actions' letters may be the menu bar's
        return menu

    def _row_actions(self) -> dict[RowAction, QAction]:
        registry = self._context.actions  # other features' actions a row offers, if here:
        others = {RowAction.GO_TO_CUT: GO_TO_CUT, RowAction.CONSOLIDATE: CONSOLIDATE_SCOPE}
        return {
            RowAction.PIN: self.pin_action,
            RowAction.HISTORY: self.history_action,
            RowAction.COPY_TO: self.copy_to_action,
            RowAction.NEW_FILE: self.new_file_action,
            RowAction.NEW_FOLDER: self.new_folder_action,
            RowAction.TRASH: self.trash_action,
            RowAction.RENAME: self.rename_action,
            RowAction.COPY_PATH: self.copy_path_action,
            RowAction.REVEAL: self.reveal_action,
            RowAction.DELETE: self.delete_action,
            RowAction.DELETE_ORPHAN: self.delete_orphan_action,
            RowAction.OPEN_LINKED: self.open_linked_action,
        } | {row: registry.action(key) for row, key in others.items() if key in registry}

    def _applies_to_current(self, rule: Callable[[TreeNode | None], bool]) -> Callable[[], bool]:
        return lambda: rule(self._tree.current_node())

    def _pin_node(self) -> TreeNode | None:
        path = self._editor.current_path
        open_file = self._model.node_for_key(file_key(path)) if path is not None else None
        return rules.pin_target(
            self._tree.current_node(), open_file, tree_has_keyboard=self._tree.hasFocus()
        )

    @staticmethod
    def _on_disk(node: TreeNode | None) -> bool:
        return rules.containing_folder(node) is not None

    def new_file(self) -> None:
        """Ask for a name (and description) and create a memory file; open it."""
        self._new_item(NewKind.FILE)

    def new_folder(self) -> None:
        self._new_item(NewKind.FOLDER)

    def toggle_pin(self) -> None:
        """Pin the selected file (the open one, from the text), or unpin it (Ctrl+D)."""
        node = self._pin_node()
        if not rules.is_pinnable(node) or node is None or node.path is None:
            return
        self._context.file_ops.run(
            functools.partial(
                undo.set_pinned,
                self.undo_stack,
                self._shown_store(),
                node.path,
                not node.pinned,
            )
        )

    def rename_selected(self) -> None:
        """Rename or move the current file or folder through a dialog (F2)."""
        node = self._tree.current_node()
        if not rules.is_editable(node) or node is None or node.path is None:
            return
        target = self._host.dialogs.ask_move_target(self._shown_store(), node.path)
        if target is not None:
            self.move_paths([(node.path, target)])

    def move_paths(self, moves: list[tuple[VirtualPath, VirtualPath]]) -> None:
        """Move files/folders (across scopes too); open tabs follow, drafts and all."""
        for _old, new in moves:
            self._own_writes.note(new)
        self._context.file_ops.run(
            functools.partial(undo.move, self.undo_stack, self._shown_store(), moves)
        )

    def delete_selected(self) -> None:
        """Delete the selected files/folders after confirmation (Del)."""
        nodes = self._tree.selected_nodes()
        roots = rules.deletion_roots(nodes)
        scan = self._context.shown.scan
        if not roots or scan is None:
            return
        # Counted from the scan, not the rows: a search filter hides files a folder holds.
        shown = rules.shown_files(self._model.nodes(), searching=self._host.is_searching())
        count = file_ops.count_deletion(scan, roots, shown)
        only_files = rules.deletes_only_files(nodes, roots)
        loses_draft = self._editor.unsaved_within(roots)
        names = [p.name for p in roots]
        if not self._host.dialogs.confirm_delete(names, count, only_files, loses_draft):
            return
        self._editor.close_tabs_within(roots)
        delete = functools.partial(undo.delete, self.undo_stack, self._shown_store(), roots)
        self._context.file_ops.run(
            delete, OpFollowUp(without_copy=functools.partial(delete, allow_unkept=True))
        )

    def delete_selected_orphan(self) -> None:
        """Delete the selected orphaned project dir after confirmation."""
        node = self._tree.current_node()
        if node is None or node.kind is not NodeKind.ORPHAN_DIR or node.orphan_dir is None:
            return
        if not self._host.dialogs.confirm_delete_orphan(node.orphan_dir, node.file_count):
            return
        self._context.file_ops.run(
            functools.partial(
                undo.delete_orphan, self.undo_stack, self._context.home, node.orphan_dir
            )
        )

    def copy_selected_to(self) -> None:
        """Copy the current memory file into another agent's scope (or another mux one)."""
        copy_node(self._context, self._host.dialogs, self._tree.current_node())

    def copy_selected_path(self) -> None:
        """Copy the virtual paths of the selection (Ctrl+Shift+C)."""
        nodes = rules.scope_nodes(self._tree.selected_nodes())
        paths = [str(node.path) for node in nodes if node.path is not None]
        if paths:
            QGuiApplication.clipboard().setText("\n".join(paths))
            self._context.status.show(rules.copied_paths_note(paths))

    def reveal_selected(self) -> None:
        """Open the folder holding the current item in the system file manager."""
        folder = rules.containing_folder(self._tree.current_node())
        if folder is None:
            return
        if not self.open_url(QUrl.fromLocalFile(folder)):
            QGuiApplication.clipboard().setText(folder)
            self._host.show_error(rules.no_file_manager_text(folder))

    def open_linked(self) -> None:
        """Open the file the current row is linked to (Codex's import and its original)."""
        node = self._tree.current_node()
        if node is None or node.linked is None:
            return
        if not self._tree.select_key(ref_key(node.linked)):
            self._host.show_error(f"{node.linked.key} is not in the tree (is its source shown?)")

    def show_selected_history(self) -> None:
        """Open the selected file and show its History panel."""
        node = self._tree.current_node()
        if node is not None and node.kind is NodeKind.FILE and node.path is not None:
            self.history_requested.emit(node.path)

    def show_selected_trash(self) -> None:
        """Show what the selected row's scope lost (Recently deleted, its scope chosen);
        a row of no scope of mux's, everything."""
        node = self._tree.current_node()
        scope = node.path.scope if node is not None and node.path is not None else None
        self.trash_requested.emit(scope)

    def open_url(self, url: QUrl) -> bool:
        """Hand a URL to the desktop (a seam for tests); False when nothing opened it."""
        return QDesktopServices.openUrl(url)

    def _new_item(self, kind: NewKind) -> None:
        store = self._shown_store()
        where = rules.new_item_location(self._tree.current_node(), store.unavailable_reason)
        answer = self._host.dialogs.ask_new_item(store, where, kind)
        if answer is None:
            return
        path, description = answer
        if kind is NewKind.FILE:
            content = file_ops.initial_content(description)
            self._own_writes.note(path, file_ops.new_file_sha(content))
            self._context.file_ops.run(
                functools.partial(undo.create_file, self.undo_stack, store, path, content),
                OpFollowUp(open_created=True, edit_created=True),
            )
        else:
            self._own_writes.note(path)
            self._context.file_ops.run(
                functools.partial(undo.create_directory, self.undo_stack, store, path)
            )

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
        state = self._context.ui_state
        ask = state is None or state.flag(ASK_CROSS_SCOPE_DROPS, default=True)
        if not rules.asks_before_drop(sources, target_dir, ask_cross_scope=ask):
            return True
        moved, dont_ask = self._host.dialogs.confirm_cross_scope_move(
            [source.name for source in sources], rules.scope_place(target_dir)
        )
        if dont_ask and state is not None:
            state.set_flag(ASK_CROSS_SCOPE_DROPS, False)
            self._context.save_ui_state()
        return moved

    @Slot(object, object)
    def _on_model_move_requested(self, sources: list[VirtualPath], target_dir: VirtualPath) -> None:
        try:
            moves = rules.drop_moves(sources, target_dir)
        except ValueError as error:
            self._host.show_error(str(error))
            return
        if self._confirm_cross_scope(sources, target_dir):
            self.move_paths(moves)
