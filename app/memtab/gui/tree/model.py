"""The Qt item model over the Memory tab's node tree: a rescan's tree is reconciled in by key
(`components.tree.reconcile_slices.ShownTree`), in slices (`SlicedReconcile`), so expansion,
selection and scroll survive; unfilled containers are filled as opened (`TreeFill`)."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Any

from PySide6.QtCore import (
    QAbstractItemModel,
    QMimeData,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    Signal,
)

from memtab.components.activity.badges import Badge
from memtab.components.tree.marks import RowMark
from memtab.components.tree.nodes import (
    NodeKind,
    TreeNode,
    dragged_paths,
    dragged_text,
    drop_target,
    is_movable,
    moved_by_drop,
)
from memtab.components.tree.reconcile_slices import RECONCILE_SLICE_MS, Filler, ShownTree, perf_ms
from memtab.components.tree.scan import HomeScan
from memtab.components.tree.text import PIN_NOTE, describe_for_accessibility, row_tooltip
from memtab.components.tree.tree import default_open_containers, fill_rows
from memtab.gui.toolkit.clock import QT_CLOCK, GuiClock
from memtab.store.paths import VirtualPath

MIME_TYPE = "application/x-memtab-memory-paths"

ModelIndex = QModelIndex | QPersistentModelIndex

NODE_ROLE = Qt.ItemDataRole.UserRole + 1
"""The `TreeNode` of a row."""
AGENT_EDITED_ROLE = Qt.ItemDataRole.UserRole + 2
"""True for files changed by something other than Memtab and not opened since."""
BADGE_ROLE = Qt.ItemDataRole.UserRole + 4
"""The `components.activity.badges.Badge` of such a file (who changed it, when), else None."""
MARKS_ROLE = Qt.ItemDataRole.UserRole + 5
"""The features' marks on a file row (`components.tree.marks.RowMark`s), a tuple."""
_MARK_ROLES = [MARKS_ROLE, Qt.ItemDataRole.ToolTipRole, Qt.ItemDataRole.AccessibleDescriptionRole]
KEY_ROLE = Qt.ItemDataRole.UserRole + 3
"""The node's stable key (str)."""


# A row's flags by (never has children, can be dragged, takes drops), combined once: Qt
# asks for them at every paint, and combining enum flags in Python takes ~10 µs.
_ROW_FLAGS = {
    (leaf, drag, drop): Qt.ItemFlag.ItemIsEnabled
    | Qt.ItemFlag.ItemIsSelectable
    | (Qt.ItemFlag.ItemNeverHasChildren if leaf else Qt.ItemFlag.NoItemFlags)
    | (Qt.ItemFlag.ItemIsDragEnabled if drag else Qt.ItemFlag.NoItemFlags)
    | (Qt.ItemFlag.ItemIsDropEnabled if drop else Qt.ItemFlag.NoItemFlags)
    for leaf, drag, drop in itertools.product((False, True), repeat=3)
}
_MESSAGE_FLAGS = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemNeverHasChildren


