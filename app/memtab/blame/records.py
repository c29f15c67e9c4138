"""Blame's records: `memtab blame PATH --json` (docs/formats.md §20.2; fields only added) and
what a window renders."""

from __future__ import annotations

from typing import Annotated, Literal

from memtab.fs.records import OmitNone, Record, computed
from memtab.store.actors import actor_name

Actor = str
"""Who introduced a line (docs/formats.md §20.2), named by `memtab.store.actors`."""

UNKNOWN = "unknown"
"""Lines older than the history Memtab still keeps."""
EXTERNAL = "external"
"""Another program, after Memtab first saw the file."""
MUX = "mux"
XUM = "xum"
"""A change xum's own undo journal names: its tool call (docs/formats.md §14.6)."""


class TranscriptSource(Record):
    """A line drawn from a transcript by a writer run or an accepted suggestion."""

    kind: Literal["transcript"] = "transcript"
    workspace_id: str | None = None
    message_ids: tuple[str, ...] = ()
    drawn_from: Literal["note", "window", "trigger"] = "note"
    """`note`: the messages its note came from; `window`: what a run was shown; `trigger`: only
    the message that started the run."""
    transcript_path: Annotated[str | None, OmitNone] = None
    run_id: Annotated[str | None, OmitNone] = None
    trace_dump: Annotated[str | None, OmitNone] = None
    """The file name of the run's trace dump (`debug_obj/<workspaceId>/…`), while it exists."""
    suggestion_id: Annotated[str | None, OmitNone] = None
    edited: Annotated[bool | None, OmitNone] = None


class ConsolidationSource(Record):
    """A line a consolidation run wrote: the run, the op and its reason."""

    kind: Literal["consolidation"] = "consolidation"
    run_id: str
    by: Literal["memtab", "mux"] = "memtab"
    op: Annotated[str | None, OmitNone] = None
    """The op's command (`str_replace`, `create`, `insert`…)."""
    op_index: Annotated[int | None, OmitNone] = None
    """Its place among the run's ops (`memtab runs --json`), from 0."""
    path: Annotated[str | None, OmitNone] = None
    reason: Annotated[str | None, OmitNone] = None


class XumToolCallSource(Record):
    """A line xum wrote through its memory service, as its undo journal tells (formats §14.6)."""

    kind: Literal["xum-tool-call"] = "xum-tool-call"
    workspace_id: str
    op: str
    event_id: str
    tool_name: Annotated[str | None, OmitNone] = None
    tool_call_id: Annotated[str | None, OmitNone] = None
    actor: Annotated[str | None, OmitNone] = None
    """`agent` (a model's tool call) or `user` (xum's Memory tab)."""


class AdHocNote(Record):
    """An ad-hoc note of Codex's a line was drawn from: its file id, who wrote it and when."""

    id: str
    actor: str
    """`user`, `mcp:<client>`, or `codex` for a note Memtab did not write."""
    at: int
    """When it was written: its first version in history, else its modification time."""


class AdHocNoteSource(Record):
    """A line tagged `[ad-hoc note]` with the notes sharing its words, best first."""

    kind: Literal["codex-ad-hoc-note"] = "codex-ad-hoc-note"
    notes: tuple[AdHocNote, ...] = ()


Source = TranscriptSource | ConsolidationSource | XumToolCallSource | AdHocNoteSource


class BlameLine(Record, checked_when_built=False):  # built a line at a time
    """One line of the file: its text, who introduced it, when, in which run and version, why."""

    line: int
    """1-based."""
    text: str
    actor: Actor
    actor_name: str = computed(lambda line: actor_name(line.actor))
    """Who the actor is, in words (docs/formats.md §14.7)."""
    at: int
    """ms since the epoch."""
    run_id: Annotated[str | None, OmitNone] = None
    version: Annotated[str | None, OmitNone] = None
    """The history version that introduced it."""
    source: Annotated[Source | None, OmitNone] = None


class Blame(Record):
    """Every line of one file: what `memtab blame --json` prints."""

    path: str
    lines: tuple[BlameLine, ...]
