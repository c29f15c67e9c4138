"""The dialog of View → What each agent loads: per agent, in its order, the files it reads
at a session's start — each `@`-import under the file that imports it — how much of each
and where it stops, wrapped (`memtab.loads`; the rows: `components.loads.loads`)."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, QSize, Qt, Signal, Slot
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QDialog,
    QHeaderView,
    QLabel,
    QPushButton,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTreeWidget,
    QTreeWidgetItem,
    QWidget,
)

from memtab.components.loads.loads import agent_rows, file_tip, opens_outside
from memtab.gui.toolkit.dialog_layout import button_box, fit_to_screen
from memtab.gui.toolkit.row_list import tree_rows
from memtab.gui.toolkit.style import Accent
from memtab.gui.toolkit.widgets import named, vbox
from memtab.humanize import display_path
from memtab.loads.records import AGENT_LABELS, AgentLoads, LoadedFile, Loads

COLUMNS = ("File", "Lines", "Read", "Tokens", "Where it stops")
FILE_ROLE = Qt.ItemDataRole.UserRole


STOPS_COLUMN = COLUMNS.index("Where it stops")


class WrappingDelegate(QStyledItemDelegate):
    """Rows as tall as the text of `column` (*Where it stops*, the recall's *Why*) wrapped
    at its width (Qt's own asks for one line: its size hint knows no column width)."""

    def __init__(self, tree: QTreeWidget, column: int = STOPS_COLUMN) -> None:
        super().__init__(tree)
        self._tree = tree
        self._column = column

    def initStyleOption(
        self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> None:
        """The other columns on one line, a long path cut in its middle (its file's name
        stays), never wrapped at its slashes and cut at its end."""
        super().initStyleOption(option, index)
        if index.column() != self._column:
            option.features &= ~QStyleOptionViewItem.ViewItemFeature.WrapText

    def sizeHint(
        self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> QSize:
        if index.column() == self._column:
            option = QStyleOptionViewItem(option)
            # A valid rect, or Qt's style measures the text on one line.
            option.rect = QRect(0, 0, self._tree.header().sectionSize(self._column), 1)
        return super().sizeHint(option, index)


class LoadsDialog(QDialog):
    """What each agent loads. Signals: refresh_requested(), file_requested(str) (a row's file
    id or path), outside_requested(str) (a file no source holds: the external editor)."""

    refresh_requested = Signal()
    file_requested = Signal(str)
    outside_requested = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("loadsDialog")
        self.setWindowTitle("What each agent loads")
        self.summary = named(QLabel("Reading what each agent loads…", self), "loadsSummary")
        self.summary.setWordWrap(True)
        self.tree = named(QTreeWidget(self), "loadsTree")
        self.tree.setHeaderLabels(list(COLUMNS))
        self.tree.setRootIsDecorated(True)
        # Where a file stops is wrapped, never elided: rows grow to hold it.
        self.tree.setUniformRowHeights(False)
        self.tree.setWordWrap(True)
        self.tree.setTextElideMode(Qt.TextElideMode.ElideMiddle)  # a path's name stays
        header = self.tree.header()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
        header.resizeSection(0, 340)
        for column in (1, 2, 3):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        self.tree.setItemDelegate(WrappingDelegate(self.tree))
        header.sectionResized.connect(self._on_header_section_resized)
        self.refresh_button = QPushButton("&Refresh", self)
        vbox(self.summary, (self.tree, 1), button_box(self, extra=[self.refresh_button]), on=self)
        fit_to_screen(self, QSize(900, 520), remember="loads")  # a list: it keeps min/max
        self.refresh_button.clicked.connect(self.refresh_requested)
        self.tree.itemActivated.connect(self._on_tree_item_activated)

    def show_busy(self) -> None:
        self.summary.setText("Reading what each agent loads…")
        self.refresh_button.setEnabled(False)

    def show_failure(self, message: str) -> None:
        self.summary.setText(f"Could not tell what the agents load: {message}")
        self.refresh_button.setEnabled(True)

    def show_result(self, result: object) -> None:
        """What the worker found: the loads, or why not."""
        if isinstance(result, Loads):
            self.show_loads(result)
        else:
            self.show_failure(str(result))

    def show_loads(self, loads: Loads) -> None:
        """The agents' rows, open; the row that had the keyboard keeps it when it is still
        there, and the list stays where it was scrolled (read again after a change)."""
        kept = _row_key(self.tree.currentItem())
        scrolled = self.tree.verticalScrollBar().value()
        where = f" in {display_path(loads.directory)}" if loads.directory else ""
        self.summary.setText(
            f"What each agent reads at the start of a session{where}, in its order. Tokens "
            "are estimated (bytes / 4). Rows in orange are not read whole."
        )
        self.tree.clear()
        for agent in loads.agents:
            self.tree.addTopLevelItem(self._agent_item(agent))
        self.tree.expandAll()
        for item in tree_rows(self.tree) if kept is not None else ():
            if _row_key(item) == kept:
                self.tree.setCurrentItem(item)
                break
        self.tree.verticalScrollBar().setValue(scrolled)
        self.refresh_button.setEnabled(True)

    def _agent_item(self, agent: AgentLoads) -> QTreeWidgetItem:
        title = f"{AGENT_LABELS[agent.agent]} — about {agent.total_tokens:,} tokens"
        item = QTreeWidgetItem([title, "", "", "", "; ".join(agent.notes)])
        item.setToolTip(4, "\n".join(agent.notes))
        font = item.font(0)
        font.setBold(True)
        item.setFont(0, font)
        rows: list[QTreeWidgetItem] = []
        for file, parent, label, stops in agent_rows(agent):
            row = QTreeWidgetItem(
                [label, str(file.lines), str(file.loaded_lines), f"{file.loaded_tokens:,}", stops]
            )
            row.setData(0, FILE_ROLE, file)
            outside = " (not among Memtab's files: Enter opens it in the external editor)"
            row.setToolTip(0, file_tip(file) + (outside if opens_outside(file) else ""))
            row.setToolTip(4, stops)
            if file.cut_at_line is not None:
                for column in range(len(COLUMNS)):
                    row.setForeground(column, QBrush(QColor(Accent.WARNING.value)))
            elif file.when == "on demand":
                for column in range(len(COLUMNS)):
                    row.setForeground(column, QBrush(QColor("gray")))
            (item if parent is None else rows[parent]).addChild(row)
            rows.append(row)
        return item

    @Slot(int, int, int)
    def _on_header_section_resized(self, column: int, _old: int, _new: int) -> None:
        if column == STOPS_COLUMN:
            self.tree.scheduleDelayedItemsLayout()  # the rows' heights, wrapped anew

    @Slot(QTreeWidgetItem, int)
    def _on_tree_item_activated(self, item: QTreeWidgetItem, _column: int) -> None:
        file = item.data(0, FILE_ROLE)
        if isinstance(file, LoadedFile) and opens_outside(file) and file.physical_path:
            self.outside_requested.emit(file.physical_path)
        elif isinstance(file, LoadedFile):
            self.file_requested.emit(file.id or file.path or "")


def _row_key(item: QTreeWidgetItem | None) -> tuple[str, ...] | None:
    """What names a row across two readings: its agent's (the title's name, not its token
    count) and, for a file, where the file is (its tooltip) — None for no row."""
    if item is None:
        return None
    top = item
    while (parent := top.parent()) is not None:
        top = parent
    agent = top.text(0).split(" — ", 1)[0]
    return (agent,) if item is top else (agent, item.toolTip(0), item.text(0))
