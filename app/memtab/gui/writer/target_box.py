"""The Inbox's "Accept into:" chooser: the memory file accepting the selected items writes.

Its first entry is what the Inbox proposes (`writer.inbox.targets`: the file each item
belongs in — one file, or "where each belongs" for items that belong apart), its tooltip
why; the others are the files the user may choose instead, widest scope first (global,
project, workspace). An agent's change writes the file it names: with one selected the
chooser shows that file, and cannot change it.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QWidget

from memtab.file_protocol.file_ref import SourceError, is_virtual_path, parse_file_id
from memtab.writer.inbox.inbox import InboxItem

MIN_CHARS = 8  # the shortest the chooser gets: it never widens the panel over the tree
_MEMORIES = "/memories/"
NOTHING_SELECTED = "select one"  # what the disabled chooser says while nothing is selected


def short_path(path: str) -> str:
    """`/memories/project/notes.md` as `project/notes.md`; another agent's file by its
    agent's name (`gemini:user:GEMINI.md` as `Gemini CLI · GEMINI.md`)."""
    if is_virtual_path(path):
        return path.removeprefix(_MEMORIES)
    try:
        return parse_file_id(path).shown
    except SourceError:
        return path


class TargetBox(QWidget):
    """ "Accept into: [project/notes.md (proposed) ▾]" (see the module docstring)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.label = QLabel("Accept &into:", self)
        self.combo = QComboBox(self)
        self.combo.setObjectName("inboxTarget")
        self.combo.setAccessibleName("Accept into")
        self.combo.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.combo.setMinimumContentsLength(MIN_CHARS)
        self.combo.setPlaceholderText(NOTHING_SELECTED)  # an empty box read as broken
        self.label.setBuddy(self.combo)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        layout.addWidget(self.label)
        layout.addWidget(self.combo, 1)
        self._choices: tuple[str, ...] = ()
        self._items: tuple[InboxItem, ...] = ()
        self._shown_for: frozenset[str] = frozenset()  # the items' ids
        self.show_for([])

    def set_choices(self, choices: Sequence[str]) -> None:
        """The files the user may choose (`writer.inbox.targets.target_choices`, listed
        off the GUI thread: they may come after the items were selected)."""
        if tuple(choices) != self._choices:
            self._choices = tuple(choices)
            self.show_for(self._items)

    def show_for(self, items: Sequence[InboxItem]) -> None:
        """Propose the file of the selected `items` (none: a disabled, empty chooser); the
        user's choice stays while the same items are selected (the Inbox read again)."""
        self._items = tuple(items)
        ids = frozenset(item.id for item in items)
        kept = self.chosen if ids == self._shown_for else None
        self._shown_for = ids
        self.combo.clear()
        paths = list(dict.fromkeys(item.memory_path for item in items))
        if not items:
            self.combo.setEnabled(False)
            self.combo.setToolTip("Select a proposed memory to choose where it goes")
            return
        movable = all(item.retargetable for item in items)
        proposed = " (proposed)" if movable else ""
        if len(paths) == 1:
            self.combo.addItem(short_path(paths[0]) + proposed, None)
        else:
            self.combo.addItem("Where each belongs" + proposed, None)
        reasons = sorted({item.target_reason for item in items if item.target_reason})
        if movable:
            for path in self._choices:
                if paths != [path]:  # the proposal is the first entry already
                    self.combo.addItem(short_path(path), path)
        self.combo.setEnabled(movable)
        self.combo.setCurrentIndex(0)
        if kept is not None:
            self.choose(kept)
        tip = "; ".join(reasons) if movable else "An agent's change writes the file it names"
        self.combo.setToolTip(tip[:1].upper() + tip[1:])

    @property
    def chosen(self) -> str | None:
        """The file the user chose, or None: where each belongs, as proposed."""
        data = self.combo.currentData()
        return data if isinstance(data, str) else None

    def choose(self, path: str) -> None:
        """Choose `path` (a test's seam, and the keyboard's)."""
        index = self.combo.findData(path)
        if index >= 0:
            self.combo.setCurrentIndex(index)
