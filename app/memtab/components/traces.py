"""The Traces tab's words, rows and rules, without Qt (`gui/traces/` keeps the list, its
models, the filters and the job client): a dump's texts and header, the dump list's and tool
calls' rows and filter, which dump is read and shown, and the jobs that list and read them."""

from __future__ import annotations

import enum
import os
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

from memtab.components import glossary
from memtab.components.activity.change_batch import ChangeBatch
from memtab.humanize import absolute_time, plural, relative_time, size_text
from memtab.store.home import PathKind
from memtab.store.sidecars.registry import MULTI_PROJECT_KEY
from memtab.traces.describe import (
    compact_json,
    describe_event,
    describe_step,
    first_line,
    format_json,
)
from memtab.traces.outcome import Outcome
from memtab.traces.reader import TraceAttempt, TraceDump, TraceMessage, TraceSummary
from memtab.traces.schema import CONSOLIDATION_KIND, ToolExecutionRecord

CELL_MAX_CHARS = 160
TOOLTIP_MAX_CHARS = 1500


@dataclass(frozen=True)
class Preview:
    """How one item shows in a preview table: its cells, and whether it is a failure."""

    cells: tuple[str, ...]
    failed: bool = False


def outcome_label(outcome: Outcome) -> str:
    """`Timed out`, `Policy not satisfied`, ... (sentence case for the UI)."""
    return outcome.value[:1].upper() + outcome.value[1:]


def cell_text(text: str) -> str:
    """The first non-empty line of `text`, shortened for a table cell."""
    return first_line(text, CELL_MAX_CHARS)


def tooltip_text(text: str, limit: int = TOOLTIP_MAX_CHARS) -> str:
    """`text`, cut to `limit` characters with an ellipsis."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def duration_text(duration_ms: float | None) -> str:
    """`3 ms`, `1.2 s`, `2 min 5 s`; "" when unknown."""
    if duration_ms is None:
        return ""
    if duration_ms < 1000:
        return f"{duration_ms:.0f} ms" if duration_ms >= 1 else f"{duration_ms:.1f} ms"
    seconds = duration_ms / 1000
    return f"{seconds:.1f} s" if seconds < 60 else f"{int(seconds // 60)} min {int(seconds % 60)} s"


def timeout_text(timeout_ms: int | None) -> str:
    """`1.2 s (1,200 ms)`; "—" when not recorded."""
    return "—" if timeout_ms is None else f"{duration_text(timeout_ms)} ({timeout_ms:,} ms)"


def count_text(total: int, shown: int) -> str:
    """`12 dumps`, or `3 of 12 dumps` while a filter hides some."""
    text = plural(total, "dump")
    return text if shown == total else f"{shown} of {text}"


def event_preview(row: int, event: Any) -> Preview:
    """An event's row: its number, role, first line and the tools it called."""
    view = describe_event(event)
    number = str(view.sequence) if view.sequence is not None else str(row + 1)
    tools = ""
    if view.tool_names:
        counts = Counter(view.tool_names)  # in the order first called
        tools = ", ".join(f"{name} ×{n}" if n > 1 else name for name, n in counts.items())
        if view.failed_tools:
            tools += f" ({view.failed_tools} failed)"
    text = cell_text(view.text) or ("(tool calls only)" if view.tool_names else "(no text)")
    return Preview((number, view.role, text, tools), failed=view.failed_tools > 0)


def events_summary_text(dump: TraceDump) -> str:
    """How many events were sent to the model, of how many, within what budget."""
    summary = dump.record.events_summary
    sent = plural(len(dump.record.events), "event")
    if summary is None:
        return f"{sent} in this dump."
    facts = [f"{sent} sent to the model"]
    if summary.original_count is not None:
        facts[0] += f", of {summary.original_count:,} in the transcript"
    if summary.max_json_chars is not None:
        facts.append(f"budget {summary.max_json_chars:,} characters of JSON")
    return " · ".join(facts) + "."


