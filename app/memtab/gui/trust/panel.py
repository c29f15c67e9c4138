"""The Trust panel (View → Trust): a tree of Said twice, Disagreeing and In the wrong place,
each finding with a row per place (Enter opens it), buttons acting on the finding selected,
and why it was found; Ctrl+Z in it is Edit → Undo (`undo_requested`)."""

from __future__ import annotations

import functools
from collections.abc import Sequence

from PySide6.QtCore import Qt, Signal, SignalInstance, Slot
from PySide6.QtGui import QKeyEvent, QKeySequence
from PySide6.QtWidgets import (
    QLabel,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QWidget,
)

from memtab.components.trust.changes import move_target
from memtab.components.trust.room import (
    TRUST_TITLES,
    contradiction_item,
    duplicate_item,
    leak_item,
    place_target,
)
from memtab.components.window.menus import MENUS
from memtab.components.window.mnemonics import mnemonic, with_mnemonic
from memtab.gui.toolkit.keyboard_return import PanelLetters
from memtab.gui.toolkit.widgets import hbox, vbox
from memtab.trust.contradictions.records import Contradiction
from memtab.trust.duplicates.records import DuplicateGroup
from memtab.trust.leaks.records import Leak
from memtab.trust.memories import where_in_words
from memtab.trust.records import MemoryPlace
from memtab.trust.report import TrustReport

_BUTTONS = ("&Open", "Com&bine into…", "&Keep as they are", "&Side by side")  # Move's says where
_TAKEN = {
    letter
    for text in (*(title for _menu, title in MENUS), *_BUTTONS)
    if (letter := mnemonic(text)) is not None
}
"""Letters Move's may not have: the menu bar's and the panel's other buttons' (the panel's
letters are its own only while the keyboard is in it: `toolkit.keyboard_return.PanelLetters`)."""

FOUND_ROLE = Qt.ItemDataRole.UserRole + 1
PLACE_ROLE = Qt.ItemDataRole.UserRole + 2
Found = DuplicateGroup | Contradiction | Leak


