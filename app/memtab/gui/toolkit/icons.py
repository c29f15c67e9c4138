"""Small monochrome SVG icons from `resources/icons`, tinted to the palette."""

from __future__ import annotations

from functools import lru_cache

from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtGui import QColor, QIcon, QPainter, QPixmap

from memtab.gui.toolkit.paint import fill
from memtab.resources import resource_path

_SIZES = (16, 20, 24, 32)


def icon_file(name: str) -> str:
    """The path of `resources/icons/<name>.svg`."""
    return str(resource_path("icons", f"{name}.svg"))


@lru_cache(maxsize=256)
def _tinted_pixmap(name: str, rgba: int, size: int, device_pixel_ratio: float) -> QPixmap:
    pixels = max(1, round(size * device_pixel_ratio))
    source = QIcon(icon_file(name)).pixmap(pixels, pixels)
    pixmap = QPixmap(pixels, pixels)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.drawPixmap(QPoint(0, 0), source)
    painter.setCompositionMode(QPainter.CompositionMode.CompositionMode_SourceIn)
    fill(painter, QRect(0, 0, pixels, pixels), QColor.fromRgba(rgba))
    painter.end()
    pixmap.setDevicePixelRatio(device_pixel_ratio)
    return pixmap


def tinted_pixmap(name: str, color: QColor, size: int, device_pixel_ratio: float = 1.0) -> QPixmap:
    """`name` drawn `size` logical pixels wide in `color` (cached)."""
    return _tinted_pixmap(name, color.rgba(), size, device_pixel_ratio)


def tinted_icon(name: str, color: QColor) -> QIcon:
    """An icon of `name` in `color`, at the usual small sizes."""
    icon = QIcon()
    for size in _SIZES:
        icon.addPixmap(tinted_pixmap(name, color, size))
    return icon


def app_icon() -> QIcon:
    """Memtab's own icon (window and task bar)."""
    return QIcon(icon_file("memtab"))
