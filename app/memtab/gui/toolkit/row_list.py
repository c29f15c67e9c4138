"""`FittedTree` and `FittedTable`, whose one stretching column keeps room when the view is
narrow (`ColumnFitter`); `RowList`, the plain sortless list the history screens show.
Apart from `widgets.py` so the first paint builds none of these classes' enums."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from typing import cast

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QPoint, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QTreeView,
    QTreeWidget,
    QTreeWidgetItem,
    QTreeWidgetItemIterator,
    QWidget,
)

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


class ColumnFitter:
    """Fits a view's columns: each as wide as its contents but `stretch`, which takes the
    rest; when narrow, the columns not `whole` give up width (`fitted_widths`), elided."""

    def __init__(self, view: QTreeView, *, stretch: int, whole: Collection[int] = ()) -> None:
        """Fit the columns `view` has now (`stretch` may count from the end, as -1)."""
        self._view = view
        header = view.header()
        count = header.count()
        self._stretch = stretch % count if count else 0
        self._whole = frozenset(whole)
        self._naturals: tuple[tuple[object, ...], list[int]] | None = None  # (rows, widths)
        model = view.model()
        for changed in (
            model.dataChanged,
            model.headerDataChanged,
            model.layoutChanged,
            model.modelReset,
            model.rowsInserted,
            model.rowsRemoved,
            model.rowsMoved,
            model.columnsInserted,
            model.columnsRemoved,
        ):
            changed.connect(self._forget_naturals)
        header.setStretchLastSection(False)
        header.setTextElideMode(Qt.TextElideMode.ElideRight)  # a label cut reads as cut
        for column in range(count):
            mode = (
                QHeaderView.ResizeMode.Stretch
                if column == self._stretch
                else QHeaderView.ResizeMode.ResizeToContents
            )
            header.setSectionResizeMode(column, mode)
        view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)

    def size_hint(self, column: int) -> int:
        """The width of `column`: the header asks each column sized to its contents, at
        every resize."""
        if column == self._stretch:
            return QTreeView.sizeHintForColumn(self._view, column)
        widths = fitted_widths(
            self._natural_widths(),
            stretch=self._stretch,
            whole=self._whole,
            width=self._view.viewport().width(),
            least=self._view.fontMetrics().averageCharWidth() * LEAST_CHARACTERS,
        )
        return widths[column] if column < len(widths) else 0

    def _forget_naturals(self) -> None:
        self._naturals = None

    def _natural_widths(self) -> list[int]:
        """How wide each column's contents and label are (0 for the stretching one),
        measured once for the rows in view until they or the model change: a resize asks
        for every column several times over."""
        view = self._view
        header = view.header()
        count = header.count()
        bottom = QPoint(0, view.viewport().height() - 1)
        measured = (
            _row_key(view.indexAt(QPoint(0, 0))),
            _row_key(view.indexAt(bottom)),
            tuple(header.isSectionHidden(column) for column in range(count)),
            view.font().key(),
        )
        if self._naturals is not None and self._naturals[0] == measured:
            return self._naturals[1]
        # Qt's own measure, named: the view's own `sizeHintForColumn` asks this fitter.
        widths = [
            0
            if column == self._stretch or header.isSectionHidden(column)
            else max(QTreeView.sizeHintForColumn(view, column), header.sectionSizeHint(column))
            for column in range(count)
        ]
        self._naturals = (measured, widths)
        return widths


def _row_key(index: QModelIndex) -> tuple[int, int]:
    """Which row `index` is (its number and the model's id: a tree's rows of the same
    number under different parents differ); (-1, 0) for none."""
    return (index.row(), index.internalId()) if index.isValid() else (-1, 0)


class FittedTree(QTreeWidget):
    """A tree of items whose columns a `ColumnFitter` fits."""

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
        self._fitter = ColumnFitter(self, stretch=stretch, whole=whole)

    def sizeHintForColumn(self, column: int) -> int:
        return self._fitter.size_hint(column)


class FittedTable(QTreeView):
    """A flat, row-selecting table over a model, whose columns a `ColumnFitter` fits; a
    column's natural width is measured over the rows in view (a trace's model is huge)."""

    def __init__(self, name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._fitter: ColumnFitter | None = None
        self.setAccessibleName(name)
        self.setRootIsDecorated(False)
        self.setUniformRowHeights(True)
        self.setAlternatingRowColors(True)
        self.setAllColumnsShowFocus(True)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.header().setResizeContentsPrecision(0)

    def set_model(
        self, model: QAbstractItemModel, *, stretch: int, whole: Collection[int] = ()
    ) -> None:
        """Show `model`, its `stretch` column taking the room the others leave."""
        self.setModel(model)
        self._fitter = ColumnFitter(self, stretch=stretch, whole=whole)

    def sizeHintForColumn(self, column: int) -> int:
        if self._fitter is None:
            return super().sizeHintForColumn(column)
        return self._fitter.size_hint(column)


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


def tree_rows(tree: QTreeWidget) -> list[QTreeWidgetItem]:
    """Every row of `tree` in its order, a row's children after it (folded ones too)."""
    rows = QTreeWidgetItemIterator(tree)  # PySide's stubs type its iteration as `object`
    return [row.value() for row in cast("Iterable[QTreeWidgetItemIterator]", rows)]
