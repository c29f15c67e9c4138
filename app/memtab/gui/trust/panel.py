"""The Trust panel (View → Trust): a tree of Said twice, Disagreeing and In the wrong place,
then apart what the words only suspect (Might say the same, Might disagree: candidates,
never counted), each with a row per place (Enter opens it), buttons acting on the one
selected — a candidate only compared or put to the user's model —, and why it was found;
Ctrl+Z in it is Edit → Undo (`undo_requested`)."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from types import UnionType

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
from memtab.components.trust.compare import OFFLINE, finding_key
from memtab.components.trust.room import (
    CANDIDATE_TITLES,
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

_BUTTONS = (
    "&Open", "Com&bine into…", "&Keep as they are", "&Compare", "&Ask the model",
)  # fmt: skip  # Move's says where
_TAKEN = {
    letter
    for text in (*(title for _menu, title in MENUS), *_BUTTONS)
    if (letter := mnemonic(text)) is not None
}
"""Letters Move's may not have: the menu bar's and the panel's other buttons' (the panel's
letters are its own only while the keyboard is in it: `toolkit.keyboard_return.PanelLetters`)."""

FOUND_ROLE = Qt.ItemDataRole.UserRole + 1
PLACE_ROLE = Qt.ItemDataRole.UserRole + 2
CANDIDATE_ROLE = Qt.ItemDataRole.UserRole + 3  # True on a candidate's rows
Found = DuplicateGroup | Contradiction | Leak
NO_MODEL = "No model is set (File → Settings): compare them, or set one to ask it"
CANDIDATES_TIP = (
    "What the words only suspect: not counted, never acted on in one click — compare the "
    "places, or ask your model"
)


class TrustPanel(QWidget):
    """The panel. Signals: open_requested(Target); combine_requested, keep_requested
    (DuplicateGroup), compare_requested (a group or a contradiction), move_requested(Leak),
    ask_requested (a candidate) for the buttons; undo_requested(bool): Ctrl+Z (False) or
    Ctrl+Shift+Z (True) in the panel."""

    open_requested = Signal(object)
    combine_requested = Signal(object)
    keep_requested = Signal(object)
    compare_requested = Signal(object)
    move_requested = Signal(object)
    ask_requested = Signal(object)
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
        (
            self.open_button, self.combine_button, self.keep_button, self.compare_button,
            self.ask_button,
        ) = (QPushButton(text, self) for text in _BUTTONS)  # fmt: skip
        self.move_button = QPushButton("&Move", self)
        self.compare_button.setToolTip("Every place side by side, read-only, each to open")
        self.open_button.clicked.connect(self._on_open_button_clicked)
        for button, kind, signal, candidates in (
            (self.combine_button, DuplicateGroup, self.combine_requested, False),
            (self.keep_button, DuplicateGroup, self.keep_requested, False),
            (self.compare_button, DuplicateGroup | Contradiction, self.compare_requested, None),
            (self.move_button, Leak, self.move_requested, False),
            (self.ask_button, DuplicateGroup | Contradiction, self.ask_requested, True),
        ):
            emit = functools.partial(self._emit_selected, kind, signal, candidates)
            button.clicked.connect(emit)
        buttons = hbox(
            self.open_button, self.combine_button, self.keep_button, self.compare_button,
            self.move_button, self.ask_button, 1,
        )  # fmt: skip
        vbox(self.status, (self.tree, 1), self.why, buttons, on=self)
        self.letters = PanelLetters(self)  # Alt+O is Check's Open too: each panel's own
        self.report: TrustReport | None = None
        self.model = ""  # the user's model, to ask about a candidate ("": none is set)
        self._update_buttons()

    def set_status(self, text: str) -> None:
        self.status.setText(text)

    def set_report(self, report: TrustReport) -> None:
        """Show `report`, the finding the keys were on kept when it is still there."""
        current = self.tree.currentItem()
        keep = finding_key(current.data(0, FOUND_ROLE)) if current is not None else None
        self.report = report
        self.tree.clear()
        duplicates, contradictions = TRUST_TITLES["duplicates"], TRUST_TITLES["contradictions"]
        parts: list[tuple[str, Sequence[Found], bool]] = [
            (duplicates, report.duplicates, False),
            (contradictions, report.contradictions, False),
            (TRUST_TITLES["leaks"], report.leaks, False),
        ]
        suspected: tuple[tuple[str, Sequence[Found]], ...] = (
            (CANDIDATE_TITLES["duplicates"], report.duplicate_candidates),
            (CANDIDATE_TITLES["contradictions"], report.contradiction_candidates),
        )
        parts += [(title, found, True) for title, found in suspected if found]  # only if any
        again: QTreeWidgetItem | None = None
        for title, found, candidates in parts:
            part = QTreeWidgetItem(self.tree, [f"{title} · {len(found)}"])
            part.setFlags(part.flags() & ~Qt.ItemFlag.ItemIsSelectable)
            if candidates:
                part.setToolTip(0, CANDIDATES_TIP)
            for one in found:
                row = QTreeWidgetItem(part, [_text(one, candidate=candidates)])
                row.setToolTip(0, _why(one))
                for said, place in _rows(one):
                    line = f":{place.line}" if place.line is not None else ""
                    shown = f"{said}{place.path}{line} ({where_in_words(place)})"
                    child = QTreeWidgetItem(row, [shown])
                    child.setData(0, PLACE_ROLE, place)
                    if place.text:
                        child.setToolTip(0, place.text.strip())
                for item in (row, *(row.child(i) for i in range(row.childCount()))):
                    if item is not None:
                        item.setData(0, FOUND_ROLE, one)
                        item.setData(0, CANDIDATE_ROLE, candidates)
                if keep is not None and finding_key(one) == keep:
                    again = row
            part.setExpanded(True)
        if again is not None:
            self.tree.setCurrentItem(again)
        elif self.tree.hasFocus():
            self.select_first()  # the keyboard in the list: on a finding, not a title
        self._update_buttons()

    def set_model(self, model: str) -> None:
        """The user's model, asked about a candidate ("": none is set)."""
        self.model = model
        self._update_buttons()

    def select_found(self, key: tuple[str, ...] | None) -> bool:
        """Put the current row on the finding or candidate `key` names (False: none)."""
        for index in range(self.tree.topLevelItemCount()):
            part = self.tree.topLevelItem(index)
            rows = [part.child(i) for i in range(part.childCount())] if part is not None else []
            for row in rows:
                if row is not None and finding_key(row.data(0, FOUND_ROLE)) == key:
                    self.tree.setCurrentItem(row)
                    return True
        return False

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

    def selected_is_candidate(self) -> bool:
        """Whether the row selected is a candidate's (the words only suspect it)."""
        item = self.tree.currentItem()
        return item is not None and item.data(0, CANDIDATE_ROLE) is True

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
        """Show the buttons of what is selected: a finding's actions, a candidate's Compare
        and Ask the model (never an action that writes)."""
        found = self.selected()
        candidate = self.selected_is_candidate()
        group = isinstance(found, DuplicateGroup) and not candidate
        comparable = isinstance(found, DuplicateGroup | Contradiction)
        target = move_target(found) if isinstance(found, Leak) else None
        for button, shown in (
            (self.combine_button, group),
            (self.keep_button, group),
            (self.compare_button, comparable),
            (self.move_button, isinstance(found, Leak)),
            (self.ask_button, candidate),
        ):
            button.setVisible(shown)
            button.setEnabled(shown)
        self.open_button.setEnabled(found is not None)
        self.move_button.setEnabled(target is not None)
        self.ask_button.setEnabled(candidate and bool(self.model))
        self.ask_button.setToolTip(
            f"Ask {self.model} whether they say the same, or disagree" if self.model else NO_MODEL
        )
        self.letters.set_text(
            self.move_button, with_mnemonic(target, _TAKEN) if target else "&Move"
        )
        other = isinstance(found, Leak) and target is None
        self.move_button.setToolTip(
            "Another agent's memory: move it with that agent" if other else ""
        )
        why = _why(found) if found is not None else ""
        if candidate:
            asked = (
                f"Ask the model ({self.model}) or compare them." if self.model else NO_MODEL + "."
            )
            why = f"{why}\nThe words only suspect it: {asked}"
        self.why.setText(why)
        # a longer text or another button shrinks the list after it scrolled to the row
        if self.isVisible() and (layout := self.layout()) is not None:
            layout.activate()
            if (current := self.tree.currentItem()) is not None:
                self.tree.scrollToItem(current)

    @Slot(QTreeWidgetItem, int)
    def _on_tree_item_activated(self, item: QTreeWidgetItem, _column: int) -> None:
        place = item.data(0, PLACE_ROLE)
        if isinstance(place, MemoryPlace):
            self.open_requested.emit(place_target(place))
            return
        found = item.data(0, FOUND_ROLE)
        if isinstance(found, Contradiction):
            self.compare_requested.emit(found)
        elif found is not None:
            self.open_requested.emit(place_target(_places(found)[0]))

    @Slot()
    def _on_open_button_clicked(self) -> None:
        item = self.tree.currentItem()
        if item is not None:
            self._on_tree_item_activated(item, 0)

    def _emit_selected(
        self, kind: type | UnionType, signal: SignalInstance, candidates: bool | None
    ) -> None:
        """A button's click: its signal, with what is selected if it is a `kind` (and a
        candidate, or not one, as `candidates` says; None: either)."""
        found = self.selected()
        if not isinstance(found, kind):
            return
        if candidates is None or candidates == self.selected_is_candidate():
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


def _text(found: Found, *, candidate: bool = False) -> str:
    if isinstance(found, DuplicateGroup):
        text = duplicate_item(found).text
    elif isinstance(found, Contradiction):
        text = contradiction_item(found).text
    else:
        return leak_item(found).text
    if candidate and found.judged_by != OFFLINE:  # left a candidate: the model dismissed it
        dismissed = "not the same" if isinstance(found, DuplicateGroup) else "no disagreement"
        text = f"{text} — {found.judged_by}: {dismissed}"
    return text


def _why(found: Found) -> str:
    if isinstance(found, Leak):
        return f"{found.why} Belongs in {found.belongs}."
    if found.judged_by != OFFLINE and found.reason:
        return f"{found.why}\n{found.judged_by}: {found.reason}"
    return found.why
