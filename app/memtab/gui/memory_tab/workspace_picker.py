"""Choosing the workspace the Memory tab shows: a combo over `WorkspaceListModel`
(`components.tree.workspace_rows`), or "No workspace" and a link that adds one.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import (
    QAbstractListModel,
    QModelIndex,
    QPersistentModelIndex,
    QRect,
    QSize,
    Qt,
    Signal,
    Slot,
)
from PySide6.QtGui import QFont, QFontMetrics, QPainter, QPalette
from PySide6.QtWidgets import (
    QComboBox,
    QLabel,
    QSizePolicy,
    QStyledItemDelegate,
    QStyleOptionComboBox,
    QStyleOptionViewItem,
    QWidget,
)

from memtab.components.tree.workspace_rows import (
    NO_WORKSPACE_ROW,
    PickerRow,
    RowKind,
    picker_rows,
    row_of,
)
from memtab.gui.toolkit.paint import paint_row_panel, row_state
from memtab.gui.toolkit.style import mute
from memtab.gui.toolkit.widgets import named, vbox
from memtab.store.sidecars.registry import Registry

ModelIndex = QModelIndex | QPersistentModelIndex

WORKSPACE_ID_ROLE = Qt.ItemDataRole.UserRole + 1
ROW_ROLE = Qt.ItemDataRole.UserRole + 2

ADD_WORKSPACE_LINK = "memtab-add-workspace"
ADD_WORKSPACE_HINT = (
    "This home has no workspaces yet, so only global memory is shown. "
    f'<a href="{ADD_WORKSPACE_LINK}">Add a workspace…</a>'
)


class WorkspaceListModel(QAbstractListModel):
    """The picker's rows (see `picker_rows`); project headers are not selectable."""

    def __init__(self, parent: Any = None) -> None:
        """An empty model; `set_registry` fills it."""
        super().__init__(parent)
        self._rows: list[PickerRow] = [NO_WORKSPACE_ROW]

    @property
    def rows(self) -> list[PickerRow]:
        return list(self._rows)

    def set_registry(self, registry: Registry) -> None:
        """Show the projects and workspaces of `registry`."""
        rows = picker_rows(registry)
        if rows == self._rows:
            return
        self.beginResetModel()
        self._rows = rows
        self.endResetModel()

    def row_of(self, workspace_id: str | None) -> int:
        """The row of a workspace (or of "No workspace" for None); -1 when absent."""
        return row_of(self._rows, workspace_id)

    def rowCount(self, parent: ModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def flags(self, index: ModelIndex) -> Qt.ItemFlag:
        """Qt: headers are inert; the "No workspace" row is shown, not chosen."""
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        row = self._rows[index.row()]
        if row.kind is RowKind.WORKSPACE:
            return (
                Qt.ItemFlag.ItemIsEnabled
                | Qt.ItemFlag.ItemIsSelectable
                | Qt.ItemFlag.ItemNeverHasChildren
            )
        return Qt.ItemFlag.ItemNeverHasChildren

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """Qt: texts, tooltips, the workspace id and the row itself."""
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        row = self._rows[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return row.text
        if role == Qt.ItemDataRole.AccessibleTextRole:
            return row.accessible_text
        if role == Qt.ItemDataRole.ToolTipRole:
            return row.tooltip
        if role == WORKSPACE_ID_ROLE:
            return row.workspace.id if row.workspace is not None else None
        if role == ROW_ROLE:
            return row
        return None


class _PickerDelegate(QStyledItemDelegate):
    """Popup rows: small-caps project headers; indented workspaces with muted tags."""

    def sizeHint(self, option: QStyleOptionViewItem, index: ModelIndex) -> QSize:
        """Headers a little taller, to separate the groups."""
        height = QFontMetrics(option.font).height()
        row = index.data(ROW_ROLE)
        extra = 14 if isinstance(row, PickerRow) and row.kind is RowKind.PROJECT else 10
        return QSize(240, height + extra)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: ModelIndex) -> None:
        """Draw a header or a workspace row."""
        row = index.data(ROW_ROLE)
        if not isinstance(row, PickerRow):
            super().paint(painter, option, index)
            return
        palette: QPalette = option.palette
        if row.kind is RowKind.WORKSPACE:
            selected, _focused = paint_row_panel(painter, option, index, self)
        else:  # a project's header: never drawn selected
            selected, _focused = row_state(option, index)
        text_role = QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
        text_color = palette.color(QPalette.ColorGroup.Normal, text_role)
        muted = palette.color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text)
        rect: QRect = option.rect.adjusted(10, 0, -10, 0)
        font = QFont(option.font)
        painter.save()
        if row.kind is RowKind.PROJECT:
            font.setBold(True)
            font.setPointSizeF(max(6.0, font.pointSizeF() * 0.85))
            font.setCapitalization(QFont.Capitalization.AllUppercase)
            painter.setFont(font)
            painter.setPen(muted)
            painter.drawText(rect.adjusted(0, 4, 0, 0), Qt.AlignmentFlag.AlignVCenter, row.text)
        else:
            rect = rect.adjusted(12 + 16 * row.depth, 0, 0, 0)
            if row.depth:
                painter.setPen(muted)
                painter.drawText(rect.adjusted(-14, 0, 0, 0), Qt.AlignmentFlag.AlignVCenter, "↳")
            tags = "  ".join(row.tags)
            small = QFont(font)
            small.setPointSizeF(max(6.0, font.pointSizeF() * 0.88))
            tag_width = QFontMetrics(small).horizontalAdvance(tags) + 8 if tags else 0
            if tags:
                painter.setFont(small)
                painter.setPen(muted if not selected else text_color)
                painter.drawText(
                    rect, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, tags
                )
            if row.workspace is not None and row.workspace.archived and not selected:
                text_color = muted
            painter.setFont(font)
            painter.setPen(text_color)
            text = QFontMetrics(font).elidedText(
                row.text, Qt.TextElideMode.ElideRight, rect.width() - tag_width
            )
            painter.drawText(rect, Qt.AlignmentFlag.AlignVCenter, text)
        painter.restore()


