"""Edit → Undo and Edit → Redo: the window's last file operations, how to take each one
back, and how to make again what was taken back."""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace

from memtab.components.files import ops as file_ops
from memtab.components.files.each_step import EachStep
from memtab.components.files.ops import OpResult, restore_file, restored_result
from memtab.components.files.steps import (
    DeleteStep,
    MoveStep,
    PinStep,
    RemoveFilesStep,
    RemoveStep,
    RestoreStep,
    UndoStep,
    items_text,
    physical_paths,
)
from memtab.components.history.deleted import DeletedFile, agent_file
from memtab.components.jobs import JobContext
from memtab.file_protocol.file_ref import SourceError
from memtab.file_protocol.memory_file import MemoryFile, MemoryFileError, MuxFile
from memtab.humanize import plural
from memtab.store.files import content_sha256
from memtab.store.home import Home
from memtab.store.paths import PathError, VirtualPath, parse_file_path
from memtab.store.restore.orphans import OrphanDeletion, OrphanProjectStore
from memtab.store.scopes.memory import (
    MemoryStore,
    MemoryStoreError,
    SaveConflictError,
    UnkeptChangeError,
)
from memtab.watch import events
from memtab.watch.events import ChangeEvent, EventRestore, RestoredFile

logger = logging.getLogger(__name__)

MAX_STEPS = 100


class UndoStack:
    """The last operations, newest on top (at most MAX_STEPS), and the ones taken back,
    to make again (Redo); thread-safe."""

    def __init__(self) -> None:
        self._steps: deque[UndoStep] = deque(maxlen=MAX_STEPS)
        self._undone: deque[UndoStep] = deque(maxlen=MAX_STEPS)
        self._lock = threading.Lock()

    def push(self, step: UndoStep) -> None:
        """A new operation: what was taken back cannot be made again after it."""
        with self._lock:
            self._steps.append(step)
            self._undone.clear()

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
            return _take(self._steps, step)

    def holds(self, step: UndoStep) -> bool:
        """Whether this very step is still to be taken back (not undone, not pushed out)."""
        with self._lock:
            return any(each is step for each in self._steps)

    def peek_redo(self) -> UndoStep | None:
        """What Redo makes again (the last step taken back), or None."""
        with self._lock:
            return self._undone[-1] if self._undone else None

    def take_redo(self, step: UndoStep) -> bool:
        """Remove this very step from the redo stack; False when it is not there."""
        with self._lock:
            return _take(self._undone, step)

    def _turned(self, step: UndoStep, *, redo: bool) -> None:
        with self._lock:
            (self._undone if redo else self._steps).append(step)

    def __len__(self) -> int:
        with self._lock:
            return len(self._steps)


def _take(steps: deque[UndoStep], step: UndoStep) -> bool:
    for index in range(len(steps) - 1, -1, -1):
        if steps[index] is step:
            del steps[index]
            return True
    return False


def undo_step(
    home: Home, step: UndoStep, *, stack: UndoStack | None = None, allow_unkept: bool = False
) -> OpResult:
    """Take `step` back through a store of the workspace it was made in (`allow_unkept`:
    see `UndoStep.apply`); what makes it again goes on `stack`'s redo stack."""
    applied = step.apply(step.store_for(home), allow_unkept=allow_unkept)
    if stack is not None and applied.inverse is not None:
        stack._turned(applied.inverse, redo=True)
    return _said("Undid", step, applied.result)


def redo_step(
    home: Home, step: UndoStep, *, stack: UndoStack | None = None, allow_unkept: bool = False
) -> OpResult:
    """Make again what `step` (from the redo stack) takes back; what takes it back once
    more goes on `stack`'s undo stack (without emptying the redo stack)."""
    applied = step.apply(step.store_for(home), allow_unkept=allow_unkept)
    if stack is not None and applied.inverse is not None:
        stack._turned(applied.inverse, redo=False)
    result = applied.result
    if not result.ok and result.message.startswith("Undo of "):
        result = replace(result, message=f"Redo of {step.description} failed")
    return _said("Redid", step, result)


