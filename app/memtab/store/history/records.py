"""History's records: the runs log and started-run files (docs/formats.md §14.3) and the provenance
log (§20.1), each bounded whatever a run brings."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, Literal

from memtab.fs.records import (
    AtLeast,
    Checked,
    Count,
    Healed,
    Key,
    Lenient,
    OmitNone,
    OrNone,
    Record,
    TrueOnly,
    ValidItems,
)
from memtab.store.history.recorder import RecordedChange
from memtab.store.sidecars.journal import JournalOp, RunScope
from memtab.store.text.free_text import MAX_ERROR_BYTES, MAX_SUMMARY_BYTES, cap_text

MEMTAB_SOURCE = "memtab"
"""The `source` of a run Memtab logged (mux's journal runs are `runs.MUX_SOURCE`)."""


def _capped(max_bytes: int) -> Checked:
    return Checked(lambda text: cap_text(text, max_bytes) if text is not None else None)


Positive = Annotated[int, AtLeast(1)]


def _ok_unless_failed(value: Any) -> str:
    return "failed" if value == "failed" else "ok"


class FileVersions(Record, keep_unknown=True, checked_when_built=False):
    """One file an op changed: its versions before (None: no file) and after; checked when read."""

    path: str
    before_version: OrNone[str] = None
    before_sha256: OrNone[str] = None
    after_version: str
    after_sha256: str
    deleted: TrueOnly = False

    @classmethod
    def from_change(cls, change: RecordedChange) -> FileVersions:
        before, after = change.before, change.after
        was_id, was_sha = (before.id, before.sha256) if before is not None else (None, None)
        return cls(
            path=change.path,
            before_version=was_id,
            before_sha256=was_sha,
            after_version=after.id,
            after_sha256=after.sha256,
            deleted=after.deleted,
        )


class RunOp(JournalOp, keep_unknown=True):
    """One op of a run: the journal's op (docs/formats.md §8), the versions it made, and its unit
    (None: not said)."""

    files: Annotated[ValidItems[tuple[FileVersions, ...]], Key("versions")] = ()
    unit: Annotated[OrNone[Positive], OmitNone] = None

    @classmethod
    def from_journal(
        cls, op: JournalOp, changes: Sequence[RecordedChange] = (), *, unit: int | None = None
    ) -> RunOp:
        files = tuple(FileVersions.from_change(change) for change in changes)
        return cls(**_journal_fields(op), files=files, unit=unit)

    def journal_op(self) -> JournalOp:
        """The op as the consolidation journal keeps it (§8)."""
        return JournalOp(**_journal_fields(self))


def _journal_fields(op: JournalOp) -> dict[str, Any]:
    return {declared.name: getattr(op, declared.name) for declared in JournalOp.fields()}


class TokenUsage(Record):
    """What a run's model calls cost: both counts, an unknown one 0."""

    input_tokens: int = 0
    output_tokens: int = 0

    @classmethod
    def of(cls, input_tokens: int | None, output_tokens: int | None) -> TokenUsage | None:
        """The usage to log: None when neither is known."""
        if input_tokens is None and output_tokens is None:
            return None
        return cls(input_tokens=input_tokens or 0, output_tokens=output_tokens or 0)


def _usage(value: Any) -> Any:
    """A usage as read: its integer counts (None when it has neither)."""
    if value is None or isinstance(value, TokenUsage):
        return value
    if not isinstance(value, dict):
        return None
    counts = [value.get(name) for name in ("inputTokens", "outputTokens")]
    known = [n if isinstance(n, int) and not isinstance(n, bool) else None for n in counts]
    return TokenUsage.of(*known)


class RunEntry(Record, keep_unknown=True):
    """A runs log entry (docs/formats.md §14.3): `id`, `at`, `kind` required, the rest heals."""

    id: Annotated[str, AtLeast(1)]
    at: Positive
    kind: str
    trigger: Annotated[str, Lenient("")] = ""
    """A consolidation's `Trigger`; a writer run's starting message id."""
    workspace_id: OrNone[str] = None
    project_path: OrNone[str] = None
    summary: Annotated[str, Lenient(""), _capped(MAX_SUMMARY_BYTES)] = ""
    status: Annotated[Literal["ok", "failed"], Healed(_ok_unless_failed)] = "ok"
    error: Annotated[OrNone[str], _capped(MAX_ERROR_BYTES)] = None
    source: Annotated[str, Lenient(MEMTAB_SOURCE)] = MEMTAB_SOURCE
    provider: OrNone[str] = None
    model: OrNone[str] = None
    started_at: OrNone[int] = None
    journal_fingerprint: OrNone[str] = None
    plan_id: OrNone[str] = None
    usage: Annotated[TokenUsage | None, Healed(_usage)] = None
    ops: ValidItems[tuple[RunOp, ...]] = ()
    reverts: Annotated[OrNone[str], OmitNone] = None
    """A revert run's (kind `revert`): the id of the run it reverted."""
    actor: Annotated[OrNone[str], OmitNone] = None
    """Who made a run a person started (a revert: `user`), in `store.actors`' ids."""
    scope: Annotated[OrNone[RunScope], OmitNone] = None
    """The one scope a consolidation was limited to (docs/formats.md §9.8); None: the whole
    workspace."""
    trace_dump: Annotated[OrNone[str], OmitNone] = None
    """The file name of the run's trace dump (§10.3), when it left one."""

    @property
    def failed(self) -> bool:
        return self.status == "failed"

    @property
    def applied_count(self) -> int:
        return sum(1 for op in self.ops if op.applied)

    @property
    def input_tokens(self) -> int | None:
        return self.usage.input_tokens if self.usage is not None else None

    @property
    def output_tokens(self) -> int | None:
        return self.usage.output_tokens if self.usage is not None else None


class RunHeader(Record):
    """`{"run": …}`, the first line of a started-run file: the run it is for."""

    id: str
    kind: Annotated[str, Healed(lambda _: "consolidation")] = "consolidation"
    trigger: Annotated[str, Lenient(""), Checked(lambda text: text or "manual")] = "manual"
    workspace_id: str
    project_path: OrNone[str] = None
    started_at: int
    provider: OrNone[str] = None
    model: OrNone[str] = None
    plan_id: OrNone[str] = None
    planned: OrNone[int] = None
    """How many changes it set out to make, when known (a plan's accepted ops)."""
    scope: Annotated[OrNone[RunScope], OmitNone] = None
    """The one scope it is limited to (None: the whole workspace)."""


class StartedAttempt(Record):
    """A change about to be made: the memory-tool call and its files' sha256 (None: no file)."""

    attempt: int
    command: Annotated[str, Lenient("?")] = "?"
    path: OrNone[str] = None
    new_path: OrNone[str] = None
    arguments: OrNone[dict[str, Any]] = None
    before: OrNone[dict[str, Any]] = None

    @property
    def paths(self) -> list[str]:
        """The files the call names."""
        return [path for path in (self.path, self.new_path) if path is not None]


class StartedEnd(Record):
    """`{"end": …}`, the last line: how the run ended."""

    status: OrNone[str] = None
    summary: OrNone[str] = None
    error: OrNone[str] = None
    journal_fingerprint: OrNone[str] = None


MAX_NOTES = 100  # notes per record (the offline writer keeps at most 50 findings of each kind)
MAX_MESSAGE_IDS = 8
"""Message ids per note: the ones it was first drawn from (a fix: the failure, the fix)."""
MAX_VERSIONS = 64
"""History versions one record explains (a run writes one file, a few times at most)."""
MAX_ID_CHARS = 200
MAX_LINE_CHARS = 600
"""A note's line as written: a bullet of at most 500 characters, with room to spare."""
MAX_PATH_CHARS = 4096


def cut(text: str, limit: int) -> str:
    """`text` in at most `limit` characters, `…` marking a cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _ids(most: int) -> Healed:
    """Distinct, non-empty ids in order, each cut, at most `most` (not a list: none)."""

    def bounded(values: Any) -> tuple[str, ...]:
        if not isinstance(values, list | tuple):
            return ()
        kept: dict[str, None] = {}
        for value in values:
            if isinstance(value, str) and value and len(kept) < most:
                kept[cut(value, MAX_ID_CHARS)] = None
        return tuple(kept)

    return Healed(bounded)


def _text(limit: int) -> Healed:
    """A string cut to `limit` characters; anything else is not one (None)."""
    return Healed(lambda value: cut(value, limit) if isinstance(value, str) else None)


def _first(most: int) -> Healed:
    """The first `most` items of a list (not a list: none)."""
    return Healed(lambda value: list(value)[:most] if isinstance(value, list | tuple) else [])


Id = Annotated[str | None, _text(MAX_ID_CHARS), OmitNone]
Path = Annotated[str | None, _text(MAX_PATH_CHARS), OmitNone]


class NoteOrigin(Record, keep_unknown=True):  # fields of a newer Memtab survive a prune
    """The transcript messages a note was drawn from (docs/formats.md §20.1)."""

    line: Annotated[str, _text(MAX_LINE_CHARS)]
    """The line as it was written into the file (`- ` and the note's text)."""
    message_ids: Annotated[tuple[str, ...], _ids(MAX_MESSAGE_IDS)] = ()
    workspace_id: Id = None
    transcript_path: Path = None
    run_id: Id = None
    """The writer run that drew the note (an accepted suggestion: the run that proposed it)."""
    section: Id = None
    suggestion_id: Id = None  # set when the line is an accepted suggestion
    edited: Annotated[OrNone[bool], OmitNone] = None
    """An accepted suggestion whose text the user changed before accepting it."""


class TranscriptWindow(Record, keep_unknown=True):
    """The first and last message of the transcript a run was shown (docs/formats.md §20.1)."""

    first_message_id: Id = None
    last_message_id: Id = None
    message_count: Count = 0
    transcript_path: Path = None

    @property
    def message_ids(self) -> tuple[str, ...]:
        """The window's bounds, once each."""
        return tuple(dict.fromkeys(i for i in (self.first_message_id, self.last_message_id) if i))


class KeptFrom(Record, keep_unknown=True):
    """A conflict resolution's other side (docs/formats.md §20.1): its blob and its author."""

    actor: str
    sha256: str
    at: Annotated[OrNone[int], OmitNone] = None
    """When the other side wrote it, when known (else the resolution's time)."""


class ProvenanceRecord(Record, keep_unknown=True):
    """One line of the provenance log (docs/formats.md §20.1)."""

    at: int
    kind: Literal["writer-run", "accepted-suggestions", "conflict-resolution"]
    versions: Annotated[tuple[str, ...], _ids(MAX_VERSIONS)]
    """The history versions whose added lines this record explains."""
    run_id: Id = None
    """The writer run that made the versions (None: the user accepted suggestions)."""
    workspace_id: Id = None
    memory_path: Path = None
    window: Annotated[TranscriptWindow | None, OmitNone] = None
    """A run's transcript window: the source of its lines no note names (a model's)."""
    trace_dump: Id = None
    """The file name of the run's trace dump, when it wrote one (docs/formats.md §10.3)."""
    notes: Annotated[ValidItems[tuple[NoteOrigin, ...]], _first(MAX_NOTES)] = ()
    """A note that is not one is dropped, the others kept."""
    kept_from: Annotated[KeptFrom | None, OmitNone] = None
    """A conflict resolution's other side, whose lines are its author's, not the user's."""

    @property
    def usable(self) -> bool:
        """Whether it says something: a time, and versions to explain."""
        return self.at > 0 and bool(self.versions)
