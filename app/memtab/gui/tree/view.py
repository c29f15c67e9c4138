"""The scope tree's view: selection and expansion by row key, the context menu (mouse or
keyboard), drag and drop, the room the Memory tab's overlay takes at its bottom
(`reserve_bottom`), and what waits for its next paint (`after_next_paint`: the start-up
steps). How each row looks is `gui/tree/rows.py`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from PySide6.QtCore import (
    QEvent,
    QItemSelection,
    QItemSelectionModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QPoint,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QContextMenuEvent, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QTreeView,
    QWidget,
)

from memtab.components.tree.nodes import NodeKind, TreeNode
from memtab.gui.tree.model import NODE_ROLE, MemoryTreeModel
from memtab.gui.tree.rows import MemoryItemDelegate

ModelIndex = QModelIndex | QPersistentModelIndex
# How long what waits for a paint waits at most: a minimised window paints nothing.
PAINT_WAIT_MS = 250


def own_viewport(view: QTreeView) -> QWidget:
    """A viewport for `view` made here, set up as Qt sets up its own.

    Qt's own viewport reaches Python first through `viewport()`, and shiboken then looks
    the type of a widget it has never seen up among every QWidget subclass, building each
    one (~8 ms, once a process, before the tree's first paint). A widget made in Python is
    known already.
    """
    viewport = QWidget(view)
    viewport.setObjectName("qt_scrollarea_viewport")  # Qt's name (style sheets match it)
    viewport.setBackgroundRole(QPalette.ColorRole.Base)
    viewport.setAutoFillBackground(True)
    return viewport


class _AfterPaint(QObject):
    """Runs what waits for a view's next paint right after it (`after_next_paint`)."""

    def __init__(self, view: QTreeView) -> None:
        super().__init__(view)
        self._view = view
        self._waiting: list[Callable[[], object]] = []
        self._no_paint = QTimer(self)
        self._no_paint.setSingleShot(True)
        self._no_paint.setInterval(PAINT_WAIT_MS)
        self._no_paint.timeout.connect(self._run)

    def add(self, then: Callable[[], object]) -> None:
        if not self._view.isVisible():
            then()  # nothing will paint
            return
        if not self._waiting:
            self._view.viewport().installEventFilter(self)
            self._no_paint.start()
        self._waiting.append(then)
        self._view.viewport().update()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """The viewport's paint: what waits runs once it is done."""
        if event.type() == QEvent.Type.Paint:
            QTimer.singleShot(0, self._run)
        return False

    def _run(self) -> None:
        if not self._waiting:
            return
        self._view.viewport().removeEventFilter(self)
        self._no_paint.stop()
        waiting, self._waiting = self._waiting, []
        for then in waiting:
            then()


class MemoryTreeView(QTreeView):
    """The one tree of the Memory tab: sections, directories and files; drag to move.

    Signals:
        context_menu_requested(QPoint): where (in viewport coordinates) a context menu
            was asked for — by mouse, or by keyboard for the current row.
    """

    context_menu_requested = Signal(QPoint)
    _bottom_reserve = 0  # `reserve_bottom` (a class default: Qt asks before __init__ ends)

    def __init__(self, parent: QWidget | None = None) -> None:
        """Configure the view (the model is set by the tab)."""
        super().__init__(parent)
        self.setViewport(own_viewport(self))
        self.setObjectName("memoryTree")
        self.setAccessibleName("Memory files")
        self.setHeaderHidden(True)
        self.setUniformRowHeights(False)
        self.setIndentation(14)
        self.setAnimated(False)
        self.setMouseTracking(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setDragDropMode(QAbstractItemView.DragDropMode.DragDrop)
        self.setDefaultDropAction(Qt.DropAction.MoveAction)
        self.setDragEnabled(True)
        self.setAcceptDrops(True)
        self.setDropIndicatorShown(True)
        self.setItemDelegate(MemoryItemDelegate(self))
        # Qt fetches a container's rows on expanding only while the view is laid out on
        # screen; a fill on `expanded` also covers a hidden or not yet painted view.
        self.expanded.connect(self._on_expanded)
        self._after_paint = _AfterPaint(self)

    def after_next_paint(self, then: Callable[[], object]) -> None:
        """Run `then` right after the rows' next paint — at once when the view is not
        shown, and after `PAINT_WAIT_MS` when no paint comes (a minimised window)."""
        self._after_paint.add(then)

    def reserve_bottom(self, height: int) -> None:
        """Keep the bottom `height` pixels free of rows: panels lie over them
        (`memory_tab.overlay`); the last rows scroll up above them."""
        if height != self._bottom_reserve:
            self._bottom_reserve = height
            self.updateGeometries()

    def updateGeometries(self) -> None:
        """Qt's (which sets the viewport's margins for the hidden header), then the
        bottom margin `reserve_bottom` asked for."""
        super().updateGeometries()
        if self._bottom_reserve:
            self.setViewportMargins(0, 0, 0, self._bottom_reserve)

    def _on_expanded(self, index: QModelIndex) -> None:
        node = self.node_at(index)
        if node is not None and node.unfilled_files:
            self.memory_model().fill(node)

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        """Mouse: where clicked; keyboard (Menu key, Shift+F10): at the current row."""
        position = event.pos()
        if event.reason() == QContextMenuEvent.Reason.Keyboard:
            current = self.currentIndex()
            if current.isValid():
                position = self.visualRect(current).center()
        self.context_menu_requested.emit(position)
        event.accept()

    @property
    def delegate(self) -> MemoryItemDelegate:
        """The row painter."""
        delegate = self.itemDelegate()
        assert isinstance(delegate, MemoryItemDelegate)
        return delegate

    def as_widget(self) -> QWidget:
        """The tree as a widget: what the file actions' keys work on while it has the focus."""
        return self

    def memory_model(self) -> MemoryTreeModel:
        """The model, typed."""
        model = self.model()
        assert isinstance(model, MemoryTreeModel)
        return model

    def is_file_row(self, index: ModelIndex) -> bool:
        """Whether the row at `index` is a file (or a search match in one)."""
        node = self.node_at(index)
        return node is not None and node.kind in (NodeKind.FILE, NodeKind.MATCH)

    def node_at(self, index: ModelIndex) -> TreeNode | None:
        """The node of an index of this view's model."""
        node = index.data(NODE_ROLE) if index.isValid() else None
        return node if isinstance(node, TreeNode) else None

    def current_node(self) -> TreeNode | None:
        """The node of the current row."""
        return self.node_at(self.currentIndex())

    def selectAll(self) -> None:
        """Ctrl+A: every file and folder row shown (what Delete, a drag or Copy to… act
        on), never a section header, a message or a search result's line."""
        model = self.memory_model()
        selection = QItemSelection()
        for node in model.nodes():
            if node.kind not in (NodeKind.FILE, NodeKind.DIRECTORY):
                continue
            index = model.index_for_node(node)
            parent = index.parent()
            while parent.isValid() and self.isExpanded(parent):
                parent = parent.parent()
            if not parent.isValid():  # every row above it is open
                selection.select(index, index)
        flags = QItemSelectionModel.SelectionFlag
        self.selectionModel().select(selection, flags.ClearAndSelect | flags.Rows)

    def selected_nodes(self) -> list[TreeNode]:
        """The nodes of the selected rows, in tree order, falling back to the current row."""
        nodes = [self.node_at(index) for index in self.selectionModel().selectedRows()]
        chosen = [node for node in nodes if node is not None]
        if not chosen:
            current = self.current_node()
            return [current] if current is not None else []
        model = self.memory_model()
        order = {node.key: position for position, node in enumerate(model.nodes())}
        return sorted(chosen, key=lambda node: order.get(node.key, 0))

    def expanded_keys(self) -> set[str]:
        """Keys of every expanded row."""
        model = self.memory_model()
        return {
            node.key
            for node in model.nodes()
            if (node.children or node.unfilled_files)
            and self.isExpanded(model.index_for_node(node))
        }

    def set_expanded_keys(self, keys: Iterable[str], *, collapse_others: bool = False) -> None:
        """Expand the rows with these keys (and, optionally, collapse every other).

        Expanding alone looks up those rows by key, parents first: a big home's outline
        opens its three sections among ~400 folders before the first paint."""
        model = self.memory_model()
        wanted = set(keys)
        if not collapse_others:
            found = (model.node_for_key(key) for key in wanted)
            shown = [node for node in found if node is not None]
            for node in sorted(shown, key=_depth):
                if node.children or node.unfilled_files:
                    self.setExpanded(model.index_for_node(node), True)
            return
        for node in model.nodes():
            if not node.children and not node.unfilled_files:
                continue
            index = model.index_for_node(node)
            if node.key in wanted:
                self.setExpanded(index, True)
            elif collapse_others:
                self.setExpanded(index, False)

    def select_key(self, key: str) -> bool:
        """Make the row with `key` current and selected, scrolled into view (filling its
        container first if its rows are not built yet)."""
        model = self.memory_model()
        node = model.reveal(key)
        if node is None:
            return False
        index = model.index_for_node(node)
        parent = index.parent()
        while parent.isValid():
            self.setExpanded(parent, True)
            parent = parent.parent()
        self.setCurrentIndex(index)
        self.scrollTo(index)
        return True


def _depth(node: TreeNode) -> int:
    """How many rows are above `node` (a section's: 0)."""
    depth, parent = -1, node.parent
    while parent is not None:
        depth, parent = depth + 1, parent.parent
    return depth
