"""Which agents' files and folders `memtab mcp install` created (`agent-files.json` in the config
dir, docs/formats.md §15.6, §22.6), so uninstall leaves no trace of them; best effort."""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated

from memtab.fs.config.config_dir import config_dir
from memtab.fs.private import anothers
from memtab.fs.records import AtLeast, Record, ValidEntries, ValidItems, field
from memtab.fs.sidecar import edit_sidecar, read_sidecar

logger = logging.getLogger(__name__)

FILE_NAME = "agent-files.json"
LOCK_NAME = ".agent-files.json.lock"
_CAP_BYTES = 1 << 20

Folder = Annotated[str, AtLeast(1)]


class CreatedFile(Record):
    """An agent's file install created (§15.6): the folders made for it, outermost first."""

    folders: ValidItems[tuple[Folder, ...]] = ()


class AgentFiles(Record, keep_unknown=True):
    """`agent-files.json` (§15.6): the agents' files install created, by real path."""

    created: ValidEntries[dict[str, CreatedFile]] = field(default_factory=dict)


def _key(path: Path) -> str:
    """The file's real path (its folder's links followed), as the ledger names it."""
    return os.path.join(os.path.realpath(path.parent), path.name)


class CreatedFiles:
    """The ledger in `path` (`CreatedFiles.of(env)`: the config dir's)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @classmethod
    def of(cls, env: Mapping[str, str] | None = None) -> CreatedFiles:
        return cls(config_dir(env) / FILE_NAME)

    def _read(self) -> AgentFiles:
        planted = anothers(self.path)
        if planted is not None:  # it would choose which files and folders uninstall removes
            logger.warning("%s %s: not read (nothing counts as created)", self.path, planted)
            return AgentFiles()
        read = read_sidecar(self.path, max_bytes=_CAP_BYTES)
        return AgentFiles.read(read.document) or AgentFiles()

    def created(self, file: Path) -> bool:
        """Whether install created `file` (and it has not been taken away since)."""
        return _key(file) in self._read().created

    def remember(self, file: Path, folders: tuple[Path, ...]) -> None:
        """Note that install created `file`, and `folders` for it."""
        entry = CreatedFile(folders=tuple(_key(folder) for folder in folders))
        self._change(file, entry, "that Memtab created")

    def forget(self, file: Path) -> tuple[Path, ...]:
        """`file` is gone: take it out; the folders made for it, innermost first."""
        entry = self._read().created.get(_key(file))
        self._change(file, None, "that Memtab took away")
        return tuple(Path(folder) for folder in reversed(entry.folders)) if entry else ()

    def _change(self, file: Path, entry: CreatedFile | None, what: str) -> None:
        key = _key(file)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            if anothers(self.path) is not None:  # planted: never read, the ledger starts anew
                self.path.unlink()
            with edit_sidecar(
                self.path, self.path.parent / LOCK_NAME, mode=0o600, max_bytes=_CAP_BYTES
            ) as document:
                created = document.get("created")
                if not isinstance(created, dict):
                    created = document["created"] = {}
                if entry is None:
                    created.pop(key, None)
                else:
                    created[key] = entry.to_json()
        except OSError as error:  # the lock's time out too
            logger.warning("Could not note in %s %s %s: %s", self.path, what, file, error)
