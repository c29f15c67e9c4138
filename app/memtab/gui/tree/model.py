"""The Qt item model over the Memory tab's plain node tree (`tree_nodes`).

One model, one column, fixed section roots. A rescan builds a whole new node tree off the
GUI thread; `replace_tree` reconciles it into the live one, emitting row removals, insertions
and data changes for what differs, so expansion, selection and scroll position survive
without being saved and restored. Nodes are matched by `key`.

A large home's tree comes with some containers unfilled (`TreeNode.unfilled_files`, see
`components.tree.tree`): they report children so the view shows an arrow, and Qt's
`canFetchMore`/`fetchMore` (called when one is expanded) asks `filler` for their file
rows. `reveal(key)` fills the container of a file row before it is selected.

What a row says besides its name (tooltips, accessible descriptions) is
`components.tree.text`.

Drag and drop moves files and directories (across scopes too): the model never moves
anything itself; `dropMimeData` emits `move_requested(sources, target_dir)` and the tab
asks the store, after which the watcher's rescan shows the result.
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from PySide6.QtCore import (
    QAbstractItemModel,
    QMimeData,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    Signal,
)

from memtab.components.activity.badges import Badge
from memtab.components.tree.marks import RowMark, RowMarks
from memtab.components.tree.nodes import NodeKind, TreeNode, file_container_key
from memtab.components.tree.reconcile_slices import Slice, perf_ms
from memtab.components.tree.text import PIN_NOTE, describe_for_accessibility, row_tooltip
from memtab.components.tree.tree import loading_tree
from memtab.store.paths import PathError, VirtualPath, parse_file_path

logger = logging.getLogger(__name__)

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

Filler = Callable[[str], "list[TreeNode] | None"]
"""Builds the file rows of an unfilled container (by key); None when it cannot yet."""


def _changed_keys(old: Mapping[str, Badge], new: Mapping[str, Badge]) -> frozenset[str]:
    return frozenset(key for key in old.keys() | new.keys() if old.get(key) != new.get(key))


class _Reconcile:
    """A reconcile in progress: (shown, new) node pairs still to compare."""

    def __init__(self, new_root: TreeNode) -> None:
        self.pending: list[tuple[TreeNode, TreeNode]] = []
        self.new_root = new_root
        self.badge_changes: frozenset[str] = frozenset()
        self.reported: set[int] = set()


class MemoryTreeModel(QAbstractItemModel):
    """Sections → directories → files, reconciled in place on every rescan.

    Signals:
        move_requested(list[VirtualPath], VirtualPath): files/dirs dropped on a directory
            or scope section (the target directory).
    """

    move_requested = Signal(object, object)

    def __init__(self, parent: Any = None) -> None:
        """Start with the "Loading…" tree."""
        super().__init__(parent)
        self._root = loading_tree()
        self._by_key: dict[str, TreeNode] = {}
        self._by_physical: dict[str, TreeNode] = {}
        self._badges: Mapping[str, Badge] = {}
        self._marks = RowMarks()
        self.pin_note = PIN_NOTE
        """What a pinned file's tooltip says about mux (the tab knows whether it runs)."""
        self._reconcile: _Reconcile | None = None
        self.filler: Filler | None = None
        self._register(self._root)

    # -- lookups -------------------------------------------------------------------------

    @property
    def root(self) -> TreeNode:
        """The invisible root; its children are the sections."""
        return self._root

    def node(self, index: ModelIndex) -> TreeNode:
        """The node of `index` (the root for an invalid index)."""
        if not index.isValid():
            return self._root
        node = index.internalPointer()
        assert isinstance(node, TreeNode)
        return node

    def node_for_key(self, key: str) -> TreeNode | None:
        """The node with `key`, if it is in the tree."""
        return self._by_key.get(key)

    def index_for_node(self, node: TreeNode) -> QModelIndex:
        """The index of a node of this tree."""
        if node is self._root or node.parent is None:
            return QModelIndex()
        return self.createIndex(node.row, 0, node)

    def index_for_key(self, key: str) -> QModelIndex:
        """The index of the node with `key` (invalid when absent)."""
        node = self._by_key.get(key)
        return self.index_for_node(node) if node is not None else QModelIndex()

    def nodes(self) -> Iterable[TreeNode]:
        """Every node except the root."""
        walker = self._root.walk()
        next(walker)
        return walker

    def is_agent_edited(self, node: TreeNode) -> bool:
        """Whether the row shows the "agent edited" badge."""
        return self.badge_for(node) is not None

    def badge_for(self, node: TreeNode) -> Badge | None:
        """The row's "agent edited" badge (who changed the file), if it has one."""
        if node.kind is not NodeKind.FILE or node.physical is None:
            return None
        return self._badges.get(node.physical)

    # -- structure -----------------------------------------------------------------------

    def index(self, row: int, column: int, parent: ModelIndex = QModelIndex()) -> QModelIndex:  # noqa: B008
        """Qt: the index of a child row."""
        if column != 0 or row < 0:
            return QModelIndex()
        node = self.node(parent)
        if row >= len(node.children):
            return QModelIndex()
        return self.createIndex(row, 0, node.children[row])

    def parent(self, index: ModelIndex = QModelIndex()) -> QModelIndex:  # type: ignore[override]  # noqa: B008
        """Qt: the parent of a row."""
        if not index.isValid():
            return QModelIndex()
        parent = self.node(index).parent
        if parent is None or parent is self._root:
            return QModelIndex()
        return self.createIndex(parent.row, 0, parent)

    def rowCount(self, parent: ModelIndex = QModelIndex()) -> int:  # noqa: B008
        """Qt: children of a row."""
        if parent.isValid() and parent.column() != 0:
            return 0
        return len(self.node(parent).children)

    def columnCount(self, parent: ModelIndex = QModelIndex()) -> int:  # noqa: B008
        """Qt: one column."""
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
        if container.unfilled_files <= 0 or self.filler is None:
            return False
        rows = self.filler(container.key)
        if rows is None:
            return False
        # Files follow directories, and an unfilled container holds no file rows yet.
        first = len(container.children)
        if rows:
            self.beginInsertRows(self.index_for_node(container), first, first + len(rows) - 1)
            container.children.extend(rows)
            container.renumber(first)
            for row in rows:
                self._register(row)
            self.endInsertRows()
        container.unfilled_files = 0
        # The fingerprints above no longer describe what is shown: the next reconcile compares.
        node: TreeNode | None = container
        while node is not None:
            node.fingerprint = 0
            node = node.parent
        self._emit_rows_changed(container.parent or self._root, [container.row])
        return True

    def reveal(self, key: str) -> TreeNode | None:
        """The node with `key`, filling the container of a file row first if needed."""
        node = self._by_key.get(key)
        if node is None and (container_key := file_container_key(key)) is not None:
            container = self._by_key.get(container_key)
            if container is not None and self.fill(container):
                node = self._by_key.get(key)
        return node

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        """Qt: the (hidden) header."""
        horizontal = orientation is Qt.Orientation.Horizontal
        if section == 0 and horizontal and role == Qt.ItemDataRole.DisplayRole:
            return "Memories"
        return None

    def flags(self, index: ModelIndex) -> Qt.ItemFlag:
        """Qt: what can be done with a row."""
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        node = self.node(index)
        if node.kind is NodeKind.MESSAGE:
            return _MESSAGE_FLAGS
        leaf = node.kind is NodeKind.MATCH or (node.kind is NodeKind.FILE and not node.children)
        draggable = node.kind in (NodeKind.FILE, NodeKind.DIRECTORY) and not node.read_only
        return _ROW_FLAGS[leaf, draggable, node.accepts_drops]

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """Qt: what a row shows."""
        if not index.isValid():
            return None
        node = self.node(index)
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole):
            return node.name
        if role == NODE_ROLE:
            return node
        if role == KEY_ROLE:
            return node.key
        if role == AGENT_EDITED_ROLE:
            return self.is_agent_edited(node)
        if role == BADGE_ROLE:
            return self.badge_for(node)
        if role == MARKS_ROLE:
            return self.marks_for(node)
        if role == Qt.ItemDataRole.AccessibleDescriptionRole:
            return describe_for_accessibility(node, self.badge_for(node), self.marks_for(node))
        if role == Qt.ItemDataRole.ToolTipRole:
            return row_tooltip(node, self.badge_for(node), self.pin_note, self.marks_for(node))
        return None

    # -- updates -------------------------------------------------------------------------

    def replace_tree(self, new_root: TreeNode, badges: Mapping[str, Badge] | None = None) -> None:
        """Reconcile a freshly built tree into the shown one (see the module docstring), and
        set the "agent edited" badges (by physical path) in the same pass."""
        self.start_reconcile(new_root, badges)
        self.continue_reconcile(None)

    def start_reconcile(self, tree: TreeNode, badges: Mapping[str, Badge] | None = None) -> None:
        """Begin reconciling `tree` (a reconcile still in progress is dropped: this one wins).

        Subtrees whose fingerprint did not change are skipped, so an unchanged home costs
        nothing; changed rows are reported in one `dataChanged` per run of siblings.
        """
        if self._reconcile is not None:  # dropped: what it left undone is compared again
            for old, _new in self._reconcile.pending:
                old.forget_fingerprints()
        self._reconcile = _Reconcile(tree)
        self._reconcile.pending.append((self._root, tree))
        if badges is not None:
            self._reconcile.badge_changes = _changed_keys(self._badges, badges)
            self._badges = dict(badges)

    @property
    def reconciling(self) -> bool:
        """Whether a reconcile has been started and not finished."""
        return self._reconcile is not None

    def continue_reconcile(
        self, budget_ms: float | None, now_ms: Callable[[], float] = perf_ms
    ) -> bool:
        """Reconcile for at most about `budget_ms` on `now_ms` (None: to the end); True
        when done (`components.tree.reconcile_slices.Slice`).

        Each step leaves a consistent model, so the GUI can paint between slices and a
        big change never freezes it.
        """
        reconcile = self._reconcile
        if reconcile is None:
            return True
        slice_ = Slice(budget_ms, now_ms)
        while reconcile.pending:
            old, new = reconcile.pending.pop()
            self._reconcile_step(reconcile, old, new)
            if reconcile.pending and slice_.over():
                return False
        self._reconcile = None
        self._emit_badges_changed(reconcile.badge_changes, reconcile.reported)
        return True

    def _reconcile_step(self, reconcile: _Reconcile, old: TreeNode, new: TreeNode) -> None:
        if old.fingerprint == new.fingerprint and old.fingerprint != 0:
            new.dispose()
            return
        changed_rows: list[int] = []
        for kept, fresh in self._reconcile_children(old, new):
            if kept.fingerprint == fresh.fingerprint:
                continue
            if kept.signature() != fresh.signature():
                self._update_node(kept, fresh)
                changed_rows.append(kept.row)
                reconcile.reported.add(id(kept))
            reconcile.pending.append((kept, fresh))
        self._emit_rows_changed(old, changed_rows)
        old.fingerprint = new.fingerprint
        # `new` served its purpose (its adopted children now belong to `old`).
        new.children = []
        new.parent = None

    def _update_node(self, kept: TreeNode, fresh: TreeNode) -> None:
        if kept.physical != fresh.physical:
            if kept.physical is not None and self._by_physical.get(kept.physical) is kept:
                del self._by_physical[kept.physical]
            if fresh.kind is NodeKind.FILE and fresh.physical is not None:
                self._by_physical[fresh.physical] = kept
        kept.copy_fields_from(fresh)

    def _emit_badges_changed(self, physical_paths: Iterable[str], reported: set[int]) -> None:
        rows_by_parent: dict[int, tuple[TreeNode, list[int]]] = {}
        for physical in physical_paths:
            node = self._by_physical.get(physical)
            if node is None or node.parent is None or id(node) in reported:
                continue
            entry = rows_by_parent.setdefault(id(node.parent), (node.parent, []))
            entry[1].append(node.row)
        for parent, rows in rows_by_parent.values():
            self._emit_rows_changed(parent, sorted(rows))

    def _emit_rows_changed(self, parent: TreeNode, rows: list[int]) -> None:
        parent_index = self.index_for_node(parent)
        start = 0
        while start < len(rows):
            end = start
            while end + 1 < len(rows) and rows[end + 1] == rows[end] + 1:
                end += 1
            self.dataChanged.emit(
                self.index(rows[start], 0, parent_index), self.index(rows[end], 0, parent_index)
            )
            start = end + 1

    def _reconcile_children(self, old: TreeNode, new: TreeNode) -> list[tuple[TreeNode, TreeNode]]:
        """Make `old`'s children the keys of `new`'s, in order; return the kept pairs."""
        parent_index = self.index_for_node(old)
        new_keys = {child.key for child in new.children}
        children = old.children
        end = len(children) - 1
        while end >= 0:  # remove runs of vanished children, from the bottom up
            if children[end].key in new_keys:
                end -= 1
                continue
            start = end
            while start > 0 and children[start - 1].key not in new_keys:
                start -= 1
            self.beginRemoveRows(parent_index, start, end)
            removed = children[start : end + 1]
            del children[start : end + 1]
            old.renumber(start)
            for node in removed:
                self._unregister(node)
            self.endRemoveRows()
            for node in removed:
                node.dispose()
            end = start - 1
        kept_keys = [child.key for child in children]
        if [key for key in (c.key for c in new.children) if key in set(kept_keys)] != kept_keys:
            # The order changed (it never should: keys determine order). Start over.
            logger.warning("Tree order changed under %s; rebuilding its rows", old.key)
            return self._replace_children(old, new, parent_index)
        kept_set = set(kept_keys)
        pairs: list[tuple[TreeNode, TreeNode]] = []
        position = 0
        while position < len(new.children):
            fresh = new.children[position]
            if fresh.key in kept_set:
                pairs.append((children[position], fresh))
                position += 1
                continue
            stop = position
            while stop < len(new.children) and new.children[stop].key not in kept_set:
                stop += 1
            self.beginInsertRows(parent_index, position, stop - 1)
            inserted = new.children[position:stop]
            children[position:position] = inserted
            old.renumber(position)
            for node in inserted:
                self._register(node)
            self.endInsertRows()
            position = stop
        return pairs

    def _replace_children(
        self, old: TreeNode, new: TreeNode, parent_index: QModelIndex
    ) -> list[tuple[TreeNode, TreeNode]]:
        if old.children:
            self.beginRemoveRows(parent_index, 0, len(old.children) - 1)
            removed, old.children = old.children, []
            for node in removed:
                self._unregister(node)
            self.endRemoveRows()
            for node in removed:
                node.dispose()
        if new.children:
            self.beginInsertRows(parent_index, 0, len(new.children) - 1)
            old.adopt(list(new.children))
            for node in old.children:
                self._register(node)
            self.endInsertRows()
        return []

    def _register(self, subtree: TreeNode) -> None:
        for node in subtree.walk():
            self._by_key[node.key] = node
            if node.kind is NodeKind.FILE and node.physical is not None:
                self._by_physical[node.physical] = node

    def _unregister(self, subtree: TreeNode) -> None:
        for node in subtree.walk():
            if self._by_key.get(node.key) is node:
                del self._by_key[node.key]
            if node.physical is not None and self._by_physical.get(node.physical) is node:
                del self._by_physical[node.physical]

    def set_agent_edited(self, badges: Mapping[str, Badge]) -> None:
        """Show exactly these "agent edited" badges (by physical path)."""
        changed = _changed_keys(self._badges, badges)
        self._badges = dict(badges)
        self._emit_badges_changed(changed, set())

    def marks_for(self, node: TreeNode) -> tuple[RowMark, ...]:
        """The features' marks on a file row."""
        return self._marks.on(node.key) if node.kind is NodeKind.FILE else ()

    def set_marks(self, feature: str, marks: Mapping[str, RowMark]) -> None:
        """Show exactly these marks of `feature` (by row key), in place of its last ones."""
        for key in self._marks.replace(feature, marks):
            index = self.index_for_key(key)
            if index.isValid():
                self.dataChanged.emit(index, index, _MARK_ROLES)

    def refresh_all(self) -> None:
        """Repaint every row (e.g. search highlighting or relative times changed)."""
        stack = [self._root]
        while stack:
            node = stack.pop()
            if node.children:
                parent = self.index_for_node(node)
                first = self.index(0, 0, parent)
                last = self.index(len(node.children) - 1, 0, parent)
                self.dataChanged.emit(first, last)
                stack.extend(node.children)

    # -- drag and drop -------------------------------------------------------------------

    def supportedDragActions(self) -> Qt.DropAction:
        """Qt: rows are moved, never copied."""
        return Qt.DropAction.MoveAction

    def supportedDropActions(self) -> Qt.DropAction:
        """Qt: drops move."""
        return Qt.DropAction.MoveAction

    def mimeTypes(self) -> list[str]:
        """Qt: the virtual paths of the dragged rows."""
        return [MIME_TYPE]

    def mimeData(self, indexes: Sequence[QModelIndex]) -> QMimeData:
        """Qt: the dragged files and directories as virtual paths, one per line."""
        paths: list[str] = []
        for index in indexes:
            node = self.node(index)
            movable = node.kind in (NodeKind.FILE, NodeKind.DIRECTORY) and not node.read_only
            if movable and node.path is not None and str(node.path) not in paths:
                paths.append(str(node.path))
        data = QMimeData()
        text = "\n".join(paths)
        data.setData(MIME_TYPE, text.encode("utf-8"))
        data.setText(text)
        return data

    def drop_target(self, parent: ModelIndex) -> VirtualPath | None:
        """The directory a drop onto `parent` lands in (a file drops into its directory)."""
        node = self.node(parent)
        while (
            node.kind in (NodeKind.FILE, NodeKind.MESSAGE, NodeKind.MATCH)
            and node.parent is not None
        ):
            node = node.parent
        if not node.accepts_drops or node.path is None:
            return None
        return node.path

    @staticmethod
    def dragged_paths(data: QMimeData) -> list[VirtualPath]:
        """The virtual paths in a drag's data (invalid lines are ignored)."""
        if not data.hasFormat(MIME_TYPE):
            return []
        raw = bytes(data.data(MIME_TYPE).data()).decode("utf-8", "replace")
        paths: list[VirtualPath] = []
        for line in raw.splitlines():
            try:
                paths.append(parse_file_path(line))
            except PathError:
                continue
        return paths

    def _movable(
        self, data: QMimeData, parent: ModelIndex
    ) -> tuple[list[VirtualPath], VirtualPath]:
        target = self.drop_target(parent)
        if target is None:
            return [], VirtualPath(None)
        sources = [
            source
            for source in self.dragged_paths(data)
            # Not into itself, and not where it already is.
            if not target.is_within(source) and source.parent != target
        ]
        return sources, target

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
        """Qt: ask for the move; the rows change when the rescan shows it happened.

        Returns False so the view never removes the dragged rows itself.
        """
        if action != Qt.DropAction.MoveAction:
            return False
        sources, target = self._movable(data, parent)
        if sources:
            self.move_requested.emit(sources, target)
        return False
