"""What Memtab's row painters share (`memtab.gui.toolkit.paint`): a row's state read from its view
is what the view puts in `option.state`, the selection is drawn in the colour group Qt's
styles choose from that state, and `fill` paints what `QPainter.fillRect` paints."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPalette, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QAbstractItemView,
    QLineEdit,
    QProxyStyle,
    QStyle,
    QStyledItemDelegate,
    QStyleFactory,
    QStyleOptionViewItem,
    QTreeView,
    QVBoxLayout,
    QWidget,
)
from pytestqt.qtbot import QtBot

from memtab.gui.toolkit import paint
from memtab.gui.toolkit.paint import fill, paint_row_panel, paint_selection, row_state
from memtab.gui.window.features import after_first_paint

WAIT_MS = 5000
State = QStyle.StateFlag


class _Recorder(QStyledItemDelegate):
    """Paints rows as Qt does and records, per row painted, Qt's state and `row_state`'s."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[tuple[tuple[bool, bool], tuple[bool, bool]]] = []

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex) -> None:
        qt = (bool(option.state & State.State_Selected), bool(option.state & State.State_HasFocus))
        self.seen.append((qt, row_state(option, index)))
        super().paint(painter, option, index)


@pytest.fixture
def tree(qtbot: QtBot) -> Iterator[QTreeView]:
    """A tree of four rows, in an active window with a line edit to take the focus."""
    window = QWidget()
    layout = QVBoxLayout(window)
    view = QTreeView(window)
    elsewhere = QLineEdit(window)
    elsewhere.setObjectName("elsewhere")
    layout.addWidget(view)
    layout.addWidget(elsewhere)
    model = QStandardItemModel(view)
    for name in ("alpha", "beta", "gamma", "delta"):
        model.appendRow(QStandardItem(name))
    view.setModel(model)
    view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setItemDelegate(_Recorder())
    qtbot.addWidget(window)
    window.show()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=WAIT_MS)
    yield view  # the window lives as long as the test


def _repaint(qtbot: QtBot, view: QTreeView) -> list[tuple[tuple[bool, bool], tuple[bool, bool]]]:
    recorder = view.itemDelegate()
    assert isinstance(recorder, _Recorder)
    recorder.seen.clear()
    view.viewport().repaint()
    qtbot.waitUntil(lambda: len(recorder.seen) >= 4, timeout=WAIT_MS)
    return list(recorder.seen)


def test_a_rows_state_read_from_its_view_is_the_state_qt_paints_it_with(
    qtbot: QtBot, tree: QTreeView
) -> None:
    model = tree.model()
    tree.setFocus()
    qtbot.waitUntil(tree.hasFocus, timeout=WAIT_MS)
    tree.setCurrentIndex(model.index(1, 0))
    tree.selectionModel().select(model.index(3, 0), tree.selectionModel().SelectionFlag.Select)
    states = set()
    for step in (
        lambda: None,
        lambda: tree.window().findChild(QLineEdit, "elsewhere").setFocus(),
        lambda: tree.setFocus(),
        tree.clearSelection,
    ):
        step()
        for qt, ours in _repaint(qtbot, tree):
            assert ours == qt
            states.add(qt)
    # every state was met: selected with and without the keys, focus, neither
    assert states == {(True, True), (True, False), (False, True), (False, False)}


def test_a_row_painted_without_a_view_is_neither_selected_nor_focused() -> None:
    option = QStyleOptionViewItem()
    option.state = State.State_Selected | State.State_HasFocus
    assert row_state(option, QPersistentModelIndex()) == (False, False)


def _selection_color(tree: QTreeView) -> QColor:
    option = QStyleOptionViewItem()
    option.initFrom(tree.viewport())
    option.widget = tree
    option.rect = QRect(0, 0, 8, 8)
    image = QImage(8, 8, QImage.Format.Format_ARGB32)
    image.fill(0)
    painter = QPainter(image)
    paint_selection(painter, option)
    painter.end()
    return image.pixelColor(4, 4)


