"""The loose trace-dump parser on every fixture dump, damaged files and odd shapes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from memtab.demo import MAIN_ID
from memtab.traces.describe import ERROR_LINE_MAX_CHARS, describe_event, describe_step
from memtab.traces.outcome import Outcome
from memtab.traces.reader import TraceDump, parse_trace, parse_trace_bytes, summarize_trace
from support.demo_homes import copied_demo_home
from support.trace_dumps import (
    DEMO_STARTED,
    LARGE_EVENT_COUNT,
    ODD_TYPES_STARTED,
    OLD_FORMAT_STARTED,
    fixture_dump,
    write_large_dump,
)


def write(tmp_path: Path, text: str | bytes, name: str = "dump.json") -> Path:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


# --- the demo shape ------------------------------------------------------------------------


HEADER_FIELDS = (
    "schema_version",
    "run_started_at",
    "workspace_id",
    "workspace_name",
    "trigger_message_id",
    "model_string",
    "timeout_ms",
    "timed_out",
    "did_write_memory",
    "satisfied_memory_tool_policy",
    "project_path",
    "workspace_path",
    "memory_path",
    "outcome",
    "error",
)


def header(dump: TraceDump) -> dict[str, Any]:
    """The run's scalar fields, as read."""
    return {name: getattr(dump.record, name) for name in HEADER_FIELDS}


def test_demo_dump_reads_every_header_field() -> None:
    dump = parse_trace(fixture_dump("demo"))
    assert header(dump) == {
        "schema_version": 1,
        "run_started_at": DEMO_STARTED,
        "workspace_id": MAIN_ID,
        "workspace_name": "fix-token-refresh",
        "trigger_message_id": "assistant-0001",
        "model_string": "anthropic:claude-haiku-4-5",
        "timeout_ms": 10_000,
        "timed_out": True,
        "did_write_memory": False,
        "satisfied_memory_tool_policy": False,
        "project_path": "/home/dev/src/acme-api",
        "workspace_path": "/home/dev/src/acme-api/.worktrees/fix-token-refresh",
        "memory_path": "/memories/workspace/notes.md",
        "outcome": None,
        "error": None,
    }
    assert dump.file_problem is None
    assert dump.problems == ()
    assert dump.other_fields == {}


def test_demo_dump_sections_attempts_and_tool_executions() -> None:
    dump = parse_trace(fixture_dump("demo"))
    record = dump.record
    assert record.existing_memory is not None
    assert "Always run `make check`" in record.existing_memory
    assert record.events_summary is not None
    summary = record.events_summary
    assert (summary.original_count, summary.max_json_chars) == (2, 80_000)
    assert [describe_event(event).role for event in record.events] == ["user", "assistant"]
    assert record.system_prompt and record.user_message

    (attempt,) = dump.attempts
    run = attempt.record
    assert (attempt.number, run.attempt_index) == (1, 0)
    assert (run.aborted, run.wrote, run.no_new_memories) == (True, False, False)
    assert run.error == "Timed out after 10000 ms"
    assert [m.role for m in attempt.messages] == ["user"]
    assert [describe_step(step) for step in run.step_results] == ["tool-calls"]

    read, write_call = run.tool_executions
    assert (read.tool_name, read.tool_call_id, read.failed) == ("memory_read", "toolu_01", False)
    assert read.has_output and read.output["exists"] is True
    assert (read.started_at, read.duration_ms) == (DEMO_STARTED + 1_200, 3)
    assert write_call.failed and not write_call.has_output
    assert write_call.error == "old_string matched 0 times (expected 1)"
    assert write_call.input == {"old_string": "- Always run", "new_string": "- Always run"}

    assert dump.outcome is Outcome.TIMED_OUT
    assert dump.error_line == "Timed out after 10000 ms"
    assert dump.raw_text == fixture_dump("demo").read_text(encoding="utf-8")


