"""The Traces tab's tables without Qt: the dump list (its rows, cells, tooltips and filter,
the workspaces to filter by) and an attempt's tool calls (their cells and tooltips).

The item models in `gui/traces/models.py` ask these for every cell; colours and icons stay
there, drawn from the palette at paint time.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from memtab.components.traces.texts import (
    cell_text,
    duration_text,
    outcome_label,
    tooltip_text,
)
from memtab.humanize import absolute_time, relative_time
from memtab.traces.describe import compact_json
from memtab.traces.outcome import Outcome
from memtab.traces.reader import TraceSummary
from memtab.traces.schema import ToolExecutionRecord

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


# --- the dump list --------------------------------------------------------------------------


class TraceRows:
    """Every dump as a row (newest first, as the scan gives them)."""

    def __init__(self) -> None:
        """No rows until a scan is set."""
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


# --- tool executions ------------------------------------------------------------------------


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
