"""`FittedTree`: a tree of rows with columns whose one stretching column keeps room when
the list is narrow; `RowList`, the plain sortless list of rows the history screens and a
consolidation plan's review show (versions, runs, deleted files, ops).

Apart from `widgets.py`, which the first paint imports: a Qt class imported by name builds
its enum types there (`gui/first_paint/boundary.py`).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTreeWidget, QWidget

STRETCH_SHARE = 1 / 3
"""The part of a narrow list's width its stretching column keeps while other columns can
give up width: each is as wide as its contents while they fit, then the widest give up
width first (their cells elided; every cell's tooltip says it whole)."""

LEAST_CHARACTERS = 6
"""How narrow a column giving up width gets, in average characters ("Anoth…")."""


def column_cap(widths: Sequence[int], room: int) -> int | None:
    """The widest any column of `widths` may be for all to fit in `room`: the narrow ones
    keep their width and the widest share what is left (None: they fit as they are)."""
    if sum(widths) <= room:
        return None
    left = max(room, 0)
    ordered = sorted(widths)
    for index, width in enumerate(ordered):
        share = left // (len(ordered) - index)
        if width > share:
            return max(share, 1)
        left -= width
    return None  # unreachable: the widths' sum is over the room


def fitted_widths(
    naturals: Sequence[int], *, stretch: int, whole: Collection[int], width: int, least: int
) -> list[int]:
    """Each column's width in a list `width` wide, from the widths their contents want:
    the `whole` ones keep theirs, the others give up width down to `least` so that the
    `stretch` column keeps `STRETCH_SHARE`, and `stretch` takes what is left."""
    widths = list(naturals)
    yielding = [index for index in range(len(widths)) if index != stretch and index not in whole]
    room = int(width * (1 - STRETCH_SHARE)) - sum(widths[index] for index in whole)
    cap = column_cap([widths[index] for index in yielding], room)
    if cap is not None:
        for index in yielding:
            widths[index] = min(widths[index], max(cap, least))
    widths[stretch] = max(width - sum(widths) + widths[stretch], 0)
    return widths


class FittedTree(QTreeWidget):
    """A tree whose columns are as wide as their contents but `stretch`, which takes the
    rest; when the list is narrow, the columns not `whole` give up width for it
    (`fitted_widths`). The list never scrolls sideways: a cell too narrow is elided."""

    def __init__(
        self,
        columns: list[str],
        parent: QWidget | None = None,
        *,
        stretch: int,
        whole: Collection[int] = (),
    ) -> None:
        super().__init__(parent)
        self.setHeaderLabels(columns)
        self._stretch = stretch % len(columns)
        self._whole = frozenset(whole)
        self._widths: list[int] | None = None  # of the header's pass under way
        header = self.header()
        header.setStretchLastSection(False)
        for column in range(len(columns)):
            mode = (
                QHeaderView.ResizeMode.Stretch
                if column == self._stretch
                else QHeaderView.ResizeMode.ResizeToContents
            )
            header.setSectionResizeMode(column, mode)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)

    def sizeHintForColumn(self, column: int) -> int:
        """The header asks this of each column sized to its contents, at every resize."""
        if column == self._stretch:
            return super().sizeHintForColumn(column)
        # One pass of the header asks for every column in visual order: the widths are
        # worked out at its first and read at the others (a column's natural width
        # measures up to 1,000 rows: once a pass, not once a column asked).
        if self._widths is None or column == self._first_fitted_column():
            self._widths = self._fitted_widths()
        return self._widths[column]

    def _first_fitted_column(self) -> int:
        header = self.header()
        for visual in range(header.count()):
            column = header.logicalIndex(visual)
            if column != self._stretch and not header.isSectionHidden(column):
                return column
        return -1

    def _fitted_widths(self) -> list[int]:
        header = self.header()
        # Not super() in the comprehension: there it is not this method's, and an
        # exception raised under a Qt virtual crashes the process.
        naturals = [
            0
            if column == self._stretch or header.isSectionHidden(column)
            else max(QTreeWidget.sizeHintForColumn(self, column), header.sectionSizeHint(column))
            for column in range(self.columnCount())
        ]
        return fitted_widths(
            naturals,
            stretch=self._stretch,
            whole=self._whole,
            width=self.viewport().width(),
            least=self.fontMetrics().averageCharWidth() * LEAST_CHARACTERS,
        )


class RowList(FittedTree):
    """A flat list of rows with columns (`stretch`, by default the last, takes the room
    left; `whole` ones, such as times, are never cut), one row selected."""

    def __init__(
        self,
        columns: list[str],
        name: str,
        parent: QWidget | None = None,
        *,
        stretch: int = -1,
        whole: Collection[int] = (),
    ) -> None:
        super().__init__(columns, parent, stretch=stretch, whole=whole)
        self.setAccessibleName(name)
        self.setRootIsDecorated(False)
        self.setUniformRowHeights(True)
        self.setAllColumnsShowFocus(True)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