def prompt_sections(dump: TraceDump) -> list[tuple[str, str]]:
    """(name, text) of the system prompt, the user message and every other field."""
    others = [(key, "" if v is None else format_json(v)) for key, v in dump.other_fields.items()]
    record = dump.record
    return [
        ("System prompt", record.system_prompt or ""),
        ("User message", record.user_message or ""),
        *others,
    ]


def prompt_section_preview(_row: int, section: tuple[str, str]) -> Preview:
    """A prompt section's row: its name, size and start."""
    return Preview((section[0], size_text(len(section[1])), cell_text(section[1])))


def prompt_section_text(section: tuple[str, str]) -> str:
    """A prompt section in full."""
    return section[1]


def attempt_status(attempt: TraceAttempt) -> str:
    """`finish reason: stop · wrote memory`; "" when nothing is known."""
    record = attempt.record
    parts = [f"finish reason: {record.finish_reason}"] if record.finish_reason else []
    aborted = record.aborted and record.finish_reason != "aborted"
    flags = (("wrote memory", record.wrote), ("no new memories", record.no_new_memories))
    parts += [word for word, on in (*flags, ("aborted", aborted)) if on]
    return " · ".join(parts)


def execution_detail(execution: ToolExecutionRecord) -> str:
    """A tool call in full: who, when, how long, its input and its error or output."""
    facts = [execution.name]
    if execution.tool_call_id:
        facts.append(f"call {execution.tool_call_id}")
    if execution.duration_ms is not None:
        facts.append(f"took {duration_text(execution.duration_ms)}")
    if execution.started_at is not None:
        facts.append(f"started {absolute_time(execution.started_at)}")
    sections = [" · ".join(facts), "", "Input", format_json(execution.input)]
    if execution.error is not None:
        sections += ["", "Error", execution.error]
    if execution.has_output:
        sections += ["", "Output", format_json(execution.output)]
    return "\n".join(sections)


def message_preview(row: int, message: TraceMessage) -> Preview:
    """A message's row: its number, role and first line."""
    return Preview((str(row + 1), message.role, cell_text(message.text) or "(empty)"))


def message_text(message: TraceMessage) -> str:
    """A message in full."""
    return message.text


def step_preview(row: int, step: Any) -> Preview:
    """A step result's row: its number and what it says."""
    return Preview((str(row + 1), describe_step(step)))


def first_failed(calls: Sequence[ToolExecutionRecord]) -> int:
    """The row of the first failed call (0 when none failed): the one to show first."""
    return next((row for row, call in enumerate(calls) if call.failed), 0)


MAX_LISTED_PROBLEMS = 6

FIELDS = (
    ("workspace", "Workspace"),
    ("model", "Model"),
    ("timeout", "Timeout"),
    ("trigger", "Trigger message"),
    ("timed_out", "Timed out"),
    ("wrote_memory", "Wrote memory"),
    ("policy", "Policy satisfied"),
    ("attempts", "Attempts"),
)
"""The short fields, (key, name), two pairs a row where the header has the room."""
FIELD_TIPS = {"policy": glossary.POLICY_SATISFIED}
WIDE_FIELDS = (
    ("project", "Project"),
    ("workspace_path", "Workspace path"),
    ("memory_path", "Memory path"),
    ("file", "File"),
)
"""The fields each a row of their own, (key, name)."""


@dataclass(frozen=True)
class FieldValue:
    """A field's text, and whether it is a bad sign."""

    text: str
    bad: bool = False


@dataclass(frozen=True)
class DumpHeader:
    """Everything the header of one dump says."""

    title: str
    subtitle: str
    error: str
    notes: str
    fields: dict[str, FieldValue]


def _flag(value: bool | None, *, bad: bool | None, unknown: str = "—") -> FieldValue:
    text = unknown if value is None else ("Yes" if value else "No")
    return FieldValue(text, value is not None and value == bad)


