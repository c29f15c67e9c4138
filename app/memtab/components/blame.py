"""Blame in the editor, without Qt: what the gutter shows beside each line and its card
(docs/formats.md §20.2), the buffer matched to the blamed lines on disk as blame matches
versions; and when the gutter blames the open file, which answer it takes, where a link leads."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Generic, TypeVar

from memtab.blame.lines import matched_lines, split_lines
from memtab.blame.records import Blame, BlameLine
from memtab.blame.service import blame_file
from memtab.components.jobs import JobContext
from memtab.file_protocol.file_ref import MemoryFileRef, SourceError
from memtab.file_protocol.memory_file import MemoryFile
from memtab.fs.clock import now_ms
from memtab.humanize import absolute_time, relative_time
from memtab.store.actors import BEFORE_MEMTAB, UNSAVED, actor_name, actor_short
from memtab.store.errors import MemoryStoreError
from memtab.store.paths import PathError


@dataclass(frozen=True)
class Link:
    """What the card can open: a trace dump (`trace`) or a run (`run`), by target."""

    kind: str
    text: str
    target: str
    workspace_id: str | None = None
    op_index: int | None = None


@dataclass(frozen=True)
class GutterEntry:
    """One buffer line's blame: the gutter's label and the card's content."""

    actor: str
    label: str  # What the gutter paints: who, in a few letters, and how long ago.
    owner: str  # Same owner, same shade: the version that introduced it (or the actor).
    title: str  # The card's first line: who.
    details: tuple[str, ...]  # The card's other lines: when, which run and op, why, which messages.
    links: tuple[Link, ...] = ()


def entries(blame: Blame, buffer_text: str, now: int) -> list[GutterEntry]:
    """The gutter's entries for the lines of `buffer_text`, from `blame` of the file on
    disk: a buffer line that is a blamed line (`matched_lines`) is that line's."""
    described = [describe(line, now) for line in blame.lines]
    unsaved = GutterEntry(UNSAVED, actor_short(UNSAVED), UNSAVED, actor_name(UNSAVED), ())
    return [
        described[index] if index is not None else unsaved
        for index in matched_lines([line.text for line in blame.lines], split_lines(buffer_text))
    ]


def describe(line: BlameLine, now: int) -> GutterEntry:
    """What the gutter and the card say of one blamed line."""
    when = f"{absolute_time(line.at)} ({relative_time(line.at, now)})"
    if line.actor == BEFORE_MEMTAB:  # `at`: the file's mtime when Memtab first saw it, or then
        details = [f"In the file before Memtab saw it, written no later than {when}"]
    else:
        details = [when]
    links: list[Link] = []
    source = line.source
    if source is not None and source.kind == "consolidation":
        by = "mux's" if source.by == "mux" else "Memtab's"
        op = f"op {source.op_index + 1}" if source.op_index is not None else "an op"
        details.append(f"{by} consolidation run {source.run_id}, {op}: {source.op or 'change'}")
        if source.reason:
            details.append(f"Why: {source.reason}")
        links.append(Link("run", "Open the run in Runs…", source.run_id, op_index=source.op_index))
    elif source is not None and source.kind == "transcript":
        if source.run_id:
            details.append(f"Writer run {source.run_id}")
        if source.suggestion_id:
            edited = " (edited before it was accepted)" if source.edited else ""
            details.append(f"Accepted suggestion {source.suggestion_id}{edited}")
        details.append(_messages_text(source.drawn_from, source.message_ids))
        if source.transcript_path:
            details.append(f"Transcript: {source.transcript_path}")
        if source.trace_dump:
            trace = Link("trace", "Open its trace dump in Traces", source.trace_dump)
            links.append(replace(trace, workspace_id=source.workspace_id))
        if source.run_id:
            links.append(Link("run", "Open the run in Runs…", source.run_id))
    elif source is not None and source.kind == "xum-tool-call":
        who = "xum's Memory tab" if source.actor == "user" else f"xum's {source.tool_name} tool"
        call = f", call {source.tool_call_id}" if source.tool_call_id else ""
        details.append(f"{who}: {source.op}{call} (workspace {source.workspace_id})")
        details.append(f"xum's undo journal, event {source.event_id}")
    elif source is not None and source.kind == "codex-ad-hoc-note":
        details.append("Tagged [ad-hoc note]: Codex's consolidation drew it from the user's notes")
        for note in source.notes:
            written = f"{actor_name(note.actor)}, {absolute_time(note.at)}"
            details.append(f"From the note {note.id} ({written})")
        if not source.notes:
            details.append("No note there now shares its words (deleted, or reworded)")
    elif line.run_id:
        details.append(f"Run {line.run_id}")
        links.append(Link("run", "Open the run in Runs…", line.run_id))
    if line.version:
        details.append(f"Version {line.version}")
    label = actor_short(line.actor)
    if line.actor != BEFORE_MEMTAB:
        label += f" {_age(line.at, now)}"
    owner = line.version or line.run_id or line.actor
    return GutterEntry(
        line.actor, label, owner, actor_name(line.actor), tuple(details), tuple(links)
    )


