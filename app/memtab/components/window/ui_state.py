"""Choices the window remembers between runs: the workspace and open file per home, the "agent
edited" badges not yet looked at, the bursts whose notice was shown, geometry, splitters, the sizes
users gave dialogs, and yes/no choices such as "don't ask again" (`flag`)."""

import base64
import binascii
import copy
import functools
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Self

from memtab.fs.atomic import atomic_write_json
from memtab.fs.config.config_dir import config_dir
from memtab.fs.private import PRIVATE_FILE_MODE, private_dir
from memtab.fs.records import (
    AtLeast,
    Healed,
    Lenient,
    Record,
    ValidEntries,
    ValidItems,
    field,
)
from memtab.fs.sidecar import keep_aside, read_sidecar

logger = logging.getLogger(__name__)

FILE_NAME = "ui-state.json"
_VERSION = 1


def default_state_path() -> Path:
    """Where the UI state lives by default."""
    return config_dir() / FILE_NAME


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


Text = Annotated[str | None, Healed(_text)]  # A non-empty string, else None.
Size = Annotated[int, AtLeast(1)]


class HomeUiState(Record):
    """One home's entry of ui-state.json's `homes` (docs/formats.md §15.2), by workspace id."""

    workspace: Text = None
    open_files: ValidEntries[dict[str, Text]] = field(default_factory=dict)
    open_tabs: ValidEntries[dict[str, ValidItems[tuple[Annotated[str, AtLeast(1)], ...]]]] = field(
        default_factory=dict
    )
    badges: Annotated[dict[str, Any], Lenient({})] = field(default_factory=dict)
    """The "agent edited" badges, each read by `components.activity.badges.Badge`."""
    seen_bursts: ValidItems[tuple[Annotated[str, AtLeast(1)], ...]] = ()
    """The bursts whose notice the window showed (their event ids, `watch.events`)."""


class UiStateFile(Record):
    """ui-state.json (docs/formats.md §15.2) as the window reads it: a value of the wrong
    shape reads as never saved, the others kept. It is changed in place as a document
    (`UiState`'s setters), so what this Memtab does not know is written back."""

    version: Annotated[int, Lenient(_VERSION)] = _VERSION
    homes: ValidEntries[dict[str, HomeUiState]] = field(default_factory=dict)
    flags: ValidEntries[dict[str, bool]] = field(default_factory=dict)
    windows: ValidEntries[dict[str, str]] = field(default_factory=dict)
    """Each window's geometry: the base64 of Qt's `saveGeometry()`."""
    dialogs: ValidEntries[dict[str, tuple[Size, Size]]] = field(default_factory=dict)
    splitters: ValidEntries[
        dict[str, Annotated[tuple[Annotated[int, AtLeast(0)], ...], AtLeast(1)]]
    ] = field(default_factory=dict)


_NO_HOME = HomeUiState()