def test_the_demo_homes_own_dump_has_the_fixture_shape(tmp_path: Path) -> None:
    home = copied_demo_home(tmp_path / "home")
    (path,) = [p for p in home.trace_dir(MAIN_ID).glob("*.json") if parse_trace(p).outcome.failed]
    dump = parse_trace(path)
    fixture = parse_trace(fixture_dump("demo"))
    assert dump.problems == () and dump.file_problem is None
    assert (dump.outcome, dump.error_line) == (fixture.outcome, fixture.error_line)
    assert [c.tool_name for c in dump.tool_executions] == ["memory_read", "memory_write"]


# --- older, newer and odd dumps ------------------------------------------------------------


def test_old_format_lacks_the_newer_fields_without_complaint() -> None:
    dump = parse_trace(fixture_dump("old-format"))
    assert dump.problems == () and dump.file_problem is None
    assert dump.record.run_started_at == OLD_FORMAT_STARTED
    assert dump.record.satisfied_memory_tool_policy is None
    assert [a.record.no_new_memories for a in dump.attempts] == [None, None]
    assert [a.record.attempt_index for a in dump.attempts] == [1, 2]
    assert [len(a.messages) for a in dump.attempts] == [1, 2]
    assert dump.attempts[1].messages[1].text.startswith("Reminder: You MUST call memory_write")
    assert set(dump.other_fields) == {"agentDiscoveryPath", "globalAgentsMd", "contextAgentsMd"}
    assert describe_step(dump.attempts[0].record.step_results[0]).startswith("stop · 2,310 → 38")
    assert dump.outcome is Outcome.POLICY_NOT_SATISFIED
    assert dump.error_line == (
        "The model ended without calling memory_write or no_new_memories (finish reason: stop)"
    )


def test_memtab_dump_uses_its_run_level_error_and_reads_its_message_shapes() -> None:
    dump = parse_trace(fixture_dump("memtab-policy"))
    assert dump.outcome is Outcome.POLICY_NOT_SATISFIED  # attempt errors are policy notes here
    assert dump.error_line.startswith("the model ended 2 attempts without a successful")
    first = dump.attempts[0]
    assert [m.role for m in first.messages] == ["user", "assistant", "tool", "assistant"]
    assert first.messages[1].text.startswith("→ memory_write {")
    assert first.messages[2].text.startswith("← error: ")
    assert (
        describe_step(first.record.step_results[0])
        == "tool_use · tools: memory_write · 1,820 → 64 tokens"
    )
    (call,) = first.record.tool_executions
    assert call.failed and call.error is None
    assert call.problem == "old_string matched 0 times (expected 1)"
    assert set(dump.other_fields) == {"memoryFile", "memtab"}


def test_odd_types_are_coerced_where_sensible_and_noted() -> None:
    dump = parse_trace(fixture_dump("odd-types"))
    header = dump.record
    assert (header.schema_version, header.run_started_at) == (2, ODD_TYPES_STARTED)
    assert (header.timeout_ms, header.trigger_message_id) == (15_000, "1234567")
    assert (header.timed_out, header.did_write_memory, header.workspace_name) == (None, False, None)
    assert header.model_string == '["openai","gpt-5-mini"]'
    assert dump.file_problem is None
    assert set(dump.other_fields) == {"hostInfo", "futureField"}
    assert header.events_summary is None
    assert [describe_event(e).text for e in header.events] == [
        "Keep the client in sync.",
        "a bare string event",
    ]
    notes = "\n".join(dump.problems)
    for expected in (
        "`modelString` should be text but is a list of 2",
        '`timedOut` should be true or false but is the text "no"',
        '`attempts[0]` should be an object but is the text "not an attempt"',
        "`attempts[1].toolExecutions[1]` should be an object but is the number 42",
        "`attempts[1].toolExecutions[2].durationMs` should be a number but is true",
        "`events` should be a list but is an object",
        '`eventsSummary` should be an object but is the text "2 events"',
    ):
        assert expected in notes

    (attempt,) = dump.attempts  # the string entry is skipped
    assert attempt.number == 2 and attempt.record.attempt_index is None
    assert [m.text for m in attempt.messages] == ["a single plain message"]
    assert attempt.record.step_results == ({"finishReason": 7, "providerError": {"status": 529}},)
    first, pinned, cas = attempt.record.tool_executions
    assert first.started_at == 1767300001000 and first.duration_ms == 12.5
    assert first.output == "raw text output" and not first.failed
    assert pinned.failed and pinned.problem == "file is pinned"
    assert cas.error == "old_string not found"
    assert attempt.record.error == "Overloaded (529)\nretry later"
    assert dump.outcome is Outcome.PROVIDER_ERROR
    assert dump.error_line == "Overloaded (529)"


