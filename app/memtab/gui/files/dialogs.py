"""The Memory tab's dialogs (new, rename/move, Copy to…) and confirmations; `TabDialogs` is
what the tab calls (tests answer instead). What each says and decides is
`components.files.questions`.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Protocol

from PySide6.QtCore import QSize, Slot
from PySide6.QtGui import QFontDatabase, QPalette
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QWidget,
)

from memtab.components.files import questions
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
from memtab.components.files.ops import DeletionCount
from memtab.components.files.questions import MoveForm, NewItemForm, NewKind, Question
from memtab.components.tree.nodes import TreeNode
from memtab.gui.context import WindowContext
from memtab.gui.tasks.file_ops import OpFollowUp
from memtab.gui.toolkit.dialog_layout import (
    OK_CANCEL,
    button_box,
    fit_to_screen,
    fit_to_title,
    give_mnemonics,
    grow_to_fit,
    message_box,
    room_for_mnemonics,
)
from memtab.gui.toolkit.icons import tinted_icon
from memtab.gui.toolkit.style import Accent, accent_text, mute, muted_text
from memtab.gui.toolkit.widgets import ElidedLabel, WrappedLabel, named, vbox
from memtab.sources.copy import default_name
from memtab.store.paths import VirtualPath
from memtab.store.scopes.memory import MemoryStore


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
        self.target_combo = named(QComboBox(self), accessible="Copy to")
        for target in self.form.targets:
            self.target_combo.addItem(tinted_icon(target_icon(target), muted), target.label)
        self.name_edit = named(QLineEdit(name, self), accessible="Name")
        self.type_combo = named(QComboBox(self), accessible="Claude Code memory type")
        self.type_combo.addItems(list(topic_type_choices(topic_type)))
        self.type_label = QLabel("&Type", self)
        self.type_label.setBuddy(self.type_combo)
        self.where = ElidedLabel("", self)
        self.error = _error_label(self)
        form = QFormLayout()
        form.addRow("Copy", ElidedLabel(label, self))
        form.addRow("&To", self.target_combo)
        form.addRow("&Name", self.name_edit)
        form.addRow(self.type_label, self.type_combo)
        form.addRow("Creates", self.where)
        self.buttons = button_box(self, OK_CANCEL, ok="&Copy")
        vbox(form, self.error, self.buttons, on=self)
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


def _error_label(parent: QWidget) -> QLabel:
    label = WrappedLabel("", parent)  # a reason may quote a long path
    label.setObjectName("dialogError")
    palette = label.palette()
    palette.setColor(QPalette.ColorRole.WindowText, accent_text(palette, Accent.ERROR))
    label.setPalette(palette)
    return label


def _show_reason(dialog: QDialog, label: QLabel, reason: str) -> None:
    label.setText(reason)
    label.setVisible(bool(reason))
    grow_to_fit(dialog)  # the reason's lines below the rows, never over them


def _path_label(text: str, parent: QWidget) -> ElidedLabel:
    label = ElidedLabel(text, parent)  # elided in the middle, whole in the tooltip
    label.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
    return label


class NewItemDialog(QDialog):
    """Ask for a new file's name and description, or a new folder's name."""

    def __init__(
        self,
        store: MemoryStore,
        location: VirtualPath,
        kind: NewKind,
        parent: QWidget | None = None,
    ) -> None:
        """A dialog creating a `kind` inside `location` (a scope root or directory)."""
        super().__init__(parent)
        self.form = NewItemForm(store, location, kind)
        self.path: VirtualPath | None = None
        self.setWindowTitle(self.form.title)
        self.name_edit = named(QLineEdit(self), accessible="Name")
        self.name_edit.setPlaceholderText(self.form.placeholder)
        self.description_edit = named(QLineEdit(self), accessible="Description")
        self.description_edit.setPlaceholderText("What this memory is for (optional)")
        self.target_label = _path_label("", self)
        self.error_label = _error_label(self)
        form = QFormLayout()
        form.addRow("In", _path_label(str(location), self))
        form.addRow("&Name", self.name_edit)
        if self.form.asks_description:
            form.addRow("&Description", self.description_edit)
        else:
            self.description_edit.hide()
        form.addRow("Creates", self.target_label)
        self.buttons = button_box(self, OK_CANCEL, ok=self.form.state("").button)
        vbox(form, self.error_label, self.buttons, on=self)
        self.name_edit.textChanged.connect(self._on_name_edit_text_changed)
        self._on_name_edit_text_changed("")
        room_for_mnemonics(self)
        fit_to_title(self)
        fit_to_screen(self, QSize(460, 0))  # room for a name; less on a narrow screen

    @property
    def description(self) -> str:
        return self.description_edit.text().strip()

    @Slot(str)
    def _on_name_edit_text_changed(self, text: str) -> None:
        state = self.form.state(text)
        self.path = state.path
        self.target_label.set_full_text(str(self.path) if self.path is not None else "—")
        _show_reason(self, self.error_label, state.reason)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(self.path is not None)

    def accept(self) -> None:
        """Close only with a valid path."""
        if self.path is not None:
            super().accept()


class MoveDialog(QDialog):
    """Rename or move a file or folder by editing its virtual path (any scope)."""

    def __init__(
        self, store: MemoryStore, source: VirtualPath, parent: QWidget | None = None
    ) -> None:
        """A dialog moving `source`; the name part of the path is preselected."""
        super().__init__(parent)
        self.form = MoveForm(store, source)
        self.target: VirtualPath | None = None
        self.setWindowTitle(self.form.title)
        self.path_edit = named(QLineEdit(self.form.text, self), accessible="New path")
        self.path_edit.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        hint = mute(
            WrappedLabel(
                "Edit the name to rename; edit the folders or the scope "
                "(/memories/global, /memories/project, /memories/workspace) to move.",
                self,
            )
        )
        self.error_label = _error_label(self)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        form = QFormLayout()
        form.addRow("From", _path_label(str(source), self))
        form.addRow("&To", self.path_edit)
        vbox(form, hint, self.error_label, self.buttons, on=self)
        self.path_edit.textChanged.connect(self._on_path_edit_text_changed)
        self._on_path_edit_text_changed(self.path_edit.text())
        give_mnemonics(self.buttons)  # after OK's text: Rename or Move
        self.path_edit.setSelection(*self.form.name_selection())
        room_for_mnemonics(self)
        fit_to_title(self)
        fit_to_screen(self, QSize(520, 0))  # room for a path; less on a narrow screen

    @Slot(str)
    def _on_path_edit_text_changed(self, text: str) -> None:
        state = self.form.state(text)
        self.target = state.path
        _show_reason(self, self.error_label, state.reason)
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setEnabled(self.target is not None)
        ok.setText(state.button)

    def accept(self) -> None:
        """Close only with a valid destination."""
        if self.target is not None:
            super().accept()


def confirmation_box(
    parent: QWidget | None, title: str, text: str, detail: str, action: str
) -> tuple[QMessageBox, QPushButton]:
    """A warning box asking to confirm `action` (Cancel is the default), sized to show its
    whole title; and the button that confirms."""
    box, (confirm, _) = message_box(
        parent,
        QMessageBox.Icon.Warning,
        title,
        text,
        detail,
        [(action, QMessageBox.ButtonRole.DestructiveRole), QMessageBox.StandardButton.Cancel],
    )
    return box, confirm


def _confirm(parent: QWidget | None, question: Question) -> bool:
    box, confirm = confirmation_box(parent, *question)
    box.exec()
    return box.clickedButton() is confirm


class TabDialogs:
    """Every question the tab asks the user; replaced by a fake in tests."""

    def __init__(self, parent: QWidget) -> None:
        """Dialogs are parented to `parent` (the tab)."""
        self._parent = parent

    def ask_new_item(
        self, store: MemoryStore, location: VirtualPath, kind: NewKind
    ) -> tuple[VirtualPath, str] | None:
        """The path (and, for files, description) of a new item; None when cancelled."""
        dialog = NewItemDialog(store, location, kind, self._parent)
        if dialog.exec() != QDialog.DialogCode.Accepted or dialog.path is None:
            return None
        return dialog.path, dialog.description

    def ask_move_target(self, store: MemoryStore, source: VirtualPath) -> VirtualPath | None:
        """Where to move `source`; None when cancelled."""
        dialog = MoveDialog(store, source, self._parent)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        return dialog.target

    def ask_copy_target(
        self, label: str, targets: Sequence[CopyTarget], name: str, topic_type: str | None
    ) -> CopyChoice | None:
        """Where to copy a memory (`label`) and as what; None when cancelled."""
        return ask_copy_target(self._parent, label, targets, name, topic_type)

    def confirm_delete(
        self, names: list[str], count: DeletionCount, only_files: bool, loses_draft: bool
    ) -> bool:
        """Ask before deleting `names` (what `count` says goes with them); True to go ahead."""
        return _confirm(
            self._parent, questions.delete_question(names, count, only_files, loses_draft)
        )

    def confirm_cross_scope_move(self, names: list[str], target: str) -> tuple[bool, bool]:
        """Ask before a drop moves files into another scope (`target`: where, in words);
        (go ahead, don't ask again)."""
        question = questions.cross_scope_question(names, target)
        box, confirm = confirmation_box(self._parent, *question)
        box.setIcon(QMessageBox.Icon.Question)
        dont_ask = QCheckBox("Don't ask again for drops into another scope", box)
        box.setCheckBox(dont_ask)
        box.exec()
        moved = box.clickedButton() is confirm
        return moved, moved and dont_ask.isChecked()

    def confirm_without_copy(self, refusal: str, done: str) -> bool:
        """A change was refused because history cannot keep a copy of what it would
        destroy (`refusal`: the store's message; `done`: `deleted`, `restored`…); True to
        make it anyway, without one."""
        return _confirm(self._parent, questions.without_copy_question(refusal, done))

    def confirm_delete_orphan(self, dir_name: str, file_count: int) -> bool:
        """Ask before deleting an orphaned project dir; True to go ahead."""
        return _confirm(self._parent, questions.delete_orphan_question(dir_name, file_count))
