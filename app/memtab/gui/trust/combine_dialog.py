"""The review of Combine into… for whole files (`components.trust.changes`): where the group
goes (a file, or a new one in mux's global memory) and each file beside the text to keep
(`ThreeWayView`), edited before anything changes; Combine asks, Cancel changes nothing."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QSize, Signal, Slot
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QVBoxLayout,
    QWidget,
)

from memtab.components.trust.changes import (
    REVIEW_NOTE,
    CombineChoice,
    CombineProposal,
    side_labels,
)
from memtab.gui.toolkit.dialog_layout import fit_to_screen, fit_to_title, give_mnemonics
from memtab.gui.toolkit.text.three_way import ThreeWayView
from memtab.gui.toolkit.widgets import WrappedLabel


class CombineDialog(QDialog):
    """What Combine proposes; `combine_requested(object, str)`: the `CombineChoice` and the
    text to keep."""

    combine_requested = Signal(object, str)

    def __init__(self, proposal: CombineProposal, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("combineReview")
        self.setWindowTitle("Combine duplicates")
        self.proposal = proposal
        self.choices = proposal.choices()
        self.summary = WrappedLabel("", self)
        self.keep = QComboBox(self)
        self.keep.setAccessibleName("Keep in")
        self.keep.addItems([choice.label for choice in self.choices])
        keep_label = QLabel("&Keep in:", self)
        keep_label.setBuddy(self.keep)
        self.view = ThreeWayView(self)
        self.buttons = QDialogButtonBox(self)
        self.combine_button = self.buttons.addButton(
            "C&ombine", QDialogButtonBox.ButtonRole.AcceptRole
        )
        self.combine_button.setToolTip("Keep the text below there; the other files go")
        self.buttons.addButton("&Cancel", QDialogButtonBox.ButtonRole.RejectRole)
        give_mnemonics(self.buttons)
        self.buttons.accepted.connect(self._on_buttons_accepted)
        self.buttons.rejected.connect(self.reject)
        row = QHBoxLayout()
        row.addWidget(keep_label)
        row.addWidget(self.keep, 1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addLayout(row)
        layout.addWidget(self.view, 1)
        layout.addWidget(self.buttons)
        self.keep.currentIndexChanged.connect(self._on_keep_current_index_changed)
        self._show(self.choices[0])
        fit_to_screen(self, QSize(1000, 640), remember="combine")
        fit_to_title(self)
        self.keep.setFocus()

    @property
    def choice(self) -> CombineChoice:
        """Where the group goes, as chosen."""
        return self.choices[max(self.keep.currentIndex(), 0)]

    def text(self) -> str:
        """The text to keep, as the user left it."""
        return self.view.merged_text()

    def _show(self, choice: CombineChoice) -> None:
        texts = self.proposal.review(choice)
        self.view.set_texts(replace(texts, labels=side_labels(self.proposal, choice)))
        self.view.merged_title.setText("Text to keep (edit it if needed)")
        self.view.note.setText(REVIEW_NOTE)
        self.summary.setText(self.proposal.summary(choice))

    @Slot(int)
    def _on_keep_current_index_changed(self, index: int) -> None:
        if 0 <= index < len(self.choices):
            self._show(self.choices[index])

    @Slot()
    def _on_buttons_accepted(self) -> None:
        self.combine_requested.emit(self.choice, self.text())
        self.accept()
