"""Small widgets more than one tab uses: `ElidedLabel` and `WrappedLabel`, labels that never
set the window's minimum width (a QLabel asks for its whole text, a path past the screen),
and `vbox`/`hbox`, a box layout filled in one call."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import TypeAlias, TypeVar

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QApplication,
    QBoxLayout,
    QHBoxLayout,
    QLabel,
    QLayout,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

_MIN_WIDTH = 40
W = TypeVar("W", bound=QWidget)
MAX_HINT_WIDTH = 640  # an elided label never asks for more (dialogs open at a sane size)


def named(
    widget: W, name: str | None = None, *, accessible: str | None = None, tip: str | None = None
) -> W:
    """`widget` with the object name, accessible name and tooltip given."""
    if name is not None:
        widget.setObjectName(name)
    if accessible is not None:
        widget.setAccessibleName(accessible)
    if tip is not None:
        widget.setToolTip(tip)
    return widget


class ElidedLabel(QLabel):
    """A one-line label elided in the middle to fit (paths keep both ends), whole in its
    tooltip; it never sets its window's minimum width."""

    def __init__(
        self,
        text: str = "",
        parent: QWidget | None = None,
        *,
        min_width: int = _MIN_WIDTH,
        max_hint: int = MAX_HINT_WIDTH,
        elide: Qt.TextElideMode = Qt.TextElideMode.ElideMiddle,
    ) -> None:
        """A selectable label that may shrink to `min_width` and asks for at most `max_hint`;
        `elide`: where the text is cut."""
        super().__init__(parent)
        self.full_text = ""
        self._min_width = min_width
        self._max_hint = max_hint
        self._elide_mode = elide
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        self.set_full_text(text)

    def set_full_text(self, text: str, tooltip: str | None = None) -> None:
        """Show `text`, elided to the current width; the tooltip is `tooltip`, or the
        whole text."""
        tip = text if tooltip is None else tooltip
        if text == self.full_text and tip == self.toolTip():
            return  # as shown: the footer and the panels set their texts again on each refresh
        self.full_text = text
        self.setToolTip(tip)
        self._elide()
        self.updateGeometry()

    def sizeHint(self) -> QSize:
        """The whole text's size (up to `MAX_HINT_WIDTH`): what it would like."""
        hint = super().sizeHint()
        margins = self.contentsMargins()
        extra = margins.left() + margins.right() + 2 * self.margin() + 8  # elision slack
        wanted = self.fontMetrics().horizontalAdvance(self.full_text) + extra
        return QSize(min(wanted, self._max_hint), hint.height())

    def minimumSizeHint(self) -> QSize:
        """As narrow as `min_width`: the text elides instead of widening the window."""
        return QSize(self._min_width, super().minimumSizeHint().height())

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._elide()

    def _elide(self) -> None:
        width = max(self.width() - 2, _MIN_WIDTH // 2)
        self.setText(self.fontMetrics().elidedText(self.full_text, self._elide_mode, width))


class WrappedLabel(QLabel):
    """A label for free text (messages, errors, summaries): it wraps to the width it gets
    and never asks for more, so a long word (a path, a URL) is cut at the edge instead
    of widening the window. Its height follows the wrapped text."""

    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        """A word-wrapping label that does not set its layout's minimum width."""
        super().__init__(text, parent)
        self.setWordWrap(True)
        policy = self.sizePolicy()  # keeps the height-for-width that wrapping turned on
        policy.setHorizontalPolicy(QSizePolicy.Policy.Ignored)
        self.setSizePolicy(policy)
        self.setMinimumWidth(_MIN_WIDTH)

    def minimumSizeHint(self) -> QSize:
        """One line: QLabel's is the text wrapped at its narrowest (a word a line), which
        a form row kept as its least height however wide it was — gaps above and below.
        Layouts give it the height its width needs (height-for-width)."""
        hint = super().minimumSizeHint()
        line = self.fontMetrics().lineSpacing() + 2 * self.margin()
        margins = self.contentsMargins()
        return QSize(hint.width(), min(hint.height(), line + margins.top() + margins.bottom()))


def holds_keyboard(panel: QWidget) -> bool:
    """Whether the keyboard is in `panel` or inside it."""
    focused = QApplication.focusWidget()
    return focused is not None and (focused is panel or panel.isAncestorOf(focused))


def tab_stops(container: QWidget) -> list[QWidget]:
    """The widgets inside `container` that Tab stops at, in Qt's focus order within it, found
    by `findChildren` (walking the focus chain from Python is slow and wraps every widget)."""
    tabbing, window = Qt.FocusPolicy.TabFocus, container.window()
    return [
        w
        for w in container.findChildren(QWidget)
        if w.focusPolicy() & tabbing and w.window() is window  # not a dialog's
    ]


def chain_tab_order(widgets: Sequence[QWidget]) -> None:
    """Tab goes through `widgets` in this order (each moved after the one before it;
    what followed the first follows the last)."""
    for first, second in itertools.pairwise(widgets):
        QWidget.setTabOrder(first, second)


Item: TypeAlias = (
    QWidget | QLayout | int | tuple[QWidget | QLayout, int] | tuple[QWidget, int, Qt.AlignmentFlag]
)
"""What a box holds: a widget or layout, with a stretch (and an alignment), or an int: a stretch."""
Margins: TypeAlias = int | tuple[int, int, int, int] | None
_Box = TypeVar("_Box", bound=QBoxLayout)


def fill(box: _Box, *items: Item, margins: Margins = None, spacing: int | None = None) -> _Box:
    """`box` holding `items` in order, with `margins` (one for every side, or four) and
    `spacing` if given."""
    if margins is not None:
        box.setContentsMargins(*((margins,) * 4 if isinstance(margins, int) else margins))
    if spacing is not None:
        box.setSpacing(spacing)
    for item in items:
        if isinstance(item, int):
            box.addStretch(item)
            continue
        thing, stretch, *align = item if isinstance(item, tuple) else (item, 0)
        if isinstance(thing, QLayout):
            box.addLayout(thing, stretch)
        else:
            box.addWidget(thing, stretch, *align)
    return box


def vbox(
    *items: Item, on: QWidget | None = None, margins: Margins = None, spacing: int | None = None
) -> QVBoxLayout:
    """A vertical box of `items` (see `fill`), laid on `on` if given."""
    return fill(
        QVBoxLayout() if on is None else QVBoxLayout(on), *items, margins=margins, spacing=spacing
    )


def hbox(
    *items: Item, on: QWidget | None = None, margins: Margins = None, spacing: int | None = None
) -> QHBoxLayout:
    """A horizontal box of `items` (see `fill`), laid on `on` if given."""
    return fill(
        QHBoxLayout() if on is None else QHBoxLayout(on), *items, margins=margins, spacing=spacing
    )
