"""A session of `memtab mcp` on the MCP SDK's low-level `Server`: the one a client opens in the
2026-07-28 era (its first request carries the per-request envelope), which `server` hands here, and
the in-process server the SDK's client connects to. Its answers are `mcp_session`'s; imported only
when such a session opens, the SDK's import being most of a cold host's start."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import Any, cast

import anyio
import anyio.to_thread
import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import NotificationOptions, Server
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError

from memtab import __version__
from memtab.agent_server.service import MemoryService
from memtab.agent_server.serving.frames import FrameGuard
from memtab.agent_server.serving.mcp_session import (
    ROOTS_CHANGED,
    SERVER_NAME,
    RpcError,
    SessionRoots,
    answered_call,
    call_result,
    instructions,
    listed_tools,
)

logger = logging.getLogger(__name__)


def client_name(context: ServerRequestContext[Any]) -> str | None:
    """The name the client gave in its `clientInfo`, if it gave one."""
    params = context.session.client_params
    return params.client_info.name if params is not None else None


def build_server(service: MemoryService) -> Server[Any]:
    """The SDK server whose tools are `service`'s, answered as `mcp_session` answers them."""
    roots = SessionRoots(service)
    one_at_a_time = anyio.Lock()

    def roots_asker(context: ServerRequestContext[Any]) -> Callable[[], Awaitable[object]] | None:
        capabilities = context.session.client_capabilities
        if capabilities is None or capabilities.roots is None:
            return None
        if not context.session.can_send_request:
            return None

        async def ask() -> object:
            try:
                listed = await context.session.send_request(
                    types.ListRootsRequest(), types.ListRootsResult
                )
            except MCPError as error:
                raise RpcError(error.error.code, error.error.message) from None
            return listed.model_dump(mode="json", by_alias=True)

        return ask

    async def on_list_tools(
        context: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        async with one_at_a_time:
            await roots.settle(roots_asker(context))
            await anyio.to_thread.run_sync(service.refresh)
            await anyio.to_thread.run_sync(service.meet_client, client_name(context))
            roots.tools_listed()
            return types.ListToolsResult.model_validate(listed_tools(service))

    async def on_call_tool(
        context: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        arguments = dict(params.arguments or {})
        async with one_at_a_time:
            await roots.settle(roots_asker(context))
            answer = await anyio.to_thread.run_sync(
                answered_call, service, params.name, arguments, client_name(context)
            )
            await roots.tell_if_changed(context.session.send_tool_list_changed)
        return types.CallToolResult.model_validate(call_result(answer))

    async def on_roots_changed(
        context: ServerRequestContext[Any], params: types.NotificationParams | None
    ) -> None:
        roots.asked = False  # asked again before the next listing or call

    server: Server[Any] = Server(
        SERVER_NAME,
        version=__version__,
        title="Memtab",
        instructions=instructions(service),
        on_list_tools=on_list_tools,
        on_call_tool=on_call_tool,
    )
    server.add_notification_handler(ROOTS_CHANGED, types.NotificationParams, on_roots_changed)
    # The SDK wraps each request in an OpenTelemetry span; Memtab sets up no tracer, so every
    # span is a no-op that cost a warm host's search a tenth of its CPU.
    server.middleware = [
        each for each in server.middleware if type(each).__name__ != "OpenTelemetryMiddleware"
    ]
    return server


def initialization_options(server: Server[Any]) -> Any:
    """What a session says of itself in `initialize`: its tools may change."""
    return server.create_initialization_options(NotificationOptions(tools_changed=True))


async def serve_sdk_session(
    service: MemoryService,
    lead: Sequence[str],
    guard: FrameGuard,
    write_text: Callable[[str], Awaitable[None]],
) -> None:
    """Serve the rest of a session on the SDK: the frames read so far (`lead`), then `guard`'s;
    its answers through `write_text`."""
    server = build_server(service)
    stdin = cast("anyio.AsyncFile[str]", _Replayed(lead, guard))  # the transport only iterates it
    stdout = cast("anyio.AsyncFile[str]", _TextOut(write_text))
    async with stdio_server(stdin=stdin, stdout=stdout) as (read_stream, write_stream):
        await server.run(read_stream, write_stream, initialization_options(server))


class _Replayed:
    """The frames read before the era was known, then the rest."""

    def __init__(self, lead: Sequence[str], guard: FrameGuard) -> None:
        self._lead = list(lead)
        self._guard = guard

    def __aiter__(self) -> AsyncIterator[str]:
        return self._lines()

    async def _lines(self) -> AsyncIterator[str]:
        for line in self._lead:
            yield line
        async for line in self._guard:
            yield line


class _TextOut:
    """The transport's stdout: each answer's line written whole."""

    def __init__(self, write_text: Callable[[str], Awaitable[None]]) -> None:
        self._write_text = write_text

    async def write(self, text: str) -> None:
        await self._write_text(text)

    async def flush(self) -> None:
        return None
