"""xum's own undo journal (`sessions/<id>/durable-events.jsonl`) read as provenance: which xum tool
call wrote a memory file's content (docs/formats.md §14.6); read only, never written."""

from __future__ import annotations

import functools
import logging
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

from memtab.fs.atomic import Directory
from memtab.fs.clock import Clock
from memtab.fs.jsonfile import JsonError, parse_json
from memtab.fs.lazy_re import LazyPattern
from memtab.fs.records import Key, Lenient, OrNone, Record, ValidItems
from memtab.fs.user_files import read_regular_file
from memtab.store.home import Home
from memtab.store.paths import js_trim

logger = logging.getLogger(__name__)

MAX_SAFE_INTEGER = 2**53 - 1  # JavaScript's `Number.MAX_SAFE_INTEGER`: the clock never passes it
_DIGITS = LazyPattern(r"[1-9][0-9]{0,15}")
_MAX_BYTES = 64


class RevisionUnusableError(ValueError):
    """The clock is there but cannot be advanced; left as it is."""


def read_revision(home: Home, owner_id: str) -> int | None:
    """The clock of `owner_id`'s notebook (None: none); RevisionUnusableError when untrustworthy."""
    path = home.notebook_revision_path(owner_id)
    try:
        raw = read_regular_file(path, limit=_MAX_BYTES, follow_links=False)
    except FileNotFoundError:
        return None
    except OSError as error:
        raise RevisionUnusableError(f"{path} cannot be read: {error.strerror or error}") from None
    text = js_trim(raw.decode("utf-8", "replace"))
    value = int(text) if _DIGITS.fullmatch(text) else 0
    if not 0 < value <= MAX_SAFE_INTEGER:
        raise RevisionUnusableError(f"{path} is not xum's clock: {text[:32]!r}")
    return value


def advance_revision(home: Home, owner_id: str, clock: Clock) -> int | None:
    """Advance the notebook's clock as xum does, to `max(clock(), previous + 1)`, the caller holding
    its target lock; the new value, None when there is no clock. RevisionUnusableError, OSError."""
    previous = read_revision(home, owner_id)
    if previous is None:
        return None
    following = max(clock(), previous + 1)
    path = home.notebook_revision_path(owner_id)
    if following > MAX_SAFE_INTEGER:
        largest = "is the largest value it can hold"
        raise RevisionUnusableError(f"{path} is exhausted: {previous} {largest}")
    with Directory.open(path.parent) as directory:  # never makes a removed session dir
        directory.replace(path.name, str(following).encode("ascii"))
    return following


def advance_after_change(home: Home, owner_id: str, clock: Clock) -> None:
    """`advance_revision` after a change of the notebook, best effort (a failure is logged)."""
    try:
        advance_revision(home, owner_id, clock)
    except RevisionUnusableError as unusable:
        logger.warning("xum's notebook clock was not advanced: %s", unusable)
    except OSError as error:
        path, why = home.notebook_revision_path(owner_id), error.strerror or error
        logger.warning("xum's notebook clock %s was not advanced: %s", path, why)


JOURNAL_NAME = "durable-events.jsonl"
MAX_JOURNAL_BYTES = 64 * 1024 * 1024  # a journal larger than this is read only to here
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
    path: OrNone[str] = None  # None in a rollback row: its inverse names the files
    new_path: OrNone[str] = None


class _Data(Record):
    kind: str
    action: _Action
    evidence: Annotated[_Evidence, Lenient(_Evidence())] = _Evidence()
    inverse: Annotated[_Inverse, Lenient(_Inverse())] = _Inverse()
    post_state: OrNone[_PostState] = None
    migrated_from: OrNone[str] = None
    """`<child workspace id>:<row id>` on a row copied from a removed sub-agent's journal."""
    origin_journal: OrNone[str] = None  # the journal a copied row was first appended to
    source_ts: OrNone[int] = None
    """The notebook's clock when the change was made; a copy keeps its source's."""


class Row(Record):
    """One `refinement` row of xum's durable-events.jsonl."""

    kind: str
    id: str
    ts: int
    workspace_id: OrNone[str] = None
    data: _Data


