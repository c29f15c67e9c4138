"""The tree and the editor in step: selecting a file opens it in the preview tab, activating it
keeps the tab; rows the code selects never reopen anything. While searching, `step_match`
walks the matching lines (F3, Shift+F3).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Protocol

from PySide6.QtCore import QItemSelectionModel, QModelIndex, QObject, Qt, Slot
from PySide6.QtGui import QColor, QPalette, QTextCursor, QTextFormat
from PySide6.QtWidgets import QApplication, QPlainTextEdit, QTextEdit

from memtab.components.files import ops as file_ops
from memtab.components.files.ops import open_file
from memtab.components.tree import matches
from memtab.components.tree.nodes import LineMatch, NodeKind, TreeNode, file_key, ref_key
from memtab.file_protocol.file_ref import MemoryFileRef
from memtab.file_protocol.memory_file import MemoryFile
from memtab.gui.context import Shown
from memtab.gui.tree.model import MemoryTreeModel
from memtab.gui.tree.view import MemoryTreeView
from memtab.store.paths import VirtualPath

ORPHAN_NOTE = "Orphaned project memory: no registered project owns it, so it is read-only."


class FileEditor(Protocol):
    """What the tree needs of the editor (`editor.EditorPanel`)."""

    @property
    def current_ref(self) -> MemoryFileRef | None: ...
    @property
    def current_key(self) -> str | None: ...
    @property
    def text_edit(self) -> QPlainTextEdit: ...
    def open(self, file: MemoryFile, *, keep: bool = False) -> None: ...
    def open_read_only(self, physical: Path, title: str, note: str) -> None: ...
    def when_loaded(self, ref: MemoryFileRef, then: Callable[[], None]) -> None: ...
    def setFocus(self, reason: Qt.FocusReason) -> None: ...


class TreeEditorLink(QObject):
    """Opens what the tree selects and keeps the open file's row current."""

    def __init__(
        self,
        tree: MemoryTreeView,
        model: MemoryTreeModel,
        editor: FileEditor,
        parent: QObject | None = None,
        *,
        shown: Shown,
    ) -> None:
        """Follow `tree`'s current row; open in `editor` the files of the rows' refs as
        the scan `shown` has them."""
        super().__init__(parent)
        self._tree = tree
        self._model = model
        self._editor = editor
        self._shown = shown
        self._quiet = False
        self.highlighted_lines: tuple[int, ...] = ()
        """The lines of the open file highlighted by `highlight_lines`."""
        self._reveal: tuple[VirtualPath, tuple[int, ...]] | None = None
        tree.selectionModel().currentChanged.connect(self._on_tree_current_changed)
        tree.activated.connect(self._on_tree_activated)

    @contextmanager
    def quietly(self) -> Iterator[None]:
        """Selection changes made inside the block (by code) open nothing."""
        quiet, self._quiet = self._quiet, True
        try:
            yield
        finally:
            self._quiet = quiet

    def select_key(self, key: str, open_it: bool) -> None:
        """Make the row with `key` current and selected; open it when `open_it`."""
        self._quiet = not open_it
        try:
            if self._tree.select_key(key):
                self._tree.selectionModel().select(
                    self._tree.currentIndex(),
                    QItemSelectionModel.SelectionFlag.ClearAndSelect
                    | QItemSelectionModel.SelectionFlag.Rows,
                )
        finally:
            self._quiet = False

    def mark_keyboard_row(self) -> None:
        """Give the keyboard a row from the start (the focus marker shows where it is),
        without selecting or opening anything, and the focus when nothing has it."""
        if not self._tree.currentIndex().isValid() and self._model.rowCount() > 0:
            with self.quietly():
                self._tree.selectionModel().setCurrentIndex(
                    self._model.index(0, 0), QItemSelectionModel.SelectionFlag.NoUpdate
                )
        focused = QApplication.focusWidget()
        if focused is None or not self._tree.window().isAncestorOf(focused):
            self._tree.setFocus(Qt.FocusReason.OtherFocusReason)

    def reveal(self, path: VirtualPath, lines: tuple[int, ...] = (), *, now: bool = True) -> None:
        """Open `path` with `lines` highlighted as soon as the tree shows it: now if it
        does (and `now`), else at the next `reveal_if_shown` (called when a tree is shown)."""
        self._reveal = (path, lines)
        if now:
            self.reveal_if_shown()

    def reveal_if_shown(self) -> None:
        """Carry out a pending `reveal` if its file is in the tree now."""
        if self._reveal is None:
            return
        path, lines = self._reveal
        key = file_key(path)
        if self._model.reconciling or self._model.node_for_key(key) is None:
            return
        self._reveal = None
        self.reveal_key(key, lines)

    def reveal_key(self, key: str, lines: tuple[int, ...] = ()) -> None:
        """Open the row with `key` (any memory file the tree shows: mux's or another
        agent's) with `lines` highlighted."""
        self.select_key(key, open_it=True)
        ref = self._editor.current_ref
        if ref is not None and ref_key(ref) == key and lines:
            self._editor.when_loaded(ref, lambda: self.highlight_lines(lines))

    def clear_selection(self) -> None:
        """Select nothing (e.g. the editor closed its file); the keyboard row stays."""
        with self.quietly():
            self._tree.selectionModel().clearSelection()

    def highlight_lines(self, lines: tuple[int, ...]) -> None:
        """Highlight whole lines of the open file (e.g. the notes the writer just added)
        and bring the first into view; the next file opened drops the highlight."""
        text_edit = self._editor.text_edit
        document = text_edit.document()
        color = QColor(text_edit.palette().color(QPalette.ColorRole.Highlight))
        color.setAlphaF(0.22)
        selections = []
        for line in lines:
            block = document.findBlockByNumber(line)
            if not block.isValid():
                continue
            selection = QTextEdit.ExtraSelection()
            selection.cursor = QTextCursor(block)
            selection.format.setBackground(color)
            selection.format.setProperty(QTextFormat.Property.FullWidthSelection, True)
            selections.append(selection)
        text_edit.setExtraSelections(selections)
        if selections:
            first = QTextCursor(document.findBlockByNumber(lines[0]))
            text_edit.setTextCursor(first)
            text_edit.centerCursor()
        self.highlighted_lines = tuple(lines) if selections else ()

    def clear_line_highlight(self) -> None:
        if self.highlighted_lines:
            self._editor.text_edit.setExtraSelections([])
            self.highlighted_lines = ()

    def open_file(self, ref: MemoryFileRef) -> MemoryFile | None:
        """The memory file `ref` names, as the scan shown has it
        (`components.files.ops.open_file`)."""
        scan = self._shown.scan
        return open_file(scan, ref) if scan is not None else None

    def show_open_file(self) -> None:
        """Keep the open file's row current (e.g. after a rescan removed the old row)."""
        key = self._editor.current_key
        if key is None:
            return
        current = self._tree.current_node()
        if current is not None and current.kind is NodeKind.MATCH:
            current = current.parent  # one of the open file's matching lines
        if current is not None and current.key == key:
            return
        if self._model.node_for_key(key) is not None:
            self.select_key(key, open_it=False)

    def open_node(self, node: TreeNode, *, keep: bool = False) -> None:
        """Open a file row in the editor — in the preview tab, or (`keep`) a kept one (a
        search result: at its first match; a matching line: at that match)."""
        if node.read_only and node.orphan_dir is not None and node.physical is not None:
            relative = node.physical.split(f"/{node.orphan_dir}/", 1)[-1]
            self._editor.open_read_only(
                Path(node.physical),
                file_ops.orphan_file_title(node.orphan_dir, relative),
                ORPHAN_NOTE,
            )
        elif node.ref is None:
            return
        else:
            file = self.open_file(node.ref)
            if file is None:
                return  # gone since the tree was built: the next scan removes the row
            self._editor.open(file, keep=keep)
            self._editor.when_loaded(file.ref, lambda: self._select_match(node))

    def step_match(self, forward: bool) -> bool:
        """Go to the next (or previous) matching line of the search results, opening its
        file; False when there are no matching lines to go to."""
        found = matches.step(list(self._model.nodes()), self._tree.current_node(), forward)
        if found is None:
            return False
        self.select_key(found.key, open_it=True)
        return True

    def _select_match(self, node: TreeNode) -> None:
        if (match := matches.first_match(node)) is not None:
            select_line_match(self._editor.text_edit, match, self._tree.delegate.highlight_terms)

    @Slot(QModelIndex, QModelIndex)
    def _on_tree_current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if self._quiet:
            return
        node = self._tree.node_at(current)
        if node is None or node.kind not in (NodeKind.FILE, NodeKind.MATCH):
            return
        self.open_node(node)

    @Slot(QModelIndex)
    def _on_tree_activated(self, index: QModelIndex) -> None:
        node = self._tree.node_at(index)
        if node is None:
            return
        if node.kind in (NodeKind.FILE, NodeKind.MATCH):
            if node.ref is None or self._editor.current_ref != node.ref:
                self.open_node(node, keep=True)
            elif (file := self.open_file(node.ref)) is not None:
                self._editor.open(file, keep=True)  # opened for good: no longer a preview
            self._editor.setFocus(Qt.FocusReason.OtherFocusReason)
            self._editor.text_edit.setFocus(Qt.FocusReason.OtherFocusReason)
        elif node.children:
            self._tree.setExpanded(index, not self._tree.isExpanded(index))


