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
from dataclasses import dataclass
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

from memtab.components.files.copy import CopyTarget, copy_targets, copy_to, topic_type_choices
from memtab.components.files.open import open_file
from memtab.components.tree.nodes import NodeKind, TreeNode
from memtab.components.tree.scan import HomeScan
from memtab.file_protocol.memory_file import MemoryFile
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


@dataclass(frozen=True)
class CopyChoice:
    """Where the user chose to copy to, as what, and (Claude Code topics) of which type."""

    target: CopyTarget
    name: str
    topic_type: str | None = None


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
        self._targets = list(targets)
        muted = muted_text(self.palette())
        self.target_combo = QComboBox(self)
        self.target_combo.setAccessibleName("Copy to")
        for target in self._targets:
            icon = "folder" if target.agent == "mux" else f"agent-{target.agent}"
            self.target_combo.addItem(tinted_icon(icon, muted), target.label)
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
        index = self.target_combo.currentIndex()
        if not 0 <= index < len(self._targets):
            return None
        target, name = self._targets[index], self.name_edit.text().strip()
        if target.problem(name) is not None:
            return None
        kind = self.type_combo.currentText() if target.asks_topic_type else None
        return CopyChoice(target, name, kind)

    @Slot()
    def _on_inputs_changed(self) -> None:
        index = self.target_combo.currentIndex()
        target = self._targets[index] if 0 <= index < len(self._targets) else None
        name = self.name_edit.text()
        problem = target.problem(name) if target is not None else "Nowhere to copy to"
        self.where.set_full_text(target.target_for(name) if target and not problem else "—")
        self.error.setText(problem or "")
        self.error.setVisible(bool(problem))
        asks = target is not None and target.asks_topic_type
        self.type_label.setVisible(asks)
        self.type_combo.setVisible(asks)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(problem is None)

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


def copy_origin(scan: HomeScan | None, node: TreeNode | None) -> MemoryFile | None:
    """What a row holds to copy: its memory file (a mux file of the workspace, another
    agent's listed file; an orphaned project dir's has none)."""
    if scan is None or node is None or node.kind is not NodeKind.FILE or node.ref is None:
        return None
    return open_file(scan, node.ref)


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
