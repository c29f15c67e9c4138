"""Panels that come and go over the bottom of the tree (the message bar, the news bar, the
Inbox) lie over it like a notification, so the tree never moves under the pointer;
`MemoryTreeView.reserve_bottom` keeps its last rows reachable.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import QWidget

from memtab.gui.toolkit.clock import QT_CLOCK
from memtab.gui.toolkit.widgets import vbox
from memtab.gui.tree.view import MemoryTreeView

MOST_OF_THE_TREE = 0.6  # the share of the tree's height the panels cover at most


class TreeOverlay(QWidget):
    """The panels over the bottom of the tree (see the module docstring): shown while one
    of them is, as tall as they need (at most the tree's height)."""

    def __init__(self, tree: MemoryTreeView, parent: QWidget) -> None:
        """An empty overlay over `tree`, a child of `parent` (the tree's pane) outside
        its layout."""
        super().__init__(parent)
        self.setObjectName("treeOverlay")
        self._tree = tree
        self._panels: list[QWidget] = []
        self._column = vbox(on=self, margins=(0, 1, 0, 0), spacing=2)  # 1: the line above
        self._place_soon = QT_CLOCK.timer(self, self.place, single_shot=True)
        tree.installEventFilter(self)
        self.hide()

    @property
    def panels(self) -> list[QWidget]:
        return list(self._panels)

    def add(self, panel: QWidget) -> None:
        """Lay `panel` over the tree (below the ones added before); it shows and hides
        itself as before."""
        self._column.addWidget(panel)
        panel.installEventFilter(self)
        self._panels.append(panel)
        self._schedule()

    def remove(self, panel: QWidget) -> None:
        """Take `panel` away (it goes elsewhere: the Inbox below a wide tab's editor)."""
        if panel in self._panels:
            panel.removeEventFilter(self)
            self._column.removeWidget(panel)
            self._panels.remove(panel)
            self._schedule()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Follow the tree's geometry and the panels' showing, hiding and size."""
        if event.type() in _REPLACING_EVENTS:
            if watched in self._panels:  # a panel shown or hidden: the overlay at once
                self.setVisible(self._showing())
            self._schedule()
        return False

    def event(self, event: QEvent) -> bool:
        """A panel's size hint changed (its text, its rows): place the overlay again."""
        if event.type() == QEvent.Type.LayoutRequest:
            self._schedule()
        return super().event(event)

    def paintEvent(self, event: QPaintEvent) -> None:
        """The window's background, a line along the top (the tree goes on beneath)."""
        painter = QPainter(self)
        palette = self.palette()
        painter.fillRect(self.rect(), palette.color(QPalette.ColorRole.Window))
        painter.setPen(palette.color(QPalette.ColorRole.Mid))
        painter.drawLine(0, 0, self.width(), 0)

    def place(self) -> None:
        """Cover the bottom of the tree with the shown panels (or nothing)."""
        self._place_soon.stop()
        tree = self._tree.geometry()
        if not self._showing():
            self.hide()
            self._tree.reserve_bottom(0)
            return
        width = tree.width()
        column = self._column
        wanted = (
            column.heightForWidth(width)
            if column.hasHeightForWidth()
            else column.sizeHint().height()
        )
        # Leave the tree some rows: the panels squeeze (their lists scroll) down to the
        # least they need, and only then cover more of it.
        room = max(int(tree.height() * MOST_OF_THE_TREE), column.minimumSize().height())
        height = max(0, min(wanted, room, tree.height()))
        self.setGeometry(tree.x(), tree.y() + tree.height() - height, width, height)
        self.show()
        self.raise_()
        self._tree.reserve_bottom(height)

    def _showing(self) -> bool:
        """Whether a panel is shown (or would be, in a window not shown yet)."""
        return any(not panel.isHidden() for panel in self._panels)

    def _schedule(self) -> None:
        """Place once the events of this turn are handled (several may ask at once)."""
        if not self._place_soon.isActive():
            self._place_soon.start(0)


_Type = QEvent.Type
_REPLACING_EVENTS = frozenset(
    {_Type.Resize, _Type.Move, _Type.ShowToParent, _Type.HideToParent, _Type.LayoutRequest}
)
