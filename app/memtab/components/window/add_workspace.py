"""File → Add workspace…'s checks, words and jobs, without Qt (the dialog:
`gui/window/home_dialogs.py`)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from memtab.components.jobs import JobContext
from memtab.store.home import Home, HomeError
from memtab.store.sidecars.registry import add_workspace

ADD_LABEL = "&Add workspace"
ADD_ANYWAY = "Add anyway"
ADD_ANYWAY_LABEL = f"&{ADD_ANYWAY}"  # the button; the words name it without its mnemonic


def typed_project(text: str) -> str:
    """The project path as typed, `~` expanded and normalized ('' when blank)."""
    typed = os.path.expanduser(text.strip())
    return os.path.normpath(typed) if typed else ""


def folder_name(text: str) -> str:
    """The typed folder's own name: the workspace's name until the user types one."""
    return Path(text.strip().rstrip("/\\")).name if text.strip() else ""


def worth_checking(project: str) -> bool:
    """Whether a typed path is looked at on disk (an absolute one)."""
    return bool(project) and os.path.isabs(project)


@dataclass(frozen=True)
class Added:
    """What registering a workspace did: its id, or why it could not (`missing`: the
    folder does not exist on this machine, which the user may confirm)."""

    workspace_id: str | None = None
    error: str | None = None
    missing: bool = False


@dataclass(frozen=True)
class FolderCheck:
    """What is at a typed project path: `problem` None for a folder."""

    path: str
    problem: str | None
    missing: bool = False


def check_folder(path: str, _ctx: JobContext | None = None) -> FolderCheck:
    """Whether `path` is a folder on this machine (a job: it looks at the disk)."""
    if os.path.isdir(path):
        return FolderCheck(path, None)
    if os.path.lexists(path):
        return FolderCheck(path, f"{path} is not a folder.")
    return FolderCheck(path, f"{path} does not exist on this machine.", missing=True)


def register_workspace(
    home: Home, project: str, name: str, allow_missing: bool, _ctx: JobContext
) -> Added:
    """The job: add the project (if new) and the workspace to the home's config.json —
    a project folder that does not exist only with `allow_missing` (the user said so)."""
    found = check_folder(project)
    if found.problem is not None and not (found.missing and allow_missing):
        return Added(error=found.problem, missing=found.missing)
    try:
        return Added(workspace_id=add_workspace(home, project, name))
    except (HomeError, OSError, TimeoutError) as error:
        return Added(error=str(error) or type(error).__name__)


@dataclass(frozen=True)
class Register:
    """Adding may go ahead: register `name` in `project` (`allow_missing`: Add anyway)."""

    project: str
    name: str
    allow_missing: bool


@dataclass(frozen=True)
class Answer:
    """What the dialog does with a registration's outcome: close with `workspace_id`, or
    say `error` (with the OK button reading `ok_label`)."""

    workspace_id: str | None
    error: str | None
    ok_label: str


class AddWorkspaceForm:
    """The dialog's state: what Add asks for, what each answer says."""

    def __init__(self) -> None:
        self.name_typed = False
        self._missing_confirmable: str | None = None  # a missing folder "Add anyway" adds

    @property
    def ok_label(self) -> str:
        """The OK button's text now."""
        return ADD_ANYWAY_LABEL if self._missing_confirmable is not None else ADD_LABEL

    def project_changed(self) -> None:
        """Another path typed: whatever was said (and confirmed) of the last one no
        longer holds."""
        self._missing_confirmable = None

    def add(self, project_text: str, name_text: str) -> Register | str:
        """Add pressed with these fields: the registration to run, or why not."""
        project = typed_project(project_text)
        name = name_text.strip() or Path(project).name
        if not project or not os.path.isabs(project):
            return "Choose the project folder (an absolute path)."
        if not name:
            return "Give the workspace a name."
        return Register(project, name, project == self._missing_confirmable)

    def answered(self, result: Added, project_text: str) -> Answer:
        """A registration's outcome, the project field now holding `project_text`."""
        if result.missing:
            self._missing_confirmable = typed_project(project_text)
            error = (
                f"{result.error} Choose an existing folder, or {ADD_ANYWAY} if mux runs "
                "this project on another machine that shares this home."
            )
            return Answer(None, error, self.ok_label)
        if result.workspace_id is None:
            error = result.error or "The workspace could not be added."
            return Answer(None, error, self.ok_label)
        return Answer(result.workspace_id, None, self.ok_label)

    @staticmethod
    def still_typed(found: FolderCheck, project_text: str) -> bool:
        """Whether a look at a typed folder is of what the field holds now (not typed
        over since): only then is its problem said."""
        return found.path == typed_project(project_text)
