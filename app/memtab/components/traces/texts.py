"""What the Traces tab says of a dump's parts: outcomes, durations, cells, and a preview
row (its cells) for each event, message, step result and prompt section."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from memtab.humanize import absolute_time, plural, size_text
from memtab.traces.describe import describe_event, describe_step, first_line, format_json
from memtab.traces.outcome import Outcome
from memtab.traces.reader import TraceAttempt, TraceDump, TraceMessage
from memtab.traces.schema import ToolExecutionRecord

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
    if seconds < 60:
        return f"{seconds:.1f} s"
    return f"{int(seconds // 60)} min {int(seconds % 60)} s"


def timeout_text(timeout_ms: int | None) -> str:
    """`1.2 s (1,200 ms)`; "—" when not recorded."""
    if timeout_ms is None:
        return "—"
    return f"{duration_text(timeout_ms)} ({timeout_ms:,} ms)"


def count_text(total: int, shown: int) -> str:
    """`12 dumps`, or `3 of 12 dumps` while a filter hides some."""
    text = plural(total, "dump")
    return text if shown == total else f"{shown} of {text}"


# --- the detail's previews ------------------------------------------------------------------


def event_preview(row: int, event: Any) -> Preview:
    """An event's row: its number, role, first line and the tools it called."""
    view = describe_event(event)
    number = str(view.sequence) if view.sequence is not None else str(row + 1)
    tools = ""
    if view.tool_names:
        counts: dict[str, int] = {}
        for name in view.tool_names:
            counts[name] = counts.get(name, 0) + 1
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
    sections = [
        ("System prompt", dump.record.system_prompt or ""),
        ("User message", dump.record.user_message or ""),
    ]
    for key, value in dump.other_fields.items():
        sections.append((key, "" if value is None else format_json(value)))
    return sections


def prompt_section_preview(_row: int, section: tuple[str, str]) -> Preview:
    """A prompt section's row: its name, size and start."""
    return Preview((section[0], size_text(len(section[1])), cell_text(section[1])))


def prompt_section_text(section: tuple[str, str]) -> str:
    """A prompt section in full."""
    return section[1]


def attempt_status(attempt: TraceAttempt) -> str:
    """`finish reason: stop · wrote memory`; "" when nothing is known."""
    parts: list[str] = []
    record = attempt.record
    if record.finish_reason:
        parts.append(f"finish reason: {record.finish_reason}")
    if record.wrote:
        parts.append("wrote memory")
    if record.no_new_memories:
        parts.append("no new memories")
    if record.aborted and record.finish_reason != "aborted":
        parts.append("aborted")
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
