"""`memtab mcp`: Memtab's memory as an MCP server over stdio (docs/formats.md §22), on the SDK's
low-level `Server`; stdin through `frames`, what the session serves decided by the client's roots
(§22.9), calls one at a time on a worker thread."""

from __future__ import annotations

import gc
import logging
import sys
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import unquote, urlsplit

import anyio
import anyio.to_thread
import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import NotificationOptions, Server
from mcp.shared.exceptions import MCPError

from memtab import __version__
from memtab.agent_server.catalog_listing import missing_home_words
from memtab.agent_server.frames import guarded_stdio_server, guarded_streams
from memtab.agent_server.service import Answer, MemoryService
from memtab.agent_server.session_scope import FROM_ROOTS, SessionScope
from memtab.agent_server.tools import server_instructions, tool_specs

logger = logging.getLogger(__name__)

SERVER_NAME = "memtab"
ROOTS_TIMEOUT_S = 5.0
"""How long a session waits for the client's roots before it serves where it started."""
ROOTS_CHANGED = "notifications/roots/list_changed"


def tool_list(writes: str, budget: int, paths: str, client: str | None = None) -> list[types.Tool]:
    """The tools offered to `client` as the SDK lists them (the SDK stays out of `service` and
    the catalog)."""
    return [
        types.Tool(
            name=spec.name,
            description=spec.description,
            input_schema=spec.input_schema,
            _meta=spec.meta,
            annotations=types.ToolAnnotations(
                read_only_hint=spec.read_only,
                destructive_hint=spec.destructive,
                idempotent_hint=spec.read_only,
                open_world_hint=False,
            ),
        )
        for spec in tool_specs(writes, budget, paths, client)
    ]


def client_name(context: ServerRequestContext[Any]) -> str | None:
    """The name the client gave in its `clientInfo`, if it gave one."""
    params = context.session.client_params
    return params.client_info.name if params is not None else None


class _Roots:
    """Whether the client's roots are still to be asked, and what the tools said last."""

    def __init__(self) -> None:
        self.asked = False
        self.listed: SessionScope | None = None


def build_server(service: MemoryService) -> Server[Any]:
    """The SDK server whose tools are `service`'s."""
    roots = _Roots()
    # One call or listing at a time per session, its disk work on a worker thread: the loop, shared
    # by a warm host, never waits.
    one_at_a_time = anyio.Lock()

    async def settle(context: ServerRequestContext[Any]) -> None:
        """Serve where the client's roots are, when it has them and they are not asked yet."""
        if roots.asked:
            return
        roots.asked = True
        capabilities = context.session.client_capabilities
        if capabilities is None or capabilities.roots is None:
            return
        if not context.session.can_send_request:
            return
        try:
            with anyio.fail_after(ROOTS_TIMEOUT_S):
                listed = await context.session.send_request(
                    types.ListRootsRequest(), types.ListRootsResult
                )
        except (TimeoutError, MCPError, ValueError) as error:
            logger.info("memtab mcp: no roots from the client (%s)", error)
            return
        directories = [path for root in listed.roots if (path := _local_path(str(root.uri)))]
        if directories:
            await anyio.to_thread.run_sync(service.settle, directories, FROM_ROOTS)

    async def told(context: ServerRequestContext[Any]) -> None:
        """Tell the client its tools changed when what the session serves did."""
        if roots.listed is not None and roots.listed != service.scope:
            roots.listed = service.scope
            try:
                await context.session.send_tool_list_changed()
            except Exception as error:  # a client gone or without a channel: it lists anew
                logger.info("memtab mcp: could not say the tools changed (%s)", error)

    async def on_list_tools(
        context: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        async with one_at_a_time:
            await settle(context)
            await anyio.to_thread.run_sync(service.refresh)
            await anyio.to_thread.run_sync(service.meet_client, client_name(context))
            roots.listed = service.scope
            return types.ListToolsResult(
                tools=tool_list(
                    service.writes, service.budget, service.scope.paths_words(), service.client
                )
            )

    def call(name: str, arguments: dict[str, Any], client: str | None) -> Answer:
        try:
            return service.call(name, arguments, client)
        except Exception as error:  # a refusal, never a crash: the client shows the reason
            logger.exception("memtab mcp: tool %s failed unexpectedly", name)
            return Answer(error=f"Internal error in Memtab's MCP server: {error!r}")

    async def on_call_tool(
        context: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        arguments = dict(params.arguments or {})
        async with one_at_a_time:
            await settle(context)
            answer = await anyio.to_thread.run_sync(
                call, params.name, arguments, client_name(context)
            )
            await told(context)
        return _result(answer)

    async def on_roots_changed(
        context: ServerRequestContext[Any], params: types.NotificationParams | None
    ) -> None:
        roots.asked = False  # asked again before the next listing or call

    missing, served = missing_home_words(service.home.root), service.scope.words()
    server: Server[Any] = Server(
        SERVER_NAME,
        version=__version__,
        title="Memtab",
        instructions=server_instructions(
            service.writes, served if missing is None else f"{missing} {served}"
        ),
        on_list_tools=on_list_tools,
        on_call_tool=on_call_tool,
    )
    server.add_notification_handler(ROOTS_CHANGED, types.NotificationParams, on_roots_changed)
    return server


def _local_path(uri: str) -> str | None:
    """The directory a `file://` root names here (None: another scheme or host)."""
    parts = urlsplit(uri)
    if parts.scheme != "file" or parts.netloc not in ("", "localhost"):
        return None
    path = unquote(parts.path)
    return path if path.startswith("/") else None


def _result(answer: Answer) -> types.CallToolResult:
    if answer.error is not None:
        return types.CallToolResult(content=[types.TextContent(text=answer.error)], is_error=True)
    return types.CallToolResult(content=[types.TextContent(text=answer.text)])


async def serve_streams(
    service: MemoryService, read: Callable[[], Awaitable[bytes]], text_out: Any
) -> None:
    """Serve one session of `service` over a byte stream through the frame guard."""
    server = build_server(service)
    async with guarded_streams(read, text_out) as (read_stream, write_stream):
        await server.run(read_stream, write_stream, initialization_options(server))


def initialization_options(server: Server[Any]) -> Any:
    """What a session says of itself in `initialize`: its tools may change."""
    return server.create_initialization_options(NotificationOptions(tools_changed=True))


def keep_start_out_of_collections() -> None:
    """Move what the start made out of the cycle collector's sight before serving (a first listing
    makes many objects)."""
    gc.freeze()


def serve_stdio(service: MemoryService) -> None:
    """Serve `service` on this process's stdin and stdout until the client hangs up."""
    server = build_server(service)
    options = initialization_options(server)
    keep_start_out_of_collections()

    async def run() -> None:
        async with guarded_stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, options)

    logger.info("memtab mcp: serving over stdio (writes: %s)", service.writes)
    try:
        anyio.run(run)
    except KeyboardInterrupt:
        print("memtab mcp: stopped", file=sys.stderr)
    finally:
        service.close()
