"""Taking an Inbox decision back — Edit → Undo after Accept or Reject (docs/formats.md §10.5)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from memtab.humanize import plural
from memtab.store.errors import MemoryStoreError, SaveConflictError
from memtab.store.history.recorder import RecordedChange
from memtab.store.paths import parse_file_path
from memtab.store.proposals.queue import ProposalQueue
from memtab.store.proposals.records import AgentProposal
from memtab.store.restore.from_history import content_of
from memtab.store.scopes.memory import MemoryStore
from memtab.writer.inbox.gemini import GeminiDecided, GeminiInbox
from memtab.writer.inbox.suggestions import SuggestionQueue
from memtab.writer.records import Suggestion

LABEL_CHARS = 24  # of an item's text, in "Undo accept 'Use uv for…'"


class UndoRefusedError(MemoryStoreError):
    """A decision that cannot be taken back (a file changed since in a way it cannot
    follow); the message is for the user."""


@dataclass(frozen=True)
class InboxUndo:
    """What one accept or reject did, to take it back (see the module docstring)."""

    verb: Literal["accept", "reject"]
    ids: tuple[str, ...]
    texts: tuple[str, ...]  # the items' texts, for the label
    text: str | None = None  # an accept's edited text
    to: str | None = None  # the file an accept was told to write
    changes: tuple[RecordedChange, ...] = ()
    bullets: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # path → lines added
    suggestions: tuple[Suggestion, ...] = ()  # as they were while pending
    proposals: tuple[tuple[bool, AgentProposal], ...] = ()  # (in the global queue, entry)
    gemini: tuple[GeminiDecided, ...] = ()  # Gemini CLI patches applied or dismissed

    @property
    def label(self) -> str:
        """ "accept 'Use uv for…'", "reject of 3 memories": what Edit → Undo names."""
        if len(self.texts) != 1:
            return f"{self.verb} of {plural(len(self.texts), 'memory', 'memories')}"
        text = " ".join(self.texts[0].split())
        short = text if len(text) <= LABEL_CHARS else text[: LABEL_CHARS - 1].rstrip() + "…"
        return f"{self.verb} '{short}'"

    @property
    def created(self) -> tuple[str, ...]:
        """The files the decision made (taking it back removes them)."""
        return tuple(
            c.path
            for c in self.changes
            if (c.before is None or c.before.deleted) and not c.after.deleted
        )


def take_back(store: MemoryStore, undo: InboxUndo, *, allow_unkept: bool = False) -> str:
    """Put back what the decision changed, through `store` (its workspace's, actor the
    user), newest change first, then its items as pending; what happened, in words.
    UndoRefusedError (or the store's errors) when a file cannot be put back."""
    said: list[str] = []
    if undo.gemini:
        gemini = GeminiInbox(store.home)
        said = [gemini.take_back(decided) for decided in reversed(undo.gemini)]
    for change in reversed(undo.changes):
        _put_back(store, change, undo.bullets.get(change.path, ()), allow_unkept=allow_unkept)
    if undo.suggestions and store.workspace is not None:
        SuggestionQueue(store.home, store.workspace.id).reopen(undo.suggestions)
    for in_global in (False, True):
        entries = [entry for is_global, entry in undo.proposals if is_global == in_global]
        if entries:
            workspace = None if in_global else store.workspace
            ProposalQueue(store.home, workspace).reopen(entries)
    count = plural(len(undo.ids), "proposed memory", "proposed memories")
    return "; ".join([f"{count} back in the Inbox", *said])


def _put_back(
    store: MemoryStore, change: RecordedChange, bullets: Sequence[str], *, allow_unkept: bool
) -> None:
    """One file as it was before `change`, if it still holds what the change left; a file
    changed since loses only `bullets` (a notes file the user edited after accepting)."""
    before, after = change.before, change.after
    path = parse_file_path(change.path)
    try:
        data = None if before is None or before.deleted else content_of(store.home, before)
        store.restore_content(
            path,
            data,
            expected_sha256=None if after.deleted else after.sha256,
            meta=after.meta if after.deleted else None,
            allow_unkept=allow_unkept,
        )
        return
    except SaveConflictError:
        if not bullets:
            raise UndoRefusedError(f"{change.path} changed since; it was left as it is") from None
    except MemoryStoreError:  # history lost the content before (pruned): the bullets go
        if not bullets:
            raise
    store.edit_text(path, lambda text: without_lines(text, bullets))


def without_lines(text: str, lines: Sequence[str]) -> str:
    """`text` without the first line equal to each of `lines` (unchanged if none is)."""
    kept = text.split("\n")
    for line in lines:
        if line in kept:
            kept.remove(line)
    return "\n".join(kept)
