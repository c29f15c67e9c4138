"""The GUI's shared style: accents blended into the current palette (no hard-coded
background) and one definition of muted text (`muted`, `muted_text`, `mute`)."""

from __future__ import annotations

from enum import Enum
from typing import TypeVar

from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QLabel, QWidget

# How far secondary text is pulled from the text colour towards its background.
MUTED_AMOUNT = 0.42


class Accent(Enum):
    """Semantic accents; each has a hue readable on light and dark backgrounds."""

    INFO = "#3b82f6"
    WARNING = "#d89b00"
    ERROR = "#dc3c3c"
    SUCCESS = "#2e9e5b"
    ADDED = "#2e9e5b"
    REMOVED = "#dc3c3c"

    @property
    def color(self) -> QColor:
        return QColor(self.value)


def blend(base: QColor, accent: QColor, amount: float) -> QColor:
    """`base` moved `amount` (0–1) of the way towards `accent`."""
    keep = 1.0 - amount
    return QColor.fromRgbF(
        base.redF() * keep + accent.redF() * amount,
        base.greenF() * keep + accent.greenF() * amount,
        base.blueF() * keep + accent.blueF() * amount,
    )


def is_dark(palette: QPalette) -> bool:
    """Whether the palette is a dark theme (its window is darker than its text)."""
    return (
        palette.color(QPalette.ColorRole.Window).lightness()
        < palette.color(QPalette.ColorRole.WindowText).lightness()
    )


def muted(text: QColor, background: QColor) -> QColor:
    """Secondary text: `text` pulled towards the `background` it is drawn on."""
    return blend(text, background, MUTED_AMOUNT)


def muted_text(palette: QPalette) -> QColor:
    """Secondary text on the palette's window background."""
    return muted(
        palette.color(QPalette.ColorRole.WindowText), palette.color(QPalette.ColorRole.Window)
    )


def set_style_sheet(widget: QWidget, sheet: str) -> None:
    """Give `widget` the style sheet `sheet` unless it has it already: Qt polishes a widget
    again whenever its sheet is set, and some widgets set theirs on every refresh."""
    if widget.styleSheet() != sheet:
        widget.setStyleSheet(sheet)


W = TypeVar("W", bound=QWidget)


def mute(widget: W, *, wrap: bool = False) -> W:
    """`widget` with its text drawn as secondary text (the palette's placeholder role),
    following palette switches by itself; `wrap`: a label's words wrap."""
    widget.setForegroundRole(QPalette.ColorRole.PlaceholderText)
    if wrap and isinstance(widget, QLabel):
        widget.setWordWrap(True)
    return widget


def tint(palette: QPalette, accent: Accent, role: QPalette.ColorRole, amount: float) -> QColor:
    """A background tinted with an accent (a little more in dark themes, where it is subtler)."""
    boost = 1.35 if is_dark(palette) else 1.0
    return blend(palette.color(role), accent.color, min(1.0, amount * boost))


def accent_text(palette: QPalette, accent: Accent) -> QColor:
    """The accent as text colour: lightened on dark backgrounds, darkened on light ones."""
    color = accent.color
    return color.lighter(135) if is_dark(palette) else color.darker(125)