def problem_notes(dump: TraceDump) -> str:
    """What the reader could not read of the file, its fields' unexpected values listed
    (the first MAX_LISTED_PROBLEMS); "" when nothing."""
    notes = [dump.file_problem] if dump.file_problem else []
    if dump.problems:
        listed = [f"• {problem}" for problem in dump.problems[:MAX_LISTED_PROBLEMS]]
        hidden = len(dump.problems) - len(listed)
        if hidden > 0:
            listed.append(f"• …and {hidden} more")
        notes.append(f"{plural(len(dump.problems), 'field')} had unexpected values:")
        notes.extend(listed)
    return "\n".join(notes)


def dump_header(dump: TraceDump, workspace_label: str) -> DumpHeader:
    """The header of `dump` (`workspace_label`: how to name its workspace)."""
    header = dump.record
    when = header.run_started_at
    facts = [f"{relative_time(when)} ({absolute_time(when)})"] if when else []
    facts.append(size_text(dump.size_bytes))
    if header.schema_version is not None:
        facts.append(f"schema {header.schema_version}")
    calls = dump.tool_executions
    failed_calls = sum(1 for call in calls if call.failed)
    attempts = f"{len(dump.attempts)} · {plural(len(calls), 'tool call')}"
    if failed_calls:
        attempts += f" ({failed_calls} failed)"
    project = header.project_path or "—"
    if project == MULTI_PROJECT_KEY:
        project = "several projects (multi-project workspace)"
    fields = {
        "workspace": FieldValue(f"{workspace_label} ({dump.workspace_id})"),
        "model": FieldValue(header.model_string or "—"),
        "timeout": FieldValue(timeout_text(header.timeout_ms)),
        "trigger": FieldValue(_trigger(dump)),
        "timed_out": _flag(header.timed_out, bad=True),
        "wrote_memory": _flag(header.did_write_memory, bad=None),
        "policy": (
            FieldValue("— (a writer's)")  # a consolidation has no tool policy to satisfy
            if header.kind == CONSOLIDATION_KIND
            else _flag(
                header.satisfied_memory_tool_policy, bad=False, unknown="not recorded (older dump)"
            )
        ),
        "attempts": FieldValue(attempts),
        "project": FieldValue(project),
        "workspace_path": FieldValue(header.workspace_path or "—"),
        "memory_path": FieldValue(header.memory_path or "—"),
        "file": FieldValue(str(dump.path)),
    }
    consolidation = "Consolidation · " if header.kind == CONSOLIDATION_KIND else ""
    title = f"{consolidation}{outcome_label(dump.outcome)} · {workspace_label}"
    return DumpHeader(title, " · ".join(facts), dump.error_line, problem_notes(dump), fields)


def _trigger(dump: TraceDump) -> str:
    """What started the run: a writer's trigger message, a consolidation's trigger and run."""
    header = dump.record
    if header.kind == CONSOLIDATION_KIND and header.trigger:
        return f"{header.trigger} (run {header.run_id or header.trigger_message_id or '—'})"
    return header.trigger_message_id or "—"


def attempt_tab_title(number: int) -> str:
    """An attempt's tab: `Attempt 2`."""
    return f"Attempt {number}"


def events_tab_title(dump: TraceDump) -> str:
    """The events' tab: `Events (12)`."""
    return f"Events ({len(dump.record.events)})"


ALL_WORKSPACES = "All workspaces"


class TraceColumn:
    """The dump list's columns."""

    TIME, WORKSPACE, OUTCOME, ERROR = range(4)
    HEADERS = ("Time", "Workspace", "Outcome", "Error")


class ExecutionColumn:
    """The tool calls' columns."""

    TOOL, INPUT, RESULT, DURATION, STARTED = range(5)
    HEADERS = ("Tool", "Input", "Output or error", "Duration", "Started")


def same_path(first: Path | str, second: Path | str) -> bool:
    """Whether two spellings name the same dump."""
    return os.path.abspath(first) == os.path.abspath(second)