def select_line_match(text_edit: QPlainTextEdit, match: LineMatch, terms: tuple[str, ...]) -> bool:
    """Select a search match in the editor and scroll to it; False if the text no longer
    has it there (then the first occurrence of a term after that line is selected)."""
    document = text_edit.document()
    block = document.findBlockByNumber(match.line)
    cursor: QTextCursor | None = None
    if block.isValid() and match.spans:
        start, end = match.spans[0]
        column = match.column + start
        if block.text()[column : match.column + end].casefold() in terms:
            cursor = QTextCursor(block)
            cursor.setPosition(block.position() + column)
            cursor.setPosition(
                block.position() + match.column + end, QTextCursor.MoveMode.KeepAnchor
            )
    if cursor is None:
        origin = QTextCursor(block) if block.isValid() else QTextCursor(document)
        found = [document.find(term, origin) for term in terms]  # case-insensitive
        hits = [hit for hit in found if not hit.isNull()]
        if not hits:
            found = [document.find(term) for term in terms]  # before that line, then
            hits = [hit for hit in found if not hit.isNull()]
        if not hits:
            return False
        cursor = min(hits, key=lambda hit: hit.selectionStart())
    text_edit.setTextCursor(cursor)
    text_edit.ensureCursorVisible()
    return cursor.block().blockNumber() == match.line
