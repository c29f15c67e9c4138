"""The undo of many files changed at once (Restore all of a burst: 745 files), taken back
as one step, each file on its own terms (`EachStep`)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, replace

from memtab.components.files.ops import OpResult
from memtab.components.files.steps import (
    Applied,
    BringBackStep,
    MadeFileStep,
    RemoveStep,
    RestoreStep,
    SeveralSteps,
    UndoStep,
    physical_paths,
)
from memtab.file_protocol.memory_file import MuxFile
from memtab.store.history.recorder import RecordedChange
from memtab.store.history.versions import ScopeHistory, Version
from memtab.store.paths import Scope
from memtab.store.restore.bulk_restore import Restore, RestoreResult, restore_contents
from memtab.store.restore.from_history import content_of
from memtab.store.scopes.memory import MemoryStore, MemoryStoreError

_Batched = RemoveStep | RestoreStep | BringBackStep


@contextmanager
def _uses_counted_once(store: MemoryStore, steps: Sequence[UndoStep]) -> Iterator[None]:
    """`store`, and the store of each of mux's files `steps` write, counting writes and
    forgetting removed files in one update of memory-meta.json when the steps are done
    (`writes_counted_once`): 745 files taken back, one update, not 745."""
    stores = {id(store): store}
    for step in steps:
        file = step.file if isinstance(step, RestoreStep | MadeFileStep) else None
        if isinstance(file, MuxFile):
            stores.setdefault(id(file.store), file.store)
    with ExitStack() as counting:
        for each in stores.values():
            counting.enter_context(each.writes_counted_once())
        yield


@dataclass(frozen=True)
class EachStep(SeveralSteps):
    """Many files changed at once, taken back as one step, each on its own terms: one changed
    since is left and named. Turned around: what the applied ones did."""

    def apply(self, store: MemoryStore, *, allow_unkept: bool = False) -> Applied:
        inverses: list[UndoStep] = []
        touched: list[str] = []
        kept: list[str] = []
        with _uses_counted_once(store, self.steps):
            batched = {} if allow_unkept else _apply_batched(self.steps)
            for index, step in enumerate(self.steps):
                applied = batched.get(index) or step.apply(store, allow_unkept=allow_unkept)
                if applied.inverse is not None:
                    inverses.append(applied.inverse)
                touched += applied.result.touched
                if not applied.result.ok:
                    kept.append(applied.result.error or applied.result.message)
        done = len(self.steps) - len(kept)
        inverse = self.with_steps(inverses)
        if not done:
            failed = OpResult(f"Undo of {self.description} failed", error="; ".join(kept[:3]))
            return Applied(replace(failed, touched=tuple(touched)), inverse)
        message = (
            f"{done} of {len(self.steps)} files turned back"
            if kept
            else (
                f"{len(self.steps)} files turned back"
                if len(self.steps) != 1
                else "1 file turned back"
            )
        )
        if kept:
            message += f"; left as changed since: {'; '.join(kept[:3])}"
            if len(kept) > 3:
                message += f" and {len(kept) - 3} more"
        return Applied(OpResult(message, touched=tuple(touched)), inverse)


@dataclass(frozen=True)
class _Taking:
    """A step of one of mux's files taken back in its scope's batch."""

    index: int
    step: _Batched
    file: MuxFile
    item: Restore
    as_it_was: bool = False
    """A removed file brought back from its removal: its usage is what that kept, no use
    more (none if it had none)."""


def _apply_batched(steps: Sequence[UndoStep]) -> dict[int, Applied]:
    """The steps over mux's files applied a scope at a time, by the index of each (the
    others, and any whose content history lost, are left to be applied alone)."""
    scopes: dict[tuple[int, Scope], list[_Taking]] = {}
    histories = _Histories()
    for index, step in enumerate(steps):
        taking = _taking(index, step, histories)
        if taking is not None:
            scope = taking.item.path.scope
            assert scope is not None
            scopes.setdefault((id(taking.file.store), scope), []).append(taking)
    applied: dict[int, Applied] = {}
    for (_store, scope), group in scopes.items():
        store = group[0].file.store
        touched = {taking.index: physical_paths(taking.file) for taking in group}
        try:
            result = restore_contents(store, scope, [taking.item for taking in group])
        except MemoryStoreError as error:  # the scope cannot be written at all
            for taking in group:
                failed = f"Undo of {taking.step.description} failed"
                applied[taking.index] = Applied(OpResult.failed(failed, error))
            continue
        recorded = {change.path: change for change in result.recorded}
        for taking in group:
            applied[taking.index] = _outcome(taking, result, recorded, touched[taking.index])
    return applied


class _Histories:
    """Each scope's history index, read once for the whole step."""

    def __init__(self) -> None:
        self._read: dict[tuple[int, Scope], dict[str, list[Version]]] = {}

    def of(self, file: MuxFile) -> list[Version]:
        """The versions recorded at `file`'s path, newest first."""
        scope = file.path.scope
        assert scope is not None
        by_path = self._read.get((id(file.store), scope))
        if by_path is None:
            by_path = self._read[(id(file.store), scope)] = {}
            try:
                key = file.store.history_key(scope)
            except MemoryStoreError:
                return []
            for version in ScopeHistory(file.store.home, key).versions():
                by_path.setdefault(version.path, []).insert(0, version)
        return by_path.get(str(file.path), [])


