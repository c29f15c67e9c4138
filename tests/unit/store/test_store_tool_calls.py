"""The memory tool (docs/formats.md §5): the call envelope — malformed calls, result shapes, the
schema — a usage update that fails after a done edit, and fuzzing (test_store_tool.py: each
command)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memtab.store.paths import Scope, VirtualPath
from memtab.store.scopes.tool import (
    MemoryTool,
    ToolResult,
    parse_tool_request,
    tool_input_schema,
)
from support.memory_paths import vpath
from support.property_examples import examples

from .helpers import TOOL_PROPERTIES, G, P, W, create, err, ok, text_of, write

# --- view ------------------------------------------------------------------------------


# --- the call envelope -----------------------------------------------------------------


@pytest.mark.parametrize(
    "raw",
    [None, [], "view", 42, {}, {"command": "explode"}, {"command": None}, {"command": ["view"]}],
)
def test_malformed_calls_are_errors(tool: MemoryTool, raw: object) -> None:
    err(tool.execute(raw))


def test_result_json_shapes() -> None:
    assert ToolResult(success=True, output="fine").to_json() == {"success": True, "output": "fine"}
    assert ToolResult(success=False, error="bad").to_json() == {"success": False, "error": "bad"}


def test_schema_lists_every_command() -> None:
    assert tool_input_schema()["properties"]["command"]["enum"] == [
        "view",
        "create",
        "str_replace",
        "insert",
        "delete",
        "rename",
    ]


def test_a_calls_paths_are_parsed_once_and_named_as_sent() -> None:
    rename = {"command": "rename", "old_path": f"{P}/a.md ", "new_path": "/elsewhere"}
    request = parse_tool_request(rename)
    assert request.named_paths() == [(f"{P}/a.md ", vpath(f"{P}/a.md")), ("/elsewhere", None)]
    assert request.target_path is request.target_path  # parsed once for the call
    assert parse_tool_request({"command": "view", "path": "/memories"}).named_paths() == [
        ("/memories", VirtualPath(None))
    ]


@pytest.mark.expect_log(
    "memtab.store.scopes.scope_store",
    "WARNING",
    r"^Could not update memory-meta.json for /memories/global/a.md: \[Errno 13\] Permission denied",
)
def test_a_failing_usage_update_does_not_fail_a_done_edit(
    tool: MemoryTool, monkeypatch: pytest.MonkeyPatch
) -> None:
    create(tool, f"{G}/a.md", "one")

    def broken(key: str, **_how: object) -> None:
        raise PermissionError(13, "Permission denied", "memory-meta.json")

    monkeypatch.setattr(tool.store.meta, "record_write", broken)
    monkeypatch.setattr(tool.store.meta, "record_read", broken)
    insert = {"command": "insert", "path": f"{G}/a.md", "insert_line": 1, "insert_text": "two"}
    ok(tool.execute(insert))
    assert text_of(tool, f"{G}/a.md") == "one\ntwo"
    assert ok(tool.execute({"command": "view", "path": f"{G}/a.md"})) == "1\tone\n2\ttwo"


_ANY_VALUE = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=30),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=5), children, max_size=3)
    ),
    max_leaves=6,
)
_KEYS = st.sampled_from(
    [
        *TOOL_PROPERTIES,
        "file_path",
        "filePath",
        "content",
        "old_string",
        "new_string",
        "unknown",
    ]
)
_PATHISH = st.sampled_from(
    ["/memories", G, f"{G}/a.md", f"{G}/dir", f"{W}/b.md", f"{P}/c.md", "/etc/passwd", "", 7, None]
)


@pytest.mark.slow
@settings(
    max_examples=examples(200),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    command=st.sampled_from(["view", "create", "str_replace", "insert", "delete", "rename"])
    | _ANY_VALUE,
    args=st.dictionaries(_KEYS, _ANY_VALUE | _PATHISH, max_size=6),
)
def test_fuzzed_calls_always_return_a_result(
    tool: MemoryTool, tmp_path: Path, command: object, args: dict[str, object]
) -> None:
    root = tool.store.root(Scope.GLOBAL)
    if not (root / "a.md").exists():
        write(root / "a.md", "line one\nline two\n")
        write(root / "dir" / "x.md", "x")
    result = tool.execute({**args, "command": command})
    assert isinstance(result, ToolResult)
    assert result.success or result.error
    assert "Internal error" not in result.error