def test_a_list_saved_as_an_object_of_numbers_is_read_in_order_and_one_of_other_keys_whole(
    tmp_path: Path,
) -> None:
    attempts = {"1": {"attemptIndex": 2}, "0": {"attemptIndex": "1"}}
    events = {"0": "first", "²": "a superscript two is no index"}  # isdigit(), not a number
    text = json.dumps({"attempts": attempts, "events": events})
    dump = parse_trace(write(tmp_path, text))
    assert [(a.number, a.record.attempt_index) for a in dump.attempts] == [(1, 1), (2, 2)]
    assert dump.record.events == (events,)
    assert dump.problems == (  # in the order the fields are declared
        "`events` should be a list but is an object",
        "`attempts` should be a list but is an object",
    )


# --- damaged files -------------------------------------------------------------------------


def test_truncated_file_shows_what_could_be_recovered() -> None:
    dump = parse_trace(fixture_dump("truncated"))
    assert dump.file_problem == (
        "The file is truncated (it ends inside `attempts[0].toolExecutions[1].error`); "
        "showing what could be recovered"
    )
    full = parse_trace(fixture_dump("demo"))
    assert header(dump) == header(full)
    assert dump.record.existing_memory == full.record.existing_memory
    assert dump.record.events == full.record.events
    (attempt,) = dump.record.attempts
    assert attempt.tool_executions[0] == full.record.attempts[0].tool_executions[0]
    assert attempt.tool_executions[1].error == "old_string mat"
    assert dump.outcome is Outcome.TIMED_OUT
    assert dump.raw_text == fixture_dump("truncated").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("tail", "where"),
    [
        ('"timedOut": tru', "timedOut"),
        ('"timedOut": true,\n  "didWriteMemory": false', None),
        ('"timedOut": true,\n  "events": [\n    {"role": "us', "events[0].role"),
        ('"timedOut": true,\n  "events": [\n    {"role": "user"},\n', "events"),
    ],
)
def test_cut_points_are_reported_as_truncation(
    tmp_path: Path, tail: str, where: str | None
) -> None:
    text = '{\n  "schemaVersion": 1,\n  "runStartedAt": 1767261600000,\n  ' + tail
    dump = parse_trace(write(tmp_path, text))
    assert dump.file_problem is not None and dump.file_problem.startswith("The file is truncated")
    if where:
        assert f"`{where}" in dump.file_problem
    assert dump.record.run_started_at == 1767261600000


def test_compact_json_cut_short_is_recovered_too(tmp_path: Path) -> None:
    document = json.loads(fixture_dump("demo").read_text(encoding="utf-8"))
    compact = json.dumps(document, separators=(",", ":"))
    dump = parse_trace(write(tmp_path, compact[: compact.index('"userMessage"') + 20]))
    assert dump.file_problem is not None and "truncated" in dump.file_problem
    assert dump.record.model_string == "anthropic:claude-haiku-4-5"
    assert len(dump.record.events) == 2
    assert dump.record.user_message is not None
    assert dump.record.user_message.startswith("Upd")