class MemoryTreeModel(QAbstractItemModel):
    """Sections → directories → files, reconciled in place on every rescan."""

    # (list[VirtualPath], VirtualPath) files/dirs dropped on a directory or scope section (the
    # target directory)
    move_requested = Signal(object, object)

    def __init__(self, parent: Any = None) -> None:
        """Start with the "Loading…" tree."""
        super().__init__(parent)
        self._shown: ShownTree[Badge] = ShownTree(self)
        self.root = self._shown.root  # invisible; its children are the sections
        self.pin_note = PIN_NOTE
        """What a pinned file's tooltip says about mux (the tab knows whether it runs)."""
        self.filler: Filler | None = None

    def node(self, index: ModelIndex) -> TreeNode:
        """The node of `index` (the root for an invalid index)."""
        if not index.isValid():
            return self.root
        node = index.internalPointer()
        assert isinstance(node, TreeNode)
        return node

    def node_for_key(self, key: str) -> TreeNode | None:
        return self._shown.node_for_key(key)

    def index_for_node(self, node: TreeNode) -> QModelIndex:
        """The index of a node of this tree."""
        if node is self.root or node.parent is None:
            return QModelIndex()
        return self.createIndex(node.row, 0, node)

    def index_for_key(self, key: str) -> QModelIndex:
        """The index of the node with `key` (invalid when absent)."""
        node = self._shown.node_for_key(key)
        return self.index_for_node(node) if node is not None else QModelIndex()

    def nodes(self) -> Iterable[TreeNode]:
        return self._shown.nodes()

    def badge_for(self, node: TreeNode) -> Badge | None:
        """The row's "agent edited" badge (who changed the file), if it has one."""
        return self._shown.badge_for(node)

    def index(self, row: int, column: int, parent: ModelIndex = QModelIndex()) -> QModelIndex:  # noqa: B008
        if column != 0 or row < 0:
            return QModelIndex()
        node = self.node(parent)
        if row >= len(node.children):
            return QModelIndex()
        return self.createIndex(row, 0, node.children[row])

    def parent(self, index: ModelIndex = QModelIndex()) -> QModelIndex:  # type: ignore[override]  # noqa: B008
        if not index.isValid():
            return QModelIndex()
        parent = self.node(index).parent
        if parent is None or parent is self.root:
            return QModelIndex()
        return self.createIndex(parent.row, 0, parent)

    def rowCount(self, parent: ModelIndex = QModelIndex()) -> int:  # noqa: B008
        if parent.isValid() and parent.column() != 0:
            return 0
        return len(self.node(parent).children)

    def columnCount(self, parent: ModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 1

    def hasChildren(self, parent: ModelIndex = QModelIndex()) -> bool:  # noqa: B008
        """Qt: whether a row has children (an unfilled container has, unbuilt)."""
        if parent.isValid() and parent.column() != 0:
            return False
        node = self.node(parent)
        return bool(node.children) or node.unfilled_files > 0

    def canFetchMore(self, parent: ModelIndex) -> bool:
        """Qt: whether a container's file rows are still to be built."""
        return parent.isValid() and self.node(parent).unfilled_files > 0

    def fetchMore(self, parent: ModelIndex) -> None:
        """Qt: build a container's file rows (the view asks when it is expanded)."""
        if parent.isValid():
            self.fill(self.node(parent))

    def fill(self, container: TreeNode) -> bool:
        """Insert the file rows of an unfilled container (from `filler`); False when
        there is nothing to fill or they cannot be built yet."""
        return self._shown.fill(container, self.filler)

    def reveal(self, key: str) -> TreeNode | None:
        """The node with `key`, filling the container of a file row first if needed."""
        return self._shown.reveal(key, self.filler)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        """Qt: the (hidden) header."""
        horizontal = orientation is Qt.Orientation.Horizontal
        if section == 0 and horizontal and role == Qt.ItemDataRole.DisplayRole:
            return "Memories"
        return None

    def flags(self, index: ModelIndex) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        node = self.node(index)
        if node.kind is NodeKind.MESSAGE:
            return _MESSAGE_FLAGS
        leaf = node.kind is NodeKind.MATCH or (node.kind is NodeKind.FILE and not node.children)
        return _ROW_FLAGS[leaf, is_movable(node), node.accepts_drops]

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        node = self.node(index)
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole):
            return node.name
        if role == NODE_ROLE:
            return node
        if role == KEY_ROLE:
            return node.key
        shown = self._shown  # the rows' badges and marks, asked at every paint
        if role == AGENT_EDITED_ROLE:
            return shown.badge_for(node) is not None
        if role == BADGE_ROLE:
            return shown.badge_for(node)
        if role == MARKS_ROLE:
            return shown.marks_for(node)
        if role == Qt.ItemDataRole.AccessibleDescriptionRole:
            return describe_for_accessibility(node, shown.badge_for(node), shown.marks_for(node))
        if role == Qt.ItemDataRole.ToolTipRole:
            return row_tooltip(node, shown.badge_for(node), self.pin_note, shown.marks_for(node))
        return None

    def replace_tree(self, new_root: TreeNode, badges: Mapping[str, Badge] | None = None) -> None:
        """Reconcile a freshly built tree into the shown one (see the module docstring), and
        set the "agent edited" badges (by physical path) in the same pass."""
        self.start_reconcile(new_root, badges)
        self.continue_reconcile(None)

    def start_reconcile(self, tree: TreeNode, badges: Mapping[str, Badge] | None = None) -> None:
        """Begin reconciling `tree` (`components.tree.reconcile_slices.ShownTree.start`)."""
        self._shown.start(tree, badges)

    @property
    def reconciling(self) -> bool:
        """Whether a reconcile has been started and not finished."""
        return self._shown.reconciling

    def continue_reconcile(
        self, budget_ms: float | None, now_ms: Callable[[], float] = perf_ms
    ) -> bool:
        """Reconcile for at most about `budget_ms` on `now_ms` (None: to the end); True
        when done. Each step leaves a consistent model, so the GUI can paint between slices
        and a big change never freezes it."""
        return self._shown.go_on(budget_ms, now_ms)

    def set_agent_edited(self, badges: Mapping[str, Badge]) -> None:
        """Show exactly these "agent edited" badges (by physical path)."""
        self._shown.set_badges(badges)

    def marks_for(self, node: TreeNode) -> tuple[RowMark, ...]:
        return self._shown.marks_for(node)

    def set_marks(self, feature: str, marks: Mapping[str, RowMark]) -> None:
        """Show exactly these marks of `feature` (by row key), in place of its last ones."""
        self._shown.set_marks(feature, marks)

    # -- what the shown tree tells (`components.tree.reconcile_slices.RowEvents`) ----------

    def removing(self, parent: TreeNode, first: int, last: int) -> None:
        """Rows of `parent` go."""
        self.beginRemoveRows(self.index_for_node(parent), first, last)

    def removed(self) -> None:
        self.endRemoveRows()

    def inserting(self, parent: TreeNode, first: int, last: int) -> None:
        """Rows of `parent` come."""
        self.beginInsertRows(self.index_for_node(parent), first, last)

    def inserted(self) -> None:
        self.endInsertRows()

    def rows_changed(self, parent: TreeNode, first: int, last: int) -> None:
        """What rows of `parent` show changed."""
        parent_index = self.index_for_node(parent)
        self.dataChanged.emit(self.index(first, 0, parent_index), self.index(last, 0, parent_index))

    def marks_changed(self, node: TreeNode) -> None:
        """A file row's marks changed."""
        index = self.index_for_node(node)
        self.dataChanged.emit(index, index, _MARK_ROLES)

    def refresh_all(self) -> None:
        """Repaint every row (e.g. search highlighting or relative times changed)."""
        stack = [self.root]
        while stack:
            node = stack.pop()
            if node.children:
                parent = self.index_for_node(node)
                first = self.index(0, 0, parent)
                last = self.index(len(node.children) - 1, 0, parent)
                self.dataChanged.emit(first, last)
                stack.extend(node.children)

    def supportedDragActions(self) -> Qt.DropAction:
        """Qt: rows are moved, never copied."""
        return Qt.DropAction.MoveAction

    def supportedDropActions(self) -> Qt.DropAction:
        return Qt.DropAction.MoveAction

    def mimeTypes(self) -> list[str]:
        return [MIME_TYPE]

    def mimeData(self, indexes: Sequence[QModelIndex]) -> QMimeData:
        """Qt: the dragged files and directories as virtual paths, one per line."""
        text = dragged_text(self.node(index) for index in indexes)
        data = QMimeData()
        data.setData(MIME_TYPE, text.encode("utf-8"))
        data.setText(text)
        return data

    def drop_target(self, parent: ModelIndex) -> VirtualPath | None:
        """The directory a drop onto `parent` lands in (a file drops into its directory)."""
        return drop_target(self.node(parent))

    def _movable(
        self, data: QMimeData, parent: ModelIndex
    ) -> tuple[list[VirtualPath], VirtualPath]:
        target = self.drop_target(parent)
        if target is None or not data.hasFormat(MIME_TYPE):
            return [], VirtualPath(None)
        text = bytes(data.data(MIME_TYPE).data()).decode("utf-8", "replace")
        return moved_by_drop(dragged_paths(text), target), target

    def canDropMimeData(
        self,
        data: QMimeData,
        action: Qt.DropAction,
        row: int,
        column: int,
        parent: ModelIndex,
    ) -> bool:
        """Qt: whether a drop here would move anything."""
        if action != Qt.DropAction.MoveAction:
            return False
        sources, _target = self._movable(data, parent)
        return bool(sources)

    def dropMimeData(
        self,
        data: QMimeData,
        action: Qt.DropAction,
        row: int,
        column: int,
        parent: ModelIndex,
    ) -> bool:
        """Qt: ask for the move (False: the view never removes the dragged rows itself)."""
        if action != Qt.DropAction.MoveAction:
            return False
        sources, target = self._movable(data, parent)
        if sources:
            self.move_requested.emit(sources, target)
        return False


