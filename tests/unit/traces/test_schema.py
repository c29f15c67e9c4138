"""The dump schema: one definition for the writer and the reader; pydantic loaded late by
the settings and tool calls validated with it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from memtab.demo import MAIN_ID, create_demo_home
from memtab.traces.lenient import record_fields
from memtab.traces.names import parse_trace_file_name, trace_file_name, trace_workspace_id
from memtab.traces.reader import parse_trace
from memtab.traces.schema import (
    AttemptRecord,
    DumpRecord,
    EventsSummaryRecord,
    ToolExecutionRecord,
)
from support.trace_dumps import fixture_dump

# Modules loaded before the window's first paint, or by a writer that has not dumped yet.
EARLY_MODULES = (
    "memtab.gui.first_paint.app",
    "memtab.gui.traces",
    "memtab.gui.tasks.writer",
    "memtab.writer.job.service",
    "memtab.cli.main",
    "memtab.cli.background.traces_commands",
    "memtab.demo",
    "memtab.traces",
    # Validated by pydantic models, loaded by their first call (the store is on the way).
    "memtab.store.scopes.tool",
    "memtab.writer.config",
    "memtab.llm.settings",
    "memtab.llm.probe",
)


def _pydantic_loaded_after(code: str) -> bool:
    probe = f"import sys\n{code}\nsys.exit(3 if 'pydantic' in sys.modules else 0)"
    command = [sys.executable, "-c", probe]
    result = subprocess.run(command, check=False, capture_output=True, text=True)
    assert result.returncode in (0, 3), result.stderr
    return result.returncode == 3


@pytest.mark.slow
def test_pydantic_is_not_imported_on_the_way_to_the_first_paint() -> None:
    assert not _pydantic_loaded_after("\n".join(f"import {name}" for name in EARLY_MODULES))


def test_a_dump_is_read_without_pydantic() -> None:
    """The dump's records are Memtab's own codec's (`fs/records.py`)."""
    path = str(fixture_dump("demo"))
    code = f"import pathlib, memtab.traces.reader as r\nr.parse_trace(pathlib.Path({path!r}))"
    assert not _pydantic_loaded_after(code)


@pytest.mark.parametrize(
    "code",
    ["from memtab.store.scopes.tool import parse_tool_request as p; p({'command': 'delete'})"],
)
def test_pydantic_is_imported_by_the_first_validation(code: str) -> None:
    assert _pydantic_loaded_after(f"import contextlib\nwith contextlib.suppress(Exception): {code}")


@pytest.mark.parametrize(
    "code",
    [
        "from memtab.writer.config import WriterSettings; WriterSettings(notify=True)",
        "from memtab.llm.settings import resolve_provider_settings as r; r()",
    ],
)
def test_the_settings_are_read_without_pydantic(code: str) -> None:
    """settings.json's sections are records (`fs/records.py`)."""
    assert not _pydantic_loaded_after(
        f"import contextlib\nwith contextlib.suppress(Exception): {code}"
    )


def test_field_names_are_camel_case_aliases_of_the_python_names() -> None:
    aliases = {field.name: field.alias for field in record_fields(DumpRecord)}
    assert aliases["satisfied_memory_tool_policy"] == "satisfiedMemoryToolPolicy"
    assert aliases["memtab"] == "memtab"
    assert [field.alias for field in record_fields(ToolExecutionRecord)] == [
        "toolName",
        "toolCallId",
        "input",
        "output",
        "error",
        "startedAt",
        "durationMs",
    ]
    # populate_by_name: both spellings build the same record.
    assert EventsSummaryRecord(original_count=3) == EventsSummaryRecord.read({"originalCount": 3})


def test_a_written_record_reads_back_the_same(tmp_path: Path) -> None:
    calls = (
        ToolExecutionRecord(
            tool_name="memory_read", tool_call_id="c1", input={}, output=None, started_at=5
        ),
        ToolExecutionRecord(tool_name="memory_write", input={"x": 1}, error="old_string gone"),
    )
    record = DumpRecord(
        schema_version=1,
        run_started_at=1767261600000,
        workspace_id="a1b2c3d4e5",
        model_string="openai:gpt-5-mini",
        timed_out=False,
        events_summary=EventsSummaryRecord(original_count=1, trimmed_count=1),
        events=({"role": "user", "text": "hi"},),
        attempts=(AttemptRecord(attempt_index=1, tool_executions=calls, no_new_memories=False),),
        memtab={"version": "0.1.0"},
    )
    document = record.to_document()
    assert list(document) == [
        "schemaVersion",
        "runStartedAt",
        "workspaceId",
        "modelString",
        "timedOut",
        "eventsSummary",
        "events",
        "attempts",
        "memtab",
    ]  # only what was set, in the schema's order
    first, second = document["attempts"][0]["toolExecutions"]
    assert first["output"] is None and "error" not in first
    assert "output" not in second

    path = tmp_path / "dump.json"
    path.write_text(json.dumps(document, indent=2), encoding="utf-8")
    dump = parse_trace(path)
    assert dump.problems == () and dump.file_problem is None
    assert dump.record == record
    assert dump.record.attempts[0].tool_executions[0].has_output
    assert not dump.record.attempts[0].tool_executions[1].has_output
    assert dump.other_fields == {"memtab": {"version": "0.1.0"}}


def test_unknown_fields_are_ignored_by_the_record_and_listed_as_other() -> None:
    dump = parse_trace(fixture_dump("old-format"))
    assert not hasattr(dump.record, "agentDiscoveryPath")
    assert "agentDiscoveryPath" in dump.other_fields


@pytest.mark.parametrize(
    ("name", "parsed"),
    [
        ("1767261600000_assistant-0001.json", (1767261600000, "assistant-0001")),
        ("17_.json", (17, None)),
        ("17_x.json\n", None),
        ("x_1.json", None),
        ("1767261600000_m.json.tmp", None),
        ("1767261600000.json", None),
    ],
)
def test_file_names_are_parsed_in_one_place(name: str, parsed: tuple[int, str | None]) -> None:
    assert parse_trace_file_name(name) == parsed


def test_file_names_round_trip_and_name_their_workspace(tmp_path: Path) -> None:
    name = trace_file_name(1767261600000, "msg/../x y:z")
    assert parse_trace_file_name(name) == (1767261600000, "msg_.._x_y_z")
    path = tmp_path / "debug_obj" / "a1b2c3d4e5" / "system1_memory_writer" / name
    assert trace_workspace_id(path) == "a1b2c3d4e5"


def test_the_demo_dump_and_memtabs_own_dumps_are_exactly_what_the_schema_writes(
    tmp_path: Path,
) -> None:
    # Read back through the schema, a dump is what was written: any key the schema does
    # not know would be dropped here and fail.
    home = create_demo_home(tmp_path / "home")
    for path in [*home.trace_dir(MAIN_ID).glob("*.json"), fixture_dump("memtab-policy")]:
        document = json.loads(path.read_text(encoding="utf-8"))
        assert DumpRecord.read_or_raise(document).to_document() == document, path.name
