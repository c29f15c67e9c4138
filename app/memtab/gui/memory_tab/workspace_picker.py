"""Choosing the workspace whose project and workspace scopes the Memory tab shows.

A combo box over `WorkspaceListModel`: one non-selectable header row per project, its
workspaces below it (agent-task workspaces and side chats indented under their parent, a
task whose parent was removed under the notebook it kept: a task tree reads as one
notebook, docs/formats.md §2.5), archived ones dimmed and tagged, multi-project ones tagged.
A home without workspaces (a fresh Memtab home) shows a single "No workspace" row and a
link that adds one (File → Add workspace).
"""

from __future__ import annotations

import enum
from collections.abc import Iterator
from typing import Any, NamedTuple

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
    QVBoxLayout,
    QWidget,
)

from memtab.gui.toolkit.paint import paint_row_panel, row_state
from memtab.gui.toolkit.style import mute
from memtab.store.sidecars.registry import MULTI_PROJECT_KEY, Registry, Workspace

ModelIndex = QModelIndex | QPersistentModelIndex

WORKSPACE_ID_ROLE = Qt.ItemDataRole.UserRole + 1
ROW_ROLE = Qt.ItemDataRole.UserRole + 2

NO_WORKSPACE_TEXT = "No workspace — global memory only"
ADD_WORKSPACE_LINK = "memtab-add-workspace"
ADD_WORKSPACE_HINT = (
    "This home has no workspaces yet, so only global memory is shown. "
    f'<a href="{ADD_WORKSPACE_LINK}">Add a workspace…</a>'
)
MULTI_PROJECT_TITLE = "Multi-project workspaces"


class RowKind(enum.IntEnum):
    """What a picker row is."""

    PROJECT = 0
    WORKSPACE = 1
    NONE = 2


class PickerRow(NamedTuple):
    """One row of the picker."""

    kind: RowKind
    text: str
    workspace: Workspace | None = None
    depth: int = 0
    project_title: str = ""

    @property
    def tags(self) -> list[str]:
        """Muted labels after a workspace's name."""
        if self.workspace is None:
            return []
        tags = []
        if self.workspace.shares_notebook:
            tags.append("shared notebook")
        if self.workspace.multi_project:
            tags.append("multi-project")
        if self.workspace.archived:
            tags.append("archived")
        return tags


def project_title(project_path: str, display_name: str) -> str:
    """How a project's header reads (the synthetic `_multi` key gets a real title)."""
    return MULTI_PROJECT_TITLE if project_path == MULTI_PROJECT_KEY else display_name


def picker_rows(registry: Registry) -> list[PickerRow]:
    """The rows for a registry: projects in order, children under their parents."""
    known = {ws.id for ws in registry.workspaces}
    children: dict[str, list[Workspace]] = {}
    for ws in registry.workspaces:
        parent = _tree_parent(ws, known)
        if parent is not None:
            children.setdefault(parent, []).append(ws)
    rows: list[PickerRow] = []
    placed: set[str] = set()

    def subtree(ws: Workspace, depth: int, title: str) -> Iterator[PickerRow]:
        if ws.id in placed:
            return  # a parent cycle in a hand-edited config
        placed.add(ws.id)
        yield PickerRow(RowKind.WORKSPACE, ws.display_name, ws, depth, title)
        for child in children.get(ws.id, []):
            yield from subtree(child, depth + 1, title)

    for project in registry.projects:
        title = project_title(project.path, project.display_name)
        top_level = [ws for ws in project.workspaces if _tree_parent(ws, known) is None]
        project_rows = [row for ws in top_level for row in subtree(ws, 0, title)]
        if project_rows:
            rows.append(PickerRow(RowKind.PROJECT, title, project_title=title))
            rows.extend(project_rows)
    leftovers = [ws for ws in registry.workspaces if ws.id not in placed]
    if leftovers:  # children whose parent chain loops
        rows.append(PickerRow(RowKind.PROJECT, "Other workspaces", project_title="Other"))
        rows.extend(row for ws in leftovers for row in subtree(ws, 0, "Other"))
    if not rows:
        rows.append(PickerRow(RowKind.NONE, NO_WORKSPACE_TEXT))
    return rows


def _tree_parent(ws: Workspace, known: set[str]) -> str | None:
    """The row a workspace sits under: its registered parent (a sub-agent's, a side
    chat's), else the notebook it shares (a task whose parent was removed), else none."""
    for parent in (ws.parent_id, ws.side_chat_parent_id):
        if parent is not None and parent in known and parent != ws.id:
            return parent
    return ws.notebook_id if ws.shares_notebook else None