def test_the_selection_takes_the_colour_group_qt_styles_choose(
    qtbot: QtBot, tree: QTreeView
) -> None:
    palette = tree.palette()
    colors = {"active": "#2060c0", "inactive": "#707070", "disabled": "#a0a0a0"}
    group = QPalette.ColorGroup
    palette.setColor(group.Active, QPalette.ColorRole.Highlight, QColor(colors["active"]))
    palette.setColor(group.Inactive, QPalette.ColorRole.Highlight, QColor(colors["inactive"]))
    palette.setColor(group.Disabled, QPalette.ColorRole.Highlight, QColor(colors["disabled"]))
    tree.setPalette(palette)
    tree.setFocus()
    qtbot.waitUntil(tree.hasFocus, timeout=WAIT_MS)
    assert _selection_color(tree).name() == colors["active"]
    tree.window().findChild(QLineEdit, "elsewhere").setFocus()
    qtbot.waitUntil(lambda: not tree.hasFocus(), timeout=WAIT_MS)
    assert _selection_color(tree).name() == colors["inactive"]
    tree.setEnabled(False)
    assert _selection_color(tree).name() == colors["disabled"]


@pytest.mark.parametrize("antialiased", [False, True])
@pytest.mark.parametrize("ratio", [1.0, 1.25, 2.0])
@pytest.mark.parametrize("rect", [QRect(3, 4, 20, 11), QRect(-1, 2, 7, 1), QRect(0, 0, 40, 30)])
def test_fill_paints_what_fill_rect_paints(antialiased: bool, ratio: float, rect: QRect) -> None:
    def painted(with_fill_rect: bool) -> bytes:
        image = QImage(int(40 * ratio), int(30 * ratio), QImage.Format.Format_ARGB32_Premultiplied)
        image.setDevicePixelRatio(ratio)
        image.fill(0)
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, antialiased)
        painter.setPen(QColor("blue"))
        color = QColor(10, 20, 200, 77)
        if with_fill_rect:
            painter.fillRect(rect, color)
        else:
            fill(painter, rect, color)
        assert painter.pen().color() == QColor("blue")  # the painter's pen kept
        painter.end()
        return bytes(image.constBits())

    assert painted(with_fill_rect=False) == painted(with_fill_rect=True)


def test_fill_keeps_the_painters_brush() -> None:
    image = QImage(4, 4, QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    fill(painter, QRect(0, 0, 2, 2), QColor("red"))
    assert painter.brush().style() == Qt.BrushStyle.NoBrush
    painter.end()


class _PanelRecorder(QProxyStyle):
    """Fusion, counting the row panels it draws."""

    def __init__(self) -> None:
        super().__init__(QStyleFactory.create("Fusion"))
        self.panels = 0

    def drawPrimitive(self, element: Any, option: Any, painter: Any, widget: Any = None) -> None:
        if element == QStyle.PrimitiveElement.PE_PanelItemViewItem:
            self.panels += 1
        super().drawPrimitive(element, option, painter, widget)


class _PanelDelegate(QStyledItemDelegate):
    """Paints each row's background with `paint_row_panel`, nothing else."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex) -> None:
        paint_row_panel(painter, option, index, self)


@pytest.mark.parametrize("focused", [True, False])
def test_rows_look_the_same_before_and_after_the_style_draws_them(
    qtbot: QtBot, tree: QTreeView, monkeypatch: pytest.MonkeyPatch, focused: bool
) -> None:
    """Before the window's first paint rows are drawn from the palette, after it by the
    style: under Fusion (Linux' default, every screenshot here) the same pixels."""
    style = _PanelRecorder()
    tree.setStyle(style)
    tree.setItemDelegate(_PanelDelegate(tree))
    model = tree.model()
    tree.selectionModel().select(model.index(1, 0), tree.selectionModel().SelectionFlag.Select)
    tree.selectionModel().select(model.index(2, 0), tree.selectionModel().SelectionFlag.Select)
    tree.setCurrentIndex(model.index(2, 0))
    if focused:
        tree.setFocus()
        qtbot.waitUntil(tree.hasFocus, timeout=WAIT_MS)

    def shot(native: bool) -> QImage:
        monkeypatch.setattr(paint, "_native_panels", native)
        return tree.viewport().grab().toImage()

    from_the_palette = shot(native=False)
    assert style.panels == 0
    by_the_style = shot(native=True)
    assert style.panels >= 4  # every row's background came from the style
    assert by_the_style == from_the_palette


def test_the_window_hands_rows_to_the_style_after_its_first_paint(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(paint, "_native_panels", False)
    monkeypatch.setattr("memtab.gui.window.features.start_rotating", lambda: None)
    after_first_paint()
    assert paint._native_panels