class TraceRows:
    """Every dump as a row (newest first, as the scan gives them)."""

    def __init__(self) -> None:
        self._rows: list[TraceSummary] = []

    def set(self, summaries: Sequence[TraceSummary]) -> None:
        """Take a new scan's dumps."""
        self._rows = list(summaries)

    def summaries(self) -> list[TraceSummary]:
        """The rows, in order."""
        return list(self._rows)

    def __len__(self) -> int:
        return len(self._rows)

    def at(self, row: int) -> TraceSummary | None:
        """The dump at `row`, or None."""
        return self._rows[row] if 0 <= row < len(self._rows) else None

    def row_of(self, path: Path) -> int | None:
        """The row of the dump at `path`, or None."""
        wanted = str(path)
        return next((row for row, s in enumerate(self._rows) if str(s.path) == wanted), None)


def trace_cell(summary: TraceSummary, column: int) -> str:
    """What a dump's row shows in `column`."""
    if column == TraceColumn.TIME:
        return relative_time(summary.run_started_at)
    if column == TraceColumn.WORKSPACE:
        return summary.display_workspace
    if column == TraceColumn.OUTCOME:
        return outcome_label(summary.outcome)
    return cell_text(summary.error or summary.problem or "")


def trace_tooltip(summary: TraceSummary, column: int) -> str:
    """A dump's row's tooltip in `column`: the whole of what the cell shortens."""
    if column == TraceColumn.TIME:
        return absolute_time(summary.run_started_at)
    if column == TraceColumn.WORKSPACE:
        return f"{summary.display_workspace} ({summary.workspace_id})"
    if column == TraceColumn.ERROR:
        return "\n".join(text for text in (summary.error, summary.problem) if text)
    return str(summary.path)


@dataclass(frozen=True)
class TraceFilter:
    """The rows of one workspace and/or one outcome (None: any)."""

    workspace_id: str | None = None
    outcome: Outcome | None = None

    def accepts(self, summary: TraceSummary) -> bool:
        """Whether `summary`'s row is shown."""
        if self.workspace_id is not None and summary.workspace_id != self.workspace_id:
            return False
        return self.outcome is None or summary.outcome is self.outcome


def outcome_of(value: object) -> Outcome | None:
    """The outcome a filter's choice holds (its value; None or "" for any)."""
    return Outcome(value) if isinstance(value, str) and value else None


def outcome_choices() -> list[tuple[Outcome, str]]:
    """Each outcome with its label, in the order the filter lists them."""
    return [(outcome, outcome_label(outcome)) for outcome in Outcome]


def workspace_choices(
    summaries: Iterable[TraceSummary], current: str | None
) -> list[tuple[str, str]]:
    """(id, name) of each workspace with a dump, by name; the chosen `current` stays
    listed (by its id) even once its dumps were all pruned."""
    names: dict[str, str] = {}
    for summary in summaries:
        names.setdefault(summary.workspace_id, summary.display_workspace)
    choices = sorted(names.items(), key=lambda item: item[1].lower())
    if current is not None and current not in names:
        choices.append((current, current))
    return choices


class Reopen(Enum):
    """What a new scan's row of the dump shown asks of the detail."""

    NOTHING = "nothing"
    ADOPT = "adopt"  # opened before the scan saw it: the same file, now listed
    REOPEN = "reopen"  # rewritten on disk since it was opened


def reopen_after_scan(shown: TraceSummary | None, listed: TraceSummary) -> Reopen:
    """Whether the dump shown must be read again now a scan lists `listed`."""
    if shown is None or not same_path(shown.path, listed.path):
        return Reopen.NOTHING
    if shown.modified_at_ms is None and shown.size_bytes == listed.size_bytes:
        return Reopen.ADOPT
    if (shown.size_bytes, shown.modified_at_ms) != (listed.size_bytes, listed.modified_at_ms):
        return Reopen.REOPEN
    return Reopen.NOTHING


