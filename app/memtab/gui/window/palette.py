"""Quick open (Ctrl+P) and the command palette (Ctrl+Shift+P), as in VS Code: one small
dialog with a field and a list; the rows and their matching are Qt-free
(`components/window/palette.py`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import (
    QEvent,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QRect,
    QSize,
    Qt,
)
from PySide6.QtGui import QFont, QFontMetrics, QKeyEvent, QPainter, QPalette
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QWidget,
)

from memtab.components.window.palette import (
    PaletteEntry,
    action_entry,
    by_label,
    file_entries,
    letter_runs,
    matched_letters,
    matching,
    moved_row,
)
from memtab.gui.actions import ActionRegistry, plain_title
from memtab.gui.context import WindowContext
from memtab.gui.first_paint.main_window import MainWindow
from memtab.gui.toolkit.dialog_layout import fit_to_screen
from memtab.gui.toolkit.style import mute
from memtab.gui.toolkit.widgets import named, vbox

_MOVES = {
    Qt.Key.Key_Down: 1,
    Qt.Key.Key_Up: -1,
    Qt.Key.Key_PageDown: 10,
    Qt.Key.Key_PageUp: -10,
}


MATCHED_ROLE = Qt.ItemDataRole.UserRole + 1
"""A row's matched letters: where in its text the letters typed are (`matched_letters`)."""


class MatchedLetters(QStyledItemDelegate):
    """Draws a row with the letters typed in bold (as VS Code's Quick open does), so it
    shows why the row matched; a row too long for the list is elided as before, plain."""

    def paint(
        self,
        painter: QPainter,
        option: QStyleOptionViewItem,
        index: QModelIndex | QPersistentModelIndex,
    ) -> None:
        matched = index.data(MATCHED_ROLE)
        text = str(index.data(Qt.ItemDataRole.DisplayRole) or "")
        item = QStyleOptionViewItem(option)
        self.initStyleOption(item, index)
        room = item.rect.adjusted(4, 0, -4, 0)
        bold = QFont(item.font)
        bold.setBold(True)
        if not matched or QFontMetrics(bold).horizontalAdvance(text) > room.width():
            super().paint(painter, option, index)
            return
        item.text = ""
        style = item.widget.style() if item.widget is not None else QApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, item, painter, item.widget)
        selected = bool(item.state & QStyle.StateFlag.State_Selected)
        role = QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
        painter.save()
        painter.setPen(item.palette.color(role))
        x = room.left()
        for run, is_matched in letter_runs(text, matched):
            font = bold if is_matched else item.font
            painter.setFont(font)
            painter.drawText(
                QRect(x, room.top(), room.right() - x, room.height()),
                int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
                run,
            )
            x += QFontMetrics(font).horizontalAdvance(run)
        painter.restore()