def _tooltip(row: PickerRow) -> str | None:
    ws = row.workspace
    if ws is None:
        return None
    lines = [f"{ws.display_name} ({ws.id})"]
    if ws.path:
        lines.append(ws.path)
    if ws.multi_project:
        lines.append("Multi-project: " + ", ".join(ws.projects or (ws.project_path,)))
        lines.append("No project memory (no single project identity)")
    else:
        lines.append(f"Project: {ws.project_path}")
    if ws.parent_id:
        lines.append(f"Agent task of {ws.parent_id}")
    if ws.side_chat_parent_id:
        lines.append(f"Side chat of {ws.side_chat_parent_id}")
    if ws.shares_notebook:
        lines.append(f"Workspace memory: the notebook of {ws.notebook_id}, shared by its task tree")
    if ws.archived:
        lines.append(f"Archived {ws.archived_at}")
    return "\n".join(lines)


class WorkspaceListModel(QAbstractListModel):
    """The picker's rows (see `picker_rows`); project headers are not selectable."""

    def __init__(self, parent: Any = None) -> None:
        """An empty model; `set_registry` fills it."""
        super().__init__(parent)
        self._rows: list[PickerRow] = [PickerRow(RowKind.NONE, NO_WORKSPACE_TEXT)]

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
        for position, row in enumerate(self._rows):
            if workspace_id is None and row.kind is RowKind.NONE:
                return position
            if row.workspace is not None and row.workspace.id == workspace_id:
                return position
        return -1

    def rowCount(self, parent: ModelIndex = QModelIndex()) -> int:  # noqa: B008
        """Qt: a flat list."""
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
            if row.kind is RowKind.PROJECT:
                return f"Project {row.text}"
            tags = row.tags
            return row.text + (f" ({', '.join(tags)})" if tags else "")
        if role == Qt.ItemDataRole.ToolTipRole:
            return _tooltip(row)
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
        if isinstance(row, PickerRow) and row.workspace is not None:
            suffix = f"  ({', '.join(row.tags)})" if row.tags else ""
            option.currentText = f"{row.project_title}  ›  {row.text}{suffix}"


class WorkspacePicker(QWidget):
    """The workspace combo box plus the "no workspace yet" hint.

    Signals:
        workspace_requested(str): the user chose a workspace (the tab decides whether to
            switch — it may refuse over unsaved changes and call `select_workspace` back).
        add_workspace_requested(): the user clicked "Add a workspace…" in the hint.
    """

    workspace_requested = Signal(str)
    add_workspace_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        """An empty picker; `set_registry` fills it."""
        super().__init__(parent)
        self.model = WorkspaceListModel(self)
        self.combo = _PickerCombo(self)
        self.combo.setAccessibleName("Choose workspace")
        self.combo.setToolTip("The workspace whose project and workspace memory is shown")
        self.combo.setModel(self.model)
        self.combo.setItemDelegate(_PickerDelegate(self.combo))
        self.combo.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.combo.setMinimumContentsLength(16)
        self.combo.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.combo.setMaxVisibleItems(24)
        self.hint = QLabel(ADD_WORKSPACE_HINT, self)
        self.hint.setObjectName("noWorkspaceHint")
        self.hint.setWordWrap(True)
        self.hint.setTextFormat(Qt.TextFormat.RichText)
        self.hint.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse
            | Qt.TextInteractionFlag.LinksAccessibleByMouse
            | Qt.TextInteractionFlag.LinksAccessibleByKeyboard
        )
        self.hint.linkActivated.connect(self._on_hint_link_activated)
        mute(self.hint)
        self.hint.hide()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(6)
        layout.addWidget(self.combo)
        layout.addWidget(self.hint)
        self.setFocusProxy(self.combo)
        self._current_id: str | None = None
        self.combo.activated.connect(self._on_combo_activated)

    @property
    def current_workspace_id(self) -> str | None:
        """The workspace shown as chosen (None: no workspace)."""
        return self._current_id

    def set_registry(
        self, registry: Registry, current_id: str | None, *, readable: bool = True
    ) -> None:
        """Show `registry`'s workspaces with `current_id` chosen. With `readable` False
        (config.json is broken: the tab says so) the "add a workspace" hint stays hidden."""
        self.model.set_registry(registry)
        has_workspaces = bool(registry.workspaces)
        self.hint.setVisible(readable and not has_workspaces)
        self.combo.setEnabled(has_workspaces)
        self.select_workspace(current_id)

    def select_workspace(self, workspace_id: str | None) -> None:
        """Show `workspace_id` as chosen, without emitting `workspace_requested`."""
        self._current_id = workspace_id
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
        if not isinstance(workspace_id, str) or workspace_id == self._current_id:
            self.select_workspace(self._current_id)
            return
        self.workspace_requested.emit(workspace_id)
