"""What `memtab check` found, where an agent recalls memory (docs/formats.md §19.8): `view`'s lines,
`search`'s results and `list`'s rows marked from the check cache (`memtab.checked`); a file not
checked as it is is answered unmarked and checked in the background."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Sequence
from typing import Annotated, Protocol

from memtab.agent_server.catalog import SearchHit
from memtab.checked.cache import CheckState
from memtab.checked.marks import (
    LIST_NOTE,
    demoted,
    hit_state,
    marked_lines,
    row_state,
    unread_note,
    view_notes,
)
from memtab.file_protocol.file_ref import OTHER_AGENTS, SourceError, parse_file_id
from memtab.fs.records import OmitNone
from memtab.sources.config import SourceContext
from memtab.sources.discovery import discover
from memtab.sources.listing import SourceFileRow
from memtab.store.home import Home
from memtab.store.paths import PathError, parse_file_path
from memtab.store.scopes.file_rows import FileRow
from memtab.store.scopes.memory import MemoryStore, MemoryStoreError

UNREAD_ASK_S = 60.0
"""A file the cache has nothing of asks for a check at most this often."""
_SOURCES_TTL_S = 30.0
"""How long the other agents' source roots are taken as found (a file id's place)."""
_PLACES_KEPT = 50_000
"""The memory files whose place on disk a session keeps (xum's 1,000 a scope, many times over)."""


class Checks(Protocol):
    """What the check gives answers (`memtab.check.recalled.RecallChecks`)."""

    def state(
        self, physical: str, *, sha256: str | None = None, stamps: dict[str, str] | None = None
    ) -> CheckState: ...

    def states(
        self, physicals: Sequence[str], *, stamps: dict[str, str] | None = None
    ) -> list[CheckState]: ...

    def refresh(self, workspace_id: str | None) -> None: ...

    def warm(self, workspace_id: str | None) -> None: ...


class CheckedHit(SearchHit, write_only=True):
    """A `search` result with what the check says of its file (§19.8)."""

    check: Annotated[str | None, OmitNone] = None


class CheckedRow(FileRow, write_only=True):
    """A `list` row with what the check says of its file (§19.8): its false or stale lines, the
    whole file, or not checked as it is now."""

    check: Annotated[str | None, OmitNone] = None


class CheckedSourceRow(SourceFileRow, write_only=True):
    """Another agent's `list` row with its `check`, as `CheckedRow`."""

    check: Annotated[str | None, OmitNone] = None


class RecallMarks:
    """One session's marks (see the module doc)."""

    def __init__(
        self,
        checks: Checks,
        home: Home,
        reader: MemoryStore,
        workspace_id: Callable[[], str | None],
        *,
        monotonic: Callable[[], float] | None = None,
    ) -> None:
        self._checks = checks
        self._home = home
        self._reader = reader
        self._workspace_id = workspace_id
        self._lock = threading.Lock()
        self._roots: dict[str, str] = {}
        self._roots_at: float | None = None
        self._places: dict[str, str] = {}  # a store file's virtual path: its place on disk
        self._asked_at: float | None = None
        self._monotonic = monotonic or time.monotonic

    def state(
        self, path: str, sha256: str | None = None, stamps: dict[str, str] | None = None
    ) -> CheckState | None:
        """What the check says of the file `path` now (None: not one it reads), checking it in the
        background when needed; `stamps`: checkouts' stamps read already."""
        physical = self.physical(path)
        if physical is None:
            return None
        return self._asked(self._checks.state(physical, sha256=sha256, stamps=stamps))

    def states(self, paths: Sequence[str], stamps: dict[str, str]) -> list[CheckState | None]:
        """`state` of each of a page's files, the cache read once."""
        physicals = [self.physical(path) for path in paths]
        read = iter(self._checks.states([p for p in physicals if p is not None], stamps=stamps))
        return [None if physical is None else self._asked(next(read)) for physical in physicals]

    def _asked(self, state: CheckState) -> CheckState:
        """`state`, a check of the workspace asked in the background when the file is not checked
        as it is (at once when the cache knows it, else at most every `UNREAD_ASK_S`)."""
        if not state.checked:
            now = self._monotonic()
            with self._lock:
                due = self._asked_at is None or now - self._asked_at >= UNREAD_ASK_S
                if state.known or due:
                    self._asked_at = now
            if state.known or due:
                self._checks.refresh(self._workspace_id())
        return state

    def physical(self, path: str) -> str | None:
        """Where the file a virtual path or another agent's file id names is on disk (a store
        file's kept: its scope's root is the session's for good)."""
        if (place := self._places.get(path)) is not None:
            return place
        if path.split(":", 1)[0] in OTHER_AGENTS:
            try:
                ref = parse_file_id(path)
            except SourceError:
                return None
            root = self._source_root(ref.source_id)
            return os.path.join(root, *ref.path.split("/")) if root is not None else None
        try:  # as the check names it: the scope's root joined, no link resolved (a stat)
            virtual = parse_file_path(path)
            if virtual.scope is None:
                return None
            place = os.path.join(os.fspath(self._reader.root(virtual.scope)), *virtual.segments)
        except (PathError, MemoryStoreError, OSError):
            return None
        if len(self._places) >= _PLACES_KEPT:
            self._places.clear()
        self._places[path] = place
        return place

    def _source_root(self, source_id: str) -> str | None:
        now = self._monotonic()
        with self._lock:
            fresh = self._roots_at is not None and now - self._roots_at < _SOURCES_TTL_S
            root = self._roots.get(source_id)
        if root is not None or fresh:
            return root
        found = {s.id: str(s.root) for s in discover(SourceContext.load(self._home)).sources}
        with self._lock:
            self._roots, self._roots_at = found, now
        return found.get(source_id)

    def view(
        self, path: str, sha256: str, lines: Sequence[str], first: int
    ) -> tuple[list[str], tuple[str, ...]]:
        """A page's numbered `lines` from `first` with their marks, and the notes after them."""
        state = self.state(path, sha256)
        if state is None:
            return list(lines), ()
        return marked_lines(lines, first, state), view_notes(state)

    def hits(self, hits: Sequence[SearchHit], keep: int) -> tuple[list[SearchHit], tuple[str, ...]]:
        """The best `keep` results with marks and states (flagged files demoted), and the page's
        notes."""
        marked: list[SearchHit] = []
        stamps: dict[str, str] = {}
        unknown: set[str] = set()
        for hit, state in zip(hits, self.states([hit.path for hit in hits], stamps), strict=True):
            if state is not None and not state.known:
                unknown.add(hit.path)
            if state is None:
                marked.append(hit)
                continue
            mark, check = hit_state(state, hit.line)
            snippet = (
                f"{hit.snippet}  ⟵ {mark}" if mark and hit.snippet is not None else hit.snippet
            )
            score = round(demoted(hit.score, state), 3)  # what the check flags ranks after
            fields = {**_fields(hit), "snippet": snippet, "check": check, "score": score}
            marked.append(CheckedHit(**fields))  # type: ignore[arg-type]
        marked.sort(key=lambda hit: -hit.score)  # stable: ties keep the engine's order
        del marked[keep:]
        said = any(isinstance(hit, CheckedHit) and hit.check for hit in marked)
        unread = sum(hit.path in unknown for hit in marked)
        notes = ((LIST_NOTE,) if said else ()) + ((unread_note(unread),) if unread else ())
        return marked, notes

    def rows(self, rows: Sequence[FileRow]) -> tuple[list[FileRow], tuple[str, ...]]:
        """The rows with their files' states, and the note on what `check` means."""
        marked: list[FileRow] = []
        stamps: dict[str, str] = {}
        unread = 0
        for row, state in zip(rows, self.states([row.path for row in rows], stamps), strict=True):
            unread += state is not None and not state.known
            check = row_state(state) if state is not None else None
            if check is None:
                marked.append(row)
                continue
            kind = CheckedSourceRow if isinstance(row, SourceFileRow) else CheckedRow
            marked.append(kind(**_fields(row), check=check))  # type: ignore[arg-type]
        said = any(isinstance(row, CheckedRow | CheckedSourceRow) for row in marked)
        notes = ((LIST_NOTE,) if said else ()) + ((unread_note(unread),) if unread else ())
        return marked, notes


def _fields(record: SearchHit | FileRow) -> dict[str, object]:
    return {field.name: getattr(record, field.name) for field in type(record).fields()}