class PaletteDialog(QDialog):
    """A field and a fuzzy-filtered list of entries; Enter (or a click) chooses one."""

    def __init__(
        self,
        title: str,
        placeholder: str,
        entries: Sequence[PaletteEntry],
        parent: QWidget | None = None,
        *,
        empty_text: str = "Nothing matches.",
    ) -> None:
        super().__init__(parent)  # a small dialog: `fit_to_screen` sets its flags
        self.setObjectName("paletteDialog")
        self.setWindowTitle(title)
        self.entries = list(entries)
        self.chosen: PaletteEntry | None = None
        self.shown: list[PaletteEntry] = []
        self.field = named(QLineEdit(self), accessible=title)
        self.field.setPlaceholderText(placeholder)
        self.field.setClearButtonEnabled(True)
        self.field.installEventFilter(self)
        self.field.textChanged.connect(self._filter)
        self.list = named(QListWidget(self), accessible=f"{title}: matches")
        self.list.setUniformItemSizes(True)
        self.list.setTextElideMode(Qt.TextElideMode.ElideMiddle)  # a long path keeps its end
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the field keeps the keyboard
        self.list.setItemDelegate(MatchedLetters(self.list))
        self.list.itemActivated.connect(self._choose)
        self.list.itemClicked.connect(self._choose)
        self.empty = mute(QLabel(empty_text, self))
        vbox(self.field, (self.list, 1), self.empty, on=self)
        self._filter("")
        self.field.setFocus()
        fit_to_screen(self, QSize(560, 420))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.field and event.type() == QEvent.Type.KeyPress:
            assert isinstance(event, QKeyEvent)
            key = event.key()
            if key in _MOVES:
                row = moved_row(self.list.currentRow(), _MOVES[Qt.Key(key)], self.list.count())
                if row is not None:
                    self.list.setCurrentRow(row)
                return True
            if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                item = self.list.currentItem()
                if item is not None:
                    self._choose(item)
                return True
        return super().eventFilter(watched, event)

    def _filter(self, query: str) -> None:
        self.shown = matching(query, self.entries)
        self.list.clear()
        for entry in self.shown:
            item = QListWidgetItem(entry.text)
            item.setToolTip(entry.shown_detail)
            item.setData(MATCHED_ROLE, matched_letters(query, entry))
            self.list.addItem(item)
        if self.shown:
            self.list.setCurrentRow(0)
        self.empty.setVisible(not self.shown)

    def _choose(self, item: QListWidgetItem) -> None:
        self.chosen = self.shown[self.list.row(item)]
        self.accept()


def action_entries(actions: ActionRegistry, *, leave_out: frozenset[str]) -> list[PaletteEntry]:
    """Every registered action enabled now (menus' states brought up to date first), with
    its menu and keys; `leave_out`: the palette's own."""
    actions.refresh()
    entries = []
    for entry in actions.entries():
        action = entry.action
        if entry.id in leave_out or not action.isEnabled():
            continue
        keys = [key.toString(key.SequenceFormat.NativeText) for key in entry.keys]
        entries.append(action_entry(plain_title(action.text()), entry.menu, keys, action.trigger))
    actions.release()
    return by_label(entries)


class Palette(QObject):
    """Registers Quick open and the command palette, and runs their dialogs."""

    QUICK_OPEN = "window.quick_open"
    PALETTE = "window.command_palette"

    def __init__(
        self,
        context: WindowContext,
        window: MainWindow,
        open_key: Callable[[str], object],
        parent: QObject,
    ) -> None:
        super().__init__(parent)
        self._context = context
        self._window = window
        self._open_key = open_key
        context.actions.add(
            self.QUICK_OPEN,
            "Quick o&pen…",
            self.quick_open,
            keys=["Ctrl+P"],
            menu="file",
            tip="Open a memory file by typing part of its name",
        )
        context.actions.add(
            self.PALETTE,
            "Command &palette…",
            self.command_palette,
            keys=["Ctrl+Shift+P"],
            menu="view",
            tip="Run any action by typing part of its name",
        )

    def quick_open(self) -> None:
        """File → Quick open: choose a file of the scan shown, then open it."""
        self._window.show_memory_tab()
        entries = file_entries(self._context.shown.scan, self._open_key)
        self._run("Quick open", "Type part of a file's name or path", entries, "memory file")

    def command_palette(self) -> None:
        """View → Command palette: choose an enabled command, then run it."""
        entries = action_entries(
            self._context.actions, leave_out=frozenset({self.QUICK_OPEN, self.PALETTE})
        )
        self._run("Command palette", "Type part of an action's name", entries, "action")

    def _run(self, title: str, hint: str, entries: list[PaletteEntry], kind: str) -> None:
        dialog = PaletteDialog(
            title, hint, entries, self._window.as_widget(), empty_text=f"No {kind} matches."
        )
        self._window.exec_dialog(dialog)
        chosen = dialog.chosen
        dialog.deleteLater()
        if chosen is not None:
            chosen.choose()  # after the dialog closed: the command may open one of its own
