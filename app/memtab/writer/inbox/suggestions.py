"""Suggested memories: what the offline writer proposes, for the user to accept or dismiss. With no
model configured the writer proposes rather than writes (unless the writer setting `offline_notes`
is "write"): its notes go to a per-workspace queue instead of the workspace's notes file
(docs/formats.md §10.4, §20.1)."""

from __future__ import annotations

import hashlib
import logging
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memtab.fs.clock import Clock, now_ms
from memtab.fs.private import PRIVATE_FILE_MODE, private_folders
from memtab.fs.sidecar import edit_sidecar, read_sidecar
from memtab.fs.terminal_text import without_controls
from memtab.redact import redact_secrets
from memtab.store.history.provenance import log_provenance
from memtab.store.history.recorder import RecordedChange
from memtab.store.history.records import NoteOrigin, ProvenanceRecord
from memtab.store.home import SUGGESTIONS_DIR_NAME, Home
from memtab.store.paths import parse_file_path
from memtab.store.scopes.memory import MemoryStore, NotFoundError, SaveConflictError
from memtab.store.sidecars.registry import Workspace
from memtab.writer.offline.notes import (
    NEW_FILE_HEADER,
    NEW_FILE_HEADERS,
    SECTION_ORDER,
    Note,
    apply_notes,
    notes_missing_from,
)
from memtab.writer.records import Suggestion, SuggestionFile, SuggestionOrigin

logger = logging.getLogger(__name__)

MAX_PENDING = 200
MAX_DECIDED = 500  # remembered so they are not proposed again; the oldest are forgotten
MAX_TEXT_CHARS = 500
SAVE_TRIES = 3
_BULLET = re.compile(r"^[-*+•]\s*")


class SuggestionError(Exception):
    """A request the queue refuses (unknown id, empty text…); the message is for the user."""


def suggestion_id(section: str, text: str) -> str:
    """A stable id: the same note proposed again gets the same id."""
    key = " ".join(text.split()).casefold()
    return hashlib.blake2b(f"{section}\n{key}".encode(), digest_size=5).hexdigest()


@dataclass
class _Document:
    """The queue file's content: the entries understood, and the raw ones kept as they are."""

    suggestions: list[Suggestion]
    unknown: list[Any]

    @classmethod
    def of(cls, raw: dict[str, Any], workspace_id: str) -> _Document:
        read = SuggestionFile.read_or_raise({**raw, "workspaceId": workspace_id})
        parsed = [entry for entry in read.suggestions if isinstance(entry, Suggestion)]
        unknown = [entry for entry in read.suggestions if not isinstance(entry, Suggestion)]
        return cls(parsed, unknown)

    def write_into(self, raw: dict[str, Any], workspace_id: str) -> None:
        """Update the file's object in place: fields this version does not know stay."""
        queue = SuggestionFile(
            workspace_id=workspace_id, suggestions=(*self.suggestions, *self.unknown)
        )
        raw.update(queue.to_json())


def _shape_problem(raw: dict[str, Any]) -> str | None:
    """A parsed queue whose `suggestions` is not a list cannot be kept as it is."""
    entries = raw.get("suggestions")
    return (
        None if entries is None or isinstance(entries, list) else "its suggestions are not a list"
    )


def _check_workspace_id(workspace_id: str) -> str:
    if (
        not workspace_id
        or workspace_id.startswith(".")
        or any(char in workspace_id for char in "/\\\0")
    ):
        raise SuggestionError(f"Invalid workspace id {workspace_id!r}")
    return workspace_id


def queue_path(home: Home, workspace_id: str) -> Path:
    """Where a workspace's suggestions are kept (inside `<home>/memtab`)."""
    return home.memtab_dir / SUGGESTIONS_DIR_NAME / f"{_check_workspace_id(workspace_id)}.json"


def queued_workspaces(home: Home) -> list[str]:
    """Ids of the workspaces that have a suggestion file."""
    folder = home.memtab_dir / SUGGESTIONS_DIR_NAME
    try:
        return sorted(p.stem for p in folder.iterdir() if p.suffix == ".json" and p.is_file())
    except OSError:
        return []


@dataclass(frozen=True)
class Accepted:
    """What `accept` did: the suggestions accepted and the file they went to."""

    suggestions: tuple[Suggestion, ...]
    memory_path: str
    written: tuple[RecordedChange, ...] = ()
    """The changes the acceptance made (to take it back: `writer.inbox.undo`)."""


