"""`RowList`: the plain sortless list of rows with columns the history screens and a
consolidation plan's review show (versions, runs, deleted files, ops); `fit_columns`, its
columns' widths, for any list of rows.

Apart from `widgets.py`, which the first paint imports: a Qt class imported by name builds
its enum types there (`gui/first_paint/boundary.py`).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTreeWidget, QWidget


def fit_columns(tree: QTreeWidget, stretch: int) -> None:
    """Every column as wide as its contents but `stretch`, which takes the rest (and is
    cut, elided, when there is no room: the list never scrolls sideways)."""
    header = tree.header()
    header.setStretchLastSection(False)
    for column in range(tree.columnCount()):
        mode = (
            QHeaderView.ResizeMode.Stretch
            if column == stretch
            else QHeaderView.ResizeMode.ResizeToContents
        )
        header.setSectionResizeMode(column, mode)
    tree.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)


class RowList(QTreeWidget):
    """A flat list of rows with columns (`stretch`, by default the last, takes the room
    left), one row selected."""

    def __init__(
        self, columns: list[str], name: str, parent: QWidget | None = None, *, stretch: int = -1
    ) -> None:
        super().__init__(parent)
        self.setAccessibleName(name)
        self.setHeaderLabels(columns)
        self.setRootIsDecorated(False)
        self.setUniformRowHeights(True)
        self.setAllColumnsShowFocus(True)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        fit_columns(self, stretch % len(columns))
