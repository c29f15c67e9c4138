"""What Memtab's row painters share, with only the Qt classes the first paint needs: until
that paint is done (`use_native_panels`) rows read their state from the view and `fill`
(no QStyle or QGradient enums built); then the style draws them natively."""

from __future__ import annotations

from PySide6 import QtWidgets
from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPalette
from PySide6.QtWidgets import QAbstractItemView, QStyledItemDelegate, QStyleOptionViewItem

_native_panels = False
"""Whether rows' backgrounds are drawn by the widget style (once the first paint is done)."""


def use_native_panels() -> None:
    """From now on `paint_row_panel` draws with the widget's style (QStyle's Python enums
    are built here, after the window's first paint)."""
    global _native_panels
    _native_panels = True


def paint_row_panel(
    painter: QPainter,
    option: QStyleOptionViewItem,
    index: QModelIndex | QPersistentModelIndex,
    delegate: QStyledItemDelegate,
) -> tuple[bool, bool]:
    """Draw the background of the row at `index` (its selection, and its hover where the
    style shows one); return whether it is selected and whether it has the keyboard focus.
    Before the window's first paint: from the palette and the view; after it: by the style."""
    if not _native_panels:
        selected, focused = row_state(option, index)
        if selected:
            paint_selection(painter, option)
        return selected, focused
    styled = QStyleOptionViewItem(option)
    delegate.initStyleOption(styled, index)
    styled.text = ""  # the background only: the delegate draws the row's text itself
    widget = styled.widget
    style = widget.style() if widget is not None else QtWidgets.QApplication.style()
    flags = QtWidgets.QStyle.StateFlag
    style.drawPrimitive(
        QtWidgets.QStyle.PrimitiveElement.PE_PanelItemViewItem, styled, painter, widget
    )
    return bool(styled.state & flags.State_Selected), bool(styled.state & flags.State_HasFocus)


def fill(painter: QPainter, rect: QRect, brush: QBrush | QColor) -> None:
    """Fill `rect` with `brush`: `painter.fillRect`'s pixels (for a QRect: with a QRectF's
    fractions and no antialiasing the two round differently), the painter's pen and brush
    kept."""
    painter.save()
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(brush)
    painter.drawRect(rect)
    painter.restore()


def row_state(
    option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
) -> tuple[bool, bool]:
    """Whether the row at `index` is selected, and whether it has the keyboard focus, as
    its view decides them for `option.state`: the view's selection, and its current row
    while it has the focus. (Painted without a view: neither.)"""
    view = option.widget
    if not isinstance(view, QAbstractItemView):
        return False, False
    selection = view.selectionModel()
    selected = selection is not None and selection.isSelected(index)
    return selected, view.hasFocus() and view.currentIndex() == index


def paint_selection(painter: QPainter, option: QStyleOptionViewItem) -> None:
    """A selected row's background as Qt's common and Fusion styles draw it: the
    palette's highlight over the whole row, in the view's colour group (inactive while
    the view has no focus, disabled with it)."""
    view = option.widget
    palette = option.palette
    if view is not None and not view.isEnabled():
        group = QPalette.ColorGroup.Disabled
    elif view is not None and view.hasFocus() and view.isActiveWindow():
        group = QPalette.ColorGroup.Active
    else:
        group = QPalette.ColorGroup.Inactive
    fill(painter, option.rect, palette.brush(group, QPalette.ColorRole.Highlight))
