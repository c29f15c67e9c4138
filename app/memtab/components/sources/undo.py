"""Edit → Undo of what Memtab does to other agents' files: a Copy to… (into mux or
another agent's memory) and a restore from the History panel.

Each function does the operation and pushes an `undo.UndoStep` on the tab's stack, built
from what was written (the copy's content, the version the file held before). Taking it
back never touches a file that changed since: a copy is removed only while it holds what
was copied, a restore undone only while the file holds what the restore wrote.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import PurePosixPath

from memtab.components.files.ops import OpResult
from memtab.components.files.undo import CreateStep, UndoStack, UndoStep
from memtab.components.sources import copy as source_copy
from memtab.components.sources.copy import CopyFrom, CopyTarget
from memtab.sources.content import missing_folders, remove_created_file
from memtab.sources.copy import CopyResult, target_file
from memtab.sources.listing import source_file
from memtab.sources.model import Source, SourceError, parse_file_id
from memtab.sources.versions import SourceVersions, restore_version
from memtab.store.history.undo import HistoryError
from memtab.store.history.versions import Version
from memtab.store.home import Home
from memtab.store.memory import MemoryStore, SaveConflictError, UnkeptChangeError
from memtab.store.paths import parse_file_path

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class SourceCopyStep(UndoStep):
    """A copy into another agent's memory is removed if it still holds what was copied
    (with the folders made for it, if empty); the removal is recorded in history."""

    source: Source
    relative: str
    sha256: str
    created_folders: int

    @property
    def removed_source_files(self) -> tuple[str, ...]:
        return (self.source.file_id(self.relative),)

    def undo(self, store: MemoryStore, *, allow_unkept: bool = False) -> OpResult:
        failed = f"Undo of {self.description} failed"
        try:
            file = target_file(self.source, self.relative)
            remove_created_file(
                self.source,
                file,
                self.sha256,
                created_folders=self.created_folders,
                history=SourceVersions(store.home),
                allow_unkept=allow_unkept,
            )
        except (SaveConflictError, UnkeptChangeError, SourceError) as error:
            return OpResult.failed(failed, error)
        return OpResult(f"Removed the copy {file.id}", touched=(str(file.physical),))


@dataclass(frozen=True)
class SourceRestoreStep(UndoStep):
    """Another agent's file a restore changed holds what it held before (a file the
    restore brought back goes again), only while it holds what the restore wrote."""

    source: Source
    file_id: str
    before: Version | None
    """The version the file held before (None or a deletion: there was no file)."""
    sha256: str

    @property
    def removed_source_files(self) -> tuple[str, ...]:
        gone = self.before is None or self.before.deleted
        return (self.file_id,) if gone else ()

    def undo(self, store: MemoryStore, *, allow_unkept: bool = False) -> OpResult:
        failed = f"Undo of {self.description} failed"
        history = SourceVersions(store.home)
        try:
            if self.before is None or self.before.deleted:
                file = source_file(self.source, parse_file_id(self.file_id).relative)
                if file is None:
                    return OpResult(failed, error=f"{self.file_id} is gone")
                remove_created_file(
                    self.source, file, self.sha256, history=history, allow_unkept=allow_unkept
                )
            else:
                restore_version(
                    history,
                    self.source,
                    self.file_id,
                    self.before.id,
                    expected_sha256=self.sha256,
                    allow_unkept=allow_unkept,
                )
        except (SaveConflictError, UnkeptChangeError, HistoryError, SourceError) as error:
            return OpResult.failed(failed, error)
        physical = str(self.source.root.joinpath(*parse_file_id(self.file_id).relative.split("/")))
        return OpResult(f"{self.file_id} holds what it held before", touched=(physical,))


def copy_to(
    stack: UndoStack,
    store: MemoryStore,
    origin: CopyFrom,
    target: CopyTarget,
    name: str,
    topic_type: str | None = None,
) -> OpResult:
    """`components.sources.copy.copy_to`, remembering the copy it made."""
    where = target.target_for(name)
    created_folders = missing_folders(target.source, where) if target.source is not None else 0
    copies: list[CopyResult] = []
    result = source_copy.copy_to(store, origin, target, name, topic_type, copies.append)
    if not (result.ok and copies):
        return result
    (copy,) = copies
    description = f"copy to {PurePosixPath(where).name}"
    if target.source is None:
        path = parse_file_path(copy.target)
        stack.push(CreateStep(store.workspace, description, path, copy.sha256))
    else:
        stack.push(
            SourceCopyStep(
                store.workspace, description, target.source, where, copy.sha256, created_folders
            )
        )
    return result


def restore_source(
    stack: UndoStack,
    home: Home,
    source: Source,
    file_id: str,
    version_id: str,
    *,
    allow_unkept: bool = False,
) -> OpResult:
    """`sources.versions.restore_version` of another agent's file, remembering what the
    file held before (`allow_unkept`: even when history cannot keep what it replaces)."""
    history = SourceVersions(home)
    relative = parse_file_id(file_id).relative
    name = PurePosixPath(relative).name
    try:
        changed = restore_version(history, source, file_id, version_id, allow_unkept=allow_unkept)
    except (SaveConflictError, UnkeptChangeError, HistoryError, SourceError) as error:
        return OpResult.failed(f"Restoring {name} failed", error)
    physical = (str(source.root.joinpath(*relative.split("/"))),)
    if not changed:
        return OpResult(f"{file_id} already holds that version", touched=physical)
    versions = history.versions(file_id)
    before = versions[1] if len(versions) > 1 else None
    step = SourceRestoreStep(
        None, f"restore of {name}", source, file_id, before, versions[0].sha256
    )
    stack.push(step)
    return OpResult(f"Restored {file_id}", touched=physical)
