"""Setting up a home from the window, as operations: a workspace registered in the home's
config.json (read and written under its lock, never on the GUI thread), a typed project
folder looked at, and what File → Open home finds in a folder before Memtab opens it."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from memtab.components.jobs import JobContext
from memtab.store.home import Home, HomeError
from memtab.store.sidecars.registry import add_workspace


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
class HomeFolder:
    """What Open home found about a folder: whether it can be opened, and what to say
    before opening it (None: it is a memory home)."""

    path: Path
    can_open: bool
    note: str | None = None


def describe_home_folder(path: Path, _ctx: JobContext | None = None) -> HomeFolder:
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
