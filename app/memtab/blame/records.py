"""Blame's records (`memtab.fs.records`): what it says about each line.

`memtab blame PATH --json` prints `Blame.to_json()` (docs/formats.md §20.2); a window
renders the same records. Fields are added, never renamed or removed. Blame runs off the
GUI thread, and only it imports this module.
"""

from __future__ import annotations

from typing import Annotated, Literal

from memtab.fs.records import OmitNone, Record, computed
from memtab.store.actors import actor_name

Actor = str
"""Who introduced a line (docs/formats.md §20.2): `user`, `writer`, `consolidator`,
`agent-tool`, `sync`, `external`, `mux`, `xum`, `before-memtab`, `unknown`, an MCP client
(`mcp:<client>`), or the agent that owns another agent's file (`claude-code`, `codex`,
`loki`); named by `memtab.store.actors`."""

UNKNOWN = "unknown"
"""Lines older than the history Memtab still keeps."""
EXTERNAL = "external"
"""Another program, after Memtab first saw the file."""
MUX = "mux"
XUM = "xum"
"""A change xum's own undo journal names: its tool call (docs/formats.md §14.6)."""


class TranscriptSource(Record):
    """A line drawn from a transcript: by a writer run, or an accepted suggestion
    (docs/formats.md §20.2)."""

    kind: Literal["transcript"] = "transcript"
    workspace_id: str | None = None
    message_ids: tuple[str, ...] = ()
    drawn_from: Literal["note", "window", "trigger"] = "note"
    """`note`: the messages this line's note came from; `window`: the first and last
    message of what a model's run was shown; `trigger`: only the message that started the
    run is known (a run logged before Memtab recorded provenance)."""
    transcript_path: Annotated[str | None, OmitNone] = None
    run_id: Annotated[str | None, OmitNone] = None
    trace_dump: Annotated[str | None, OmitNone] = None
    """The file name of the run's trace dump (`debug_obj/<workspaceId>/…`), while it exists."""
    suggestion_id: Annotated[str | None, OmitNone] = None
    edited: Annotated[bool | None, OmitNone] = None


class ConsolidationSource(Record):
    """A line a consolidation run wrote: the run, the op and the op's reason
    (docs/formats.md §20.2)."""

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
    """A line xum wrote through its memory service, as xum's own undo journal tells it:
    the workspace, the tool and its call, and who called it (docs/formats.md §14.6)."""

    kind: Literal["xum-tool-call"] = "xum-tool-call"
    workspace_id: str
    op: str
    event_id: str
    tool_name: Annotated[str | None, OmitNone] = None
    tool_call_id: Annotated[str | None, OmitNone] = None
    actor: Annotated[str | None, OmitNone] = None
    """`agent` (a model's tool call) or `user` (xum's Memory tab)."""


class AdHocNote(Record):
    """An ad-hoc note of Codex's a line was drawn from (docs/formats.md §20.2): its file id,
    who wrote it and when."""

    id: str
    actor: str
    """`user` (in Memtab), `mcp:<client>`, or `codex` for a note Memtab did not write (Codex's
    `add_ad_hoc_note` tool, or the user by other means)."""
    at: int
    """When it was written: its first version in history, else its modification time."""


class AdHocNoteSource(Record):
    """A line of Codex's memory tagged `[ad-hoc note]` — Codex's mark for what its
    consolidation took from the user's notes — with the notes whose words it shares, best
    first; none when no note now there does (deleted, or reworded) (docs/formats.md §20.2)."""

    kind: Literal["codex-ad-hoc-note"] = "codex-ad-hoc-note"
    notes: tuple[AdHocNote, ...] = ()


Source = TranscriptSource | ConsolidationSource | XumToolCallSource | AdHocNoteSource


class BlameLine(Record, checked_when_built=False):  # built a line at a time
    """One line of the file: its text and who introduced it, when, in which run and
    version, and from what (docs/formats.md §20.2)."""

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
    """Every line of one file, a virtual path or another agent's file id: what `memtab
    blame --json` prints (docs/formats.md §20.2)."""

    path: str
    lines: tuple[BlameLine, ...]
