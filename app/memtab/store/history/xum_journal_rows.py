"""The rows of xum's undo journal, `durable-events.jsonl`, as records (docs/formats.md
§14.6): read by `xum_journal.py`, which says what they mean."""

from __future__ import annotations

from typing import Annotated

from memtab.fs.pydantic_once import Field, StrictInt, StrictStr
from memtab.fs.records import Lenient, OrNone, Record, ValidItems

REFINEMENT_KIND = "refinement"


class _InverseFile(Record):
    path: StrictStr


class _Inverse(Record):
    """The paths of a row's inverse (`RefinementInverseSchema`: delete-files,
    restore-files, rename)."""

    paths: ValidItems[tuple[StrictStr, ...]] = ()
    files: ValidItems[tuple[_InverseFile, ...]] = ()
    delete_paths: ValidItems[tuple[StrictStr, ...]] = ()
    from_path: Annotated[OrNone[StrictStr], Field(alias="from")] = None
    to: OrNone[StrictStr] = None

    @property
    def named(self) -> frozenset[str]:
        found = {*self.paths, *self.delete_paths, *(file.path for file in self.files)}
        return frozenset(found | {p for p in (self.from_path, self.to) if p is not None})


class _PostFile(Record):
    path: StrictStr
    sha256: StrictStr


class _PostState(Record):
    files: ValidItems[tuple[_PostFile, ...]] = ()


class _Evidence(Record):
    workspace_id: OrNone[StrictStr] = None
    tool_name: OrNone[StrictStr] = None
    tool_call_id: OrNone[StrictStr] = None
    actor: OrNone[StrictStr] = None


class _Action(Record):
    op: StrictStr
    path: OrNone[StrictStr] = None
    """None in a rollback row (`op: rollback`, `of`: the row it undid): its inverse names
    the files."""
    new_path: OrNone[StrictStr] = None


class _Data(Record):
    kind: StrictStr
    action: _Action
    evidence: Annotated[_Evidence, Lenient(_Evidence())] = _Evidence()
    inverse: Annotated[_Inverse, Lenient(_Inverse())] = _Inverse()
    post_state: OrNone[_PostState] = None


class Row(Record):
    """One `refinement` row of xum's durable-events.jsonl (see the module doc)."""

    kind: StrictStr
    id: StrictStr
    ts: StrictInt
    workspace_id: OrNone[StrictStr] = None
    data: _Data
