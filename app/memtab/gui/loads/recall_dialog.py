"""The dialog of What each agent recalls (Ctrl+Shift+Y): a prompt, then per agent what it
loads, would recall (by rank) and misses and why (`memtab.loads.recall`; rows:
`components.loads.loads`). Enter in the prompt asks, ↓ goes to the rows, Enter on a row
opens its file and puts the dialog away; no button is a default one (Enter never asks again)."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QSize, Qt, Signal, Slot
from PySide6.QtGui import QBrush, QColor, QFont, QKeyEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QWidget,
)

from memtab.components.loads.loads import (
    LOADED,
    MISSED,
    NEVER,
    FilePlace,
    RecallGroup,
    RecallRow,
    recall_groups,
    summary,
)
from memtab.gui.loads.dialog import WrappingDelegate
from memtab.gui.toolkit.dialog_layout import button_box, fit_to_screen
from memtab.gui.toolkit.row_list import tree_rows
from memtab.gui.toolkit.style import Accent
from memtab.gui.toolkit.widgets import chain_tab_order, hbox, named, vbox
from memtab.loads.recall.records import Recall

COLUMNS = ("", "File", "Why")
WHY_COLUMN = COLUMNS.index("Why")
PLACE_ROLE = Qt.ItemDataRole.UserRole
HOW_MARK = "how"
FILE_WIDTH = 320  # px: the File column's widest; past it, Why has the room
FILE_SHARE = 0.4  # the File column's share of a narrow dialog's rows
ASK_FIRST = (
    "Type what you would ask an agent, then Enter: each agent's pick for it, and why each "
    "memory is taken or missed."
)


ASKING_MODEL = "Asking the model set in Settings, as Claude Code asks its own…"


class RecallDialog(QDialog):
    """What each agent recalls for a prompt. Signals: recall_requested(str) (the prompt),
    place_requested(object) (a row's `FilePlace` to open)."""

    recall_requested = Signal(str)
    place_requested = Signal(object)
    model_wanted = Signal(bool)
    """*Ask the model too* was checked (True) or cleared."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("recallDialog")
        self.setWindowTitle("What each agent recalls for a prompt")
        label = QLabel("&Prompt:", self)
        self.prompt = named(QLineEdit(self), "recallPrompt")
        self.prompt.setPlaceholderText("e.g. why does the stripe webhook fire twice?")
        self.prompt.setClearButtonEnabled(True)
        label.setBuddy(self.prompt)
        self.recall_button = QPushButton("&Recall", self)
        self.ask_model = named(QCheckBox("Ask the &model too", self), "recallAskModel")
        self.ask_model.setToolTip(
            "Also send the model set in File → Settings the request Claude Code sends its "
            "own to pick memories (the manifest and the prompt): its pick beside the "
            "words'. It costs the tokens the answer says."
        )
        self.summary = named(QLabel(ASK_FIRST, self), "recallSummary")
        self.summary.setWordWrap(True)
        self.tree = named(QTreeWidget(self), "recallTree")
        self.tree.setHeaderLabels(list(COLUMNS))
        self.tree.setRootIsDecorated(True)
        self.tree.setUniformRowHeights(False)
        self.tree.setWordWrap(True)  # why is wrapped, never elided
        self.tree.setTextElideMode(Qt.TextElideMode.ElideMiddle)  # a path's name stays
        header = self.tree.header()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Interactive)
        header.resizeSection(1, FILE_WIDTH)
        header.setStretchLastSection(True)
        self.tree.setItemDelegate(WrappingDelegate(self.tree, WHY_COLUMN))
        header.sectionResized.connect(self._on_header_section_resized)
        buttons = button_box(self)
        for button in (*buttons.buttons(), self.recall_button):
            if isinstance(button, QPushButton):
                button.setAutoDefault(False)  # Enter in the rows opens a file, nothing else
                button.setDefault(False)
        asking = hbox(label, (self.prompt, 1), self.ask_model, self.recall_button)
        vbox(asking, self.summary, (self.tree, 1), buttons, on=self)
        chain_tab_order([self.prompt, self.tree, self.ask_model, self.recall_button])
        fit_to_screen(self, QSize(1000, 600), remember="recall")
        self.recall_button.clicked.connect(self._ask)
        self.ask_model.toggled.connect(self.model_wanted)
        self.prompt.returnPressed.connect(self._ask)
        self.prompt.installEventFilter(self)
        self.tree.installEventFilter(self)
        self.tree.itemActivated.connect(self._on_tree_item_activated)

    def take_keyboard(self) -> None:
        """Put the keyboard in the prompt, its text selected (typing replaces it)."""
        self.activateWindow()
        self.prompt.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.prompt.selectAll()

    def show_busy(self, prompt: str) -> None:
        self.summary.setText(f"Reading what each agent would recall for “{prompt}”…")

    def show_asking_model(self) -> None:
        """The words' prediction shows; the model's is on its way."""
        self.summary.setText(f"{self.summary.text()} {ASKING_MODEL}")

    def show_failure(self, message: str) -> None:
        self.summary.setText(f"Could not tell what the agents recall: {message}")

    def show_result(self, result: object) -> None:
        """What the worker found: the recall, or why not."""
        if isinstance(result, Recall):
            self.show_recall(result)
        else:
            self.show_failure(str(result))

    def show_recall(self, recall: Recall) -> None:
        """The recall's groups, each open on what the prompt brings (the rest folded); the row
        that had the keyboard keeps it when it is still there."""
        current = self.tree.currentItem()
        kept = (current.text(0), current.text(1)) if current is not None else None
        self.summary.setText(summary(recall))
        self.tree.clear()
        for group in recall_groups(recall):
            item = self._group_item(group)
            self.tree.addTopLevelItem(item)
            item.setFirstColumnSpanned(True)  # the title across the row; marks stay narrow
            item.setExpanded(True)
        if kept is not None:
            for item in self._rows():
                if (item.text(0), item.text(1)) == kept:
                    self.tree.setCurrentItem(item)
                    break

    def _group_item(self, group: RecallGroup) -> QTreeWidgetItem:
        item = QTreeWidgetItem([group.title])
        font = QFont(item.font(0))
        font.setBold(True)
        item.setFont(0, font)
        notes = (group.how, *group.notes)
        item.setToolTip(0, "\n".join(notes))
        how = QTreeWidgetItem([HOW_MARK, "How it picks", ""])
        how.setToolTip(1, "\n".join(notes))
        for note in notes:
            line = QTreeWidgetItem(["", "", note])
            line.setToolTip(WHY_COLUMN, note)
            how.addChild(line)
        item.addChild(how)
        for row in group.rows:
            item.addChild(self._row_item(row))
        folded = [how]
        if group.loaded:
            start = QTreeWidgetItem([LOADED, group.loaded_title, ""])
            for row in group.loaded:
                start.addChild(self._row_item(row))
            item.addChild(start)
            folded.append(start)
        for row_item in folded:
            for column in range(len(COLUMNS)):
                row_item.setForeground(column, QBrush(QColor("gray")))
        return item

    def _row_item(self, row: RecallRow) -> QTreeWidgetItem:
        child = QTreeWidgetItem([row.mark, row.name, row.why])
        child.setData(0, PLACE_ROLE, row.place)
        child.setToolTip(1, row.tip or row.name)
        child.setToolTip(WHY_COLUMN, row.why)
        if row.mark in (MISSED, NEVER):
            for column in range(len(COLUMNS)):
                child.setForeground(column, QBrush(QColor(Accent.WARNING.value)))
        return child

    def _rows(self) -> list[QTreeWidgetItem]:
        """Every row under the groups, in the tree's order (folded ones too)."""
        return [row for row in tree_rows(self.tree) if row.parent() is not None]

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """↓ in the prompt goes to the rows (their first file, when none is current); the
        File column follows the rows' width, so Why keeps room to wrap in."""
        if watched is self.tree and event.type() == QEvent.Type.Resize:
            width = self.tree.viewport().width()
            self.tree.header().resizeSection(1, max(120, min(FILE_WIDTH, int(width * FILE_SHARE))))
            return False
        if (
            watched is self.prompt
            and event.type() == QEvent.Type.KeyPress
            and isinstance(event, QKeyEvent)
            and event.key() == Qt.Key.Key_Down
            and self.tree.topLevelItemCount()
        ):
            shown = [row for row in self._rows() if _shown(row)]
            first = next((row for row in shown if row.data(0, PLACE_ROLE)), None)
            if self.tree.currentItem() is None and (first or shown):
                self.tree.setCurrentItem(first or shown[0])
            self.tree.setFocus(Qt.FocusReason.TabFocusReason)
            return True
        return super().eventFilter(watched, event)

    def _ask(self) -> None:
        prompt = self.prompt.text().strip()
        if prompt:
            self.recall_requested.emit(prompt)

    @Slot(int, int, int)
    def _on_header_section_resized(self, column: int, _old: int, _new: int) -> None:
        if column == WHY_COLUMN:
            self.tree.scheduleDelayedItemsLayout()  # the rows' heights, wrapped anew

    @Slot(QTreeWidgetItem, int)
    def _on_tree_item_activated(self, item: QTreeWidgetItem, _column: int) -> None:
        place = item.data(0, PLACE_ROLE)
        if isinstance(place, FilePlace):
            self.place_requested.emit(place)
        elif item.childCount():
            item.setExpanded(not item.isExpanded())  # How it picks, what every start reads


def _shown(item: QTreeWidgetItem) -> bool:
    """Whether a row shows: every row above it unfolded."""
    parent = item.parent()
    while parent is not None:
        if not parent.isExpanded():
            return False
        parent = parent.parent()
    return True