class TreeFill:
    """The open containers of `model`'s tree, and the rows of those being opened."""

    def __init__(
        self,
        model: MemoryTreeModel,
        shown_scan: Callable[[], HomeScan | None],
        searching: Callable[[], bool],
    ) -> None:
        """Fill `model` from `shown_scan()`; never while `searching()` (a search tree's
        containers hold its matches only)."""
        self._model = model
        self._shown_scan = shown_scan
        self._searching = searching
        self.open_containers: set[str] = set(default_open_containers())
        model.filler = self._rows

    def _rows(self, container_key: str) -> list[TreeNode] | None:
        self.open_containers.add(container_key)
        scan = self._shown_scan()
        if scan is None or self._searching():
            return None  # the scan that follows builds them
        return fill_rows(scan, container_key)

    def refill(self) -> None:
        """Fill the open containers a reconciled tree left unfilled (a big home's tree has the
        file rows of its open containers only)."""
        if self._shown_scan() is None or self._searching():
            return
        for key in list(self.open_containers):
            node = self._model.node_for_key(key)
            if node is not None and node.unfilled_files:
                self._model.fill(node)


Quietly = Callable[[], AbstractContextManager[None]]
"""A block in which the tree's selection changes open nothing (`TreeEditorSync.quietly`)."""