def execution_cell(execution: ToolExecutionRecord, column: int, run_started_at: int | None) -> str:
    """What a tool call's row shows in `column` (start times as offsets from the run's)."""
    if column == ExecutionColumn.TOOL:
        return execution.name
    if column == ExecutionColumn.INPUT:
        return cell_text(compact_json(execution.input))
    if column == ExecutionColumn.RESULT:
        if execution.failed:
            return cell_text(execution.problem or "")
        return cell_text(compact_json(execution.output)) if execution.has_output else ""
    if column == ExecutionColumn.DURATION:
        return duration_text(execution.duration_ms)
    if execution.started_at is None:
        return ""
    if run_started_at is None:
        return absolute_time(execution.started_at)
    return f"+{duration_text(execution.started_at - run_started_at)}"


def execution_tooltip(execution: ToolExecutionRecord, column: int) -> str | None:
    """A tool call's row's tooltip in `column` (None: none)."""
    if column == ExecutionColumn.TOOL and execution.tool_call_id:
        return f"{execution.name} (call {execution.tool_call_id})"
    if column == ExecutionColumn.INPUT:
        return tooltip_text(compact_json(execution.input))
    if column == ExecutionColumn.RESULT:
        if execution.failed:
            return tooltip_text(execution.problem or "")
        return tooltip_text(compact_json(execution.output))
    if column == ExecutionColumn.STARTED and execution.started_at is not None:
        return absolute_time(execution.started_at)
    return None


DUMP_GONE = "The dump you were looking at was deleted (the writer prunes old dumps)."


def cannot_open(message: str) -> str:
    return f"Could not open this dump: {message}"


def cannot_list(message: str) -> str:
    return f"Could not list the trace dumps: {message}"


def rescans(batch: ChangeBatch) -> bool:
    """Whether `batch` changes the list: a dump, or the registry (workspaces' names)."""
    return batch.affects(PathKind.WRITER_TRACES) or batch.affects(PathKind.CONFIG)


class AfterScan(enum.Enum):
    """What a scan landed selects."""

    ASKED = "asked"  # The dump asked for, filters cleared (`asked`).
    KEPT = "kept"  # The dump selected before, if the filters still show it (else `lost`).
    NEWEST = "newest"  # The first row, to start.
    NOTHING = "nothing"


class TraceOpening:
    """The dump shown, read and asked for."""

    def __init__(self) -> None:
        self.shown: TraceSummary | None = None  # What the detail pane was filled from.
        self.reading: Path | None = None
        self.asked: Path | None = None

    def selected(self, path: Path) -> bool:
        """The selection moved to `path`: whether it is read."""
        if self.shown is not None and same_path(self.shown.path, path):
            return False
        return self.reading is None or not same_path(self.reading, path)

    def read(self, path: Path) -> None:
        """`path` is being read."""
        self.reading = path

    def ask(self, path: Path) -> None:
        """`path` was asked for before the list held it: selected after the next scan."""
        self.asked = path

    def landed(self, listed: TraceSummary | None, read: TraceSummary) -> TraceSummary:
        """A dump was read (`read`: its own summary; `listed`: its row, if listed): what the
        detail shows it as."""
        self.reading = None
        self.shown = listed or read
        return self.shown

    def after_scan(self, selected: Path | None, *, rows: int) -> tuple[AfterScan, Path | None]:
        """A scan of `rows` landed, `selected` selected before: what to select."""
        asked, self.asked = self.asked, None
        if asked is not None:
            return AfterScan.ASKED, asked
        if selected is not None:
            return AfterScan.KEPT, selected
        if rows and self.shown is None and self.reading is None:
            return AfterScan.NEWEST, None
        return AfterScan.NOTHING, None

    def lost(self) -> str:
        """The dump selected is no longer listed: what the detail says."""
        self.shown = None
        return DUMP_GONE

    def listed(self, row: TraceSummary) -> bool:
        """The row of a dump selected in a new scan: whether it is read again."""
        reopen = reopen_after_scan(self.shown, row)
        if reopen is Reopen.ADOPT:
            self.shown = row
        return reopen is Reopen.REOPEN
