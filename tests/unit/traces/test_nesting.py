"""Deeply nested JSON in a dump is a partial dump with a reason, never a RecursionError."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from memtab.demo import MAIN_ID
from memtab.fs.jsonfile import MAX_DEPTH
from memtab.traces.catalog import list_traces
from memtab.traces.describe import (
    TOO_DEEP_TO_SHOW,
    compact_json,
    describe_event,
    describe_step,
    format_json,
)
from memtab.traces.outcome import Outcome
from memtab.traces.reader import parse_trace, summarize_trace
from support.demo_homes import copied_demo_home
from support.trace_dumps import fixture_dump, install_dump

DEPTH = 100_000  # far beyond Python's recursion limit of 1,000
TOO_DEEP = "The file is nested too deeply to read"


def deep_array(depth: int = DEPTH) -> str:
    return "[" * depth + "]" * depth


def nested_list(depth: int) -> list[Any]:
    value: list[Any] = []
    for _ in range(depth):
        value = [value]
    return value


def nesting(value: list[Any]) -> int:
    """How many lists nest in `value`, following first items."""
    depth = 0
    while isinstance(value, list):
        depth, value = depth + 1, value[0] if value else None
    return depth


def demo_with(member: str, raw_value: str) -> str:
    """The demo dump, pretty-printed, with one member's value replaced by raw JSON text."""
    document = json.loads(fixture_dump("demo").read_text(encoding="utf-8"))
    document[member] = "@@"
    return json.dumps(document, indent=2).replace('"@@"', raw_value)


def write(tmp_path: Path, text: str, name: str = "1767261600000_deep.json") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_deep_member_is_left_out_and_the_rest_shown(tmp_path: Path) -> None:
    dump = parse_trace(write(tmp_path, demo_with("events", deep_array())))
    assert dump.file_problem is not None
    assert dump.file_problem.startswith(f"{TOO_DEEP} (in `events[0][0][0][0][0]…`)")
    assert dump.record.model_string == "anthropic:claude-haiku-4-5"
    assert dump.record.existing_memory is not None
    assert len(dump.tool_executions) == 2
    assert dump.outcome is Outcome.TIMED_OUT
    assert [describe_event(event).role for event in dump.record.events] == ["?"]
    # The summary does not decode `events`: it lists the dump as it would any other.
    assert summarize_trace(dump.path, MAIN_ID).outcome is Outcome.TIMED_OUT


def test_a_deep_attempt_is_reported_in_the_list(tmp_path: Path) -> None:
    home = copied_demo_home(tmp_path / "home")
    deep = install_dump(
        home, MAIN_ID, write(tmp_path, demo_with("attempts", deep_array())), "1_d.json"
    )
    (summary,) = [s for s in list_traces(home) if s.path == deep]
    assert summary.problem is not None and summary.problem.startswith(TOO_DEEP)
    assert summary.outcome is Outcome.TIMED_OUT  # the header was read
    assert summary.to_json()["problem"] == summary.problem
    assert parse_trace(deep).record.attempts == ()


def test_compact_json_keeps_the_members_before_the_deep_one(tmp_path: Path) -> None:
    text = '{"schemaVersion":1,"runStartedAt":1767261600000,"timedOut":true,"events":'
    text += deep_array() + ',"modelString":"lost after the damage"}'
    path = write(tmp_path, text)
    for problem, record in (
        (parse_trace(path).file_problem, parse_trace(path).record),
        (summarize_trace(path, "ws").problem, None),
    ):
        assert problem is not None and problem.startswith(TOO_DEEP)
        if record is not None:
            assert (record.schema_version, record.run_started_at) == (1, 1767261600000)
            assert record.model_string is None
    assert summarize_trace(path, "ws").outcome is Outcome.TIMED_OUT


def test_recovery_keeps_to_the_nesting_cap_the_decoder_could_exceed(tmp_path: Path) -> None:
    depth = MAX_DEPTH + 50  # Python's decoder reads it; parse_json refuses it
    text = '{"schemaVersion":1,"events":' + deep_array(depth) + ',"modelString":"m"}'
    dump = parse_trace(write(tmp_path, text))
    assert dump.file_problem is not None and dump.file_problem.startswith(TOO_DEEP)
    assert dump.record.schema_version == 1
    assert dump.record.model_string is None  # after the damage
    assert nesting(list(dump.record.events)) <= MAX_DEPTH


@pytest.mark.parametrize(
    ("text", "outcome", "where"),
    [
        (deep_array(), Outcome.UNREADABLE, "[0][0][0][0][0][0]…"),
        ("[" * DEPTH, Outcome.UNREADABLE, "[0][0][0][0][0][0]…"),  # and cut short
        ('{"events": ' + '{"a": ' * DEPTH, Outcome.FAILED, "events.a.a.a.a.a…"),
        ("{\n  " + '"events": ' + "[" * DEPTH, Outcome.FAILED, "events[0][0][0][0][0]…"),
    ],
    ids=["array", "truncated array", "truncated objects", "truncated pretty member"],
)
def test_files_that_are_only_deep_nesting_say_so(
    tmp_path: Path, text: str, outcome: Outcome, where: str
) -> None:
    dump = parse_trace(write(tmp_path, text))
    assert dump.file_problem is not None
    assert dump.file_problem.startswith(f"{TOO_DEEP} (in `{where}`)")
    assert dump.outcome is outcome
    assert summarize_trace(dump.path, "ws").problem is not None


def test_recovery_of_a_cut_deep_value_descends_only_so_far(tmp_path: Path) -> None:
    head = '{\n  "schemaVersion": 1,\n  "modelString": "anthropic:claude-haiku-4-5",\n  '
    # Deep enough to be recovered by hand, not so deep that the decoder gives up: cut.
    dump = parse_trace(write(tmp_path, head + '"events": ' + "[" * 300))
    assert dump.file_problem is not None
    assert dump.file_problem.startswith("The file is truncated (it ends inside `events[0][0]")
    assert dump.record.model_string == "anthropic:claude-haiku-4-5"
    assert MAX_DEPTH // 2 < nesting(list(dump.record.events)) <= MAX_DEPTH


def test_display_helpers_never_raise_on_deep_values() -> None:
    deep = nested_list(5_000)
    assert compact_json(deep) == TOO_DEEP_TO_SHOW
    assert format_json(deep) == TOO_DEEP_TO_SHOW
    assert format_json(nested_list(900)).startswith("[")
    assert describe_step(deep) == TOO_DEEP_TO_SHOW
    assert describe_event({"role": "user", "parts": deep}).role == "user"