class TrustPanel(QWidget):
    """The panel. Signals: open_requested(Target); combine_requested, keep_requested
    (DuplicateGroup), side_by_side_requested(Contradiction), move_requested(Leak) for the
    buttons; undo_requested(bool): Ctrl+Z (False) or Ctrl+Shift+Z (True) in the panel."""

    open_requested = Signal(object)
    combine_requested = Signal(object)
    keep_requested = Signal(object)
    side_by_side_requested = Signal(object)
    move_requested = Signal(object)
    undo_requested = Signal(bool)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("trustPanel")
        self.status = QLabel("Not looked at yet.", self)
        self.status.setWordWrap(True)
        self.tree = QTreeWidget(self)
        self.tree.setObjectName("trustTree")
        self.tree.setAccessibleName("Duplicates, contradictions and leaks")
        self.tree.setHeaderHidden(True)
        self.tree.setUniformRowHeights(True)
        self.tree.itemActivated.connect(self._on_tree_item_activated)
        self.tree.currentItemChanged.connect(self._update_buttons)
        self.why = QLabel(self)
        self.why.setWordWrap(True)
        self.why.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.open_button, self.combine_button, self.keep_button, self.side_button = (
            QPushButton(text, self) for text in _BUTTONS
        )
        self.move_button = QPushButton("&Move", self)
        self.open_button.clicked.connect(self._on_open_button_clicked)
        for button, kind, signal in (
            (self.combine_button, DuplicateGroup, self.combine_requested),
            (self.keep_button, DuplicateGroup, self.keep_requested),
            (self.side_button, Contradiction, self.side_by_side_requested),
            (self.move_button, Leak, self.move_requested),
        ):
            button.clicked.connect(functools.partial(self._emit_selected, kind, signal))
        buttons = hbox(
            self.open_button, self.combine_button, self.keep_button, self.side_button,
            self.move_button, 1,
        )  # fmt: skip
        vbox(self.status, (self.tree, 1), self.why, buttons, on=self)
        self.letters = PanelLetters(self)  # Alt+O is Check's Open too: each panel's own
        self.report: TrustReport | None = None
        self._update_buttons()

    def set_status(self, text: str) -> None:
        self.status.setText(text)

    def set_report(self, report: TrustReport) -> None:
        """Show `report`, the finding the keys were on kept when it is still there."""
        current = self.tree.currentItem()
        keep = _key_of(current.data(0, FOUND_ROLE)) if current is not None else None
        self.report = report
        self.tree.clear()
        parts: Sequence[Sequence[Found]] = (report.duplicates, report.contradictions, report.leaks)
        again: QTreeWidgetItem | None = None
        for title, found in zip(TRUST_TITLES.values(), parts, strict=True):
            part = QTreeWidgetItem(self.tree, [f"{title} · {len(found)}"])
            part.setFlags(part.flags() & ~Qt.ItemFlag.ItemIsSelectable)
            for one in found:
                row = QTreeWidgetItem(part, [_text(one)])
                row.setData(0, FOUND_ROLE, one)
                row.setToolTip(0, _why(one))
                for said, place in _rows(one):
                    line = f":{place.line}" if place.line is not None else ""
                    shown = f"{said}{place.path}{line} ({where_in_words(place)})"
                    child = QTreeWidgetItem(row, [shown])
                    child.setData(0, FOUND_ROLE, one)
                    child.setData(0, PLACE_ROLE, place)
                    if place.text:
                        child.setToolTip(0, place.text.strip())
                if keep is not None and _key_of(one) == keep:
                    again = row
            part.setExpanded(True)
        if again is not None:
            self.tree.setCurrentItem(again)
        elif self.tree.hasFocus():
            self.select_first()  # the keyboard in the list: on a finding, not a title
        self._update_buttons()

    def select_first(self) -> None:
        """Put the tree's current row on a finding, if it is on none (the keyboard's row;
        a part's title row is no finding)."""
        if self.selected() is not None:
            return
        for index in range(self.tree.topLevelItemCount()):
            part = self.tree.topLevelItem(index)
            first = part.child(0) if part is not None else None
            if first is not None:
                self.tree.setCurrentItem(first)
                return

    def selected(self) -> Found | None:
        item = self.tree.currentItem()
        found = item.data(0, FOUND_ROLE) if item is not None else None
        return found if isinstance(found, DuplicateGroup | Contradiction | Leak) else None

    def keyPressEvent(self, event: QKeyEvent) -> None:
        for key, redo in (
            (QKeySequence.StandardKey.Undo, False),
            (QKeySequence.StandardKey.Redo, True),
        ):
            if event.matches(key):
                self.undo_requested.emit(redo)
                event.accept()
                return
        super().keyPressEvent(event)

    def _update_buttons(self) -> None:
        found = self.selected()
        self.open_button.setEnabled(found is not None)
        is_group = isinstance(found, DuplicateGroup)
        self.combine_button.setEnabled(is_group)
        self.keep_button.setEnabled(is_group)
        self.side_button.setEnabled(isinstance(found, Contradiction))
        target = move_target(found) if isinstance(found, Leak) else None
        self.move_button.setEnabled(target is not None)
        self.letters.set_text(
            self.move_button, with_mnemonic(target, _TAKEN) if target else "&Move"
        )
        other = isinstance(found, Leak) and target is None
        self.move_button.setToolTip(
            "Another agent's memory: move it with that agent" if other else ""
        )
        self.why.setText(_why(found) if found is not None else "")

    @Slot(QTreeWidgetItem, int)
    def _on_tree_item_activated(self, item: QTreeWidgetItem, _column: int) -> None:
        place = item.data(0, PLACE_ROLE)
        if isinstance(place, MemoryPlace):
            self.open_requested.emit(place_target(place))
            return
        found = item.data(0, FOUND_ROLE)
        if isinstance(found, Contradiction):
            self.side_by_side_requested.emit(found)
        elif found is not None:
            self.open_requested.emit(place_target(_places(found)[0]))

    @Slot()
    def _on_open_button_clicked(self) -> None:
        item = self.tree.currentItem()
        if item is not None:
            self._on_tree_item_activated(item, 0)

    def _emit_selected(self, kind: type, signal: SignalInstance) -> None:
        """A button's click: its signal, with the finding selected if it is a `kind`."""
        if isinstance(found := self.selected(), kind):
            signal.emit(found)


def _places(found: Found) -> tuple[MemoryPlace, ...]:
    if isinstance(found, DuplicateGroup):
        return found.members
    if isinstance(found, Contradiction):
        return (*found.first.places, *found.second.places)
    return (found.place,)


def _rows(found: Found) -> tuple[tuple[str, MemoryPlace], ...]:
    """A finding's places, each as its row under the finding says it: a contradiction's
    after the value its side states (every copy of a side is a place of it)."""
    if isinstance(found, Contradiction):
        return tuple(
            (f"{side.value} · ", place)
            for side in (found.first, found.second)
            for place in side.places
        )
    return tuple(("", place) for place in _places(found))


def _text(found: Found) -> str:
    if isinstance(found, DuplicateGroup):
        return duplicate_item(found).text
    if isinstance(found, Contradiction):
        return contradiction_item(found).text
    return leak_item(found).text


def _why(found: Found) -> str:
    return f"{found.why} Belongs in {found.belongs}." if isinstance(found, Leak) else found.why


def _key_of(found: object) -> tuple[str, ...] | None:
    if isinstance(found, DuplicateGroup):
        return ("duplicate", found.key)
    if isinstance(found, Contradiction):
        # By what each side says, not where its newest place is: a copy written again
        # (a newer place) leaves the keys on the same contradiction.
        said = (" ".join(side.place.text.split()) for side in (found.first, found.second))
        return ("contradiction", found.kind, found.about, *said)
    if isinstance(found, Leak):
        return ("leak", found.kind, found.place.path, str(found.place.line))
    return None