class SuggestionQueue:
    """The suggested memories of one workspace (see the module docstring)."""

    def __init__(self, home: Home, workspace_id: str, *, clock: Clock = now_ms) -> None:
        self.home = home
        self.workspace_id = workspace_id
        self.path = queue_path(home, workspace_id)
        self._clock = clock

    # --- reading ----------------------------------------------------------------------------

    def all(self) -> list[Suggestion]:
        """Every entry, pending and decided, oldest first (a corrupt file reads as empty)."""
        return self._load().suggestions

    def pending(self) -> list[Suggestion]:
        """The suggestions waiting for a decision, oldest first."""
        return [s for s in self.all() if s.status == "pending"]

    def _load(self) -> _Document:
        read = read_sidecar(self.path)
        problem = read.problem or _shape_problem(read.document)
        if problem is not None:
            logger.warning("Suggested memories: cannot use %s: %s", self.path, problem)
            return _Document([], [])
        if not read.exists:
            return _Document([], [])  # no queue: nothing to read (nor records to load)
        return _Document.of(read.document, self.workspace_id)

    # --- changing ---------------------------------------------------------------------------

    def _edit(self, change: Callable[[_Document], None]) -> None:
        """Read, change and write the queue under its cross-process lock (a file that
        cannot be used is kept aside first, by the sidecar rule)."""
        lock = self.home.lock_path(f"suggestions-{self.workspace_id}")
        private_folders(self.path.parent, below=self.home.memtab_dir)  # memory's text
        with edit_sidecar(
            self.path, lock, shape_problem=_shape_problem, mode=PRIVATE_FILE_MODE
        ) as raw:
            document = _Document.of(raw, self.workspace_id)
            change(document)
            _prune(document)
            document.write_into(raw, self.workspace_id)

    def propose(
        self, notes: Iterable[Note], *, memory_path: str, origin: SuggestionOrigin | None = None
    ) -> list[Suggestion]:
        """Queue these notes, each with where it was drawn from (`origin`, the run and transcript,
        with the note's message ids); returns the ones that are new (a note already pending,
        accepted or dismissed is not proposed again)."""
        added: list[Suggestion] = []
        if not (wanted := [note for note in notes if note.text.strip()]):
            return added

        def change(document: _Document) -> None:
            known = {s.id for s in document.suggestions}
            now = self._clock()
            for note in wanted:
                text = redact_secrets(" ".join(note.text.split()))
                suggestion = Suggestion(
                    id=suggestion_id(note.section, text),
                    section=note.section,
                    text=text,
                    memory_path=memory_path,
                    created_at=now,
                    replaces=note.replaces,
                    origin=origin.replaced(message_ids=note.message_ids) if origin else None,
                )
                if suggestion.id not in known:
                    known.add(suggestion.id)
                    document.suggestions.append(suggestion)
                    added.append(suggestion)

        self._edit(change)
        return added

    def reopen(self, suggestions: Sequence[Suggestion]) -> list[Suggestion]:
        """Put decided suggestions back as they were while pending (a decision taken back,
        `writer.inbox.undo`): each replaces its decided entry, or comes back if the queue
        forgot it; one pending already is left. The suggestions put back."""
        reopened: list[Suggestion] = []

        def change(document: _Document) -> None:
            at = {suggestion.id: index for index, suggestion in enumerate(document.suggestions)}
            for suggestion in suggestions:
                index = at.get(suggestion.id)
                if index is None:
                    document.suggestions.append(suggestion)
                elif document.suggestions[index].status != "pending":
                    document.suggestions[index] = suggestion
                else:
                    continue
                reopened.append(suggestion)

        self._edit(change)
        return reopened

    def dismiss(self, ids: Sequence[str]) -> list[Suggestion]:
        """Dismiss pending suggestions (SuggestionError when an id is not pending)."""
        dismissed: list[Suggestion] = []

        def change(document: _Document) -> None:
            now = self._clock()
            for index in _pending_indexes(document, ids):
                decided = document.suggestions[index].replaced(status="dismissed", decided_at=now)
                document.suggestions[index] = decided
                dismissed.append(decided)

        self._edit(change)
        return dismissed

    def accept(
        self,
        ids: Sequence[str],
        *,
        workspace: Workspace,
        text: str | None = None,
        edits: Mapping[str, str] | None = None,
        to: str | None = None,
    ) -> Accepted:
        """Write pending suggestions into their notes file (`text`/`edits`: edited; `to`: a file
        the user chose, recorded as `acceptedInto`), then mark them accepted and log where each
        line came from (docs/formats.md §20.1). SuggestionError, or the store's errors."""
        if text is not None:
            if len(ids) != 1:
                raise SuggestionError("Edited text can be given for one suggestion at a time")
            edits = {ids[0]: text}
        edits = {key: clean_note_text(value) for key, value in (edits or {}).items()}
        accepted: list[Suggestion] = []
        store = MemoryStore(self.home, workspace)
        written: list[RecordedChange] = []
        originals: dict[str, str] = {}

        def change(document: _Document) -> None:
            indexes = _pending_indexes(document, ids)
            chosen = [document.suggestions[i] for i in indexes]
            originals.update((s.id, s.text) for s in chosen)
            chosen = [s.replaced(text=edits.get(s.id, s.text)) for s in chosen]
            paths = {to or s.memory_path for s in chosen}
            with store.collecting_changes() as recorded:
                for path in sorted(paths):
                    notes = [s.note for s in chosen if (to or s.memory_path) == path]
                    write_notes(store, path, notes)
            written.extend(recorded)
            now = self._clock()
            for index, suggestion in zip(indexes, chosen, strict=True):
                moved = to if to != suggestion.memory_path else None
                decided = suggestion.replaced(
                    status="accepted", decided_at=now, accepted_into=moved
                )
                document.suggestions[index] = decided
                accepted.append(decided)

        self._edit(change)
        _log_accepted(self.home, self.workspace_id, accepted, originals, written, self._clock())
        path = (accepted[0].accepted_into or accepted[0].memory_path) if accepted else ""
        return Accepted(tuple(accepted), path, tuple(written))


