"""The memory tool's `expected_sha256` (the MCP server's change tools pass it): a change
applies only while the file still holds what the caller read; each command's arguments
as a schema of their own (`command_schema`)."""

from __future__ import annotations

import pytest

from memtab.store.files import content_sha256
from memtab.store.scopes.tool import MemoryTool, ToolResult, parse_tool_request
from memtab.store.scopes.tool_args import command_schema, input_schema

from .helpers import G, create, err, ok, text_of

PATH = f"{G}/a.md"
CALLS = [
    {"command": "str_replace", "path": PATH, "old_str": "one", "new_str": "two"},
    {"command": "insert", "path": PATH, "insert_line": 0, "insert_text": "top"},
    {"command": "delete", "path": PATH},
    {"command": "rename", "old_path": PATH, "new_path": f"{G}/b.md"},
]


def run(tool: MemoryTool, call: dict[str, object], expected: str | None) -> ToolResult:
    return tool.execute_request(parse_tool_request(call), expected_sha256=expected)


@pytest.mark.parametrize("call", CALLS, ids=lambda call: str(call["command"]))
def test_a_change_applies_with_the_current_sha_and_is_refused_with_another(
    tool: MemoryTool, call: dict[str, object]
) -> None:
    create(tool, PATH, "one\n")
    message = err(run(tool, call, "0" * 64))
    assert "changed since it was read" in message and content_sha256("one\n") in message
    assert text_of(tool, PATH) == "one\n"
    ok(run(tool, call, content_sha256("one\n").upper()))


def test_expected_sha256_applies_to_changes_of_existing_files_only(tool: MemoryTool) -> None:
    create(tool, PATH, "one\n")
    sha = content_sha256("one\n")
    assert "not view" in err(run(tool, {"command": "view", "path": PATH}, sha))
    created = {"command": "create", "path": f"{G}/new.md", "file_text": "x"}
    assert "not create" in err(run(tool, created, sha))
    directory = {"command": "delete", "path": f"{G}/dir"}
    create(tool, f"{G}/dir/x.md", "x")
    assert "applies to a file" in err(run(tool, directory, sha))


def test_each_command_schema_is_its_part_of_the_tool_schema() -> None:
    merged = input_schema()["properties"]
    for command in ("view", "create", "str_replace", "insert", "delete", "rename"):
        schema = command_schema(command)
        assert "command" not in schema["properties"]
        for name, prop in schema["properties"].items():
            assert merged[name] == prop
    assert command_schema("insert")["required"] == ["path", "insert_line", "insert_text"]
    assert command_schema("view")["required"] == ["path"]
