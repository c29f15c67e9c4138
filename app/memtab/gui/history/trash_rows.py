"""Recently deleted's rows: a group per scope or agent, a burst under it with its files,
and the files deleted on their own (`components.history.deleted`).

Each row keeps what it shows in its data: a group's filter key, a burst's id, a file's
row key (`row_key`), so the dialog finds the model's object again from a row. What each
row says is `components.history.trash_view`'s.
"""

from __future__ import annotations

import logging

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QPalette
from PySide6.QtWidgets import QTreeWidgetItem

from memtab.components.history.deleted import BurstFiles, DeletedFile, TrashGroup
from memtab.components.history.trash_view import NOTHING, group_title, row_key
from memtab.components.history.trash_view import burst_row as burst_view
from memtab.components.history.trash_view import file_row as file_view

logger = logging.getLogger(__name__)

PATH_ROLE = Qt.ItemDataRole.UserRole
"""A file row's path as history names it."""
ORPHAN_ROLE = Qt.ItemDataRole.UserRole + 1
"""A file row's orphaned project dir ("" for none)."""
ROW_ROLE = Qt.ItemDataRole.UserRole + 2
"""A file row's `row_key`."""
BURST_ROLE = Qt.ItemDataRole.UserRole + 3
"""A burst row's id."""
GROUP_ROLE = Qt.ItemDataRole.UserRole + 4
"""A group row's filter key."""


def group_row(group: TrashGroup) -> QTreeWidgetItem:
    """A group's title row: `Claude Code (20)` (the files still deleted)."""
    header = QTreeWidgetItem([group_title(group)])
    header.setFlags(Qt.ItemFlag.ItemIsEnabled)
    header.setData(0, GROUP_ROLE, group.filter_key)
    return header


def empty_row(words: str = NOTHING) -> QTreeWidgetItem:
    empty = QTreeWidgetItem([words])
    empty.setFlags(Qt.ItemFlag.NoItemFlags)
    return empty


def burst_row(burst: BurstFiles, palette: QPalette) -> QTreeWidgetItem:
    """A burst: what happened over every column (`setFirstColumnSpanned` once in the
    tree): its files' rows say the rest."""
    view = burst_view(burst)
    row = QTreeWidgetItem([view.words])
    row.setData(0, BURST_ROLE, burst.id)
    font = QFont(row.font(0))
    font.setBold(True)
    row.setFont(0, font)
    row.setToolTip(0, view.tooltip)
    if view.muted:
        _mute(row, palette)
    return row


def file_row(file: DeletedFile, palette: QPalette) -> QTreeWidgetItem:
    """A deleted (or a burst's rewritten) file: its name, when, who, its size."""
    view = file_view(file)
    row = QTreeWidgetItem(list(view.cells))
    row.setData(0, PATH_ROLE, file.path)
    row.setData(0, ORPHAN_ROLE, file.orphan_dir or "")
    row.setData(0, ROW_ROLE, row_key(file))
    for column, tip in enumerate(view.tooltips):
        if tip:
            row.setToolTip(column, tip)
    if view.muted:
        _mute(row, palette)
    return row


def _mute(row: QTreeWidgetItem, palette: QPalette) -> None:
    """Grey a row whose files are back (or cannot come back): still listed, still read."""
    color = palette.color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text)
    for column in range(4):
        row.setForeground(column, color)
