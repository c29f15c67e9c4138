"""Copy to…: the dialog choosing where a memory goes, and the command behind the action.

The dialog lists `components.files.copy.copy_targets` (mux's scopes, other agents'
sources that take new files) with their agents' icons, asks for the new file's name (its
origin's by default) and, for Claude Code's auto memory, its type; it shows where the
file will be created and why it cannot be, as the user types. `copy_node` runs the
copy of the row's memory file, whichever agent's, on the window's file-operations worker
(`components.files.copy.copy_to`, so Edit → Undo takes it back); the rescan it causes
shows the new file, which is then opened.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Sequence
from typing import Protocol

from PySide6.QtCore import QSize, Slot
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from memtab.components.files.copy import (
    CopyChoice,
    CopyForm,
    CopyTarget,
    copy_origin,
    copy_targets,
    copy_to,
    target_icon,
    topic_type_choices,
)
from memtab.components.tree.nodes import TreeNode
from memtab.gui.context import WindowContext
from memtab.gui.tasks.file_ops import OpFollowUp
from memtab.gui.toolkit.dialog_layout import (
    fit_to_screen,
    fit_to_title,
    give_mnemonics,
    room_for_mnemonics,
)
from memtab.gui.toolkit.icons import tinted_icon
from memtab.gui.toolkit.style import Accent, accent_text, muted_text
from memtab.gui.toolkit.widgets import ElidedLabel, WrappedLabel
from memtab.sources.copy import default_name
from memtab.store.scopes.memory import MemoryStore

logger = logging.getLogger(__name__)


class CopyToDialog(QDialog):
    """Choose a target and a name (see the module docstring)."""

    def __init__(
        self,
        label: str,
        targets: Sequence[CopyTarget],
        name: str,
        topic_type: str | None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Copy to…")
        self.form = CopyForm(targets)
        muted = muted_text(self.palette())
        self.target_combo = QComboBox(self)
        self.target_combo.setAccessibleName("Copy to")
        for target in self.form.targets:
            self.target_combo.addItem(tinted_icon(target_icon(target), muted), target.label)
        self.name_edit = QLineEdit(name, self)
        self.name_edit.setAccessibleName("Name")
        self.type_combo = QComboBox(self)
        self.type_combo.setAccessibleName("Claude Code memory type")
        self.type_combo.addItems(list(topic_type_choices(topic_type)))
        self.type_label = QLabel("&Type", self)
        self.type_label.setBuddy(self.type_combo)
        self.where = ElidedLabel("", self)
        self.error = WrappedLabel("", self)
        palette = self.error.palette()
        palette.setColor(self.error.foregroundRole(), accent_text(palette, Accent.ERROR))
        self.error.setPalette(palette)
        form = QFormLayout()
        form.addRow("Copy", ElidedLabel(label, self))
        form.addRow("&To", self.target_combo)
        form.addRow("&Name", self.name_edit)
        form.addRow(self.type_label, self.type_combo)
        form.addRow("Creates", self.where)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText("&Copy")
        give_mnemonics(self.buttons)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.error)
        layout.addWidget(self.buttons)
        self.target_combo.currentIndexChanged.connect(self._on_inputs_changed)
        self.name_edit.textChanged.connect(self._on_inputs_changed)
        self._on_inputs_changed()
        room_for_mnemonics(self)
        fit_to_title(self)
        fit_to_screen(self, QSize(520, 0))  # room for a long name; less on a narrow screen

    @property
    def choice(self) -> CopyChoice | None:
        """What the form says, or None while it cannot be copied there."""
        index, name = self.target_combo.currentIndex(), self.name_edit.text()
        return self.form.choice(index, name, self.type_combo.currentText())

    @Slot()
    def _on_inputs_changed(self) -> None:
        state = self.form.state(self.target_combo.currentIndex(), self.name_edit.text())
        self.where.set_full_text(state.where)
        self.error.setText(state.problem or "")
        self.error.setVisible(bool(state.problem))
        self.type_label.setVisible(state.asks_type)
        self.type_combo.setVisible(state.asks_type)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(state.problem is None)

    def accept(self) -> None:
        """Close only with a target that takes the name."""
        if self.choice is not None:
            super().accept()


def ask_copy_target(
    parent: QWidget,
    label: str,
    targets: Sequence[CopyTarget],
    name: str,
    topic_type: str | None,
) -> CopyChoice | None:
    """Run the dialog; None when cancelled."""
    dialog = CopyToDialog(label, targets, name, topic_type, parent)
    if dialog.exec() != QDialog.DialogCode.Accepted:
        return None
    return dialog.choice


class CopyDialogs(Protocol):
    """The question the command asks (`dialogs.TabDialogs`; a fake in tests)."""

    def ask_copy_target(
        self, label: str, targets: Sequence[CopyTarget], name: str, topic_type: str | None
    ) -> CopyChoice | None: ...


def copy_node(context: WindowContext, dialogs: CopyDialogs, node: TreeNode | None) -> None:
    """Copy to…: ask where, then copy off the GUI thread (Edit → Undo takes it back) and
    open the copy."""
    scan = context.shown.scan
    origin = copy_origin(scan, node)
    if origin is None or scan is None:
        context.status.show("Select a memory file to copy")
        return
    targets = copy_targets(scan, origin.ref)
    name = default_name(origin.ref)
    choice = dialogs.ask_copy_target(origin.ref.shown, targets, name, origin.memory_type)
    if choice is None:
        return
    target = choice.target
    # No "edited outside" badge on the copy.
    context.own_writes.note(target.ref_for(choice.name).key)
    operation = functools.partial(
        copy_to,
        context.undo_stack,
        MemoryStore.of(context.shown.view()),
        origin,
        target,
        choice.name,
        choice.topic_type,
    )
    context.file_ops.run(operation, OpFollowUp(open_created=True))