def _said(verb: str, step: UndoStep, result: OpResult) -> OpResult:
    if not result.ok:
        return result
    return OpResult(
        f"{verb} {step.description}: {result.message}",
        created=result.created,
        moved=result.moved,
        touched=result.touched,
    )


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
        stack.push(
            DeleteStep(store.workspace, f"delete of {items_text(paths)}", files, gone_folders)
        )
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
        stack.push(
            DeleteStep(None, f"delete of {dir_name}", deleted.versions, (), orphan_dir=dir_name)
        )
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
        stack.push(
            RemoveFilesStep(
                store.workspace, f"new file {path.name}", files=((path, sha),), noun="the new file"
            )
        )
    return result


def create_directory(stack: UndoStack, store: MemoryStore, path: VirtualPath) -> OpResult:
    """`file_ops.create_directory`, remembering the new folder."""
    result = file_ops.create_directory(store, path)
    if result.ok:
        stack.push(
            RemoveFilesStep(
                store.workspace, f"new folder {path.name}", folders=(path,), noun="the new folder"
            )
        )
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
            stack.push(
                RemoveFilesStep(
                    None,
                    description,
                    files=((target, sha),),
                    noun="the new file",
                    orphan_dir=store.dir_name,
                )
            )
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
        touched=physical_paths(target),
    )


def restore_deleted(
    stack: UndoStack, file: MemoryFile, version_id: str, *, allow_unkept: bool = False
) -> OpResult:
    """Recently deleted's restore of another agent's deleted file: made only while nothing
    is at its path — what its agent wrote there since is never replaced — then as
    `restore_version` (what would be replaced meanwhile is kept in history)."""
    if file.read_whole() is not None:
        there = SaveConflictError("exists", f"{file.ref.key} is there again; nothing was changed")
        return OpResult.failed(f"Restoring {file.label} failed", there)
    return restore_version(stack, file, version_id, allow_unkept=allow_unkept)


def restore_event(
    stack: UndoStack, home: Home, event: ChangeEvent, only: Collection[str] | None = None
) -> tuple[EventRestore, OpResult]:
    """Restore all of a burst (`events.restore_event`: every file it deleted or rewrote,
    `only` those named), as one step Edit → Undo takes back whole: each file it put back
    holds again what the burst left (a deleted one goes again) if unchanged since."""
    done: list[RestoredFile] = []
    restored = events.restore_event(home, event, only, done=done)
    steps: list[UndoStep] = []
    description = f"restore of {event.words()}"
    for file in done:
        if file.left.deleted:
            steps.append(RemoveStep(None, description, file.file, file.sha256, noun="file"))
        else:
            steps.append(RestoreStep(None, description, file.file, file.left, file.sha256))
    if steps:
        stack.push(EachStep(None, description, steps=tuple(steps)))
    message = f"Restored {plural(len(restored.restored), 'file')} of {event.words()}"
    if restored.left:
        message += f"; left {plural(len(restored.left), 'file')} (changed since, or back already)"
    touched = tuple(path for file in done for path in physical_paths(file.file))
    return restored, OpResult(message, touched=touched)


def restore_deleted_file(
    stack: UndoStack, home: Home, file: DeletedFile, *, allow_unkept: bool = False
) -> OpResult:
    """Recently deleted's restore of another agent's file (`restore_deleted`), as a file
    operation of the window."""
    try:
        target = agent_file(home, file)
    except SourceError as error:
        return OpResult.failed(f"Restoring {file.name} failed", error)
    return restore_deleted(stack, target, file.version.id, allow_unkept=allow_unkept)


@dataclass(frozen=True)
class BurstRestored:
    """What `restore_burst_undoably` did: the restore, its undo step, and the files it
    wrote (physical paths: the user's own writes, never an agent's change)."""

    restored: EventRestore
    step: UndoStep | None
    written: tuple[str, ...]


def restore_burst_undoably(
    home: Home,
    event: ChangeEvent,
    only: frozenset[str] | None,
    _ctx: JobContext,
    *,
    stack: UndoStack,
) -> BurstRestored:
    """The window's job: `restore_event` on its `stack`, and that step (None: nothing was
    put back) — what "Edit → Undo takes it back" is true of while the stack holds it. Run
    on the file-operation worker, the one thread that pushes steps."""
    newest = stack.peek()
    restored, said = restore_event(stack, home, event, only)
    step = stack.peek()
    return BurstRestored(restored, step if step is not newest else None, said.touched)
