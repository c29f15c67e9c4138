"""A dump's header as the detail shows it, without Qt: its title, the facts under it, the
error, the notes on what it could not read, and each field's value (with whether it is a
bad sign, drawn in the error colour)."""

from __future__ import annotations

from dataclasses import dataclass

from memtab.components import glossary
from memtab.components.traces.texts import outcome_label, timeout_text
from memtab.humanize import absolute_time, plural, relative_time, size_text
from memtab.store.sidecars.registry import MULTI_PROJECT_KEY
from memtab.traces.reader import TraceDump
from memtab.traces.schema import CONSOLIDATION_KIND

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
    return DumpHeader(
        title=f"{consolidation}{outcome_label(dump.outcome)} · {workspace_label}",
        subtitle=" · ".join(facts),
        error=dump.error_line,
        notes=problem_notes(dump),
        fields=fields,
    )


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