def test_corruption_in_one_member_spares_the_others(tmp_path: Path) -> None:
    text = fixture_dump("demo").read_text(encoding="utf-8")
    broken = text.replace('"maxJsonChars": 80000', '"maxJsonChars": 80000 ???', 1)
    dump = parse_trace(write(tmp_path, broken))
    assert dump.file_problem is not None
    assert dump.file_problem.startswith("The file is corrupt (")
    assert "in `eventsSummary`" in dump.file_problem
    summary = dump.record.events_summary
    assert summary is not None and summary.original_count == 2
    assert len(dump.attempts) == 1 and len(dump.tool_executions) == 2
    assert dump.outcome is Outcome.TIMED_OUT


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (b"", "The file is empty"),
        (b"   \n", "The file is empty"),
        (b"[1, 2]", "The file holds a list of 2, not a dump"),
        (b"\x00\x01binary", "The file is corrupt"),
    ],
)
def test_files_with_nothing_to_show_are_unreadable(
    tmp_path: Path, content: bytes, problem: str
) -> None:
    dump = parse_trace(write(tmp_path, content))
    assert dump.outcome is Outcome.UNREADABLE
    assert dump.file_problem is not None and dump.file_problem.startswith(problem)
    summary = summarize_trace(write(tmp_path, content, "again.json"), "ws")
    assert summary.outcome is Outcome.UNREADABLE


def test_missing_file_is_a_problem_not_an_exception(tmp_path: Path) -> None:
    dump = parse_trace(tmp_path / "gone.json")
    assert dump.outcome is Outcome.UNREADABLE
    assert dump.file_problem is not None and dump.file_problem.startswith("Cannot read the file")


def test_invalid_utf8_is_replaced_and_noted(tmp_path: Path) -> None:
    raw = fixture_dump("demo").read_bytes().replace(b"fix-token-refresh", b"fix-\xff-refresh", 1)
    dump = parse_trace_bytes(raw, tmp_path / "x.json")
    assert dump.record.workspace_name == "fix-\ufffd-refresh"
    assert dump.file_problem == "Some bytes are not valid UTF-8 (shown as �)"


# --- outcomes ------------------------------------------------------------------------------


def _outcome_of(tmp_path: Path, **fields: Any) -> tuple[Outcome, str]:
    document = {"schemaVersion": 1, "runStartedAt": 1, **fields}
    dump = parse_trace(write(tmp_path, json.dumps(document, indent=2)))
    return dump.outcome, dump.error_line


@pytest.mark.parametrize(
    ("fields", "outcome", "error"),
    [
        ({"timedOut": True, "timeoutMs": 5000}, Outcome.TIMED_OUT, "Timed out after 5000 ms"),
        ({"didWriteMemory": True}, Outcome.WROTE_MEMORY, ""),
        ({"satisfiedMemoryToolPolicy": True}, Outcome.NO_NEW_MEMORIES, ""),
        ({"attempts": [{"noNewMemories": True}]}, Outcome.NO_NEW_MEMORIES, ""),
        ({"outcome": "wrote"}, Outcome.WROTE_MEMORY, ""),
        ({"attempts": [{"aborted": True, "error": "AbortError"}]}, Outcome.ABORTED, "AbortError"),
        ({"attempts": [{"error": "529 Overloaded"}]}, Outcome.PROVIDER_ERROR, "529 Overloaded"),
        (
            {"attempts": [{"finishReason": "error", "error": "HTTP 500"}]},
            Outcome.PROVIDER_ERROR,
            "HTTP 500",
        ),
        ({"error": "cannot read /memories/workspace/notes.md"}, Outcome.FAILED, "cannot read"),
        (
            {"attempts": [{"finishReason": "stop", "wrote": False}]},
            Outcome.POLICY_NOT_SATISFIED,
            "The model ended without calling memory_write or no_new_memories",
        ),
        (
            {"attempts": [{"toolExecutions": [{"toolName": "memory_write", "error": "CAS"}]}]},
            Outcome.POLICY_NOT_SATISFIED,
            "memory_write: CAS",
        ),
    ],
)
def test_outcome_and_error_line(
    tmp_path: Path, fields: dict[str, Any], outcome: Outcome, error: str
) -> None:
    got_outcome, got_error = _outcome_of(tmp_path, **fields)
    assert got_outcome is outcome
    assert got_error.startswith(error)
    assert outcome.failed is (outcome not in (Outcome.WROTE_MEMORY, Outcome.NO_NEW_MEMORIES))