@dataclass(frozen=True)
class XumEdit:
    """One memory change xum journaled: who and which tool call made it."""

    event_id: str
    at: int
    workspace_id: str
    op: str
    path: str | None
    new_path: str | None
    tool_name: str | None
    tool_call_id: str | None
    actor: str | None  # `agent` (a model's tool call) or `user` (xum's Memory tab)
    post_sha256: frozenset[str]
    paths: frozenset[str] = frozenset()
    """Every path the row names: its action's, its inverse's and post-state's."""
    journal: str = ""  # the session dir whose journal holds the row
    migrated_from: str | None = None
    """The row this one is xum's copy of (`<workspace id>:<row id>`), for a copy."""

    @property
    def identities(self) -> frozenset[str]:
        """How a copy of this row names it (`<workspace id>:<row id>`)."""
        return frozenset(
            {f"{self.journal}:{self.event_id}", f"{self.workspace_id}:{self.event_id}"}
        )

    @property
    def words(self) -> str:
        """`xum's memory tool (str_replace, call toolu_01…, agent)`."""
        tool = self.tool_name or "memory"
        who = "xum's Memory tab" if self.actor == "user" else f"xum's {tool} tool"
        call = [f"call {self.tool_call_id}"] if self.tool_call_id else []
        return f"{who} ({', '.join([self.op, *call, f'workspace {self.workspace_id}'])})"


class XumJournal:
    """The refinement rows of every workspace's journal in a home, read once."""

    def __init__(self, home: Home) -> None:
        self._home = home

    @functools.cached_property
    def edits(self) -> tuple[XumEdit, ...]:
        found: list[XumEdit] = []
        sessions = self._home.sessions_dir
        try:
            journals = sorted(sessions.glob(f"*/{JOURNAL_NAME}"))
        except OSError:
            return ()
        for journal in journals:
            found.extend(_read(journal.parent.name, _journal_bytes(journal, head=True)))
        read = {identity for edit in found for identity in edit.identities}
        kept = [edit for edit in found if edit.migrated_from not in read]
        kept.sort(key=lambda edit: edit.at)
        return tuple(kept)

    def edit_for(self, path: str, sha256: str, at: int | None = None) -> XumEdit | None:
        """The journaled change that left `path` holding `sha256`: the newest no later than `at`,
        else the oldest after."""
        edits = self.edits
        matches = [e for e in edits if sha256 in e.post_sha256 and path in (e.path, e.new_path)]
        if not matches or at is None:
            return matches[-1] if matches else None
        before = [edit for edit in matches if edit.at <= at]
        return before[-1] if before else matches[0]


def recent_edits(home: Home, since_ms: int, tail_bytes: int) -> Iterator[XumEdit]:
    """The rows written since `since_ms`, from the last `tail_bytes` of each journal changed."""
    try:
        sessions = list(os.scandir(home.sessions_dir))
    except OSError:
        return
    for session in sessions:
        journal = Path(session.path, JOURNAL_NAME)
        try:
            if journal.stat().st_mtime_ns // 1_000_000 < since_ms:
                continue
        except OSError:
            continue
        data = _journal_bytes(journal, head=False, limit=tail_bytes)
        yield from (
            edit
            for edit in _read(session.name, data)
            if edit.at >= since_ms and edit.migrated_from is None  # a copy was made earlier
        )


def _journal_bytes(journal: Path, *, head: bool, limit: int = MAX_JOURNAL_BYTES) -> bytes:
    """A journal's first (`head`) or last `limit` bytes; nothing when unreadable."""
    try:
        with journal.open("rb") as handle:
            if not head:
                handle.seek(max(os.fstat(handle.fileno()).st_size - limit, 0))
            return handle.read(limit)
    except OSError:
        return b""


def _read(session_id: str, data: bytes) -> Iterator[XumEdit]:
    for line in data.splitlines():
        if b'"refinement"' not in line:
            continue  # most rows are other kinds: not parsed at all
        try:
            row = Row.read(parse_json(line))
        except JsonError:
            continue
        if row is None or row.kind != REFINEMENT_KIND or row.data.kind != "memory":
            continue
        evidence = row.data.evidence
        post = row.data.post_state.files if row.data.post_state is not None else ()
        action = row.data.action
        named = {*(file.path for file in post), *row.data.inverse.named}
        body = row.data
        acting, at = evidence.workspace_id or row.workspace_id or session_id, row.ts
        if body.migrated_from is not None:  # the sub-agent's change, when it made it
            acting = body.origin_journal or body.migrated_from.partition(":")[0] or acting
            source_ts = body.source_ts  # its `sourceTs` when a positive safe integer, else its `ts`
            at = source_ts if source_ts is not None and 0 < source_ts <= MAX_SAFE_INTEGER else at
        yield XumEdit(
            event_id=row.id,
            at=at,
            workspace_id=acting,
            op=action.op,
            path=action.path,
            new_path=action.new_path,
            tool_name=evidence.tool_name,
            actor=evidence.actor,
            tool_call_id=evidence.tool_call_id,
            post_sha256=frozenset(file.sha256 for file in post),
            paths=frozenset(named | {p for p in (action.path, action.new_path) if p}),
            journal=session_id,
            migrated_from=body.migrated_from,
        )
