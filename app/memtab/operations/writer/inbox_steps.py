"""An Inbox accept or reject as a step of Edit → Undo and Edit → Redo (the window's undo
stack, `components.files.undo`): "Undo accept 'Use uv for…'" takes it back
(`writer.inbox.undo.take_back`: the files as they were, the items in the Inbox again);
Redo decides the same items the same way again (`Inbox.redo`), and its step takes that
back in turn. Applied on the file-operation worker, like every step.
"""

from __future__ import annotations

from dataclasses import dataclass

from memtab.components.files.ops import OpResult
from memtab.components.files.steps import Applied, UndoStep
from memtab.file_protocol.file_ref import MemoryFileRef
from memtab.humanize import plural
from memtab.store.errors import MemoryStoreError
from memtab.store.paths import PathError, parse_file_path
from memtab.store.scopes.memory import MemoryStore
from memtab.writer.inbox.inbox import Inbox, InboxError
from memtab.writer.inbox.undo import InboxUndo, take_back

_ERRORS = (InboxError, MemoryStoreError, PathError, OSError, TimeoutError)


def _refs(paths: tuple[str, ...]) -> tuple[MemoryFileRef, ...]:
    return tuple(MemoryFileRef.of_mux(parse_file_path(path)) for path in dict.fromkeys(paths))


def _touched(store: MemoryStore, undo: InboxUndo) -> tuple[str, ...]:
    """Where the files the decision changed are on disk, for an immediate rescan."""
    found: list[str] = []
    for change in undo.changes:
        try:
            found.append(str(store.physical(parse_file_path(change.path))))
        except (MemoryStoreError, PathError):
            continue
    return tuple(dict.fromkeys(found))


@dataclass(frozen=True)
class InboxStep(UndoStep):
    """Takes an Inbox decision back. Turned around: made again (`InboxRedoStep`)."""

    decided: InboxUndo

    @property
    def affected(self) -> tuple[MemoryFileRef, ...]:
        return _refs(self.decided.created)  # a notes file the accept made goes again

    @property
    def written(self) -> tuple[MemoryFileRef, ...]:
        return _refs(tuple(change.path for change in self.decided.changes))

    def apply(self, store: MemoryStore, *, allow_unkept: bool = False) -> Applied:
        try:
            said = take_back(store, self.decided, allow_unkept=allow_unkept)
        except _ERRORS as error:
            return Applied(OpResult.failed(f"Undo of {self.description} failed", error))
        inverse = InboxRedoStep(self.workspace, self.description, decided=self.decided)
        return Applied(OpResult(said, touched=_touched(store, self.decided)), inverse)


@dataclass(frozen=True)
class InboxRedoStep(UndoStep):
    """Decides the same items the same way again. Turned around: taken back (`InboxStep`)."""

    decided: InboxUndo

    @property
    def written(self) -> tuple[MemoryFileRef, ...]:
        return _refs(tuple(change.path for change in self.decided.changes))

    def apply(self, store: MemoryStore, *, allow_unkept: bool = False) -> Applied:
        try:
            decision = Inbox(store.home, self.workspace).redo(self.decided)
        except _ERRORS as error:
            return Applied(OpResult.failed(f"Redo of {self.description} failed", error))
        undo = decision.undo
        count = plural(len(decision.items), "memory", "memories")
        said = f"{count} {self.decided.verb}ed again"
        result = OpResult(said, touched=_touched(store, undo) if undo else ())
        inverse = InboxStep(self.workspace, self.description, decided=undo) if undo else None
        return Applied(result, inverse)