class _PickerCombo(QComboBox):
    """Shows "project › workspace" when closed."""

    def initStyleOption(self, option: QStyleOptionComboBox) -> None:
        """Qt's, with the project as context before the workspace name (Qt paints the
        combo from it: no QStyle in Python before the window's first paint)."""
        super().initStyleOption(option)
        row = self.currentData(ROW_ROLE)
        if isinstance(row, PickerRow) and (text := row.closed_text) is not None:
            option.currentText = text


class WorkspacePicker(QWidget):
    """The workspace combo box plus the "no workspace yet" hint."""

    # the user chose a workspace (the tab decides whether to switch — it may refuse over unsaved
    # changes and call `select_workspace` back)
    workspace_requested = Signal(str)
    add_workspace_requested = Signal()  # the user clicked "Add a workspace…" in the hint

    def __init__(self, parent: QWidget | None = None) -> None:
        """An empty picker; `set_registry` fills it."""
        super().__init__(parent)
        self.model = WorkspaceListModel(self)
        tip = "The workspace whose project and workspace memory is shown"
        self.combo = named(_PickerCombo(self), accessible="Choose workspace", tip=tip)
        self.combo.setModel(self.model)
        self.combo.setItemDelegate(_PickerDelegate(self.combo))
        self.combo.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.combo.setMinimumContentsLength(16)
        self.combo.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.combo.setMaxVisibleItems(24)
        self._hint: QLabel | None = None
        self._column = vbox(self.combo, on=self, margins=0, spacing=6)
        self.setFocusProxy(self.combo)
        self.current_workspace_id: str | None = None
        self.combo.activated.connect(self._on_combo_activated)

    @property
    def hint(self) -> QLabel:
        """The "add a workspace" hint under the combo, made when first asked for: a rich-text
        label costs the first paint of a home with workspaces ~10 ms it never shows."""
        if self._hint is None:
            hint = mute(named(QLabel(ADD_WORKSPACE_HINT, self), "noWorkspaceHint"), wrap=True)
            hint.setTextFormat(Qt.TextFormat.RichText)
            hint.setTextInteractionFlags(
                Qt.TextInteractionFlag.TextSelectableByMouse
                | Qt.TextInteractionFlag.LinksAccessibleByMouse
                | Qt.TextInteractionFlag.LinksAccessibleByKeyboard
            )
            hint.linkActivated.connect(self._on_hint_link_activated)
            hint.hide()
            self._column.addWidget(hint)
            self._hint = hint
        return self._hint

    def set_registry(
        self, registry: Registry, current_id: str | None, *, readable: bool = True
    ) -> None:
        """Show `registry`'s workspaces with `current_id` chosen. With `readable` False
        (config.json is broken: the tab says so) the "add a workspace" hint stays hidden."""
        self.model.set_registry(registry)
        has_workspaces = bool(registry.workspaces)
        shown = readable and not has_workspaces
        if shown or self._hint is not None:
            self.hint.setVisible(shown)
        self.combo.setEnabled(has_workspaces)
        self.select_workspace(current_id)

    def select_workspace(self, workspace_id: str | None) -> None:
        """Show `workspace_id` as chosen, without emitting `workspace_requested`."""
        self.current_workspace_id = workspace_id
        row = self.model.row_of(workspace_id)
        if row < 0:
            row = self.model.row_of(None)
        self.combo.blockSignals(True)
        self.combo.setCurrentIndex(row)
        self.combo.blockSignals(False)
        self.combo.update()

    @Slot(str)
    def _on_hint_link_activated(self, link: str) -> None:
        if link == ADD_WORKSPACE_LINK:
            self.add_workspace_requested.emit()

    @Slot(int)
    def _on_combo_activated(self, row: int) -> None:
        workspace_id = self.model.index(row, 0).data(WORKSPACE_ID_ROLE)
        if not isinstance(workspace_id, str) or workspace_id == self.current_workspace_id:
            self.select_workspace(self.current_workspace_id)
            return
        self.workspace_requested.emit(workspace_id)
