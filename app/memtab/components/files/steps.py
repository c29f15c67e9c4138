"""How each file operation is turned around: the steps of Edit → Undo and Edit → Redo
(`components.files.undo` keeps them and runs them), many files at once among them (`EachStep`:
Restore all of a burst, 745 files, taken back as one step, each file on its own terms)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field, fields, replace
from typing import Any, TypeVar

from memtab.components.files import ops as file_ops
from memtab.components.files.ops import OpResult, restore_file
from memtab.file_protocol.file_ref import MemoryFileRef
from memtab.file_protocol.memory_file import MemoryFile, MemoryFileError, MuxFile
from memtab.humanize import plural
from memtab.store.history.recorder import RecordedChange
from memtab.store.history.versions import ScopeHistory, Version
from memtab.store.home import Home
from memtab.store.paths import PathError, Scope, VirtualPath, parse_file_path
from memtab.store.restore.bulk_restore import Restore, RestoreResult, restore_contents
from memtab.store.restore.from_history import content_of
from memtab.store.restore.orphans import OrphanProjectStore
from memtab.store.scopes.memory import (
    MemoryStore,
    MemoryStoreError,
    SaveConflictError,
    UnkeptChangeError,
)
from memtab.store.sidecars.registry import Workspace


def items_text(paths: Sequence[VirtualPath]) -> str:
    return paths[0].name if len(paths) == 1 else f"{len(paths)} items"


@dataclass(frozen=True)
class Applied:
    """What applying a step did, and the step that turns it around (None: nothing to)."""

    result: OpResult
    inverse: UndoStep | None = None


@dataclass(frozen=True)
class UndoStep:
    """How to turn one operation around; `description` names the operation (`delete of
    notes.md`) whichever way it is turned."""

    workspace: Workspace | None
    description: str
    orphan_dir: str | None = field(default=None, kw_only=True)
    """Made in an orphaned project dir (through its own store: its files are no
    workspace's, so none is opened or selected)."""

    def apply(self, store: MemoryStore, *, allow_unkept: bool = False) -> Applied:
        """Turn the operation around through `store` (`store_for`'s); `allow_unkept`: even
        where history cannot keep a copy of what it replaces (the user chose to)."""
        raise NotImplementedError

    def undo(self, store: MemoryStore, *, allow_unkept: bool = False) -> OpResult:
        """`apply`, without the step that would turn it around again."""
        return self.apply(store, allow_unkept=allow_unkept).result

    def store_for(self, home: Home) -> MemoryStore:
        """The store the operation was made through: of `workspace` (or the orphaned
        project dir's)."""
        if self.orphan_dir is not None:
            return OrphanProjectStore(home, self.orphan_dir)
        return MemoryStore(home, self.workspace)

    @property
    def affected(self) -> tuple[MemoryFileRef, ...]:
        """The files and folders applying this removes or moves away (an open file there
        is closed)."""
        return ()

    @property
    def written(self) -> tuple[MemoryFileRef, ...]:
        """The files applying this writes (Memtab's own writes: no "agent edited" badge)."""
        return ()

    def relocated(self, ref: MemoryFileRef) -> MemoryFileRef | None:
        """Where the file `ref` names is once this is applied (None: it goes away)."""
        return None if any(ref.is_within(gone) for gone in self.affected) else ref

    def turned(self, kind: type[StepT], **changes: Any) -> StepT:
        """The step of `kind` over the same operation: the fields the two share, but `changes`."""
        shared = {item.name for item in fields(kind)} & {item.name for item in fields(self)}
        return kind(**{**{name: getattr(self, name) for name in shared}, **changes})


StepT = TypeVar("StepT", bound=UndoStep)


def physical_paths(file: MemoryFile) -> tuple[str, ...]:
    """Where `file` is on disk, for an immediate rescan (none when that cannot be said)."""
    return (str(physical),) if (physical := file.physical()) is not None else ()


def _refs(paths: Sequence[VirtualPath], orphan_dir: str | None) -> tuple[MemoryFileRef, ...]:
    return () if orphan_dir is not None else tuple(MemoryFileRef.of_mux(p) for p in paths)


@dataclass(frozen=True)
class DeleteStep(UndoStep):
    """Deleted files come back from the versions history kept of them (with their pins
    and usage); deleted folders that held no file come back empty. Turned around: what
    came back goes again while it holds what came back (`RemoveFilesStep`)."""

    files: tuple[tuple[str, str], ...]  # (path, version id of its deletion).
    folders: tuple[VirtualPath, ...]

    @property
    def written(self) -> tuple[MemoryFileRef, ...]:
        paths = (*(parse_file_path(path) for path, _version in self.files), *self.folders)
        return _refs(paths, self.orphan_dir)

    def apply(self, store: MemoryStore, *, allow_unkept: bool = False) -> Applied:
        restored: list[MemoryFileRef] = []
        brought: list[tuple[VirtualPath, str]] = []
        made: list[VirtualPath] = []
        notes: list[str] = []
        touched: list[str] = []
        failure: OpResult | None = None
        for path, version_id in self.files:
            with store.collecting_changes() as changes:
                result = restore_file(store, path, version_id, allow_unkept=allow_unkept)
            if not result.ok:
                failure = replace(result, message=f"Undo of {self.description} failed")
                break
            change = next((c for c in reversed(changes) if c.after.op == "restore"), None)
            if change is not None:
                brought.append((parse_file_path(change.path), change.after.sha256))
            if result.created is not None:
                restored.append(result.created)
                if result.created.key != path:
                    notes.append(result.message)
            touched.extend(result.touched)
        for folder in () if failure else self.folders:
            try:
                if store.kind_of(folder) is None:
                    store.create_directory(folder)
                    made.append(folder)
                    touched.append(str(store.physical(folder)))
            except (MemoryStoreError, PathError, OSError) as error:
                failure = OpResult(f"Undo of {self.description} failed", error=str(error))
                break
        turned = self.turned(RemoveFilesStep, files=tuple(brought), folders=tuple(made))
        inverse = turned if brought or made else None
        if failure is not None:
            return Applied(failure, inverse)
        what = restored[0].key if len(restored) == 1 else f"{len(restored)} files"
        message = f"Restored {what}" if restored else f"Restored {items_text(self.folders)}"
        if notes:
            message += " — " + "; ".join(notes)
        # An orphaned project dir's file is no path of the workspace's to select.
        alone = len(restored) == 1 and not self.folders and self.orphan_dir is None
        created = restored[0] if alone else None
        return Applied(OpResult(message, created=created, touched=tuple(touched)), inverse)


@dataclass(frozen=True)
class RemoveFilesStep(UndoStep):
    """Files an operation made or brought back go again, each only if it still holds what
    was written (so it goes to Recently deleted); folders it made, each only while empty.
    Turned around: they come back from the versions history kept (`DeleteStep`)."""

    files: tuple[tuple[VirtualPath, str], ...] = ()  # (path, the content it was given).
    folders: tuple[VirtualPath, ...] = ()
    noun: str = ""  # How the message names a single item (`the new file`); none: by its path alone.
    made: str = "created"  # How the operation made it (`… changed since it was created; kept`).

    @property
    def affected(self) -> tuple[MemoryFileRef, ...]:
        return _refs([path for path, _sha in self.files] + list(self.folders), self.orphan_dir)

    def apply(self, store: MemoryStore, *, allow_unkept: bool = False) -> Applied:
        failed = f"Undo of {self.description} failed"
        touched: list[str] = []
        removed_folders: list[VirtualPath] = []
        failure: OpResult | None = None
        with store.collecting_changes() as changes:
            for path, sha in self.files:
                try:
                    if store.kind_of(path) is None:
                        failure = OpResult(failed, error=f"{path} no longer exists")
                        break
                    physical = str(store.physical(path))
                    store.restore_content(
                        path,
                        None,
                        expected_sha256=sha,
                        op="delete",
                        allow_unkept=allow_unkept,
                    )
                    touched.append(physical)
                except SaveConflictError:
                    error = f"{path} changed since it was {self.made}; kept"
                    failure = OpResult(failed, error=error)
                    break
                except (MemoryStoreError, PathError, OSError) as error:
                    failure = OpResult.failed(failed, error)
                    break
            # Innermost first: a folder made inside another goes before it.
            for folder in () if failure else sorted(self.folders, key=lambda f: -len(f.segments)):
                try:
                    if store.kind_of(folder) != "dir" or store.entries(folder):
                        failure = OpResult(failed, error=f"{folder} is not empty any more")
                        break
                    physical = str(store.physical(folder))
                    store.delete(folder)
                    removed_folders.append(folder)
                    touched.append(physical)
                except (MemoryStoreError, PathError, OSError) as error:
                    failure = OpResult.failed(failed, error)
                    break
        deleted = tuple(
            (change.path, change.after.id)
            for change in changes
            if change.after.deleted and change.after.op == "delete"
        )
        turned = self.turned(DeleteStep, files=deleted, folders=tuple(removed_folders))
        inverse = turned if deleted or removed_folders else None
        if failure is not None:
            return Applied(failure, inverse)
        items = [path for path, _sha in self.files] + list(self.folders)
        noun = f"{self.noun} " if self.noun else ""
        message = f"Removed {noun}{items[0]}" if len(items) == 1 else f"Removed {len(items)} items"
        return Applied(OpResult(message, touched=tuple(touched)), inverse)


@dataclass(frozen=True)
class MoveStep(UndoStep):
    """Each move is made backwards, last first. Turned around: the moves that were made
    backwards, made backwards again."""

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

    def apply(self, store: MemoryStore, *, allow_unkept: bool = False) -> Applied:
        backwards = [(new, old) for old, new in reversed(self.moves)]  # never refused
        result = file_ops.move(store, backwards)
        inverse = self.turned(MoveStep, moves=result.moved) if result.moved else None
        if not result.ok:
            failed = OpResult(
                f"Undo of {self.description} failed",
                error=result.error,
                moved=result.moved,
                touched=result.touched,
            )
            return Applied(failed, inverse)
        return Applied(result, inverse)


@dataclass(frozen=True)
class RestoreStep(UndoStep):
    """A file a restore gave other content — any memory file, mux's or another agent's —
    holds what it held before, if it still holds what the restore wrote. Turned around:
    the content the restore gave it, on the same terms."""

    file: MemoryFile
    before: Version
    sha256: str  # What the operation left in the file.
    count_as_write: bool = True
    """Whether giving the content back is one use of the file (not for an operation that
    left its usage as it was: Trust's Combine)."""

    @property
    def written(self) -> tuple[MemoryFileRef, ...]:
        return (self.file.ref,)

    def apply(self, store: MemoryStore, *, allow_unkept: bool = False) -> Applied:
        key = self.file.ref.key
        failed = f"Undo of {self.description} failed"
        try:
            restored = self.file.restore(
                self.before.id,
                expected_sha256=self.sha256,
                allow_unkept=allow_unkept,
                count_as_write=self.count_as_write,
            )
        except SaveConflictError:
            return Applied(OpResult(failed, error=f"{key} changed since; kept"))
        except (UnkeptChangeError, MemoryFileError) as error:
            return Applied(OpResult.failed(failed, error))
        before = restored.before
        turned = self.turned(RestoreStep, file=restored.file, before=before, sha256=restored.sha256)
        inverse = (
            turned if before is not None and not before.deleted and not restored.unchanged else None
        )
        result = OpResult(f"{key} holds what it held before", touched=physical_paths(restored.file))
        return Applied(result, inverse)


@dataclass(frozen=True)
class MadeFileStep(UndoStep):
    """A file an operation made (`RemoveStep` removes it, `BringBackStep` brings it back)."""

    file: MemoryFile
    sha256: str  # What the operation wrote.
    created_folders: int = 0  # The folders made for it (removed with it while empty).
    noun: str = "new file"  # How the message names it (`Removed the copy …`).
    made: str = "created"  # How the operation made it (`… changed since it was copied; kept`).


@dataclass(frozen=True)
class RemoveStep(MadeFileStep):
    """A file an operation made (a copy, a restore) is removed if it still holds what was
    written, with folders made for it while empty. Turned around: it comes back from history
    while nothing took its place (`BringBackStep`)."""

    @property
    def affected(self) -> tuple[MemoryFileRef, ...]:
        return (self.file.ref,)

    def apply(self, store: MemoryStore, *, allow_unkept: bool = False) -> Applied:
        key = self.file.ref.key
        failed = f"Undo of {self.description} failed"
        touched = physical_paths(self.file)
        try:
            self.file.remove_created(
                self.sha256, created_folders=self.created_folders, allow_unkept=allow_unkept
            )
        except SaveConflictError:
            return Applied(OpResult(failed, error=f"{key} changed since it was {self.made}; kept"))
        except (UnkeptChangeError, MemoryFileError) as error:
            return Applied(OpResult.failed(failed, error))
        inverse = self.turned(BringBackStep)
        return Applied(OpResult(f"Removed the {self.noun} {key}", touched=touched), inverse)


@dataclass(frozen=True)
class BringBackStep(MadeFileStep):
    """A file `RemoveStep` removed comes back from history (its removal, or the newest version
    holding that content) only while no file took its place. Turned around: removed again
    (`RemoveStep`)."""

    @property
    def written(self) -> tuple[MemoryFileRef, ...]:
        return (self.file.ref,)

    def apply(self, store: MemoryStore, *, allow_unkept: bool = False) -> Applied:
        key = self.file.ref.key
        failed = f"Redo of {self.description} failed"
        try:
            if self.file.read_whole() is not None:
                return Applied(OpResult(failed, error=f"{key} exists again; kept"))
            versions = self.file.versions()
            removal = versions[0] if versions else None
            as_it_was = removal is not None and removal.deleted and removal.sha256 == self.sha256
            version = (
                removal  # its restore brings back the pins and usage it kept, no more
                if as_it_was
                else next((v for v in versions if not v.deleted and v.sha256 == self.sha256), None)
            )
            if version is None:
                return Applied(OpResult(failed, error=f"History keeps no copy of {key}"))
            restored = self.file.restore(
                version.id, allow_unkept=allow_unkept, count_as_write=not as_it_was
            )
        except (SaveConflictError, UnkeptChangeError, MemoryFileError) as error:
            return Applied(OpResult.failed(failed, error))
        inverse = self.turned(RemoveStep, file=restored.file, sha256=restored.sha256)
        result = OpResult(
            f"Restored {restored.file.ref.key}",
            created=restored.file.ref,
            touched=physical_paths(restored.file),
        )
        return Applied(result, inverse)


@dataclass(frozen=True)
class PinStep(UndoStep):
    """The pin goes back to what it was. Turned around: to what the operation made it."""

    path: VirtualPath
    pinned_before: bool

    def apply(self, store: MemoryStore, *, allow_unkept: bool = False) -> Applied:
        result = file_ops.set_pinned(store, self.path, self.pinned_before)
        inverse = self.turned(PinStep, pinned_before=not self.pinned_before)
        return Applied(result, inverse if result.ok else None)


@dataclass(frozen=True)
class SeveralSteps(UndoStep):
    """Steps over several files taken back as one: they affect and write what their steps do."""

    steps: tuple[UndoStep, ...]

    @property
    def affected(self) -> tuple[MemoryFileRef, ...]:
        return tuple(ref for step in self.steps for ref in step.affected)

    @property
    def written(self) -> tuple[MemoryFileRef, ...]:
        return tuple(ref for step in self.steps for ref in step.written)

    def with_steps(self, steps: list[UndoStep]) -> UndoStep | None:
        """The same kind of step over `steps` (None when there are none)."""
        return replace(self, steps=tuple(steps)) if steps else None


@dataclass(frozen=True)
class TogetherStep(SeveralSteps):
    """One operation that changed several files, taken back as one step: its steps in
    order, stopping at the first that fails (what it undid so far stays undone, and the
    message says what did not). Turned around: what the applied ones did, in reverse."""

    def apply(self, store: MemoryStore, *, allow_unkept: bool = False) -> Applied:
        inverses: list[UndoStep] = []
        touched: list[str] = []
        created: MemoryFileRef | None = None
        messages: list[str] = []
        for step in self.steps:
            applied = step.apply(store, allow_unkept=allow_unkept)
            if applied.inverse is not None:
                inverses.insert(0, applied.inverse)
            touched += applied.result.touched
            if not applied.result.ok:
                result = replace(applied.result, touched=tuple(touched))
                return Applied(result, self.with_steps(inverses))
            created = created or applied.result.created
            messages.append(applied.result.message)
        result = OpResult("; ".join(messages), created=created, touched=tuple(touched))
        return Applied(result, self.with_steps(inverses))


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
        total = plural(len(self.steps), "file")
        message = f"{done} of {total} turned back" if kept else f"{total} turned back"
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
    failed = f"{'Redo' if isinstance(step, BringBackStep) else 'Undo'} of {step.description} failed"
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
        step.turned(RestoreStep, file=file, before=before, sha256=change.after.sha256)
        if change is not None and before is not None and not before.deleted
        else None
    )
    return Applied(OpResult(f"{key} holds what it held before", touched=touched), inverse)