class UiState:
    """The remembered UI choices; `save()` writes them back (atomically, best effort)."""

    def __init__(self, path: Path, document: dict[str, Any] | None = None) -> None:
        """Wrap `document` (as read from `path`); use `load()` to read it from disk."""
        self.path = path
        self._document: dict[str, Any] = document if document is not None else {}
        self._unusable: tuple[bytes, str] | None = None  # bytes to keep aside, and why
        self._unreadable: str | None = None  # why the file could not even be read
        self._record: UiStateFile | None = None  # the document as read, until it changes

    @classmethod
    def load(cls, path: Path | None = None) -> Self:
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
        """Write the state atomically; False (and a log line) when it cannot be written. A file
        that could not be read at load time is kept aside first, never overwritten."""
        return self.save_job()()

    def save_job(self) -> Callable[[], bool]:
        """`save` of the state as it is now, to run later on another thread (the window
        saves on its file channel: the GUI thread never fsyncs)."""
        self._document["version"] = _VERSION
        self._record = None
        return functools.partial(self._write, copy.deepcopy(self._document))

    def _write(self, document: dict[str, Any]) -> bool:
        if self._unreadable is not None:  # replacing it would lose what we could not read
            logger.warning("Not saving the UI state to %s: %s", self.path, self._unreadable)
            return False
        try:
            if self._unusable is not None:
                keep_aside(self.path, *self._unusable)
                self._unusable = None
            private_dir(self.path.parent)  # the config dir: private (docs/formats.md §16.2)
            atomic_write_json(self.path, document, mode=PRIVATE_FILE_MODE)
        except OSError as error:
            logger.warning("Could not save the UI state to %s: %s", self.path, error)
            return False
        return True

    def _read(self) -> UiStateFile:
        """The document as read (made again after a change)."""
        if self._record is None:
            self._record = UiStateFile.read(self._document) or UiStateFile()
        return self._record

    def _home(self, home: Path) -> HomeUiState:
        return self._read().homes.get(str(home), _NO_HOME)

    def _object(self, *keys: str) -> dict[str, Any]:
        """The object at `keys` in the document, made where missing or not an object."""
        self._record = None
        node = self._document
        for key in keys:
            child = node.get(key)
            if not isinstance(child, dict):
                child = node[key] = {}
            node = child
        return node

    @staticmethod
    def _put(node: dict[str, Any], key: str, value: Any) -> None:
        """Set `key` to `value`, or remove it when `value` is empty."""
        if value:
            node[key] = value
        else:
            node.pop(key, None)

    def workspace_for(self, home: Path) -> str | None:
        """The workspace id last chosen in `home`, or None."""
        return self._home(home).workspace

    def set_workspace(self, home: Path, workspace_id: str | None) -> None:
        """Remember the workspace chosen in `home` (None forgets it)."""
        self._put(self._object("homes", str(home)), "workspace", workspace_id)

    def open_file_for(self, home: Path, workspace_id: str | None) -> str | None:
        """The virtual path last open in the editor for this home and workspace."""
        return self._home(home).open_files.get(workspace_id or "")

    def set_open_file(self, home: Path, workspace_id: str | None, path: str | None) -> None:
        """Remember the file open in the editor (None: nothing is open)."""
        self._put(self._object("homes", str(home), "open_files"), workspace_id or "", path)

    def open_tabs_for(self, home: Path, workspace_id: str | None) -> list[str]:
        """The files open in the editor's tabs for this home and workspace, in order
        (file refs' keys: virtual paths, or other agents' file ids)."""
        return list(self._home(home).open_tabs.get(workspace_id or "", ()))

    def set_open_tabs(self, home: Path, workspace_id: str | None, keys: list[str]) -> None:
        """Remember the files open in the editor's tabs, in order."""
        tabs = self._object("homes", str(home), "open_tabs")
        self._put(tabs, workspace_id or "", list(keys))

    def badges_for(self, home: Path) -> dict[str, Any]:
        """The "agent edited" badges of `home` as saved
        (`components.activity.badges.AgentEdits.saved`)."""
        return dict(self._home(home).badges)

    def set_badges(self, home: Path, badges: dict[str, Any]) -> None:
        """Remember the badges of `home` (an empty dict forgets them)."""
        self._put(self._object("homes", str(home)), "badges", badges)

    def bursts_seen_for(self, home: Path) -> list[str]:
        """The bursts of `home` whose notice was shown (`components.history.burst_news`)."""
        return list(self._home(home).seen_bursts)

    def set_bursts_seen(self, home: Path, burst_ids: list[str]) -> None:
        """Remember the bursts of `home` whose notice was shown."""
        self._put(self._object("homes", str(home)), "seen_bursts", list(burst_ids))

    def flag(self, name: str, default: bool = False) -> bool:
        """A remembered yes/no choice (`default` when never made or unreadable)."""
        return self._read().flags.get(name, default)

    def set_flag(self, name: str, value: bool) -> None:
        """Remember a yes/no choice."""
        self._object("flags")[name] = value

    def geometry(self, name: str = "main") -> bytes | None:
        """The saved geometry bytes of window `name`, or None."""
        raw = self._read().windows.get(name)
        if raw is None:
            return None
        try:
            return base64.b64decode(raw, validate=True)
        except (binascii.Error, ValueError):
            return None

    def set_geometry(self, data: bytes, name: str = "main") -> None:
        """Remember the geometry bytes of window `name`."""
        self._object("windows")[name] = base64.b64encode(data).decode("ascii")

    def dialog_size(self, name: str) -> tuple[int, int] | None:
        """The size (width, height) the user last gave dialog `name`, or None."""
        return self._read().dialogs.get(name)

    def set_dialog_size(self, name: str, width: int, height: int) -> None:
        """Remember the size of dialog `name`."""
        self._object("dialogs")[name] = [int(width), int(height)]

    def splitter_sizes(self, name: str) -> list[int] | None:
        """The saved sizes of splitter `name` (all non-negative ints), or None."""
        sizes = self._read().splitters.get(name)
        return list(sizes) if sizes is not None else None

    def set_splitter_sizes(self, name: str, sizes: list[int]) -> None:
        """Remember the sizes of splitter `name`."""
        self._object("splitters")[name] = [int(size) for size in sizes]
