"""The editor's tab bar: one tab per open file, the preview tab's title in italics.

A double click on a tab keeps it (`keep_requested`), a middle click closes it, as in VS
Code. Titles elide in the middle (a long name keeps its end); the bar scrolls when the
tabs do not fit, so it never widens the window.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont, QMouseEvent, QPaintEvent
from PySide6.QtWidgets import (
    QStyle,
    QStyleOptionTab,
    QStylePainter,
    QTabBar,
    QWidget,
)

from memtab.gui.toolkit.widgets import chain_tab_order, tab_stops


class EditorTabBar(QTabBar):
    """Tabs of the open files (see the module docstring).

    Signals:
        keep_requested(int): the tab at this index was double-clicked.
    """

    keep_requested = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("editorTabs")
        self.setAccessibleName("Open files")
        self.setDocumentMode(True)
        self.setTabsClosable(True)
        self.setUsesScrollButtons(True)
        self.setExpanding(False)
        self.setElideMode(Qt.TextElideMode.ElideMiddle)
        self.setSelectionBehaviorOnRemove(QTabBar.SelectionBehavior.SelectPreviousTab)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # Ctrl+Tab moves between tabs
        self._preview: set[int] = set()

    def is_preview(self, index: int) -> bool:
        """Whether the tab at `index` is the preview tab (drawn in italics)."""
        return index in self._preview

    def set_preview(self, index: int, preview: bool) -> None:
        """Draw the tab at `index` as the preview tab, or as a kept one."""
        if preview:
            self._preview.add(index)
        else:
            self._preview.discard(index)
        self.update()

    def tabInserted(self, index: int) -> None:
        """Keep the preview marks on their tabs when one is inserted before them."""
        self._preview = {i + 1 if i >= index else i for i in self._preview}
        super().tabInserted(index)

    def tabRemoved(self, index: int) -> None:
        """Keep the preview marks on their tabs when one before them is removed."""
        self._preview = {i - 1 if i > index else i for i in self._preview if i != index}
        super().tabRemoved(index)

    def paintEvent(self, event: QPaintEvent) -> None:
        """Draw the tabs as the style does, the preview tab's label in italics."""
        if not self._preview:
            super().paintEvent(event)
            return
        painter = QStylePainter(self)
        current = self.currentIndex()
        order = [i for i in range(self.count()) if i != current]
        if current >= 0:
            order.append(current)  # the current tab overlaps its neighbours
        for index in order:
            option = QStyleOptionTab()
            self.initStyleOption(option, index)
            if not option.rect.intersects(event.rect()):
                continue
            painter.drawControl(QStyle.ControlElement.CE_TabBarTabShape, option)
            font = QFont(self.font())
            font.setItalic(index in self._preview)
            painter.setFont(font)
            painter.drawControl(QStyle.ControlElement.CE_TabBarTabLabel, option)

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:
        """A double click keeps the tab."""
        index = self.tabAt(event.position().toPoint())
        if index >= 0 and event.button() == Qt.MouseButton.LeftButton:
            self.keep_requested.emit(index)
            event.accept()
            return
        super().mouseDoubleClickEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        """A middle click closes the tab."""
        index = self.tabAt(event.position().toPoint())
        if index >= 0 and event.button() == Qt.MouseButton.MiddleButton:
            self.tabCloseRequested.emit(index)
            event.accept()
            return
        super().mouseReleaseEvent(event)


def chain_like(model: QWidget, widget: QWidget) -> None:
    """Put `widget`'s tab stops in the focus chain after `model`'s (a new tab is made after
    the window chained its parts: Tab would reach it last)."""
    stops = tab_stops(model)
    chain_tab_order([stops[-1] if stops else model, *tab_stops(widget)])
