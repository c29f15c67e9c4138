"""The rows of xum's undo journal as records (docs/formats.md §14.6)."""

from __future__ import annotations

from typing import Annotated

from memtab.fs.records import Key, Lenient, OrNone, Record, ValidItems

REFINEMENT_KIND = "refinement"


class _InverseFile(Record):
    path: str


class _Inverse(Record):
    """The paths of a row's inverse (delete-files, restore-files, rename)."""

    paths: ValidItems[tuple[str, ...]] = ()
    files: ValidItems[tuple[_InverseFile, ...]] = ()
    delete_paths: ValidItems[tuple[str, ...]] = ()
    from_path: Annotated[OrNone[str], Key("from")] = None
    to: OrNone[str] = None

    @property
    def named(self) -> frozenset[str]:
        found = {*self.paths, *self.delete_paths, *(file.path for file in self.files)}
        return frozenset(found | {p for p in (self.from_path, self.to) if p is not None})


class _PostFile(Record):
    path: str
    sha256: str


class _PostState(Record):
    files: ValidItems[tuple[_PostFile, ...]] = ()


class _Evidence(Record):
    workspace_id: OrNone[str] = None
    tool_name: OrNone[str] = None
    tool_call_id: OrNone[str] = None
    actor: OrNone[str] = None


class _Action(Record):
    op: str
    path: OrNone[str] = None
    """None in a rollback row: its inverse names the files."""
    new_path: OrNone[str] = None


class _Data(Record):
    kind: str
    action: _Action
    evidence: Annotated[_Evidence, Lenient(_Evidence())] = _Evidence()
    inverse: Annotated[_Inverse, Lenient(_Inverse())] = _Inverse()
    post_state: OrNone[_PostState] = None
    migrated_from: OrNone[str] = None
    """`<child workspace id>:<row id>` on a row copied from a removed sub-agent's journal."""
    origin_journal: OrNone[str] = None
    """The journal a copied row was first appended to."""
    source_ts: OrNone[int] = None
    """The notebook's clock when the change was made; a copy keeps its source's."""


class Row(Record):
    """One `refinement` row of xum's durable-events.jsonl (see the module doc)."""

    kind: str
    id: str
    ts: int
    workspace_id: OrNone[str] = None
    data: _Data
