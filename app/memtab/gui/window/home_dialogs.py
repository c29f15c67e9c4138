"""File → Add workspace… and File → Open home…: setting up a home from the window.

`AddWorkspaceDialog` asks for a project folder (one already registered, or any folder)
and a workspace name, then registers them (`components.window.menus`) on the
job client it is given — config.json is read and written under its lock there, never on
the GUI thread — and stays open with the reason when that fails. A folder that does not
exist on this machine is said as it is typed (looked at off the GUI thread, once typing
pauses) and registered only when the user says so again (*Add
anyway*: mux may run the project on another machine that shares this home). Completion
offers the registered projects in a popup; it never changes what was typed by itself.
Its checks, words and jobs are Qt-free; what Open home checks about a folder before
Memtab opens it is `components.window.menus.describe_home_folder` (a job too).
"""

from __future__ import annotations

import functools
import logging
from pathlib import Path

from PySide6.QtCore import QSize, Qt, QTimer, Slot
from PySide6.QtWidgets import (
    QComboBox,
    QCompleter,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from memtab.components.window.menus import (
    ADD_LABEL,
    Added,
    AddWorkspaceForm,
    FolderCheck,
    Register,
    check_folder,
    folder_name,
    register_workspace,
    typed_project,
    worth_checking,
)
from memtab.gui.tasks.jobs import JobClient
from memtab.gui.toolkit.dialog_layout import fit_to_screen, give_mnemonics
from memtab.gui.toolkit.style import Accent, accent_text, mute
from memtab.store.home import Home
from memtab.store.sidecars.registry import Registry

logger = logging.getLogger(__name__)

CHECK_DELAY_MS = 400  # after the last keystroke, the typed folder is looked at


class AddWorkspaceDialog(QDialog):
    """Registers a project and a workspace (see the module docstring).

    `workspace_id` holds the new workspace's id once the dialog was accepted.
    """

    def __init__(
        self,
        home: Home,
        registry: Registry | None,
        runner: JobClient,
        parent: QWidget | None = None,
    ) -> None:
        """`runner` (the window's actions' job client) runs the registration."""
        super().__init__(parent)
        self.setObjectName("addWorkspaceDialog")
        self.setWindowTitle("Add a workspace — Memtab")
        self.home = home
        self.workspace_id: str | None = None
        self._runner = runner
        self._job: int | None = None
        self._check_job: int | None = None
        self._form = AddWorkspaceForm()
        runner.job_finished.connect(self._on_runner_job_finished)
        runner.job_failed.connect(self._on_runner_job_failed)

        intro = QLabel(
            "A workspace is one line of work (a branch, a session) in a project; its "
            "memory sits beside the project's and the global memory.",
            self,
        )
        intro.setWordWrap(True)
        mute(intro)
        self.project_edit = QComboBox(self)
        self.project_edit.setEditable(True)
        self.project_edit.setAccessibleName("Project folder")
        self.project_edit.setMinimumContentsLength(32)
        for project in registry.projects if registry is not None else ():
            if not project.path.startswith("_"):  # "_multi", "_scratch": not folders
                self.project_edit.addItem(project.path)
        self.project_edit.setCurrentText("")
        # What is typed stays as typed: the registered projects are offered in a popup
        # (accepted with Enter or a click), never completed inline, never added as items.
        self.project_edit.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        completer = QCompleter(self.project_edit.model(), self.project_edit)
        completer.setCompletionMode(QCompleter.CompletionMode.PopupCompletion)
        completer.setCaseSensitivity(Qt.CaseSensitivity.CaseSensitive)
        self.project_edit.setCompleter(completer)
        line = self.project_edit.lineEdit()
        if line is not None:
            line.setPlaceholderText("/path/to/your/project")
        self.project_edit.currentTextChanged.connect(self._on_project_edit_text_changed)
        self._check_timer = QTimer(self)
        self._check_timer.setSingleShot(True)
        self._check_timer.setInterval(CHECK_DELAY_MS)
        self._check_timer.timeout.connect(self._on_check_timer_timeout)
        self.folder_note = QLabel(self)
        self.folder_note.setObjectName("folderNote")
        self.folder_note.setWordWrap(True)
        self.folder_note.setAccessibleName("About the project folder")
        mute(self.folder_note)
        self.folder_note.hide()
        browse = QPushButton("Choose…", self)
        browse.setAccessibleName("Choose the project folder")
        browse.clicked.connect(self._on_browse_clicked)
        project_row = QHBoxLayout()
        project_row.addWidget(self.project_edit, 1)
        project_row.addWidget(browse)
        self.name_edit = QLineEdit(self)
        self.name_edit.setAccessibleName("Workspace name")
        self.name_edit.setPlaceholderText("main")
        self.name_edit.textEdited.connect(self._on_name_edit_text_edited)
        form = QFormLayout()
        form.addRow("Project folder:", project_row)
        form.addRow("", self.folder_note)
        form.addRow("Workspace name:", self.name_edit)
        self.error_label = QLabel(self)
        self.error_label.setWordWrap(True)
        self.error_label.setAccessibleName("Why the workspace was not added")
        self.error_label.setStyleSheet(f"color: {accent_text(self.palette(), Accent.ERROR).name()}")
        self.error_label.hide()
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.ok_button = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.ok_button.setText(ADD_LABEL)
        give_mnemonics(self.buttons)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(form)
        layout.addWidget(self.error_label)
        layout.addWidget(self.buttons)
        fit_to_screen(self, QSize(520, 0))  # room for a path; less on a narrow screen

    @property
    def busy(self) -> bool:
        """Whether the workspace is being registered."""
        return self._job is not None

    def accept(self) -> None:
        """Register the workspace off the GUI thread; the dialog closes when it is done."""
        if self.busy:
            return
        asked = self._form.add(self.project_edit.currentText(), self.name_edit.text())
        if not isinstance(asked, Register):
            self._show_error(asked)
            return
        self.buttons.setEnabled(False)
        self._job = self._runner.submit(
            functools.partial(
                register_workspace, self.home, asked.project, asked.name, asked.allow_missing
            )
        )

    def done(self, result: int) -> None:
        """Close; a registration still running finishes, its answer no longer shown."""
        self._check_timer.stop()
        self._runner.job_finished.disconnect(self._on_runner_job_finished)
        self._runner.job_failed.disconnect(self._on_runner_job_failed)
        super().done(result)

    def _show_error(self, text: str) -> None:
        self.error_label.setText(text)
        self.error_label.show()
        self.folder_note.hide()  # the error says it
        self._fit_height()

    def _fit_height(self) -> None:
        """Grow to show a note or an error whole (a shown dialog does not by itself)."""
        layout = self.layout()
        if layout is None or not self.isVisible():
            return
        layout.activate()
        needed = layout.totalHeightForWidth(self.width())
        if needed > self.height():
            self.resize(self.width(), needed)

    @Slot(int, object)
    def _on_runner_job_finished(self, job: int, result: object) -> None:
        if job == self._check_job and isinstance(result, FolderCheck):
            self._check_job = None
            if self._form.still_typed(result, self.project_edit.currentText()):
                self._show_folder_note(result)
            return
        if job != self._job or not isinstance(result, Added):
            return
        self._job = None
        self.buttons.setEnabled(True)
        answer = self._form.answered(result, self.project_edit.currentText())
        self.ok_button.setText(answer.ok_label)
        if answer.error is not None:
            self._show_error(answer.error)
            return
        self.workspace_id = answer.workspace_id
        super().accept()

    @Slot(int, str)
    def _on_runner_job_failed(self, job: int, message: str) -> None:
        if job == self._job:
            self._job = None
            self.buttons.setEnabled(True)
            self._show_error(message)

    @Slot()
    def _on_browse_clicked(self) -> None:
        folder = QFileDialog.getExistingDirectory(
            self, "Project folder", self.project_edit.currentText() or str(Path.home())
        )
        if folder:
            self.project_edit.setCurrentText(folder)

    @Slot(str)
    def _on_project_edit_text_changed(self, text: str) -> None:
        if not self._form.name_typed:  # the folder's name, until the user types one
            self.name_edit.setText(folder_name(text))
        self._form.project_changed()
        self.ok_button.setText(self._form.ok_label)
        self.error_label.hide()
        self.folder_note.hide()
        self._check_timer.start()

    @Slot()
    def _on_check_timer_timeout(self) -> None:
        project = typed_project(self.project_edit.currentText())
        if worth_checking(project):
            self._check_job = self._runner.submit(functools.partial(check_folder, project))

    def _show_folder_note(self, found: FolderCheck) -> None:
        shown = found.problem is not None and not self.error_label.isVisible()
        self.folder_note.setText(found.problem or "")
        self.folder_note.setVisible(shown)
        self._fit_height()

    @Slot(str)
    def _on_name_edit_text_edited(self, _text: str) -> None:
        self._form.name_typed = True
