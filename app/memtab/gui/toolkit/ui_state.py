"""Choices the window remembers between runs: the workspace and open file per home, the
"agent edited" badges not yet looked at, geometry, splitters, the sizes users gave
dialogs, and yes/no choices such as "don't ask again" (`flag`).

A small JSON file in Memtab's config dir (`memtab.fs.config.config_dir`, the same place as
settings.json), written atomically. It is a convenience, never a source of truth: a
missing or corrupt file is an empty state (a corrupt one is kept aside by the first save,
see `memtab.fs.sidecar`), and failing to write it is logged, not raised.
Qt-free: geometry is stored as the base64 of the bytes Qt's `saveGeometry()` returns.
"""

from __future__ import annotations

import base64
import binascii
import copy
import functools
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from memtab.fs.atomic import atomic_write_json
from memtab.fs.config.config_dir import config_dir
from memtab.fs.sidecar import keep_aside, read_sidecar

logger = logging.getLogger(__name__)

FILE_NAME = "ui-state.json"
_VERSION = 1


def default_state_path() -> Path:
    """Where the UI state lives by default."""
    return config_dir() / FILE_NAME


class UiState:
    """The remembered UI choices; `save()` writes them back (atomically, best effort)."""

    def __init__(self, path: Path, document: dict[str, Any] | None = None) -> None:
        """Wrap `document` (as read from `path`); use `load()` to read it from disk."""
        self.path = path
        self._document: dict[str, Any] = document if document is not None else {}
        self._unusable: tuple[bytes, str] | None = None  # bytes to keep aside, and why
        self._unreadable: str | None = None  # why the file could not even be read

    @classmethod
    def load(cls, path: Path | None = None) -> UiState:
        """Read the state from `path` (default: the config dir); empty when unusable."""
        path = path or default_state_path()
        read = read_sidecar(path)
        state = cls(path, read.document)
        if read.problem is not None:
            logger.warning("Ignoring the UI state %s: %s", path, read.problem)
            if read.raw is not None:
                state._unusable = (read.raw, read.problem)
            else:
                state._unreadable = read.problem
        return state

    def save(self) -> bool:
        """Write the state atomically; False (and a log line) when it cannot be written.

        A file that could not be read at load time is kept aside first, never overwritten.
        """
        return self.save_job()()

    def save_job(self) -> Callable[[], bool]:
        """`save` of the state as it is now, to run later on another thread (the window
        saves on its file channel: the GUI thread never fsyncs)."""
        self._document["version"] = _VERSION
        return functools.partial(self._write, copy.deepcopy(self._document))

    def _write(self, document: dict[str, Any]) -> bool:
        if self._unreadable is not None:  # replacing it would lose what we could not read
            logger.warning("Not saving the UI state to %s: %s", self.path, self._unreadable)
            return False
        try:
            if self._unusable is not None:
                keep_aside(self.path, *self._unusable)
                self._unusable = None
            atomic_write_json(self.path, document)
        except OSError as error:
            logger.warning("Could not save the UI state to %s: %s", self.path, error)
            return False
        return True

    # -- workspace per home ---------------------------------------------------------------

    def _homes(self) -> dict[str, Any]:
        homes = self._document.get("homes")
        if not isinstance(homes, dict):
            homes = self._document["homes"] = {}
        return homes

    def workspace_for(self, home: Path) -> str | None:
        """The workspace id last chosen in `home`, or None."""
        entry = self._homes().get(str(home))
        value = entry.get("workspace") if isinstance(entry, dict) else None
        return value if isinstance(value, str) and value else None

    def set_workspace(self, home: Path, workspace_id: str | None) -> None:
        """Remember the workspace chosen in `home` (None forgets it)."""
        entry = self._homes().setdefault(str(home), {})
        if not isinstance(entry, dict):
            entry = self._homes()[str(home)] = {}
        if workspace_id:
            entry["workspace"] = workspace_id
        else:
            entry.pop("workspace", None)

    def open_file_for(self, home: Path, workspace_id: str | None) -> str | None:
        """The virtual path last open in the editor for this home and workspace."""
        entry = self._homes().get(str(home))
        files = entry.get("open_files") if isinstance(entry, dict) else None
        value = files.get(workspace_id or "") if isinstance(files, dict) else None
        return value if isinstance(value, str) and value else None

    def set_open_file(self, home: Path, workspace_id: str | None, path: str | None) -> None:
        """Remember the file open in the editor (None: nothing is open)."""
        entry = self._homes().setdefault(str(home), {})
        if not isinstance(entry, dict):
            entry = self._homes()[str(home)] = {}
        files = entry.get("open_files")
        if not isinstance(files, dict):
            files = entry["open_files"] = {}
        if path:
            files[workspace_id or ""] = path
        else:
            files.pop(workspace_id or "", None)

    def open_tabs_for(self, home: Path, workspace_id: str | None) -> list[str]:
        """The files open in the editor's tabs for this home and workspace, in order
        (file refs' keys: virtual paths, or other agents' file ids)."""
        entry = self._homes().get(str(home))
        tabs = entry.get("open_tabs") if isinstance(entry, dict) else None
        value = tabs.get(workspace_id or "") if isinstance(tabs, dict) else None
        if not isinstance(value, list):
            return []
        return [key for key in value if isinstance(key, str) and key]

    def set_open_tabs(self, home: Path, workspace_id: str | None, keys: list[str]) -> None:
        """Remember the files open in the editor's tabs, in order."""
        entry = self._homes().setdefault(str(home), {})
        if not isinstance(entry, dict):
            entry = self._homes()[str(home)] = {}
        tabs = entry.get("open_tabs")
        if not isinstance(tabs, dict):
            tabs = entry["open_tabs"] = {}
        if keys:
            tabs[workspace_id or ""] = list(keys)
        else:
            tabs.pop(workspace_id or "", None)

    def badges_for(self, home: Path) -> dict[str, Any]:
        """The "agent edited" badges of `home` as saved
        (`components.activity.badges.AgentEdits.saved`)."""
        entry = self._homes().get(str(home))
        badges = entry.get("badges") if isinstance(entry, dict) else None
        return badges if isinstance(badges, dict) else {}

    def set_badges(self, home: Path, badges: dict[str, Any]) -> None:
        """Remember the badges of `home` (an empty dict forgets them)."""
        entry = self._homes().setdefault(str(home), {})
        if not isinstance(entry, dict):
            entry = self._homes()[str(home)] = {}
        if badges:
            entry["badges"] = badges
        else:
            entry.pop("badges", None)

    # -- yes/no choices ----------------------------------------------------------------------

    def flag(self, name: str, default: bool = False) -> bool:
        """A remembered yes/no choice (`default` when never made or unreadable)."""
        flags = self._document.get("flags")
        value = flags.get(name) if isinstance(flags, dict) else None
        return value if isinstance(value, bool) else default

    def set_flag(self, name: str, value: bool) -> None:
        """Remember a yes/no choice."""
        flags = self._document.get("flags")
        if not isinstance(flags, dict):
            flags = self._document["flags"] = {}
        flags[name] = value

    # -- window geometry and splitters ----------------------------------------------------

    def geometry(self, name: str = "main") -> bytes | None:
        """The saved geometry bytes of window `name`, or None."""
        windows = self._document.get("windows")
        raw = windows.get(name) if isinstance(windows, dict) else None
        if not isinstance(raw, str):
            return None
        try:
            return base64.b64decode(raw, validate=True)
        except (binascii.Error, ValueError):
            return None

    def set_geometry(self, data: bytes, name: str = "main") -> None:
        """Remember the geometry bytes of window `name`."""
        windows = self._document.get("windows")
        if not isinstance(windows, dict):
            windows = self._document["windows"] = {}
        windows[name] = base64.b64encode(data).decode("ascii")

    def dialog_size(self, name: str) -> tuple[int, int] | None:
        """The size (width, height) the user last gave dialog `name`, or None."""
        dialogs = self._document.get("dialogs")
        size = dialogs.get(name) if isinstance(dialogs, dict) else None
        if (
            isinstance(size, list)
            and len(size) == 2
            and all(isinstance(s, int) and not isinstance(s, bool) and s > 0 for s in size)
        ):
            return size[0], size[1]
        return None

    def set_dialog_size(self, name: str, width: int, height: int) -> None:
        """Remember the size of dialog `name`."""
        dialogs = self._document.get("dialogs")
        if not isinstance(dialogs, dict):
            dialogs = self._document["dialogs"] = {}
        dialogs[name] = [int(width), int(height)]

    def splitter_sizes(self, name: str) -> list[int] | None:
        """The saved sizes of splitter `name` (all non-negative ints), or None."""
        splitters = self._document.get("splitters")
        sizes = splitters.get(name) if isinstance(splitters, dict) else None
        if (
            isinstance(sizes, list)
            and sizes
            and all(isinstance(s, int) and not isinstance(s, bool) and s >= 0 for s in sizes)
        ):
            return list(sizes)
        return None

    def set_splitter_sizes(self, name: str, sizes: list[int]) -> None:
        """Remember the sizes of splitter `name`."""
        splitters = self._document.get("splitters")
        if not isinstance(splitters, dict):
            splitters = self._document["splitters"] = {}
        splitters[name] = [int(size) for size in sizes]
