"""Edit → Undo: the window's last file operations, and how to take each one back.

Every operation of the tree — create, rename or move, delete, pin — every restore from
history and every Copy to… runs through a function here (a restore or a copy of any
memory file, mux's or another agent's, through its `MemoryFile`), which does it
(`components.files.ops`, `components.history.history`, `components.files.copy`) and
pushes an `UndoStep` saying how to take it back, built from what actually happened (the
moves that were made, the versions history recorded, what a copy wrote), never from a
guess. `UndoStep.undo` takes it back as a
change of its own, recorded in history like any other, and only where nothing changed
since: a deleted file comes back beside a newer file of the same name, a created,
restored or copied file that was edited since is left alone, a move back never replaces
what appeared at the old name. An undo refused because history cannot keep a copy of what
it would replace says so (`OpResult.unkept`), and is made without one only when asked
(`allow_unkept`).

Operations run on the file-operations worker, so the stack is shared between that
thread (pushing) and the GUI thread (peeking, popping): it takes a lock.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, replace

from memtab.components.files import ops as file_ops
from memtab.components.files.ops import OpResult, restore_file, restored_result
from memtab.humanize import plural
from memtab.sources.memory_file import MemoryFile, MemoryFileError, MuxFile
from memtab.sources.model import MemoryFileRef
from memtab.store.files import content_sha256
from memtab.store.history.versions import Version
from memtab.store.home import Home
from memtab.store.memory import (
    MemoryStore,
    MemoryStoreError,
    SaveConflictError,
    UnkeptChangeError,
)
from memtab.store.orphans import OrphanDeletion, OrphanProjectStore
from memtab.store.paths import PathError, VirtualPath, parse_file_path
from memtab.store.registry import Workspace

logger = logging.getLogger(__name__)

MAX_STEPS = 100


def _items(paths: Sequence[VirtualPath]) -> str:
    return paths[0].name if len(paths) == 1 else f"{len(paths)} items"


@dataclass(frozen=True)
class UndoStep:
    """How to take one operation back; `description` names it (`delete of notes.md`)."""

    workspace: Workspace | None
    description: str

    def undo(self, store: MemoryStore, *, allow_unkept: bool = False) -> OpResult:
        """Take the operation back through `store` (`store_for`'s); `allow_unkept`: even
        where history cannot keep a copy of what it replaces (the user chose to)."""
        raise NotImplementedError

    def store_for(self, home: Home) -> MemoryStore:
        """The store the operation was made through: of `workspace`."""
        return MemoryStore(home, self.workspace)

    @property
    def affected(self) -> tuple[MemoryFileRef, ...]:
        """The files and folders undoing this removes or moves away (an open file there
        is closed)."""
        return ()

    @property
    def written(self) -> tuple[MemoryFileRef, ...]:
        """The files undoing this writes (Memtab's own writes: no "agent edited" badge)."""
        return ()

    def relocated(self, ref: MemoryFileRef) -> MemoryFileRef | None:
        """Where the file `ref` names is once this is undone (None: it goes away)."""
        return None if any(ref.is_within(gone) for gone in self.affected) else ref


@dataclass(frozen=True)
class DeleteStep(UndoStep):
    """Deleted files come back from the versions history kept of them (with their pins
    and usage); deleted folders that held no file come back empty."""

    files: tuple[tuple[str, str], ...]
    """(path, version id of its deletion)."""
    folders: tuple[VirtualPath, ...]

    @property
    def written(self) -> tuple[MemoryFileRef, ...]:
        paths = (*(parse_file_path(path) for path, _version in self.files), *self.folders)
        return tuple(MemoryFileRef.of_mux(path) for path in paths)

    def undo(self, store: MemoryStore, *, allow_unkept: bool = False) -> OpResult:
        restored: list[MemoryFileRef] = []
        notes: list[str] = []
        touched: list[str] = []
        for path, version_id in self.files:
            result = restore_file(store, path, version_id, allow_unkept=allow_unkept)
            if not result.ok:
                return replace(result, message=f"Undo of {self.description} failed")
            if result.created is not None:
                restored.append(result.created)
                if result.created.key != path:
                    notes.append(result.message)
            touched.extend(result.touched)
        for folder in self.folders:
            try:
                if store.kind_of(folder) is None:
                    store.create_directory(str(folder))
                    touched.append(str(store.physical(folder)))
            except (MemoryStoreError, PathError, OSError) as error:
                return OpResult(f"Undo of {self.description} failed", error=str(error))
        what = restored[0].key if len(restored) == 1 else f"{len(restored)} files"
        message = f"Restored {what}" if restored else f"Restored {_items(self.folders)}"
        if notes:
            message += " — " + "; ".join(notes)
        created = restored[0] if len(restored) == 1 and not self.folders else None
        return OpResult(message, created=created, touched=tuple(touched))


@dataclass(frozen=True)
class OrphanDeleteStep(DeleteStep):
    """The files of a deleted orphaned project dir come back into that dir (its own
    store: it belongs to no workspace), none of them opened: their virtual paths are
    not the workspace's."""

    dir_name: str = ""

    @property
    def written(self) -> tuple[MemoryFileRef, ...]:
        return ()

    def store_for(self, home: Home) -> MemoryStore:
        return OrphanProjectStore(home, self.dir_name)

    def undo(self, store: MemoryStore, *, allow_unkept: bool = False) -> OpResult:
        result = super().undo(store, allow_unkept=allow_unkept)
        return OpResult(
            result.message, error=result.error, touched=result.touched, unkept=result.unkept
        )


@dataclass(frozen=True)
class MoveStep(UndoStep):
    """Each move is made backwards, last first."""

    moves: tuple[tuple[VirtualPath, VirtualPath], ...]

    @property
    def affected(self) -> tuple[MemoryFileRef, ...]:
        return tuple(MemoryFileRef.of_mux(new) for _old, new in self.moves)

    @property
    def written(self) -> tuple[MemoryFileRef, ...]:
        return tuple(MemoryFileRef.of_mux(old) for old, _new in self.moves)

    def relocated(self, ref: MemoryFileRef) -> MemoryFileRef | None:
        for old, new in reversed(self.moves):
            moved = MemoryFileRef.of_mux(new)
            if ref.is_within(moved):
                return MemoryFileRef(ref.source_id, str(old) + ref.path[len(moved.path) :])
        return ref

    def undo(self, store: MemoryStore, *, allow_unkept: bool = False) -> OpResult:
        backwards = [(new, old) for old, new in reversed(self.moves)]  # never refused
        result = file_ops.move(store, backwards)
        if not result.ok:
            return OpResult(
                f"Undo of {self.description} failed",
                error=result.error,
                moved=result.moved,
                touched=result.touched,
            )
        return result


@dataclass(frozen=True)
class CreateStep(UndoStep):
    """A created file is deleted if it still holds what it was created with (so it goes
    to Recently deleted); a created folder if it is still empty."""

    path: VirtualPath
    sha256: str | None
    """The created file's content (None: a folder)."""

    @property
    def affected(self) -> tuple[MemoryFileRef, ...]:
        return (MemoryFileRef.of_mux(self.path),)

    def undo(self, store: MemoryStore, *, allow_unkept: bool = False) -> OpResult:
        failed = f"Undo of {self.description} failed"
        try:
            kind = store.kind_of(self.path)
            if kind is None:
                return OpResult(failed, error=f"{self.path} no longer exists")
            if self.sha256 is None:
                if kind != "dir" or store.entries(self.path):
                    return OpResult(failed, error=f"{self.path} is not empty any more")
                physical = str(store.physical(self.path))
                store.delete(str(self.path))
                return OpResult(f"Removed the new folder {self.path}", touched=(physical,))
            physical = str(store.physical(self.path))
            store.restore_content(
                str(self.path),
                None,
                expected_sha256=self.sha256,
                op="delete",
                allow_unkept=allow_unkept,
            )
        except SaveConflictError:
            return OpResult(failed, error=f"{self.path} changed since it was created; kept")
        except (MemoryStoreError, PathError, OSError) as error:
            return OpResult.failed(failed, error)
        return OpResult(f"Removed the new file {self.path}", touched=(physical,))


@dataclass(frozen=True)
class RestoreStep(UndoStep):
    """A file a restore gave other content — any memory file, mux's or another agent's —
    holds what it held before, if it still holds what the restore wrote."""

    file: MemoryFile
    before: Version
    sha256: str
    """What the operation left in the file."""

    @property
    def written(self) -> tuple[MemoryFileRef, ...]:
        return (self.file.ref,)

    def undo(self, store: MemoryStore, *, allow_unkept: bool = False) -> OpResult:
        key = self.file.ref.key
        failed = f"Undo of {self.description} failed"
        try:
            restored = self.file.restore(
                self.before.id, expected_sha256=self.sha256, allow_unkept=allow_unkept
            )
        except SaveConflictError:
            return OpResult(failed, error=f"{key} changed since; kept")
        except (UnkeptChangeError, MemoryFileError) as error:
            return OpResult.failed(failed, error)
        return OpResult(f"{key} holds what it held before", touched=_physical(restored.file))


@dataclass(frozen=True)
class RemoveStep(UndoStep):
    """A file an operation made — a copy, a restore that brought a file back; any memory
    file, mux's or another agent's — is removed if it still holds what was written (so a
    mux file goes to Recently deleted), with the folders made for it while empty."""

    file: MemoryFile
    sha256: str
    created_folders: int = 0
    noun: str = "new file"
    """How the message names it (`Removed the copy …`)."""
    made: str = "created"
    """How the operation made it (`… changed since it was copied; kept`)."""

    @property
    def affected(self) -> tuple[MemoryFileRef, ...]:
        return (self.file.ref,)

    def undo(self, store: MemoryStore, *, allow_unkept: bool = False) -> OpResult:
        key = self.file.ref.key
        failed = f"Undo of {self.description} failed"
        touched = _physical(self.file)
        try:
            self.file.remove_created(
                self.sha256, created_folders=self.created_folders, allow_unkept=allow_unkept
            )
        except SaveConflictError:
            return OpResult(failed, error=f"{key} changed since it was {self.made}; kept")
        except (UnkeptChangeError, MemoryFileError) as error:
            return OpResult.failed(failed, error)
        return OpResult(f"Removed the {self.noun} {key}", touched=touched)


def _physical(file: MemoryFile) -> tuple[str, ...]:
    physical = file.physical()
    return (str(physical),) if physical is not None else ()


@dataclass(frozen=True)
class OrphanCreateStep(CreateStep):
    """A file restored into an orphaned project dir goes again (through that dir's
    store; its virtual path is not the workspace's)."""

    dir_name: str = ""

    @property
    def affected(self) -> tuple[MemoryFileRef, ...]:
        return ()

    def store_for(self, home: Home) -> MemoryStore:
        return OrphanProjectStore(home, self.dir_name)


@dataclass(frozen=True)
class PinStep(UndoStep):
    """The pin goes back to what it was."""

    path: VirtualPath
    pinned_before: bool

    def undo(self, store: MemoryStore, *, allow_unkept: bool = False) -> OpResult:
        return file_ops.set_pinned(store, self.path, self.pinned_before)


class UndoStack:
    """The last operations, newest on top (at most MAX_STEPS); thread-safe."""

    def __init__(self) -> None:
        self._steps: deque[UndoStep] = deque(maxlen=MAX_STEPS)
        self._lock = threading.Lock()

    def push(self, step: UndoStep) -> None:
        with self._lock:
            self._steps.append(step)

    def peek(self) -> UndoStep | None:
        with self._lock:
            return self._steps[-1] if self._steps else None

    def pop(self) -> UndoStep | None:
        with self._lock:
            return self._steps.pop() if self._steps else None

    def take(self, step: UndoStep) -> bool:
        """Remove this very step (a newer one may have been pushed since it was peeked at);
        False when it is no longer on the stack."""
        with self._lock:
            for index in range(len(self._steps) - 1, -1, -1):
                if self._steps[index] is step:
                    del self._steps[index]
                    return True
            return False

    def __len__(self) -> int:
        with self._lock:
            return len(self._steps)


def undo_step(home: Home, step: UndoStep, *, allow_unkept: bool = False) -> OpResult:
    """Take `step` back through a store of the workspace it was made in (`allow_unkept`:
    see `UndoStep.undo`)."""
    result = step.undo(step.store_for(home), allow_unkept=allow_unkept)
    if result.ok:
        return OpResult(
            f"Undid {step.description}: {result.message}",
            created=result.created,
            moved=result.moved,
            touched=result.touched,
        )
    return result


# --- the operations, each pushing how to take it back ----------------------------------------


def delete(
    stack: UndoStack,
    store: MemoryStore,
    paths: Sequence[VirtualPath],
    *,
    allow_unkept: bool = False,
) -> OpResult:
    """`file_ops.delete`, remembering the versions history kept of what went."""
    folders = [path for path in paths if _kind(store, path) == "dir"]
    with store.collecting_changes() as changes:
        result = file_ops.delete(store, paths, allow_unkept=allow_unkept)
    files = tuple(
        (change.path, change.after.id)
        for change in changes
        if change.after.deleted and change.after.op == "delete"
    )
    gone_folders = tuple(folder for folder in folders if _kind(store, folder) is None)
    if files or gone_folders:
        stack.push(DeleteStep(store.workspace, f"delete of {_items(paths)}", files, gone_folders))
    return result


def delete_orphan(stack: UndoStack, home: Home, dir_name: str) -> OpResult:
    """`file_ops.delete_orphan_project_dir`, remembering the versions history kept."""
    deletions: list[OrphanDeletion] = []
    result = file_ops.delete_orphan_project_dir(home, dir_name, deletions.append)
    if not (result.ok and deletions):
        return result
    (deleted,) = deletions
    message = f"Deleted the orphaned project memory {dir_name}"
    if deleted.versions:
        stack.push(OrphanDeleteStep(None, f"delete of {dir_name}", deleted.versions, (), dir_name))
        count = len(deleted.versions)
        message += (
            f"; its {plural(count, 'file')} can be restored from Recently deleted (or Edit → Undo)"
        )
    return OpResult(message, touched=result.touched)


def move(
    stack: UndoStack, store: MemoryStore, moves: Sequence[tuple[VirtualPath, VirtualPath]]
) -> OpResult:
    """`file_ops.move`, remembering the moves that were made."""
    result = file_ops.move(store, moves)
    if result.moved:
        if len(result.moved) == 1:
            old, new = result.moved[0]
            verb = "rename" if old.parent == new.parent else "move"
            description = f"{verb} of {old.name}"
        else:
            description = f"move of {len(result.moved)} items"
        stack.push(MoveStep(store.workspace, description, result.moved))
    return result


def create_file(stack: UndoStack, store: MemoryStore, path: VirtualPath, content: str) -> OpResult:
    """`file_ops.create_file`, remembering what the new file holds."""
    result = file_ops.create_file(store, path, content)
    if result.ok:
        sha = content_sha256(content)
        stack.push(CreateStep(store.workspace, f"new file {path.name}", path, sha))
    return result


def create_directory(stack: UndoStack, store: MemoryStore, path: VirtualPath) -> OpResult:
    """`file_ops.create_directory`, remembering the new folder."""
    result = file_ops.create_directory(store, path)
    if result.ok:
        stack.push(CreateStep(store.workspace, f"new folder {path.name}", path, None))
    return result


def set_pinned(stack: UndoStack, store: MemoryStore, path: VirtualPath, pinned: bool) -> OpResult:
    """`file_ops.set_pinned`, remembering the pin before."""
    result = file_ops.set_pinned(store, path, pinned)
    if result.ok:
        verb = "pin" if pinned else "unpin"
        stack.push(PinStep(store.workspace, f"{verb} of {path.name}", path, not pinned))
    return result


def _kind(store: MemoryStore, path: VirtualPath) -> str | None:
    try:
        return store.kind_of(path)
    except (MemoryStoreError, PathError):
        return None


def restore(
    stack: UndoStack,
    store: MemoryStore,
    path: str,
    version_id: str,
    to: VirtualPath | None = None,
    *,
    allow_unkept: bool = False,
) -> OpResult:
    """Recently deleted's restore of a mux file (`path` as history names it; `to`:
    elsewhere; an orphaned project dir's file through its store):
    `ops.restore_file`, remembering what the file held before —
    a file the restore brought back goes again (to Recently deleted), a file it gave an
    older content gets the newer one back."""
    with store.collecting_changes() as changes:
        result = restore_file(store, path, version_id, to, allow_unkept=allow_unkept)
    change = next((c for c in reversed(changes) if c.after.op == "restore"), None)
    if result.ok and change is not None:
        target = parse_file_path(change.path)
        description = f"restore of {target.name}"
        before = change.before
        sha = change.after.sha256
        if isinstance(store, OrphanProjectStore):  # only deleted files are restored there
            stack.push(OrphanCreateStep(None, description, target, sha, store.dir_name))
        elif before is None or before.deleted:
            stack.push(RemoveStep(store.workspace, description, MuxFile(store, target), sha))
        else:
            file = MuxFile(store, target)
            stack.push(RestoreStep(store.workspace, description, file, before, sha))
    if isinstance(store, OrphanProjectStore):  # not a path of the workspace's to select
        message = result.message
        if result.ok and result.created is not None:
            title = file_ops.orphan_file_title(store.dir_name, result.created.relative)
            message = f"Restored {title}"
        return OpResult(message, error=result.error, touched=result.touched, unkept=result.unkept)
    return result


def restore_version(
    stack: UndoStack, file: MemoryFile, version_id: str, *, allow_unkept: bool = False
) -> OpResult:
    """The History panel's restore of any memory file (`MemoryFile.restore`),
    remembering what it held before, as `restore` does."""
    try:
        restored = file.restore(version_id, allow_unkept=allow_unkept)
    except (SaveConflictError, UnkeptChangeError, MemoryFileError) as error:
        return OpResult.failed(f"Restoring {file.label} failed", error)
    target = restored.file
    if not restored.unchanged:
        description = f"restore of {target.name}"
        before = restored.before
        if before is None or before.deleted:
            stack.push(RemoveStep(None, description, target, restored.sha256))
        else:
            stack.push(RestoreStep(None, description, target, before, restored.sha256))
    return restored_result(
        file.ref,
        target.ref,
        unchanged=restored.unchanged,
        created=restored.created,
        touched=_physical(target),
    )
