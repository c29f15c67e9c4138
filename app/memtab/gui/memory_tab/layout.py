"""Where the Memory tab's widgets sit, and the stand-ins they have before it is assembled.

The tab paints before its editor, footer and search field exist (`MemoryTab.assemble`):
`TabLayout` lays out the picker and the tree with a disabled search field and an empty
editor pane in their places, and `place` puts the real parts there once they are built
(the message bar, the news bar and the Inbox over the bottom of the tree, the footer
below it, the editor over a splitter a wide tab puts the Inbox in: `inbox_room`), and
`set_tab_order` chains the keyboard through them. `panes` shows one pane at
a time when the tab is narrow (`panes.PaneSwitch`).
"""

from __future__ import annotations

import logging

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QLineEdit, QSplitter, QToolButton, QVBoxLayout, QWidget

from memtab.gui.memory_tab.overlay import TreeOverlay
from memtab.gui.memory_tab.panes import PaneSwitch
from memtab.gui.toolkit.icons import tinted_icon
from memtab.gui.toolkit.style import muted_text
from memtab.gui.toolkit.widgets import chain_tab_order, tab_stops
from memtab.gui.tree.view import MemoryTreeView

logger = logging.getLogger(__name__)

# The search field's own (`gui.search.box`); a test keeps the two alike.
SEARCH_PLACEHOLDER = "Search memories  (Ctrl+Shift+F)"
DEFAULT_SPLITTER_SIZES = [430, 850]


class TabLayout:
    """The tab's panes: picker, search row, tree (and later the message bar and footer)
    on the left of a splitter, the editor on the right."""

    def __init__(
        self, tab: QWidget, picker: QWidget, tree: MemoryTreeView, sizes: list[int] | None
    ) -> None:
        """Lay out `tab`; `sizes` are the splitter's remembered sizes, if any."""
        search_stand_in = QLineEdit(tab)
        search_stand_in.setPlaceholderText(SEARCH_PLACEHOLDER)
        search_stand_in.setEnabled(False)
        self.new_button = QToolButton(tab)
        self.new_button.setAccessibleName("New")
        self.new_button.setToolTip("New memory file or folder")
        self.new_button.setIcon(tinted_icon("new-file", muted_text(tab.palette())))
        self.new_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.new_button.setAutoRaise(True)
        self._search_row = QHBoxLayout()
        self._search_row.setSpacing(4)
        self._search_row.addWidget(search_stand_in, 1)
        self._search_row.addWidget(self.new_button)

        left = QWidget(tab)
        left.setObjectName("memoryTreePane")
        self._left = QVBoxLayout(left)
        self._left.setContentsMargins(8, 8, 4, 6)
        self._left.setSpacing(6)
        self._left.addWidget(picker)
        self._left.addLayout(self._search_row)
        self._left.addWidget(tree, 1)

        # The editor's pane: the Files button (shown while narrow) above the editor.
        self.editor_pane = QWidget(tab)
        self.editor_pane.setObjectName("memoryEditorPane")
        self._editor_column = QVBoxLayout(self.editor_pane)
        self._editor_column.setContentsMargins(0, 0, 0, 0)
        self._editor_column.setSpacing(0)
        back = QToolButton(self.editor_pane)
        back.setObjectName("backToFiles")
        back_row = QHBoxLayout()
        back_row.setContentsMargins(4, 4, 4, 0)
        back_row.addWidget(back)
        back_row.addStretch(1)
        self._editor_column.addLayout(back_row)
        editor_stand_in = QWidget(self.editor_pane)
        self._editor_column.addWidget(editor_stand_in, 1)
        # Replaced (and deleted) by `place`, which lets go of them.
        self._stand_ins: tuple[QWidget, QWidget] | None = (search_stand_in, editor_stand_in)

        self.splitter = QSplitter(Qt.Orientation.Horizontal, tab)
        self.splitter.setObjectName("memorySplitter")
        self.splitter.setChildrenCollapsible(False)
        self.splitter.addWidget(left)
        self.splitter.addWidget(self.editor_pane)
        self.splitter.setStretchFactor(0, 0)
        self.splitter.setStretchFactor(1, 1)
        usable = sizes is not None and len(sizes) == 2 and min(sizes) > 0
        wide_sizes = sizes if sizes is not None and usable else DEFAULT_SPLITTER_SIZES
        self.splitter.setSizes(wide_sizes)
        layout = QVBoxLayout(tab)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.splitter)
        self.tree_pane = left
        self.panes = PaneSwitch(self.splitter, left, self.editor_pane, back, wide_sizes, tab)
        self.overlay = TreeOverlay(tree, left)
        self.below_editor: QSplitter | None = None  # made with the editor (`place`)

    def place(
        self,
        search_field: QWidget,
        over_tree: list[QWidget],
        footer: QWidget,
        editor: QWidget,
    ) -> None:
        """Put the assembled parts where their stand-ins (or gaps) are: `over_tree` (the
        message bar, the news bar, the Inbox) over the bottom of the tree, where they come
        and go without moving it (`TreeOverlay`)."""
        assert self._stand_ins is not None, "the parts are placed once"
        search_stand_in, editor_stand_in = self._stand_ins
        self._stand_ins = None
        self._search_row.replaceWidget(search_stand_in, search_field)
        search_stand_in.deleteLater()
        for widget in over_tree:
            self.overlay.add(widget)
        self._left.addWidget(footer)
        # The editor over what a wide tab shows below it (the Inbox: `inbox_room`).
        self.below_editor = QSplitter(Qt.Orientation.Vertical, self.editor_pane)
        self.below_editor.setObjectName("belowEditorSplitter")
        self.below_editor.setChildrenCollapsible(False)
        self.below_editor.addWidget(editor)
        self._editor_column.replaceWidget(editor_stand_in, self.below_editor)
        editor_stand_in.deleteLater()

    @staticmethod
    def set_tab_order(widgets: list[QWidget], containers: list[QWidget]) -> None:
        """Tab through `widgets`, then the tab stops inside each of `containers` in turn:
        picker → search → tree → the panels over its bottom (message bar, Inbox; skipped
        while hidden) → editor → footer (the editor sits right of the footer on screen,
        but is where the keyboard goes after choosing a file)."""
        chain_tab_order([*widgets, *(stop for c in containers for stop in tab_stops(c))])
