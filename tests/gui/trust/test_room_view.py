"""What needs you, shorter than its list (the Trust panel open below it): its scroll bar is
drawn as every other scroll bar, on the window's colour like the list — a style sheet made
the list transparent and drew the bar's groove black."""

from __future__ import annotations

from PySide6.QtWidgets import QListWidgetItem, QWidget
from pytestqt.qtbot import QtBot

from memtab.gui.trust.room_view import RoomView


def test_the_scroll_bar_groove_is_not_black_and_the_list_is_on_the_window(
    qtbot: QtBot,
) -> None:
    host = QWidget()
    qtbot.addWidget(host)
    host.resize(500, 200)
    room = RoomView(host)
    room.resize(500, 200)
    for number in range(40):
        room.list.addItem(QListWidgetItem(f"row {number}"))
    host.show()
    qtbot.waitExposed(host)
    bar = room.list.verticalScrollBar()
    assert bar.isVisible()
    shot = host.grab().toImage()
    groove = bar.mapTo(host, bar.rect().bottomLeft())  # scrolled to the top: groove below
    assert shot.pixelColor(groove.x() + bar.width() // 2, groove.y() - 20).lightness() > 128
    corner = room.list.viewport().mapTo(host, room.list.viewport().rect().topRight())
    behind = host.palette().window().color()
    assert shot.pixelColor(corner.x() - 5, corner.y() + 60) == behind  # no Base painted