def test_error_line_is_one_short_line(tmp_path: Path) -> None:
    _, error = _outcome_of(tmp_path, attempts=[{"error": "\n  first line\nsecond " + "x" * 400}])
    assert error == "first line"
    _, long_error = _outcome_of(tmp_path, attempts=[{"error": "y" * 1000}])
    assert len(long_error) == ERROR_LINE_MAX_CHARS and long_error.endswith("…")


# --- the large dump ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def large_dump(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_large_dump(tmp_path_factory.mktemp("large") / "ws" / "t" / "large.json")


def test_large_dump_parses_whole(large_dump: Path) -> None:
    assert large_dump.stat().st_size > 4_000_000
    dump = parse_trace(large_dump)
    assert dump.file_problem is None and dump.problems == ()
    assert len(dump.record.events) == LARGE_EVENT_COUNT
    assert dump.outcome is Outcome.PROVIDER_ERROR
    assert dump.error_line == "Provider returned 500 Internal Server Error"


def test_summary_of_a_large_dump_never_decodes_the_events(
    large_dump: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    decoded: list[int] = []
    real_loads = json.loads

    def measuring_loads(text: str | bytes, *args: Any, **kwargs: Any) -> Any:
        decoded.append(len(text))
        return real_loads(text, *args, **kwargs)

    monkeypatch.setattr(json, "loads", measuring_loads)
    summary = summarize_trace(large_dump, "ws")
    # Only small members were decoded (attempts holds ~150 events of prompt, not 9000).
    assert decoded and max(decoded) < large_dump.stat().st_size // 5
    monkeypatch.undo()
    full = parse_trace(large_dump)
    assert (summary.outcome, summary.error) == (full.outcome, full.error_line)
    assert summary.trigger_message_id == "assistant-9999"


def test_truncated_large_dump_summary_names_the_cut_member(
    large_dump: Path, tmp_path: Path
) -> None:
    data = large_dump.read_bytes()
    cut = write(tmp_path, data[: len(data) // 2])
    summary = summarize_trace(cut, "ws")
    assert summary.problem is not None and "inside `events`" in summary.problem
    assert summary.run_started_at is not None
    dump = parse_trace(cut)
    assert 0 < len(dump.record.events) < LARGE_EVENT_COUNT


# --- display helpers -----------------------------------------------------------------------


def test_describe_event_reads_mux_messages_normalized_events_and_junk() -> None:
    mux = {
        "role": "assistant",
        "metadata": {"historySequence": 7},
        "parts": [
            {"type": "dynamic-tool", "toolName": "bash", "output": {"success": False}},
            {"type": "text", "text": "Fixed it."},
        ],
    }
    view = describe_event(mux)
    assert (view.role, view.text, view.sequence) == ("assistant", "Fixed it.", 7)
    assert (view.tool_names, view.failed_tools) == (("bash",), 1)
    normalized = {"role": "user", "historySequence": 3, "text": "hi", "toolCalls": []}
    assert describe_event(normalized).sequence == 3
    assert describe_event(42).role == "?"
    assert describe_event(42).text == "42"


def test_describe_step_handles_any_shape() -> None:
    assert describe_step("plain") == "plain"
    assert describe_step(None) == "(empty)"
    assert describe_step({"weird": [1]}) == '{"weird":[1]}'
    step = {"finishReason": "tool-calls", "toolCalls": [{"toolName": "memory_read"}]}
    assert describe_step(step) == "tool-calls · tools: memory_read"