def _log_accepted(
    home: Home,
    workspace_id: str,
    accepted: Sequence[Suggestion],
    originals: Mapping[str, str],
    written: Sequence[RecordedChange],
    at: int,
) -> None:
    """Add where the accepted lines came from to the provenance log: each suggestion's
    origin, under the versions its acceptance wrote."""
    if not written or not accepted:
        return
    notes = [
        NoteOrigin(
            line=suggestion.note.bullet,
            message_ids=suggestion.origin.message_ids if suggestion.origin else (),
            workspace_id=(suggestion.origin and suggestion.origin.workspace_id) or workspace_id,
            transcript_path=suggestion.origin.transcript_path if suggestion.origin else None,
            run_id=suggestion.origin.run_id if suggestion.origin else None,
            section=suggestion.section,
            suggestion_id=suggestion.id,
            edited=suggestion.text != originals.get(suggestion.id, suggestion.text),
        )
        for suggestion in accepted
    ]
    record = ProvenanceRecord(
        at=at,
        kind="accepted-suggestions",
        versions=tuple(change.after.id for change in written),
        workspace_id=workspace_id,
        memory_path=accepted[0].accepted_into or accepted[0].memory_path,
        notes=tuple(notes),
    )
    log_provenance(home, record)


def clean_note_text(text: str, *, limit: int = MAX_TEXT_CHARS) -> str:
    """Text for one bullet: one line, no bullet mark of its own, no control character or
    escape sequence (`without_controls`), redacted, at most `limit` characters
    (SuggestionError otherwise)."""
    cleaned = _BULLET.sub("", " ".join(without_controls(text).split())).strip()
    if not cleaned:
        raise SuggestionError("The edited text is empty")
    if len(cleaned) > limit:
        raise SuggestionError(f"The edited text is longer than {limit} characters")
    return redact_secrets(cleaned)


def _pending_indexes(document: _Document, ids: Sequence[str]) -> list[int]:
    if not ids:
        raise SuggestionError("No suggestion ids given")
    by_id = {s.id: i for i, s in enumerate(document.suggestions) if s.status == "pending"}
    missing = [i for i in ids if i not in by_id]
    if missing:
        raise SuggestionError(f"No pending suggestion with id {', '.join(missing)}")
    return [by_id[i] for i in dict.fromkeys(ids)]


def write_notes(store: MemoryStore, path: str, notes: Sequence[Note]) -> None:
    """Add notes to a memory file (those it does not already say), re-reading and
    retrying if it changes meanwhile; recorded as `store`'s actor and run."""
    target = parse_file_path(path)
    scope = target.scope
    header = NEW_FILE_HEADERS.get(scope, NEW_FILE_HEADER) if scope else NEW_FILE_HEADER
    for attempt in range(SAVE_TRIES):
        try:
            current = store.read(target)
        except NotFoundError:
            content, sha = "", None
        else:
            content, sha = current.content, current.sha256
        updated = apply_notes(content, notes_missing_from(content, notes), header=header)
        if updated == content:
            return  # already there (an earlier accept wrote it)
        try:
            store.save(target, updated, sha)
            return
        except SaveConflictError:
            if attempt == SAVE_TRIES - 1:
                raise
            logger.info("Suggested memories: %s changed while accepting; retrying", path)


def _prune(document: _Document) -> None:
    """Keep the newest pending suggestions and the newest decisions, in order."""
    pending = [s for s in document.suggestions if s.status == "pending"]
    decided = [s for s in document.suggestions if s.status != "pending"]
    keep = {s.id for s in pending[-MAX_PENDING:]} | {
        s.id for s in sorted(decided, key=lambda s: s.decided_at or 0)[-MAX_DECIDED:]
    }
    dropped = len(document.suggestions) - len(keep)
    if dropped:
        logger.info("Suggested memories: forgot %d old entries", dropped)
    document.suggestions = [s for s in document.suggestions if s.id in keep]


def sections_order(suggestions: Iterable[Suggestion]) -> list[Suggestion]:
    """Suggestions ordered as the notes file orders its sections, then oldest first."""
    rank = {section: index for index, section in enumerate(SECTION_ORDER)}
    return sorted(suggestions, key=lambda s: (rank.get(s.section, len(rank)), s.created_at))