def _messages_text(drawn_from: str, message_ids: Sequence[str]) -> str:
    ids = ", ".join(message_ids) if message_ids else "none recorded"
    if drawn_from == "window" and message_ids:
        return f"Shown the transcript from message {message_ids[0]} to {message_ids[-1]}"
    if drawn_from == "trigger":
        return f"From the run started at message {ids}"
    return f"Drawn from transcript messages {ids}"


def _age(at: int, now: int) -> str:
    """A short age for the gutter: `now`, `5m`, `3h`, `4d`, `7w`, `2y`."""
    seconds = max(0, now - at) // 1000
    for unit, size in (("y", 365 * 86400), ("w", 7 * 86400), ("d", 86400), ("h", 3600)):
        if seconds >= size:
            return f"{seconds // size}{unit}"
    return f"{seconds // 60}m" if seconds >= 60 else "now"


Blamed = tuple[MemoryFileRef, Blame, list[GutterEntry]]
"""A file's blame and its gutter's entries for the text shown."""


def blame_text(file: MemoryFile, text: str, _ctx: JobContext) -> Blamed | str:
    """`file` blamed (`blame.service.blame_file`: history read and compared, cached per
    file and newest version), its lines matched to `text`; why not, in words, when the
    file is gone or unreadable now."""
    try:
        blame = blame_file(file)
    except (MemoryStoreError, PathError, SourceError, OSError) as error:
        return str(error)  # gone or unreadable now: the gutter says so, not a defect
    return file.ref, blame, entries(blame, text, now_ms())


def align(ref: MemoryFileRef, blame: Blame, text: str, _ctx: JobContext) -> Blamed:
    """The blame's lines matched again to `text` (typed since it was read)."""
    return ref, blame, entries(blame, text, now_ms())


NO_HISTORY = "No history"
READING = "Reading history…"
NO_BLAME = "No blame"

B = TypeVar("B")


@dataclass(frozen=True)
class Refresh:
    """A refresh: the gutter's word now (None: unchanged), and whether the open file is blamed."""

    status: str | None
    blame: bool


def cannot_blame(message: str) -> str:
    """The status bar when a blame failed."""
    return f"Cannot blame this file: {message}"


def trace_gone(name: str) -> str:
    """The status bar when a card's trace dump was pruned."""
    return f"The trace dump {name} is gone (pruned)"


class BlameFollow(Generic[B]):
    """The blame of the open file; `B` is a file's blame."""

    def __init__(self) -> None:
        self.shown = False
        self.blame: B | None = None
        self.blamed: MemoryFileRef | None = None

    def refresh(self, open_ref: MemoryFileRef | None, *, closing: bool = False) -> Refresh:
        """Blame the file `open_ref` (None: none is open) again, unless hidden or closing."""
        if not self.shown or closing:
            return Refresh(None, blame=False)
        if open_ref is None:
            self.closed()
            return Refresh(NO_HISTORY, blame=False)
        if open_ref != self.blamed:
            self.blame, self.blamed = None, open_ref
            return Refresh(READING, blame=True)
        return Refresh(None, blame=True)

    def closed(self) -> None:
        """The open file was closed."""
        self.blame, self.blamed = None, None

    def answered(self, ref: MemoryFileRef, blame: B, open_ref: MemoryFileRef | None) -> bool:
        """A blame of `ref` came, `open_ref` open now: whether the gutter shows it."""
        if not self.shown or open_ref is None or open_ref != ref:
            return False
        self.blame, self.blamed = blame, ref
        return True

    def realigns(self) -> bool:
        """The text changed: whether its lines are matched again (after a pause)."""
        return self.shown and self.blame is not None

    def to_realign(self, *, closing: bool = False) -> tuple[MemoryFileRef, B] | None:
        """The file and blame the lines are matched against now (None: nothing to do)."""
        if self.blame is None or self.blamed is None or closing:
            return None
        return self.blamed, self.blame
