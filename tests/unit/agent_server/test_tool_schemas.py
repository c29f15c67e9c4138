"""What an MCP client sees of the memory commands: each tool's input schema (generated from
the argument records by store/scopes/tool_args.py) as it was when pydantic generated it (main
1162db0, pinned here), and a bad argument answered as a tool error with its reason (the
SDK's client, connected in-process)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp_types import TextContent

from memtab.agent_server.service import MemoryService
from memtab.agent_server.serving.sdk_server import build_server
from memtab.store.home import Home

PATH = {"description": "Virtual path, e.g. /memories/global/a.md", "type": "string"}
SHA = {
    "type": "string",
    "description": "Change only if the file's content still has this sha256 (from `view`).",
}


CURSOR = {
    "type": "string",
    "description": "the next page: the cursor the answer before gave, as it is (it carries "
    "what that call asked; give it without `offset` and `limit`)",
}


def _text(description: str, **more: Any) -> dict[str, Any]:
    return {"description": description, "type": "string", **more}


def _integer(description: str, least: int) -> dict[str, Any]:
    return {"description": description, "minimum": least, "type": "integer"}


def _object(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": required}


EXPECTED = {
    "view": _object(
        {
            "path": PATH,
            "offset": _integer("view: first line (1-based)", 1),
            "limit": _integer("view: number of lines", 1),
            "cursor": CURSOR,
        },
        ["path"],
    ),
    "create": _object(
        {
            "path": PATH,
            "file_text": _text("create: the whole file content", default=""),
            "expected_sha256": SHA,
        },
        ["path"],
    ),
    "str_replace": _object(
        {
            "path": PATH,
            "old_str": _text("str_replace: exact text to replace", minLength=1),
            "new_str": _text("str_replace: replacement text", default=""),
            "expected_sha256": SHA,
        },
        ["path", "old_str"],
    ),
    "insert": _object(
        {
            "path": PATH,
            "insert_line": _integer("insert: line to insert after (0 = top of file)", 0),
            "insert_text": _text("insert: the text to insert"),
            "expected_sha256": SHA,
        },
        ["path", "insert_line", "insert_text"],
    ),
    "delete": _object({"path": PATH, "expected_sha256": SHA}, ["path"]),
    "rename": _object(
        {
            "old_path": _text("rename: source path"),
            "new_path": _text("rename: destination path"),
            "expected_sha256": SHA,
        },
        ["old_path", "new_path"],
    ),
}
REFUSED = [
    ("view", {"path": "/memories", "offset": "2"}, "`offset` must be an integer ≥ 1"),
    ("view", {"offset": 1}, "`path` is required and must be a string"),
    ("view", {"file_path": "/memories/global/a.md", "limit": 0}, "`limit` must be an integer ≥ 1"),
    (
        "insert",
        {"path": "/memories/global/a.md"},
        "`insert_line` is required (0 inserts at the top); "
        "`insert_text` is required and must be a string",
    ),
    (
        "str_replace",
        {"path": "/memories/global/a.md", "old_string": ""},
        "`old_str` must not be empty",
    ),
    (
        "rename",
        {"new_path": 3},
        "`old_path` is required and must be a string; `new_path` is required and must be a string",
    ),
]


@pytest.fixture
def service(tmp_path: Path) -> Any:
    home = Home(tmp_path / "home")
    home.global_root.mkdir(parents=True)
    service = MemoryService(home, None, writes="inbox", other_agents=False)
    yield service
    service.catalog.close()


def test_the_memory_tools_schemas_are_what_clients_saw(service: MemoryService) -> None:
    async def session() -> dict[str, Any]:
        async with Client(build_server(service)) as client:
            listed = await client.list_tools()
            return {tool.name: tool.input_schema for tool in listed.tools}

    schemas = anyio.run(session)
    assert {name: schemas[name] for name in EXPECTED} == EXPECTED


def test_a_bad_argument_is_a_tool_error_with_its_reason(service: MemoryService) -> None:
    async def session() -> list[tuple[bool, str]]:
        answers = []
        async with Client(build_server(service)) as client:
            for tool, arguments, _ in REFUSED:
                result = await client.call_tool(tool, arguments)
                block = result.content[0]
                assert isinstance(block, TextContent)
                answers.append((result.is_error, block.text))
        return answers

    assert anyio.run(session) == [(True, reason) for *_, reason in REFUSED]
