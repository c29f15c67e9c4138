"""A run of the window taken back by Edit → Undo, as Runs… → Revert takes it back: the last
thing done may be a Consolidate now (a run, or a reviewed plan applied), and Undo right
after it takes back the run, not the file operation before it (issue 81 point 4)."""

from __future__ import annotations

from dataclasses import dataclass

from memtab.components.files.each_step import EachStep
from memtab.components.files.ops import OpResult
from memtab.components.files.steps import (
    Applied,
    BringBackStep,
    RemoveStep,
    RestoreStep,
    UndoStep,
    physical_paths,
)
from memtab.components.files.undo import UndoStack
from memtab.components.jobs import JobContext
from memtab.file_protocol.file_ref import MemoryFileRef
from memtab.file_protocol.memory_file import MuxFile
from memtab.humanize import plural
from memtab.store.history.recorder import RecordedChange
from memtab.store.history.runs import RunsLog, touched_paths
from memtab.store.home import Home
from memtab.store.paths import PathError, VirtualPath, parse_file_path
from memtab.store.restore.from_history import revert_run
from memtab.store.scopes.memory import MemoryStore, MemoryStoreError
from memtab.store.sidecars.registry import load_registry


@dataclass(frozen=True)
class RevertRunStep(UndoStep):
    """A run reverted as Runs… → Revert reverts it."""

    run_id: str
    paths: tuple[VirtualPath, ...]
    """The files the run changed."""
    made: tuple[VirtualPath, ...] = ()
    """The files the run made (reverting it removes them)."""

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
        elif before is None or before.deleted:
            steps.append(
                RemoveStep(step.workspace, step.description, file, after.sha256, noun="file")
            )
        else:
            steps.append(RestoreStep(step.workspace, step.description, file, before, after.sha256))
    return steps


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
