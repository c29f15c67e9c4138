"""The Traces tab's words and rules without Qt: a dump's header and fields, the tool calls'
cells, the dump list's filter and workspaces, and when a rescan reopens the dump shown."""

from __future__ import annotations

import json
from pathlib import Path

from memtab.components.traces import (
    ExecutionColumn,
    FieldValue,
    Reopen,
    TraceColumn,
    TraceFilter,
    TraceRows,
    count_text,
    dump_header,
    duration_text,
    event_preview,
    execution_cell,
    execution_detail,
    execution_tooltip,
    first_failed,
    outcome_label,
    outcome_of,
    problem_notes,
    reopen_after_scan,
    timeout_text,
    tooltip_text,
    trace_cell,
    trace_tooltip,
    workspace_choices,
)
from memtab.store.sidecars.registry import MULTI_PROJECT_KEY
from memtab.traces.outcome import Outcome
from memtab.traces.reader import TraceSummary, parse_trace, parse_trace_bytes
from support.trace_dumps import DEMO_STARTED, fixture_dump


def _summary(path: str, workspace: str, outcome: Outcome, **fields: object) -> TraceSummary:
    values: dict[str, object] = {
        "path": Path(path),
        "workspace_id": workspace,
        "workspace_name": None,
        "run_started_at": DEMO_STARTED,
        "trigger_message_id": None,
        "model_string": None,
        "outcome": outcome,
        "error": "",
        "problem": None,
        "size_bytes": 100,
        "modified_at_ms": 5,
    }
    values.update(fields)
    return TraceSummary(**values)  # type: ignore[arg-type]


def test_the_header_of_a_timed_out_dump_says_what_went_wrong() -> None:
    dump = parse_trace(fixture_dump("demo"))
    header = dump_header(dump, "Fix the token refresh race")
    assert header.title == "Timed out · Fix the token refresh race"
    assert header.error == "Timed out after 10000 ms"
    assert header.notes == ""
    assert header.fields["timeout"] == FieldValue("10.0 s (10,000 ms)")
    assert header.fields["timed_out"] == FieldValue("Yes", bad=True)
    assert header.fields["policy"] == FieldValue("No", bad=True)
    assert header.fields["wrote_memory"] == FieldValue("No")
    assert header.fields["attempts"] == FieldValue("1 · 2 tool calls (1 failed)")
    assert header.fields["file"] == FieldValue(str(fixture_dump("demo")))
    assert header.subtitle.endswith(" · 5.1 KiB · schema 1")


def test_an_older_dump_does_not_say_its_policy_and_a_multi_project_one_says_so(
    tmp_path: Path,
) -> None:
    document = json.loads(fixture_dump("demo").read_text(encoding="utf-8"))
    document.pop("satisfiedMemoryToolPolicy", None)
    document["projectPath"] = MULTI_PROJECT_KEY
    dump = parse_trace_bytes(json.dumps(document).encode(), tmp_path / "old.json")
    header = dump_header(dump, "w")
    assert header.fields["policy"] == FieldValue("not recorded (older dump)")
    assert header.fields["project"] == FieldValue("several projects (multi-project workspace)")


def test_the_problems_of_a_dump_are_listed_six_at_most() -> None:
    lines = problem_notes(parse_trace(fixture_dump("odd-types"))).splitlines()
    assert lines[0] == "11 fields had unexpected values:"
    assert len(lines) == 8 and lines[-1] == "• …and 5 more"
    assert problem_notes(parse_trace(fixture_dump("demo"))) == ""


def test_durations_timeouts_and_counts_read_as_words() -> None:
    assert [duration_text(ms) for ms in (None, 0.25, 3, 1200, 125_000)] == [
        "",
        "0.2 ms",
        "3 ms",
        "1.2 s",
        "2 min 5 s",
    ]
    assert timeout_text(None) == "—"
    assert timeout_text(10_000) == "10.0 s (10,000 ms)"
    assert count_text(4, 4) == "4 dumps"
    assert count_text(4, 2) == "2 of 4 dumps"
    assert outcome_label(Outcome.POLICY_NOT_SATISFIED) == "Policy not satisfied"
    assert tooltip_text("x" * 2000).endswith("…") and len(tooltip_text("x" * 2000)) == 1500


