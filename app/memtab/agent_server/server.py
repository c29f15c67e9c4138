"""`memtab mcp`: Memtab's memory as an MCP server over stdio (docs/formats.md §22).

Built on the official MCP Python SDK's low-level `Server`: it answers the 2025-11-25
`initialize` handshake (and older revisions) and the 2026-07-28 stateless revision, as
the SDK does — the client's first request decides which. Its stdin is read through
`frames` (every frame the SDK would drop unanswered is answered). The tools and what they do are
`tools` and `service`; this module only turns calls into answers. The client's name (its
`clientInfo`, from the handshake or the 2026 request envelope) is who history records.

Tool calls run one at a time on the event loop: they are millisecond disk reads and
writes, and the store, catalog and memory tool are single-threaded by design.
"""

from __future__ import annotations

import logging
import sys
from typing import Any

import anyio
import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server

from memtab import __version__
from memtab.agent_server.frames import guarded_stdio_server
from memtab.agent_server.service import Answer, MemoryService
from memtab.agent_server.tools import server_instructions, tool_list

logger = logging.getLogger(__name__)

SERVER_NAME = "memtab"


def client_name(context: ServerRequestContext[Any]) -> str | None:
    """The name the client gave in its `clientInfo`, if it gave one."""
    params = context.session.client_params
    return params.client_info.name if params is not None else None


def build_server(service: MemoryService) -> Server[Any]:
    """The SDK server whose tools are `service`'s."""
    tools = tool_list(service.writes, service.budget)

    async def on_list_tools(
        context: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def on_call_tool(
        context: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        try:
            answer = service.call(params.name, dict(params.arguments or {}), client_name(context))
        except Exception as error:  # a refusal, never a crash: the client shows the reason
            logger.exception("memtab mcp: tool %s failed unexpectedly", params.name)
            answer = Answer(error=f"Internal error in Memtab's MCP server: {error!r}")
        return _result(answer)

    return Server(
        SERVER_NAME,
        version=__version__,
        title="Memtab",
        instructions=server_instructions(service.writes),
        on_list_tools=on_list_tools,
        on_call_tool=on_call_tool,
    )


def _result(answer: Answer) -> types.CallToolResult:
    if answer.error is not None:
        return types.CallToolResult(content=[types.TextContent(text=answer.error)], is_error=True)
    return types.CallToolResult(content=[types.TextContent(text=answer.text)])


def serve_stdio(service: MemoryService) -> None:
    """Serve `service` on this process's stdin and stdout until the client hangs up."""
    server = build_server(service)

    async def run() -> None:
        async with guarded_stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    logger.info("memtab mcp: serving over stdio (writes: %s)", service.writes)
    try:
        anyio.run(run)
    except KeyboardInterrupt:
        print("memtab mcp: stopped", file=sys.stderr)
    finally:
        service.catalog.close()
