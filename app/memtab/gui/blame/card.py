"""A line's blame card with its links: the popup a click on the gutter opens.

Who wrote the line, when, which run and op and why, which transcript messages it was
drawn from (selectable, to copy), and a button per link (`components.blame.Link`):
a writer line's trace dump in the Traces tab, a run in Runs… on its op. The card closes
when a link is followed, on Esc, or on a click elsewhere (a popup).
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt, Signal, Slot
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QFrame, QLabel, QPushButton, QVBoxLayout, QWidget

from memtab.components.blame import GutterEntry, Link
from memtab.components.rich_text import escape_html

CARD_WIDTH = 420


class BlameCard(QFrame):
    """One line's card (see the module docstring).

    Signals:
        link_activated(Link): a link's button was clicked (the card closes).
    """

    link_activated = Signal(object)

    def __init__(self, entry: GutterEntry, parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Popup)
        self.setObjectName("blameCard")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAccessibleName(f"Blame: {entry.title}")
        self.entry = entry
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 10, 12, 10)
        layout.setSpacing(4)
        title = QLabel(f"<b>{escape_html(entry.title)}</b>", self)
        layout.addWidget(title)
        for detail in entry.details:
            label = QLabel(detail, self)
            label.setWordWrap(True)
            label.setTextFormat(Qt.TextFormat.PlainText)
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            layout.addWidget(label)
        self.buttons: list[QPushButton] = []
        for link in entry.links:
            button = QPushButton(link.text, self)
            button.setProperty("blameLink", link.kind)
            button.clicked.connect(self._on_button_clicked)
            layout.addWidget(button)
            self.buttons.append(button)
        self.setFixedWidth(CARD_WIDTH)

    def show_at(self, point: QPoint) -> None:
        """Show the card at `point` (global), kept on its screen."""
        self.adjustSize()
        screen = QGuiApplication.screenAt(point) or QGuiApplication.primaryScreen()
        area = screen.availableGeometry()
        x = max(area.left(), min(point.x(), area.right() - self.width()))
        y = max(area.top(), min(point.y(), area.bottom() - self.height()))
        self.move(x, y)
        self.show()

    @Slot()
    def _on_button_clicked(self) -> None:
        button = self.sender()
        index = self.buttons.index(button) if isinstance(button, QPushButton) else -1
        if index < 0:
            return
        link: Link = self.entry.links[index]
        self.close()
        self.link_activated.emit(link)
