"""The Memory tab's dialogs: new file/folder, rename/move, Copy to…, and the confirmations
of a delete, of a drop into another scope and of a change history cannot keep a copy for.

`TabDialogs` is what the tab calls; tests replace it with canned answers. The dialogs
validate as the user types (virtual path rules, unavailable scopes) and show the reason
inline, so an invalid name never reaches the store.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence

from PySide6.QtCore import QSize, Slot
from PySide6.QtGui import QFontDatabase, QPalette
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from memtab import humanize
from memtab.components.files.copy import CopyTarget
from memtab.components.files.ops import DeletionCount
from memtab.gui.files.copy import CopyChoice, ask_copy_target
from memtab.gui.toolkit.dialog_layout import (
    fit_to_screen,
    fit_to_title,
    give_mnemonics,
    room_for_mnemonics,
    small_dialog,
)
from memtab.gui.toolkit.style import Accent, accent_text
from memtab.gui.toolkit.widgets import ElidedLabel, WrappedLabel
from memtab.humanize import short_name
from memtab.store.paths import PathError, VirtualPath, hidden_name_problem, parse_file_path
from memtab.store.scopes.memory import MemoryStore

DEFAULT_SUFFIX = ".md"


class NewKind(enum.Enum):
    """What a "new" dialog creates."""

    FILE = "file"
    FOLDER = "folder"


def resolve_new_path(
    store: MemoryStore, location: VirtualPath, text: str, kind: NewKind
) -> tuple[VirtualPath | None, str | None]:
    """The path a "new" dialog's input names, or the reason it cannot be used.

    Input is relative to `location` (`notes.md`, `sub/dir/notes.md`) or a full virtual
    path (`/memories/global/notes.md`). A file name without an extension gets `.md`.
    """
    text = text.strip()
    if not text:
        return None, "Enter a name"
    raw = text if text.startswith("/memories") else f"{location}/{text}"
    try:
        path = parse_file_path(raw)
    except PathError as error:
        return None, str(error)
    if kind is NewKind.FILE and "." not in path.name:
        path = path.parent.child(path.name + DEFAULT_SUFFIX)
    assert path.scope is not None
    reason = store.unavailable_reason(path.scope) or hidden_name_problem(path)
    if reason is not None:
        return None, reason
    return path, None


def resolve_move_target(
    store: MemoryStore, source: VirtualPath, text: str
) -> tuple[VirtualPath | None, str | None]:
    """The destination a rename/move dialog's input names, or why it cannot be used."""
    try:
        target = parse_file_path(text)
    except PathError as error:
        return None, str(error)
    if target == source:
        return None, "Enter a new name or location"
    if target.is_within(source):
        return None, f"Cannot move {source} into itself"
    assert target.scope is not None
    reason = store.unavailable_reason(target.scope) or hidden_name_problem(target)
    if reason is not None:
        return None, reason
    return target, None


def _error_label(parent: QWidget) -> QLabel:
    label = WrappedLabel("", parent)  # a reason may quote a long path
    label.setObjectName("dialogError")
    palette = label.palette()
    palette.setColor(QPalette.ColorRole.WindowText, accent_text(palette, Accent.ERROR))
    label.setPalette(palette)
    return label


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
        self._store = store
        self._location = location
        self._kind = kind
        self._path: VirtualPath | None = None
        is_file = kind is NewKind.FILE
        self.setWindowTitle("New memory file" if is_file else "New folder")
        self.name_edit = QLineEdit(self)
        self.name_edit.setAccessibleName("Name")
        self.name_edit.setPlaceholderText(
            "notes.md, or sub/folder/notes.md" if is_file else "folder, or parent/folder"
        )
        self.description_edit = QLineEdit(self)
        self.description_edit.setAccessibleName("Description")
        self.description_edit.setPlaceholderText("What this memory is for (optional)")
        self.target_label = _path_label("", self)
        self.error_label = _error_label(self)
        form = QFormLayout()
        form.addRow("In", _path_label(str(location), self))
        form.addRow("&Name", self.name_edit)
        if is_file:
            form.addRow("&Description", self.description_edit)
        else:
            self.description_edit.hide()
        form.addRow("Creates", self.target_label)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setText("C&reate")
        give_mnemonics(self.buttons)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.error_label)
        layout.addWidget(self.buttons)
        self.name_edit.textChanged.connect(self._on_name_edit_text_changed)
        self._on_name_edit_text_changed("")
        room_for_mnemonics(self)
        fit_to_title(self)
        fit_to_screen(self, QSize(460, 0))  # room for a name; less on a narrow screen

    @property
    def path(self) -> VirtualPath | None:
        """The validated path to create (None while the input is invalid)."""
        return self._path

    @property
    def description(self) -> str:
        return self.description_edit.text().strip()

    @Slot(str)
    def _on_name_edit_text_changed(self, text: str) -> None:
        self._path, error = resolve_new_path(self._store, self._location, text, self._kind)
        self.target_label.set_full_text(str(self._path) if self._path is not None else "—")
        self.error_label.setText((error or "") if text.strip() else "")
        self.error_label.setVisible(bool(error and text.strip()))
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setEnabled(self._path is not None)

    def accept(self) -> None:
        """Close only with a valid path."""
        if self._path is not None:
            super().accept()


