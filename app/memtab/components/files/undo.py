"""Edit → Undo and Edit → Redo: the window's last file operations, how to take each back and
make it again, a run of the window among them (taken back as Runs… → Revert does); and the
lines past Claude Code's cut of `MEMORY.md` moved into a topic file (docs/formats.md §17.6)."""

from __future__ import annotations

import os
import threading
from collections import deque
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from pathlib import PurePosixPath

from memtab.components.files import ops as file_ops
from memtab.components.files.ops import OpResult, restore_file, restored_result
from memtab.components.files.steps import (
    Applied,
    BringBackStep,
    DeleteStep,
    EachStep,
    MoveStep,
    PinStep,
    RemoveFilesStep,
    RemoveStep,
    RestoreStep,
    TogetherStep,
    UndoStep,
    items_text,
    physical_paths,
)
from memtab.components.history.deleted import DeletedFile, agent_file
from memtab.components.jobs import JobContext
from memtab.file_protocol.file_ref import MemoryFileRef, SourceError
from memtab.file_protocol.memory_file import MemoryFile, MemoryFileError, MuxFile
from memtab.humanize import plural
from memtab.sources.agent_file import AgentFile, SourceVersions
from memtab.sources.claude.index import CONTINUED_STEM, CONTINUED_TOPIC, move_past_cut
from memtab.sources.content import save_source_file
from memtab.sources.listing import target_file
from memtab.sources.model import Source
from memtab.store.errors import MemoryStoreError, SaveConflictError, UnkeptChangeError
from memtab.store.files import content_sha256
from memtab.store.history.recorder import RecordedChange
from memtab.store.history.runs import RunsLog, touched_paths
from memtab.store.history.versions import Version
from memtab.store.home import Home
from memtab.store.paths import PathError, VirtualPath, parse_file_path
from memtab.store.restore.from_history import revert_run
from memtab.store.restore.orphans import OrphanDeletion, OrphanProjectStore
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.registry import Workspace, load_registry
from memtab.watch import events
from memtab.watch.events import ChangeEvent, EventRestore, RestoredFile

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
    found = next((i for i in range(len(steps) - 1, -1, -1) if steps[i] is step), None)
    if found is not None:
        del steps[found]
    return found is not None


def undo_step(
    home: Home, step: UndoStep, *, stack: UndoStack | None = None, allow_unkept: bool = False
) -> OpResult:
    """Take `step` back through a store of the workspace it was made in (`allow_unkept`:
    see `UndoStep.apply`); what makes it again goes on `stack`'s redo stack."""
    return _turn(home, step, stack, allow_unkept, redo=False)


def redo_step(
    home: Home, step: UndoStep, *, stack: UndoStack | None = None, allow_unkept: bool = False
) -> OpResult:
    """Make again what `step` (from the redo stack) takes back; what takes it back once
    more goes on `stack`'s undo stack (without emptying the redo stack)."""
    return _turn(home, step, stack, allow_unkept, redo=True)


def _turn(
    home: Home, step: UndoStep, stack: UndoStack | None, allow_unkept: bool, *, redo: bool
) -> OpResult:
    applied = step.apply(step.store_for(home), allow_unkept=allow_unkept)
    if stack is not None and applied.inverse is not None:
        stack._turned(applied.inverse, redo=not redo)  # what turns it back goes on the other stack
    result = applied.result
    if result.ok:
        said = f"{'Redid' if redo else 'Undid'} {step.description}: {result.message}"
    elif redo and result.message.startswith("Undo of "):
        said = f"Redo of {step.description} failed"
    else:
        return result
    return replace(result, message=said)


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
    if versions := deleted.versions:
        stack.push(DeleteStep(None, f"delete of {dir_name}", versions, (), orphan_dir=dir_name))
        again = "can be restored from Recently deleted (or Edit → Undo)"
        message += f"; its {plural(len(versions), 'file')} {again}"
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
        files = ((path, content_sha256(content)),)
        description = f"new file {path.name}"
        stack.push(RemoveFilesStep(store.workspace, description, files=files, noun="the new file"))
    return result