def test_a_tool_call_shows_its_error_and_starts_as_an_offset_of_the_run() -> None:
    dump = parse_trace(fixture_dump("demo"))
    calls = dump.attempts[0].record.tool_executions
    started = dump.record.run_started_at
    read, write = calls
    assert execution_cell(read, ExecutionColumn.TOOL, started) == "memory_read"
    assert execution_cell(read, ExecutionColumn.INPUT, started) == "{}"
    assert execution_cell(read, ExecutionColumn.DURATION, started) == "3 ms"
    assert execution_cell(read, ExecutionColumn.STARTED, started) == "+1.2 s"
    assert execution_cell(write, ExecutionColumn.RESULT, started) == (
        "old_string matched 0 times (expected 1)"
    )
    assert execution_tooltip(write, ExecutionColumn.DURATION) is None
    assert first_failed(calls) == 1
    assert "Error\nold_string matched 0 times (expected 1)" in execution_detail(write)


def test_an_event_row_counts_its_tools_and_marks_failures() -> None:
    event = {
        "historySequence": 7,
        "role": "assistant",
        "text": "",
        "toolCalls": [
            {"toolName": "bash", "output": {"success": True}},
            {"toolName": "bash", "output": {"success": False, "error": "boom"}},
            {"toolName": "memory_read"},
        ],
    }
    preview = event_preview(0, event)
    assert preview.cells[0] == "7"
    assert preview.cells[2] == "(tool calls only)"
    assert preview.cells[3].startswith("bash ×2, memory_read")


def test_the_list_filters_by_workspace_and_outcome_and_keeps_a_chosen_workspace() -> None:
    a = _summary("/t/a.json", "w1", Outcome.TIMED_OUT, workspace_name="Zeta")
    b = _summary("/t/b.json", "w2", Outcome.FAILED, workspace_name="alpha")
    rows = TraceRows()
    rows.set([a, b])
    assert rows.row_of(Path("/t/b.json")) == 1 and rows.at(5) is None
    assert [s for s in rows.summaries() if TraceFilter("w1").accepts(s)] == [a]
    assert [s for s in rows.summaries() if TraceFilter(None, Outcome.FAILED).accepts(s)] == [b]
    assert workspace_choices([a, b], None) == [("w2", "alpha"), ("w1", "Zeta")]
    assert workspace_choices([a], "gone") == [("w1", "Zeta"), ("gone", "gone")]
    assert outcome_of("timed out") is Outcome.TIMED_OUT and outcome_of(None) is None
    assert trace_cell(a, TraceColumn.WORKSPACE) == "Zeta"
    assert trace_tooltip(a, TraceColumn.WORKSPACE) == "Zeta (w1)"


def test_a_rescan_reopens_the_dump_shown_only_when_it_changed_on_disk() -> None:
    listed = _summary("/t/a.json", "w", Outcome.FAILED, size_bytes=10, modified_at_ms=5)
    assert reopen_after_scan(None, listed) is Reopen.NOTHING
    assert reopen_after_scan(listed, listed) is Reopen.NOTHING
    opened_early = _summary("/t/a.json", "w", Outcome.FAILED, size_bytes=10, modified_at_ms=None)
    assert reopen_after_scan(opened_early, listed) is Reopen.ADOPT
    rewritten = _summary("/t/a.json", "w", Outcome.FAILED, size_bytes=12, modified_at_ms=9)
    assert reopen_after_scan(listed, rewritten) is Reopen.REOPEN
    other = _summary("/t/b.json", "w", Outcome.FAILED, size_bytes=12)
    assert reopen_after_scan(listed, other) is Reopen.NOTHING