class SlicedReconcile(QObject):
    """Reconciles trees into `model` in slices (see the module docstring)."""

    reconciled = Signal()  # a reconcile finished, its follow-up run

    def __init__(
        self,
        model: MemoryTreeModel,
        fill: TreeFill,
        quietly: Quietly,
        parent: QObject,
        *,
        clock: GuiClock = QT_CLOCK,
    ) -> None:
        """Reconcile into `model`; `fill` refills open containers after each reconcile; each slice
        runs inside `quietly()`, for `RECONCILE_SLICE_MS` on `clock` (tests pass a fake one)."""
        super().__init__(parent)
        self._model = model
        self._fill = fill
        self._quietly = quietly
        self._clock = clock
        self._after: Callable[[], None] | None = None
        self._timer = clock.timer(self, self._continue, single_shot=True)

    @property
    def busy(self) -> bool:
        """Whether a reconcile is in progress or a slice is waiting."""
        return self._model.reconciling or self._timer.isActive()

    def show(
        self,
        tree: TreeNode,
        badges: Mapping[str, Badge] | None,
        then: Callable[[], None] | None = None,
    ) -> None:
        """Reconcile `tree` (with the "agent edited" `badges`, None: unchanged), then run
        `then` and emit `reconciled`."""
        self._model.start_reconcile(tree, badges)
        self._after = then
        self._continue()

    def stop(self) -> None:
        """Stop slicing (on window close)."""
        self._timer.stop()

    def _continue(self) -> None:
        with self._quietly():
            done = self._model.continue_reconcile(RECONCILE_SLICE_MS, self._clock.monotonic_ms)
        if not done:
            self._timer.start(0)  # the GUI paints, then the next slice
            return
        self._fill.refill()
        after, self._after = self._after, None
        if after is not None:
            after()
        self.reconciled.emit()
