"""Where an agent's file is, for `edit_file` (docs/formats.md §22.6): the user's own files through
their links, a project's through real folders only (`ProjectLinkError`); missing folders made 0700
only on creation, and named."""

from __future__ import annotations

import contextlib
import errno
import os
from collections.abc import Sequence
from pathlib import Path

from memtab.agent_server.config_files import ConfigFileError
from memtab.fs.atomic import Directory
from memtab.fs.confined import LinkInPathError, open_subdirectory

NEW_FOLDER_MODE = 0o700


class ProjectLinkError(ConfigFileError):
    """A link below a project's folder, on the way to the file install writes there."""


class Place:
    """The file `name` in `directory` (None: not there yet), `target` its path, `project` the folder
    it must stay under; a context manager."""

    __slots__ = ("directory", "name", "path", "project", "target")

    def __init__(
        self, path: Path, target: Path, directory: Directory | None, project: Path | None
    ) -> None:
        self.path = path
        self.target = target
        self.name = target.name
        self.directory = directory
        self.project = project

    def __enter__(self) -> Place:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self.directory is not None:
            self.directory.close()

    def make_folders(self) -> tuple[Path, ...]:
        """Make the missing folders up to the file's (0700, no links); those made, outermost
        first."""
        if self.directory is not None:
            return ()
        if self.project is not None:
            base, parts = self.project, _parts_below(self.project, self.target)[:-1]
        else:
            base, missing = self.target.parent, []
            while not os.path.lexists(base):
                missing.append(base.name)
                base = base.parent
            parts = tuple(reversed(missing))
        try:
            opened = Directory.open(base)
        except OSError as error:
            raise ConfigFileError(f"cannot open {base}: {error.strerror or error}") from None
        self.directory, made = self._descend(opened, parts, make=True)
        return made

    def link_error(self, name: str, directory: Directory) -> ConfigFileError:
        """The refusal of the file `name` in `directory`, a link in a project."""
        assert self.project is not None
        return project_link_error(Path(directory.display(name)), self.project, folder=False)

    def _descend(
        self, directory: Directory, parts: Sequence[str], *, make: bool
    ) -> tuple[Directory, tuple[Path, ...]]:
        """`directory/parts…`, each opened without following a link (`make` when missing); takes
        `directory` over."""
        made: list[Path] = []
        try:
            for part in parts:
                try:
                    child = _open_folder(directory, part)
                except FileNotFoundError:
                    if not make:
                        raise
                    path, at = directory.at(part)
                    with contextlib.suppress(FileExistsError):  # made meanwhile: that one
                        os.mkdir(path, NEW_FOLDER_MODE, **at)
                        made.append(Path(directory.display(part)))
                    child = _open_folder(directory, part)
                directory.close()
                directory = child
        except LinkInPathError as error:
            directory.close()
            shown = Path(str(error.filename))
            if self.project is None:
                raise ConfigFileError(f"{shown} became a link while Memtab made it") from None
            raise project_link_error(shown, self.project, folder=True) from None
        except NotADirectoryError as error:
            directory.close()
            raise ConfigFileError(f"{error.filename} is not a folder") from None
        except BaseException:
            directory.close()
            raise
        return directory, tuple(made)


def _open_folder(directory: Directory, name: str) -> Directory:
    """The folder `name` in `directory`, never through a link (LinkInPathError)."""
    try:
        return open_subdirectory(directory, name)
    except OSError as error:
        if error.errno == errno.ELOOP and not isinstance(error, LinkInPathError):
            raise LinkInPathError(directory.display(name)) from None
        raise


def open_place(path: Path, project: Path | None = None) -> Place:
    """Where the file `path` is (a project's through real folders only); ConfigFileError."""
    if project is not None:
        place = Place(path, path, None, project)
        parts = _parts_below(project, path)
        try:
            base = Directory.open(project)
        except OSError as error:
            raise ConfigFileError(f"cannot open {project}: {error.strerror or error}") from None
        try:
            place.directory, _ = place._descend(base, parts[:-1], make=False)
        except FileNotFoundError:
            return place
        return place
    target = _followed(path)
    place = Place(path, target, None, None)
    try:
        place.directory = Directory.open(target.parent)
    except FileNotFoundError:
        return place
    except OSError as error:
        raise ConfigFileError(f"cannot open {target.parent}: {error.strerror or error}") from None
    return place


def project_link_error(link: Path, project: Path, *, folder: bool) -> ProjectLinkError:
    """The refusal of a link at `link` below `project`, where a folder or the file belongs."""
    try:
        points = os.readlink(link)
    except OSError:
        points = "somewhere"
    inside = Path(os.path.realpath(link)).is_relative_to(os.path.realpath(project))
    where = "" if inside else ", out of the project"
    return ProjectLinkError(
        f"{link} is a link (to {points}){where}, and Memtab writes nothing through a link "
        f"inside a project: a cloned repository can ship one to send the edit elsewhere. "
        f"Make {link.name} a real {'folder' if folder else 'file'} of the project to install "
        "there"
    )


def _parts_below(project: Path, path: Path) -> tuple[str, ...]:
    try:
        parts = path.relative_to(project).parts
    except ValueError:
        raise ConfigFileError(f"{path} is not inside {project}") from None
    if not parts or ".." in parts:
        raise ConfigFileError(f"{path} is not a file inside {project}")
    return parts


def _followed(path: Path) -> Path:
    """`path`, or the file its links lead to."""
    folder = Path(os.path.realpath(path.parent))
    reached = path if folder == path.parent else folder / path.name
    if not reached.is_symlink():
        return reached
    target = Path(os.path.realpath(reached))
    if not os.path.lexists(target):
        raise ConfigFileError(f"it is a link to {target}, which does not exist")
    return target
