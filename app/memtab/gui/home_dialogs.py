"""File → Add workspace… and File → Open home…: setting up a home from the window.

`AddWorkspaceDialog` asks for a project folder (one already registered, or any folder)
and a workspace name, then registers them with `store.home.add_workspace` on the
window's worker thread (the `TaskRunner` it is given) — config.json is read and written
under its lock there, never on the GUI thread — and stays open with the reason when that
fails. `describe_home_folder` is what Open home
checks about a folder before Memtab opens it (also off the GUI thread).
"""

from __future__ import annotations

import functools
import logging
import os
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import Slot
from PySide6.QtWidgets import (
    QComboBox,
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

from memtab.gui.style import Accent, accent_text, mute
from memtab.gui.tasks.runner import TaskContext, TaskRunner
from memtab.store.home import Home, HomeError
from memtab.store.registry import Registry, add_workspace

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Added:
    """What registering a workspace did: its id, or why it could not."""

    workspace_id: str | None = None
    error: str | None = None


def register_workspace(home: Home, project: str, name: str, _context: TaskContext) -> Added:
    """The job: add the project (if new) and the workspace to the home's config.json."""
    try:
        return Added(workspace_id=add_workspace(home, project, name))
    except (HomeError, OSError, TimeoutError) as error:
        return Added(error=str(error) or type(error).__name__)


@dataclass(frozen=True)
class HomeFolder:
    """What Open home found about a folder: whether it can be opened, and what to say
    before opening it (None: it is a memory home)."""

    path: Path
    can_open: bool
    note: str | None = None


def describe_home_folder(path: Path, _context: TaskContext | None = None) -> HomeFolder:
    """Whether `path` can be opened as a home (a job: it looks at the disk).

    A folder without config.json, memory/ or sessions/ is not a memory home yet: Memtab
    can still open it (its files are made on the first write), but the user should know.
    """
    if not path.is_dir():
        return HomeFolder(path, False, f"{path} is not a folder")
    home = Home(path)
    if any(p.exists() for p in (home.config_path, home.global_root.parent, home.sessions_dir)):
        return HomeFolder(path, True)
    return HomeFolder(
        path,
        True,
        f"{path} is not a memory home yet (no config.json, memory/ or sessions/). "
        "Memtab creates its files there when you add memories.",
    )


class AddWorkspaceDialog(QDialog):
    """Registers a project and a workspace (see the module docstring).

    `workspace_id` holds the new workspace's id once the dialog was accepted.
    """

    def __init__(
        self,
        home: Home,
        registry: Registry | None,
        runner: TaskRunner,
        parent: QWidget | None = None,
    ) -> None:
        """`runner` (owned by the window) runs the registration."""
        super().__init__(parent)
        self.setObjectName("addWorkspaceDialog")
        self.setWindowTitle("Add a workspace — Memtab")
        self.home = home
        self.workspace_id: str | None = None
        self._runner = runner
        self._job: int | None = None
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
        line = self.project_edit.lineEdit()
        if line is not None:
            line.setPlaceholderText("/path/to/your/project")
        self.project_edit.currentTextChanged.connect(self._on_project_edit_text_changed)
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
        self._name_typed = False
        form = QFormLayout()
        form.addRow("Project folder:", project_row)
        form.addRow("Workspace name:", self.name_edit)
        self.error_label = QLabel(self)
        self.error_label.setWordWrap(True)
        self.error_label.setAccessibleName("Why the workspace was not added")
        self.error_label.setStyleSheet(f"color: {accent_text(self.palette(), Accent.ERROR).name()}")
        self.error_label.hide()
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setText("Add workspace")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(form)
        layout.addWidget(self.error_label)
        layout.addWidget(self.buttons)
        self.setMinimumWidth(520)

    @property
    def busy(self) -> bool:
        """Whether the workspace is being registered."""
        return self._job is not None

    def accept(self) -> None:
        """Register the workspace off the GUI thread; the dialog closes when it is done."""
        if self.busy:
            return
        project = os.path.expanduser(self.project_edit.currentText().strip())
        name = self.name_edit.text().strip() or Path(project).name
        if not project or not os.path.isabs(project):
            self._show_error("Choose the project folder (an absolute path).")
            return
        if not name:
            self._show_error("Give the workspace a name.")
            return
        self.buttons.setEnabled(False)
        self._job = self._runner.submit(
            functools.partial(register_workspace, self.home, os.path.normpath(project), name)
        )

    def done(self, result: int) -> None:
        """Close; a registration still running finishes, its answer no longer shown."""
        self._runner.job_finished.disconnect(self._on_runner_job_finished)
        self._runner.job_failed.disconnect(self._on_runner_job_failed)
        super().done(result)

    def _show_error(self, text: str) -> None:
        self.error_label.setText(text)
        self.error_label.show()

    @Slot(int, object)
    def _on_runner_job_finished(self, job: int, result: object) -> None:
        if job != self._job or not isinstance(result, Added):
            return
        self._job = None
        self.buttons.setEnabled(True)
        if result.workspace_id is None:
            self._show_error(result.error or "The workspace could not be added.")
            return
        self.workspace_id = result.workspace_id
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
        if not self._name_typed:  # the folder's name, until the user types one
            self.name_edit.setText(Path(text.strip().rstrip("/\\")).name if text.strip() else "")

    @Slot(str)
    def _on_name_edit_text_edited(self, _text: str) -> None:
        self._name_typed = True