class MoveDialog(QDialog):
    """Rename or move a file or folder by editing its virtual path (any scope)."""

    def __init__(
        self, store: MemoryStore, source: VirtualPath, parent: QWidget | None = None
    ) -> None:
        """A dialog moving `source`; the name part of the path is preselected."""
        super().__init__(parent)
        self._store = store
        self._source = source
        self._target: VirtualPath | None = None
        self.setWindowTitle(f"Rename or move {short_name(source.name)}")
        self.path_edit = QLineEdit(str(source), self)
        self.path_edit.setAccessibleName("New path")
        self.path_edit.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        hint = WrappedLabel(
            "Edit the name to rename; edit the folders or the scope "
            "(/memories/global, /memories/project, /memories/workspace) to move.",
            self,
        )
        hint.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.error_label = _error_label(self)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        form = QFormLayout()
        form.addRow("From", _path_label(str(source), self))
        form.addRow("&To", self.path_edit)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(hint)
        layout.addWidget(self.error_label)
        layout.addWidget(self.buttons)
        self.path_edit.textChanged.connect(self._on_path_edit_text_changed)
        self._on_path_edit_text_changed(self.path_edit.text())
        give_mnemonics(self.buttons)  # after OK's text: Rename or Move
        name_start = len(str(source)) - len(source.name)
        stem = source.name.rsplit(".", 1)[0] if "." in source.name[1:] else source.name
        self.path_edit.setSelection(name_start, len(stem))
        room_for_mnemonics(self)
        fit_to_title(self)
        fit_to_screen(self, QSize(520, 0))  # room for a path; less on a narrow screen

    @property
    def target(self) -> VirtualPath | None:
        """The validated destination (None while the input is invalid)."""
        return self._target

    @Slot(str)
    def _on_path_edit_text_changed(self, text: str) -> None:
        self._target, error = resolve_move_target(self._store, self._source, text)
        unchanged = text.strip() == str(self._source)
        self.error_label.setText("" if unchanged else (error or ""))
        self.error_label.setVisible(bool(error) and not unchanged)
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setEnabled(self._target is not None)
        same_folder = self._target is not None and self._target.parent == self._source.parent
        ok.setText("&Rename" if same_folder or self._target is None else "&Move")

    def accept(self) -> None:
        """Close only with a valid destination."""
        if self._target is not None:
            super().accept()


def confirmation_box(
    parent: QWidget | None, title: str, text: str, detail: str, action: str
) -> tuple[QMessageBox, QPushButton]:
    """A warning box asking to confirm `action` (Cancel is the default), sized to show its
    whole title; and the button that confirms."""
    box = QMessageBox(parent)
    small_dialog(box)
    box.setIcon(QMessageBox.Icon.Warning)
    box.setWindowTitle(title)
    box.setText(text)
    box.setInformativeText(detail)
    confirm: QPushButton = box.addButton(action, QMessageBox.ButtonRole.DestructiveRole)
    cancel = box.addButton(QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(cancel)
    box.setEscapeButton(cancel)
    give_mnemonics(box)
    fit_to_title(box)
    return box, confirm


def _confirm(parent: QWidget | None, title: str, text: str, detail: str, action: str) -> bool:
    box, confirm = confirmation_box(parent, title, text, detail, action)
    box.exec()
    return box.clickedButton() is confirm


def delete_confirmation_text(names: list[str], count: DeletionCount, only_files: bool) -> str:
    """The question before a delete, counting everything that goes: `Delete notes.md?`,
    `Delete 3 items — 5 files, 2 of them hidden by the search filter?`."""
    subject = names[0] if len(names) == 1 else f"{len(names)} items"
    if only_files and count.files == len(names) and not count.hidden:
        return f"Delete {subject if len(names) == 1 else humanize.plural(count.files, 'file')}?"
    if count.files == 0:
        return f"Delete {subject} — no files inside?"
    hidden = f", {count.hidden} of them hidden by the search filter" if count.hidden else ""
    return f"Delete {subject} — {humanize.plural(count.files, 'file')}{hidden}?"


def without_copy_label(done: str) -> str:
    """The button that makes a refused change without a copy: `Delete without a copy`."""
    verbs = {"deleted": "Delete", "restored": "Restore", "reverted": "Revert", "saved": "Save"}
    return f"{verbs.get(done, 'Go on')} without a copy"


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
        details = []
        if count.hidden:
            details.append(
                "The search filter hides some of the files inside: they are deleted too."
            )
        if loses_draft:
            details.append("The open file has unsaved changes; they will be lost.")
        details.append(
            "Deleted files go to Recently deleted (View menu) with their pins and usage; "
            "Edit → Undo brings them back."
        )
        return _confirm(
            self._parent,
            "Delete memory",
            delete_confirmation_text(names, count, only_files),
            " ".join(details),
            "Delete",
        )

    def confirm_cross_scope_move(self, names: list[str], target: str) -> tuple[bool, bool]:
        """Ask before a drop moves files into another scope (`target`: where, in words);
        (go ahead, don't ask again)."""
        subject = names[0] if len(names) == 1 else f"{len(names)} items"
        box, confirm = confirmation_box(
            self._parent,
            "Move to another scope",
            f"Move {subject} to {target}?",
            "Other agents and workspaces see memories by scope: this changes who reads it. "
            "Edit → Undo moves it back.",
            "Move",
        )
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
        return _confirm(
            self._parent,
            "History cannot keep a copy",
            refusal,
            "Nothing was changed. Going on loses what the file holds now for good: "
            "Recently deleted and Edit → Undo cannot bring it back. Fix history's folder "
            "(memtab doctor says what is wrong with it) to keep a copy instead.",
            without_copy_label(done),
        )

    def confirm_delete_orphan(self, dir_name: str, file_count: int) -> bool:
        """Ask before deleting an orphaned project dir; True to go ahead."""
        return _confirm(
            self._parent,
            "Delete orphaned project memory",
            f"{dir_name} will be deleted.",
            f"No registered project owns this memory ({humanize.plural(file_count, 'file')}). "
            f"Its files are kept in history (memtab trash --orphan {dir_name} to restore).",
            "Delete",
        )
