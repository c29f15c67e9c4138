"""What needs the user, as one list (`RoomView`): shown with no file open, each item leading
to its file and line or its panel (`components.trust.room`)."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtGui import QFont, QPalette
from PySide6.QtWidgets import QLabel, QListWidget, QListWidgetItem, QStyle, QWidget

from memtab.components.trust.room import PANEL_OF, RoomSection, Target, headline
from memtab.gui.toolkit.style import muted_text
from memtab.gui.toolkit.widgets import named, vbox

TARGET_ROLE = Qt.ItemDataRole.UserRole + 1


class RoomView(QWidget):
    """What needs the user, as one list; `open_requested(Target)`: an item chosen."""

    open_requested = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("needsYouRoom")
        self.headline = named(QLabel("Looking at the memory…", self), "needsYouHeadline")
        font = QFont(self.headline.font())
        font.setPointSizeF(font.pointSizeF() * 1.15)
        font.setBold(True)
        self.headline.setFont(font)
        self.headline.setWordWrap(True)
        self.list = named(QListWidget(self), "needsYouList", accessible="What needs you")
        self.list.setWordWrap(True)
        self.list.setUniformItemSizes(False)
        self.list.setFrameShape(QListWidget.Shape.NoFrame)
        self.list.viewport().setAutoFillBackground(False)
        # on the window's colour; by palette: a style sheet drew its scroll bar's groove black
        clear = self.list.palette()
        clear.setColor(QPalette.ColorRole.Base, Qt.GlobalColor.transparent)
        self.list.setPalette(clear)
        # Enter (and, where the style says so, a click) activates; else a click does too.
        self.list.itemActivated.connect(self._on_list_item_activated)
        hint = QStyle.StyleHint.SH_ItemView_ActivateItemOnSingleClick
        if not self.list.style().styleHint(hint, None, self.list):
            self.list.itemClicked.connect(self._on_list_item_activated)
        vbox(self.headline, (self.list, 1), on=self, margins=(24, 8, 24, 8))
        self.sections: tuple[RoomSection, ...] = ()

    def show_sections(self, sections: Sequence[RoomSection]) -> None:
        """Show `sections` in place of what was shown (the row the keys were on kept)."""
        self.sections = tuple(sections)
        self.headline.setText(headline(sections))
        keep = self.list.currentRow()
        self.list.clear()
        muted = muted_text(self.palette())
        for section in sections:
            if section.summary:
                counted = f"{section.title} — {section.summary}"
            else:
                counted = f"{section.title} · {section.count or 'nothing'}"
            title = QListWidgetItem(counted)
            font = QFont(title.font())
            font.setBold(True)
            title.setFont(font)
            panel = PANEL_OF[section.key]
            if panel and section.count:
                title.setData(TARGET_ROLE, Target(panel=panel))
                title.setToolTip(f"Enter: the {panel.title()} panel")
            else:
                title.setFlags(title.flags() & ~Qt.ItemFlag.ItemIsSelectable)
                if not section.count:
                    title.setForeground(muted)
            self.list.addItem(title)
            for item in section.items:
                row = QListWidgetItem("    " + item.text)
                row.setData(TARGET_ROLE, item.target)
                row.setToolTip(item.tip)
                self.list.addItem(row)
            for note in filter(None, (section.more, section.apart)):
                more = QListWidgetItem(f"    {note}")
                more.setData(TARGET_ROLE, Target(panel=panel) if panel else None)
                more.setForeground(muted)
                self.list.addItem(more)
        if 0 <= keep < self.list.count():
            self.list.setCurrentRow(keep)

    def select_first(self) -> None:
        """Put the list's current row on its first item that leads somewhere, unless it
        is on one."""
        current = self.list.currentItem()
        if current is not None and current.data(TARGET_ROLE) is not None:
            return
        for row in range(self.list.count()):
            if self.list.item(row).data(TARGET_ROLE) is not None:
                self.list.setCurrentRow(row)
                break

    @Slot(QListWidgetItem)
    def _on_list_item_activated(self, item: QListWidgetItem) -> None:
        target = item.data(TARGET_ROLE)
        if isinstance(target, Target):
            self.open_requested.emit(target)
