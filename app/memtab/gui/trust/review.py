"""The review every trust action opens before it writes (issue 94): what it does in words,
every move of memory into another memory named, where to keep the group (Keep in), and
each file it changes or shows with what it becomes — its difference, or for the file that
keeps a group's text, the three-way view with that text to edit. Nothing is written until
the user accepts (`accepted_review(Reviewed, text)`)."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt, Signal, Slot
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QLabel,
    QSplitter,
    QStackedWidget,
    QTreeWidgetItem,
    QWidget,
)

from memtab.components.trust.review import REVIEW_NOTE, FileChange, Proposal, Reviewed
from memtab.gui.toolkit.dialog_layout import fit_to_screen, fit_to_title, give_mnemonics
from memtab.gui.toolkit.row_list import RowList
from memtab.gui.toolkit.style import Accent, accent_text, set_style_sheet
from memtab.gui.toolkit.text.diff_view import DiffPane
from memtab.gui.toolkit.text.three_way import ThreeWayView
from memtab.gui.toolkit.widgets import WrappedLabel, hbox, named, vbox
from memtab.trust.memories import where_in_words

Role = QDialogButtonBox.ButtonRole


class ChangesReview(QDialog):
    """A trust action's review (see the module doc); `accepted_review(object, object)`:
    the `Reviewed` accepted and the edited file's text (None: no file is edited)."""

    accepted_review = Signal(object, object)

    def __init__(self, proposal: Proposal, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("changesReview")
        self.setWindowTitle(proposal.title)
        self.proposal = proposal
        self.summary = named(WrappedLabel("", self), "reviewSummary", accessible="What it does")
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.moves = named(WrappedLabel("", self), "reviewMoves", accessible="Memory it moves")
        self.moves.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.keep = named(QComboBox(self), "reviewKeepIn", accessible="Keep in")
        self.keep.addItems(proposal.labels())
        keep_label = QLabel("&Keep in:", self)
        keep_label.setBuddy(self.keep)
        self.keep_row = QWidget(self)
        hbox(keep_label, (self.keep, 1), on=self.keep_row, margins=0)
        self.keep_row.setVisible(len(proposal.reviews) > 1)
        self.files = RowList(["File", "Becomes"], "What each file becomes", self)
        self.files.setWordWrap(True)
        files_label = QLabel("What each &file becomes:", self)
        files_label.setBuddy(self.files)
        self.view = ThreeWayView(self)
        self.diff = DiffPane(self)
        self.diff.view.wraps_lines = True  # a review in a pane that may be narrow
        self.details = QStackedWidget(self)
        self.details.addWidget(self.view)
        self.details.addWidget(self.diff)
        top = QWidget(self)
        vbox(files_label, (self.files, 1), on=top, margins=0, spacing=2)
        splitter = QSplitter(Qt.Orientation.Vertical, self)
        splitter.setChildrenCollapsible(False)
        splitter.addWidget(top)
        splitter.addWidget(self.details)
        splitter.setStretchFactor(0, 1)
        splitter.setStretchFactor(1, 3)
        self.buttons = QDialogButtonBox(self)
        self.accept_button = self.buttons.addButton("C&ombine", Role.AcceptRole)
        self.buttons.addButton("&Cancel", Role.RejectRole).setAccessibleName("Cancel")
        self.buttons.accepted.connect(self._on_buttons_accepted)
        self.buttons.rejected.connect(self.reject)
        layout = vbox(self.summary, self.moves, self.keep_row, (splitter, 1), on=self)
        layout.addWidget(self.buttons)
        self.files.currentItemChanged.connect(self._on_files_current_item_changed)
        self.keep.currentIndexChanged.connect(self._on_keep_current_index_changed)
        self.reviewed = proposal.reviews[0]
        self._show(self.reviewed)
        give_mnemonics(self.buttons)
        fit_to_screen(self, QSize(1000, 680), remember="combine")
        fit_to_title(self)
        (self.keep if self.keep_row.isVisibleTo(self) else self.files).setFocus()

    def text(self) -> str | None:
        """The edited file's text as the user left it (None: no file is edited)."""
        return self.view.merged_text() if self.reviewed.edited is not None else None

    def file_rows(self) -> list[str]:
        """Each file's row as shown: "name (where) — becomes"."""
        rows = (self.files.topLevelItem(i) for i in range(self.files.topLevelItemCount()))
        return [f"{row.text(0)} — {row.text(1)}" for row in rows if row is not None]

    def _show(self, reviewed: Reviewed) -> None:
        self.reviewed = reviewed
        self.summary.setText(reviewed.summary)
        self.moves.setText("\n".join(reviewed.moves))
        self.moves.setVisible(bool(reviewed.moves))
        set_style_sheet(self.moves, f"color: {accent_text(self.palette(), Accent.WARNING).name()}")
        self.accept_button.setText(reviewed.accept)
        self.accept_button.setAccessibleName(reviewed.accept.replace("&", ""))
        self.accept_button.setEnabled(not reviewed.refused)
        self.accept_button.setToolTip(reviewed.refused or "Write exactly what is shown here")
        if reviewed.texts is not None:
            self.view.set_texts(reviewed.texts)
            self.view.merged_title.setText("Text to keep (edit it if needed)")
            self.view.note.setText(REVIEW_NOTE)
        self.files.clear()
        for change in reviewed.files:
            row = QTreeWidgetItem(self.files, [_file_words(change), change.becomes])
            for column in (0, 1):
                row.setToolTip(column, f"{change.place.path}\n{change.becomes}")
        # first the file that changes: the one kept whole is no news
        changing = [i for i, c in enumerate(reviewed.files) if c.changes and c.diff is not None]
        first = self.files.topLevelItem(
            reviewed.edited if reviewed.edited is not None else (changing or [0])[0]
        )
        if first is not None:
            self.files.setCurrentItem(first)
        else:
            self.diff.show_message("Nothing would change.")
            self.details.setCurrentWidget(self.diff)

    @Slot(QTreeWidgetItem, QTreeWidgetItem)
    def _on_files_current_item_changed(self, current: QTreeWidgetItem | None, _old: object) -> None:
        index = self.files.indexOfTopLevelItem(current) if current is not None else -1
        if not 0 <= index < len(self.reviewed.files):
            return
        change = self.reviewed.files[index]
        if index == self.reviewed.edited:
            self.details.setCurrentWidget(self.view)
            return
        self.details.setCurrentWidget(self.diff)
        self.diff.set_sides(
            f"{change.name} as it is" if change.before is not None else "",
            f"{change.name} as it will be" if change.after is not None else "",
        )
        if change.diff is not None:
            self.diff.set_diff(change.diff)
        else:
            self.diff.set_sides("", "")
            said = f"{change.name} stays as it is: it {change.becomes}."
            self.diff.show_message(f"{said}\n\n{change.before or ''}")

    @Slot(int)
    def _on_keep_current_index_changed(self, index: int) -> None:
        if 0 <= index < len(self.proposal.reviews):
            self._show(self.proposal.reviews[index])

    @Slot()
    def _on_buttons_accepted(self) -> None:
        if self.reviewed.refused:
            return
        self.accepted_review.emit(self.reviewed, self.text())
        self.accept()


def _file_words(change: FileChange) -> str:
    new = " (new)" if change.before is None else ""
    return f"{change.name}{new} — {where_in_words(change.place)}"
