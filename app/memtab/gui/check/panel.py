"""The Check panel: the findings of the last check (file, line, kind, message, and why), a
status line, and Check now, Open, Apply fix (a mux file's lines only). It shows what
`CheckFeature` gives it and asks through its signals; it reads nothing itself."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QSize, Qt, Signal, Slot
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from memtab.check.records import Finding
from memtab.components.check import (
    FIX_TIP,
    NOT_CHECKED_YET,
    finding_key,
    finding_tip,
    fixable,
    panel_row,
    selection_view,
)
from memtab.gui.toolkit.panel_letters import PanelLetters
from memtab.gui.toolkit.widgets import WrappedLabel

_INDEX_ROLE = Qt.ItemDataRole.UserRole
COLUMNS = ("File", "Line", "Kind", "Message")
"""The list's columns; File shows the file's name (its tooltip the whole path or id)."""


class CheckPanel(QWidget):
    """The findings of the last check. Signals: check_requested(), open_requested(object)
    (a Finding), fix_requested(object) (a tuple of Findings)."""

    check_requested = Signal()
    open_requested = Signal(object)
    fix_requested = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("checkPanel")
        self._findings: list[Finding] = []
        self.status = WrappedLabel(NOT_CHECKED_YET, self)
        self.status.setAccessibleName("Check status")
        self.list = QTreeWidget(self)
        self.list.setAccessibleName("Findings")
        self.list.setHeaderLabels(list(COLUMNS))
        self.list.setRootIsDecorated(False)
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.list.setColumnWidth(0, 120)
        self.list.setColumnWidth(1, 36)
        self.list.setColumnWidth(2, 175)
        self.why = WrappedLabel("", self)
        self.why.setAccessibleName("Why")
        self.why.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.check_button = QPushButton("Check no&w", self)
        self.open_button = QPushButton("&Open", self)
        self.fix_button = QPushButton("Apply fi&x…", self)  # Alt+F: the File menu
        self.fix_button.setToolTip(FIX_TIP)
        buttons = QHBoxLayout()
        buttons.addWidget(self.check_button)
        buttons.addStretch(1)
        buttons.addWidget(self.open_button)
        buttons.addWidget(self.fix_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.status)
        layout.addWidget(self.list, 1)
        layout.addWidget(self.why)
        layout.addLayout(buttons)
        self.setFocusProxy(self.list)  # the panel's key puts the keyboard in the findings
        self.letters = PanelLetters(self)  # Alt+O is Trust's Open too: each panel's own
        self.check_button.clicked.connect(self._on_check_button_clicked)
        self.open_button.clicked.connect(self._on_open_button_clicked)
        self.fix_button.clicked.connect(self._on_fix_button_clicked)
        self.list.itemSelectionChanged.connect(self._on_list_selection_changed)
        self.list.itemActivated.connect(self._on_list_item_activated)
        self._on_list_selection_changed()

    def sizeHint(self) -> QSize:
        return QSize(640, 220)  # below the tabs: a few rows, the message beside the rest

    @property
    def findings(self) -> list[Finding]:
        """The findings listed, in order."""
        return list(self._findings)

    def set_status(self, text: str) -> None:
        """The line over the list ("Checking…", what the last check found)."""
        self.status.setText(text)

    def set_findings(self, findings: Sequence[Finding]) -> None:
        """List `findings`, keeping the selection of those still listed."""
        selected = {finding_key(f) for f in self.selected()}
        self._findings = list(findings)
        self.list.clear()
        for index, finding in enumerate(self._findings):
            row = panel_row(finding)
            item = QTreeWidgetItem([row.name, row.line, row.kind, row.message])
            item.setData(0, _INDEX_ROLE, index)
            tip = finding_tip(finding)
            for column in range(len(COLUMNS)):
                item.setToolTip(column, tip)
            self.list.addTopLevelItem(item)
            if finding_key(finding) in selected:
                item.setSelected(True)
        self._on_list_selection_changed()

    def selected(self) -> list[Finding]:
        """The selected findings, in list order."""
        indexes = sorted(
            int(item.data(0, _INDEX_ROLE))
            for item in self.list.selectedItems()
            if item.data(0, _INDEX_ROLE) is not None
        )
        return [self._findings[i] for i in indexes if i < len(self._findings)]

    def select(self, index: int) -> None:
        """Select the `index`th finding only."""
        item = self.list.topLevelItem(index)
        if item is not None:
            self.list.setCurrentItem(item)

    @Slot()
    def _on_list_selection_changed(self) -> None:
        shown = selection_view(self.selected())
        self.open_button.setEnabled(shown.open_enabled)
        self.fix_button.setEnabled(shown.fix_enabled)
        self.why.setText(shown.why)

    @Slot()
    def _on_check_button_clicked(self) -> None:
        self.check_requested.emit()

    @Slot()
    def _on_open_button_clicked(self) -> None:
        chosen = self.selected()
        if len(chosen) == 1:
            self.open_requested.emit(chosen[0])

    @Slot(QTreeWidgetItem, int)
    def _on_list_item_activated(self, item: QTreeWidgetItem, _column: int) -> None:
        index = item.data(0, _INDEX_ROLE)
        if index is not None:
            self.open_requested.emit(self._findings[int(index)])

    @Slot()
    def _on_fix_button_clicked(self) -> None:
        chosen = fixable(self.selected())
        if chosen:
            self.fix_requested.emit(chosen)
