"""Where the Memory tab's widgets sit, and the stand-ins they have before it is assembled.

The tab paints before its editor, footer and search field exist (`MemoryTab.assemble`):
`TabLayout` lays out the picker and the tree with a disabled search field and an empty
editor pane in their places, and `place` puts the real parts there once they are built
(the message bar and the Inbox above the tree, the footer below it), keeping the
splitter's sizes, and `set_tab_order` chains the keyboard through them.
"""

from __future__ import annotations

import itertools
import logging

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QLineEdit, QSplitter, QToolButton, QVBoxLayout, QWidget

from memtab.gui.icons import tinted_icon
from memtab.gui.style import muted_text

logger = logging.getLogger(__name__)

# The search field's own (`gui.search.box`); a test keeps the two alike.
SEARCH_PLACEHOLDER = "Search memories  (Ctrl+Shift+F)"
DEFAULT_SPLITTER_SIZES = [430, 850]


class TabLayout:
    """The tab's panes: picker, search row, tree (and later the message bar and footer)
    on the left of a splitter, the editor on the right."""

    def __init__(
        self, tab: QWidget, picker: QWidget, tree: QWidget, sizes: list[int] | None
    ) -> None:
        """Lay out `tab`; `sizes` are the splitter's remembered sizes, if any."""
        self._search_stand_in = QLineEdit(tab)
        self._search_stand_in.setPlaceholderText(SEARCH_PLACEHOLDER)
        self._search_stand_in.setEnabled(False)
        self.new_button = QToolButton(tab)
        self.new_button.setAccessibleName("New")
        self.new_button.setToolTip("New memory file or folder")
        self.new_button.setIcon(tinted_icon("new-file", muted_text(tab.palette())))
        self.new_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.new_button.setAutoRaise(True)
        self._search_row = QHBoxLayout()
        self._search_row.setSpacing(4)
        self._search_row.addWidget(self._search_stand_in, 1)
        self._search_row.addWidget(self.new_button)

        left = QWidget(tab)
        left.setObjectName("memoryTreePane")
        self._left = QVBoxLayout(left)
        self._left.setContentsMargins(8, 8, 4, 6)
        self._left.setSpacing(6)
        self._left.addWidget(picker)
        self._left.addLayout(self._search_row)
        self._left.addWidget(tree, 1)

        self.splitter = QSplitter(Qt.Orientation.Horizontal, tab)
        self.splitter.setObjectName("memorySplitter")
        self.splitter.setChildrenCollapsible(False)
        self.splitter.addWidget(left)
        self.splitter.addWidget(QWidget(tab))  # the editor's place
        self.splitter.setStretchFactor(0, 0)
        self.splitter.setStretchFactor(1, 1)
        self._sizes = sizes if sizes and len(sizes) == 2 else DEFAULT_SPLITTER_SIZES
        self.splitter.setSizes(self._sizes)
        layout = QVBoxLayout(tab)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.splitter)

    def place(
        self,
        search_field: QWidget,
        above_tree: list[QWidget],
        footer: QWidget,
        editor: QWidget,
    ) -> None:
        """Put the assembled parts where their stand-ins (or gaps) are: `above_tree`
        (the message bar, the Inbox) between the search row and the tree."""
        self._search_row.replaceWidget(self._search_stand_in, search_field)
        self._search_stand_in.deleteLater()
        for offset, widget in enumerate(above_tree):
            self._left.insertWidget(2 + offset, widget)
        self._left.addWidget(footer)
        # Shown, the editor takes the stand-in's size; not yet laid out, the sizes asked for.
        sizes = self.splitter.sizes() if self.splitter.isVisible() else self._sizes
        stand_in = self.splitter.replaceWidget(1, editor)
        if stand_in is not None:
            stand_in.deleteLater()
        self.splitter.setStretchFactor(1, 1)  # a stretch factor is the widget's, not the slot's
        self.splitter.setSizes(sizes)

    @staticmethod
    def set_tab_order(widgets: list[QWidget], containers: list[QWidget]) -> None:
        """Tab through `widgets`, then the focusable widgets inside each of `containers`
        in turn: picker → search → tree → editor → footer (the editor sits right of the
        footer on screen, but is where the keyboard goes after choosing a file)."""
        start = widgets[0]
        chain: list[QWidget] = []
        widget = start.nextInFocusChain()
        while widget is not None and widget is not start and len(chain) < 1000:
            chain.append(widget)
            widget = widget.nextInFocusChain()

        def inside(container: QWidget) -> list[QWidget]:
            return [
                w
                for w in chain
                if w is not container
                and container.isAncestorOf(w)
                and w.focusPolicy() & Qt.FocusPolicy.TabFocus
            ]

        order = list(widgets)
        for container in containers:
            order += inside(container)
        for first, second in itertools.pairwise(order):
            QWidget.setTabOrder(first, second)
