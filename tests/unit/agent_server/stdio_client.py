"""Driving `memtab mcp` as an agent does: the MCP SDK's own client, over stdio, against a
child process started like an agent's configuration starts it."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp_types import CallToolResult, Implementation, ListRootsResult, Root, TextContent
from pydantic import FileUrl

# What the child needs of the test's fake user (the SDK passes only a few variables on).
_PASSED_ON = (
    "HOME",
    "MEMTAB_CONFIG_DIR",
    "XDG_DATA_HOME",
    "XDG_CONFIG_HOME",
    "XDG_STATE_HOME",
    "XDG_CACHE_HOME",
    "XDG_RUNTIME_DIR",
    "MEMTAB_MCP_SHARED",
    "PYTHONPATH",
)


def server_parameters(home: Path, *options: str, cwd: Path | None = None) -> StdioServerParameters:
    env = {name: os.environ[name] for name in _PASSED_ON if name in os.environ}
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "memtab", "mcp", "--home", str(home), *options],
        env=env,
        cwd=cwd,
    )


def drive(
    home: Path,
    session: Callable[[Client], Awaitable[None]],
    *options: str,
    mode: str = "legacy",
    client_name: str = "test-agent",
    cwd: Path | None = None,
    roots: Callable[[], list[Path]] | None = None,
) -> None:
    """Start the server with `options` in `cwd`, connect as `client_name` (offering
    `roots()` as its roots when given) and run `session`."""

    async def list_roots(context: Any) -> ListRootsResult:
        assert roots is not None
        return ListRootsResult(roots=[Root(uri=FileUrl(path.as_uri())) for path in roots()])

    async def run() -> None:
        async with Client(
            server_parameters(home, *options, cwd=cwd),
            mode=mode,
            client_info=Implementation(name=client_name, version="1.0"),
            list_roots_callback=list_roots if roots is not None else None,
        ) as client:
            await session(client)

    anyio.run(run)


def text(result: CallToolResult) -> str:
    (block,) = result.content
    assert isinstance(block, TextContent)
    return block.text


def ok_json(result: CallToolResult) -> Any:
    assert not result.is_error, text(result)
    return json.loads(text(result))


async def every_row(client: Client, tool: str, arguments: dict[str, Any], key: str) -> list[Any]:
    """Every row `tool` answers for `arguments` (`key`: `files` or `results`), page after
    page, following each answer's `next` cursor to the last."""
    rows: list[Any] = []
    while True:
        page = ok_json(await client.call_tool(tool, arguments))
        rows += page[key]
        if "next" not in page:
            return rows
        arguments = {"cursor": page["next"]} | (
            {"query": arguments["query"]} if "query" in arguments else {}
        )