def create_directory(stack: UndoStack, store: MemoryStore, path: VirtualPath) -> OpResult:
    """`file_ops.create_directory`, remembering the new folder."""
    result = file_ops.create_directory(store, path)
    if result.ok:
        description = f"new folder {path.name}"
        stack.push(
            RemoveFilesStep(store.workspace, description, folders=(path,), noun="the new folder")
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
    """Recently deleted's restore of a mux file (`to`: elsewhere) as `ops.restore_file`,
    remembering what it held: a file brought back goes again on undo, an older content gives way
    to the newer."""
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
        else:
            stack.push(_undo_of(store.workspace, description, MuxFile(store, target), before, sha))
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
        stack.push(_undo_of(None, description, target, restored.before, restored.sha256))
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
    description = f"restore of {event.words()}"
    steps = tuple(_undo_of(None, description, f.file, f.left, f.sha256, "file") for f in done)
    if steps:
        stack.push(EachStep(None, description, steps=steps))
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
    """A burst restored: the restore, its undo step, and the physical paths it wrote."""

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


_MAX_TRIES = 100


@dataclass(frozen=True)
class MovedPastCut(OpResult):
    """The move's result, and what the index holds now (the editor's buffer takes it)."""

    index_text: str = ""


def move_lines_past_cut(
    stack: UndoStack,
    store: MemoryStore,
    source: Source,
    index: MemoryFile,
    text: str,
    expected_sha256: str | None,
) -> OpResult:
    """Move the lines of `text` (`source`'s `index` as the editor holds it; on disk
    `expected_sha256`) past Claude Code's cut into `MEMORY-continued.md` (else `-2`…) beside it,
    the index saved with a link in their place (`MovedPastCut`: what it holds now)."""
    folder = PurePosixPath(index.ref.path).parent
    action = "Moving the lines past Claude Code's cut"
    try:
        for number in range(1, _MAX_TRIES + 1):
            name = f"{CONTINUED_STEM}{'' if number == 1 else f'-{number}'}.md"
            file = target_file(source, str(folder / name))  # PurePosixPath(".") / name: name
            if not os.path.lexists(file.physical):
                break
        else:
            return OpResult(f"{action} failed", error="no free MEMORY-continued name")
        split = move_past_cut(text, name)
        if split is None:
            return OpResult(f"{action} failed", error="Claude Code reads the whole index")
        kept, moved = split
        history = SourceVersions(store.home)
        topic_sha = save_source_file(source, file, CONTINUED_TOPIC + moved, None, history=history)
    except (SourceError, MemoryStoreError) as error:
        return OpResult(f"{action} failed", error=str(error))
    except OSError as error:
        return OpResult(f"{action} failed", error=error.strerror or str(error))
    topic = AgentFile(source, file, history)
    description = f"move of the lines past the cut to {name}"
    made = RemoveStep(store.workspace, description, topic, topic_sha, 0, noun="topic", made="made")
    try:
        index_sha = index.save(kept, expected_sha256)
        before = _version_of(index, expected_sha256)
    except SaveConflictError:
        made.apply(store)  # nothing is moved: the topic goes again
        said = f"{index.name} changed on disk since it was read; nothing was moved"
        return OpResult(f"{action} failed", error=said)
    except (UnkeptChangeError, MemoryFileError) as error:
        made.apply(store)
        return OpResult.failed(f"{action} failed", error)
    steps: tuple[UndoStep, ...] = (made,)
    if before is not None:
        steps = (RestoreStep(store.workspace, description, index, before, index_sha), made)
    stack.push(TogetherStep(store.workspace, description, steps=steps))
    lines, link = plural(moved.count("\n"), "line"), kept.count("\n")
    return MovedPastCut(
        f"Moved the last {lines} of {index.name} into {name}; line {link} links to it",
        touched=(str(file.physical), *physical_paths(index)),
        index_text=kept,
    )


def _version_of(file: MemoryFile, sha256: str | None) -> Version | None:
    """The version history keeps of what `file` held (`sha256`) before a save."""
    if sha256 is None:
        return None
    return next((v for v in file.versions() if v.sha256 == sha256 and not v.deleted), None)


@dataclass(frozen=True)
class RevertRunStep(UndoStep):
    """A run reverted as Runs… → Revert reverts it."""

    run_id: str
    paths: tuple[VirtualPath, ...]  # The files the run changed.
    made: tuple[VirtualPath, ...] = ()  # The files the run made (reverting it removes them).

    @property
    def affected(self) -> tuple[MemoryFileRef, ...]:
        return tuple(MemoryFileRef.of_mux(path) for path in self.made)

    @property
    def written(self) -> tuple[MemoryFileRef, ...]:
        return tuple(MemoryFileRef.of_mux(path) for path in self.paths)

    def apply(self, store: MemoryStore, *, allow_unkept: bool = False) -> Applied:
        failed = f"Undo of {self.description} failed"
        done: list[RecordedChange] = []
        try:
            result = revert_run(store.home, self.run_id, done=done)
        except (MemoryStoreError, OSError, TimeoutError) as error:
            return Applied(OpResult.failed(failed, error))
        touched = tuple(p for path in self.paths for p in physical_paths(MuxFile(store, path)))
        left = "; ".join(f"{r.path}: {r.reason}" for r in result.refused[:3])
        if not result.restored:
            if result.already and not result.refused:
                return Applied(OpResult("nothing to take back: its files hold what they did"))
            return Applied(OpResult(failed, error=left or "it changed no file", touched=touched))
        message = f"restored {plural(len(result.restored), 'file')}"
        if result.refused:
            message += f"; left {plural(len(result.refused), 'file')} as changed since: {left}"
        inverse = EachStep(
            self.workspace, self.description, steps=tuple(_made_again(self, store, done))
        )
        return Applied(OpResult(message, touched=touched), inverse if inverse.steps else None)


def _made_again(
    step: RevertRunStep, store: MemoryStore, done: list[RecordedChange]
) -> list[UndoStep]:
    """What gives each file the revert restored what the run had left in it, only while it
    holds what the revert wrote."""
    steps: list[UndoStep] = []
    for change in done:
        file = MuxFile(store, parse_file_path(change.path))
        before, after = change.before, change.after
        if after.deleted and before is not None and not before.deleted:
            steps.append(
                BringBackStep(step.workspace, step.description, file, before.sha256, noun="file")
            )
        else:
            steps.append(
                _undo_of(step.workspace, step.description, file, before, after.sha256, "file")
            )
    return steps


def _undo_of(
    workspace: Workspace | None,
    description: str,
    file: MemoryFile,
    before: Version | None,
    sha256: str,
    noun: str = "new file",
) -> UndoStep:
    """What takes back a write of `sha256` into `file`: its removal when it had no file
    before (`before` None or deleted), else `before` given back."""
    if before is None or before.deleted:
        return RemoveStep(workspace, description, file, sha256, noun=noun)
    return RestoreStep(workspace, description, file, before, sha256)


def push_run(stack: UndoStack, home: Home, run_id: str) -> RevertRunStep | None:
    """Put the run `run_id` on `stack`, the last thing done (None: it changed no file, or
    the runs log does not have it)."""
    run = RunsLog(home).get(run_id)
    if run is None or run.failed:
        return None
    try:
        paths = tuple(parse_file_path(path) for path in touched_paths(run.ops))
    except PathError:
        return None
    if not paths:
        return None
    firsts: dict[str, bool] = {}
    for op in run.ops:
        for file in op.files if op.applied else ():
            firsts.setdefault(file.path, file.before_version is None and not file.deleted)
    made = tuple(path for path in paths if firsts.get(str(path)))
    workspace = load_registry(home).workspace(run.workspace_id) if run.workspace_id else None
    step = RevertRunStep(workspace, f"{run.kind} run", run_id=run_id, paths=paths, made=made)
    stack.push(step)
    return step


def undoable_run(stack: UndoStack, home: Home, run_id: str, _ctx: JobContext) -> bool:
    """The window's job: a run of the window that ended put on `stack`, so Edit → Undo
    takes it back next as Runs… → Revert does (False: it changed no file)."""
    return push_run(stack, home, run_id) is not None