def _taking(index: int, step: UndoStep, histories: _Histories) -> _Taking | None:
    """`step` as an item of its scope's batch, or None when it is applied alone."""
    if type(step) not in (RemoveStep, RestoreStep, BringBackStep):
        return None
    assert isinstance(step, _Batched)
    file = step.file
    if not isinstance(file, MuxFile) or file.path.scope is None:
        return None
    if isinstance(step, RemoveStep):
        if step.created_folders:
            return None  # its folders go with it: `MemoryFile.remove_created`
        return _Taking(index, step, file, Restore(file.path, None, step.sha256))
    if isinstance(step, BringBackStep):
        return _bringing_back(index, step, file, histories.of(file))
    if step.before.deleted:
        return None
    try:
        data = content_of(file.store.home, step.before)
    except (MemoryStoreError, OSError):
        return None  # alone, it says what history lost
    item = Restore(file.path, data, step.sha256, restored_from=step.before.id)
    return _Taking(index, step, file, item)


def _bringing_back(
    index: int, step: BringBackStep, file: MuxFile, versions: list[Version]
) -> _Taking | None:
    """A removed file brought back as `BringBackStep` brings it (only where nothing is),
    with the pins and usage its removal kept, and no use more."""
    version = next((v for v in versions if not v.deleted and v.sha256 == step.sha256), None)
    if version is None:
        return None  # alone, it says history keeps no copy (or follows a rename)
    removal = versions[0]
    kept = removal.deleted and removal.sha256 == step.sha256
    meta = removal.meta if kept else None
    try:
        data = content_of(file.store.home, version)
    except (MemoryStoreError, OSError):
        return None
    item = Restore(file.path, data, None, restored_from=version.id, meta=meta)
    return _Taking(index, step, file, item, as_it_was=kept)


def _outcome(
    taking: _Taking,
    result: RestoreResult,
    recorded: dict[str, RecordedChange],
    touched: tuple[str, ...],
) -> Applied:
    """What the batch did with one step's file, as the step applied alone says it."""
    step, file, path = taking.step, taking.file, taking.item.path
    key = file.ref.key
    failed = f"Undo of {step.description} failed"
    if isinstance(step, BringBackStep):
        failed = f"Redo of {step.description} failed"
    if path in result.changed:
        if isinstance(step, BringBackStep):
            return Applied(OpResult(failed, error=f"{key} exists again; kept"))
        since = f" since it was {step.made}" if isinstance(step, RemoveStep) else " since"
        return Applied(OpResult(failed, error=f"{key} changed{since}; kept"))
    if path not in result.written:
        return Applied(OpResult(failed, error=result.failed.get(path, "it was not written")))
    if isinstance(step, BringBackStep):
        if not taking.item.meta and not taking.as_it_was:  # else its uses came back with it
            file.store.record_write(path, created=True)  # brought back where none was
        brought = OpResult(f"Restored {key}", created=file.ref, touched=touched)
        return Applied(brought, step.turned(RemoveStep))
    if isinstance(step, RemoveStep):
        return Applied(
            OpResult(f"Removed the {step.noun} {key}", touched=touched),
            step.turned(BringBackStep),
        )
    if step.count_as_write:
        file.store.record_write(path)  # counted once, when the step ends
    change = recorded.get(str(path))
    before = change.before if change is not None else None
    inverse = (
        RestoreStep(
            step.workspace,
            step.description,
            orphan_dir=step.orphan_dir,
            file=file,
            before=before,
            sha256=change.after.sha256,
            count_as_write=step.count_as_write,
        )
        if change is not None and before is not None and not before.deleted
        else None
    )
    return Applied(OpResult(f"{key} holds what it held before", touched=touched), inverse)
