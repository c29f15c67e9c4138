"""Recently deleted's rows: a group per scope or agent, a burst under it with its files,
and the files deleted on their own (`components.history.deleted`).

Each row keeps what it shows in its data: a group's filter key, a burst's id, a file's
row key (`row_key`), so the dialog finds the model's object again from a row.
"""

from __future__ import annotations

import logging

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QPalette
from PySide6.QtWidgets import QTreeWidgetItem

from memtab import humanize
from memtab.components.history.deleted import BurstFiles, DeletedFile, TrashGroup
from memtab.store.actors import actor_name

logger = logging.getLogger(__name__)

NOTHING = "Nothing was deleted here (that Memtab saw)."
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


def row_key(file: DeletedFile) -> str:
    """What tells one row from every other: a file may be in a burst (restored since)
    and deleted again on its own."""
    return f"{file.key}\n{file.path}\n{file.version.id}\n{file.burst_id or ''}"


def group_row(group: TrashGroup) -> QTreeWidgetItem:
    """A group's title row: `Claude Code (20)` (the files still deleted)."""
    header = QTreeWidgetItem([f"{group.label} ({group.deleted_count})"])
    header.setFlags(Qt.ItemFlag.ItemIsEnabled)
    header.setData(0, GROUP_ROLE, group.filter_key)
    return header


def empty_row() -> QTreeWidgetItem:
    empty = QTreeWidgetItem([NOTHING])
    empty.setFlags(Qt.ItemFlag.NoItemFlags)
    return empty


def burst_row(burst: BurstFiles, palette: QPalette) -> QTreeWidgetItem:
    """A burst: what happened — who, how many, when — and what was put back since, over
    every column (`setFirstColumnSpanned` once in the tree): its files' rows say the rest."""
    row = QTreeWidgetItem([burst.words])
    row.setData(0, BURST_ROLE, burst.id)
    font = QFont(row.font(0))
    font.setBold(True)
    row.setFont(0, font)
    size = humanize.size_text(sum(file.size_bytes for file in burst.files))
    lines = [burst.words, humanize.absolute_time(burst.event.at)]
    if burst.place:
        lines.append(f"In {burst.place} · {size}")
    if burst.left_to_restore:
        lines.append(f"Restore all puts back {humanize.plural(burst.left_to_restore, 'file')}")
    row.setToolTip(0, "\n".join(lines))
    if not burst.left_to_restore:
        _mute(row, palette)
    return row


def file_row(file: DeletedFile, palette: QPalette) -> QTreeWidgetItem:
    """A deleted (or a burst's rewritten) file: its name, when, who, its size."""
    marks = [" · pinned" if file.pinned else "", " · rewritten" if file.rewritten else ""]
    if file.restored_by is not None:
        marks.append(" · restored")  # by whom and when: its tooltip, the burst's preview
    elif file.there_again:
        marks.append(" · there again")
    state = file.state_words()
    row = QTreeWidgetItem(
        [
            file.name + "".join(marks),
            humanize.relative_time(file.at),
            actor_name(file.actor),
            humanize.size_text(file.size_bytes),
        ]
    )
    row.setData(0, PATH_ROLE, file.path)
    row.setData(0, ORPHAN_ROLE, file.orphan_dir or "")
    row.setData(0, ROW_ROLE, row_key(file))
    tips = [file.where] + ([state] if state else [])
    if file.pinned:
        tips.append("Pinned: the pin comes back with it")
    if file.rewritten:
        tips.append("Rewritten: Restore gives it what it held before (if unchanged since)")
    if file.cannot_restore:
        tips.append(f"Cannot be restored: {file.cannot_restore}")
    row.setToolTip(0, "\n".join(tips))
    row.setToolTip(1, humanize.absolute_time(file.at))
    if file.version.run_id:
        row.setToolTip(2, f"Run {file.version.run_id}")
    if not file.restorable:
        _mute(row, palette)
    return row


def _mute(row: QTreeWidgetItem, palette: QPalette) -> None:
    """Grey a row whose files are back (or cannot come back): still listed, still read."""
    color = palette.color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text)
    for column in range(4):
        row.setForeground(column, color)
