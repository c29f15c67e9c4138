"""One session of `memtab mcp` in the `initialize` handshake era, served by Memtab itself
(docs/formats.md §22): `initialize`, `ping`, `tools/list`, `tools/call` (a failure an `isError`
result), the client's roots asked before the first listing or call (§22.9), a request named by
`notifications/cancelled` left unanswered, any other method -32601 — each answered as the MCP
SDK answers it (`test_own_session.py` holds the two equal), without loading the SDK: its import
was most of a cold host's start, its per-request work half a warm search's CPU. A session opening
in the 2026-07-28 era is the SDK's (`sdk_server`); `server` decides which. Calls one at a time,
on a worker thread."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import AsyncIterable, Awaitable, Callable, Mapping
from functools import partial
from typing import Any
from urllib.parse import unquote, urlsplit

import anyio
import anyio.abc
import anyio.to_thread

from memtab import __version__
from memtab.agent_server.catalog_listing import missing_home_words
from memtab.agent_server.service import Answer, MemoryService
from memtab.agent_server.serving.frames import INVALID_REQUEST, Message, Send
from memtab.agent_server.serving.worker import SessionWorker
from memtab.agent_server.session_scope import FROM_ROOTS
from memtab.agent_server.tools import server_instructions, tool_specs

logger = logging.getLogger(__name__)

SERVER_NAME = "memtab"
ROOTS_TIMEOUT_S = 5.0
"""How long a session waits for the client's roots before it serves where it started."""
ROOTS_CHANGED = "notifications/roots/list_changed"
TOOLS_CHANGED = "notifications/tools/list_changed"
# `mcp_types.version`'s (`test_own_session.py` holds them equal): the revisions `initialize`
# negotiates, and the `_meta` key only a 2026-07-28 request carries.
HANDSHAKE_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
MODERN_VERSION_KEY = "io.modelcontextprotocol/protocolVersion"
METHOD_NOT_FOUND = -32601  # JSON-RPC's
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
MODERN_ON_HANDSHAKE = (
    "this connection serves the handshake protocol era; requests carrying the 2026-07-28 envelope "
    "are not accepted on it"
)


# --- the answers, in both eras ------------------------------------------------------------


def initialize_result(service: MemoryService, asked_version: object) -> dict[str, Any]:
    """`initialize`'s result: the client's revision when one of the handshake's, else the newest."""
    version = asked_version if asked_version in HANDSHAKE_VERSIONS else HANDSHAKE_VERSIONS[-1]
    return {
        "protocolVersion": version,
        "capabilities": {"tools": {"listChanged": True}},
        "serverInfo": {"name": SERVER_NAME, "title": "Memtab", "version": __version__},
        "instructions": instructions(service),
    }


def instructions(service: MemoryService) -> str:
    """What the server says of itself: its tools, what it serves (and a home missing)."""
    missing, served = missing_home_words(service.home.root), service.scope.words()
    return server_instructions(service.writes, served if missing is None else f"{missing} {served}")


def listed_tools(service: MemoryService) -> dict[str, Any]:
    """`tools/list`'s result: the tools offered to the session's client, as MCP writes them."""
    specs = tool_specs(service.writes, service.budget, service.scope.paths_words(), service.client)
    tools = []
    for spec in specs:
        annotations = {
            "readOnlyHint": spec.read_only,
            "idempotentHint": spec.read_only,
            "openWorldHint": False,
        }
        if spec.destructive is not None:
            annotations["destructiveHint"] = spec.destructive
        tools.append(
            {
                "name": spec.name,
                "description": spec.description,
                "inputSchema": spec.input_schema,
                "annotations": annotations,
                "_meta": spec.meta,
            }
        )
    return {"tools": tools}


def answered_call(
    service: MemoryService, name: str, arguments: dict[str, Any], client: str | None
) -> Answer:
    """Tool `name`'s answer; an unforeseen failure is a refusal saying it, never a crash."""
    try:
        return service.call(name, arguments, client)
    except Exception as error:
        logger.exception("memtab mcp: tool %s failed unexpectedly", name)
        return Answer(error=f"Internal error in Memtab's MCP server: {error!r}")


def call_result(answer: Answer) -> dict[str, Any]:
    """`tools/call`'s result for `answer`: its text, or its refusal as an `isError` result."""
    if answer.error is not None:
        return {"content": [{"type": "text", "text": answer.error}], "isError": True}
    return {"content": [{"type": "text", "text": answer.text}], "isError": False}


def local_path(uri: str) -> str | None:
    """The directory a `file://` root names here (None: another scheme or host)."""
    parts = urlsplit(uri)
    if parts.scheme != "file" or parts.netloc not in ("", "localhost"):
        return None
    path = unquote(parts.path)
    return path if path.startswith("/") else None


def root_directories(listed: object) -> list[str]:
    """The local directories of a `roots/list` result."""
    roots = listed.get("roots") if isinstance(listed, dict) else None
    if not isinstance(roots, list):
        raise ValueError("the client's roots are not a list")
    uris = [root.get("uri") for root in roots if isinstance(root, dict)]
    return [path for uri in uris if isinstance(uri, str) and (path := local_path(uri))]


class SessionRoots:
    """One session's roots, in either era: whether they are still to be asked (asked before the next
    listing or call once they changed), and what the session served when its tools were listed."""

    def __init__(self, service: MemoryService, worker: SessionWorker | None = None) -> None:
        self.service = service
        self.asked = False
        self.listed: object = None
        self._worker = worker

    async def settle(self, ask: Callable[[], Awaitable[object]] | None) -> None:
        """Serve where the client's roots are (`ask`: the client's `roots/list` result; None: it
        has none), when they are not asked yet."""
        if self.asked:
            return
        self.asked = True
        if ask is None:
            return
        try:
            with anyio.fail_after(ROOTS_TIMEOUT_S):
                directories = root_directories(await ask())
        except (TimeoutError, RpcError, ValueError) as error:
            logger.info("memtab mcp: no roots from the client (%s)", error)
            return
        if not directories:
            return
        if self._worker is not None:
            await self._worker.run(self.service.settle, directories, FROM_ROOTS)
        else:
            await anyio.to_thread.run_sync(self.service.settle, directories, FROM_ROOTS)

    def tools_listed(self) -> None:
        self.listed = self.service.scope

    def changed(self) -> bool:
        """Whether what the session serves changed since its tools were listed."""
        return self.listed is not None and self.listed != self.service.scope

    async def tell_if_changed(self, tell: Callable[[], Awaitable[None]]) -> None:
        """`tell` the client its tools changed when what the session serves did."""
        if self.changed():
            self.listed = self.service.scope
            try:
                await tell()
            except Exception as error:  # a client gone or without a channel: it lists anew
                logger.info("memtab mcp: could not say the tools changed (%s)", error)


def opens_modern(message: Mapping[str, Any]) -> bool:
    """Whether a session's first request opens the 2026-07-28 era (its envelope in `_meta`)."""
    return message.get("method") != "initialize" and _has_modern_envelope(message.get("params"))


def _has_modern_envelope(params: object) -> bool:
    meta = params.get("_meta") if isinstance(params, dict) else None
    return isinstance(meta, dict) and MODERN_VERSION_KEY in meta


# --- the handshake era --------------------------------------------------------------------


class RpcError(Exception):
    """A request answered with a JSON-RPC error."""

    def __init__(self, code: int, message: str, data: object = None) -> None:
        super().__init__(message)
        self.error: dict[str, Any] = {"code": code, "message": message}
        if data is not None:
            self.error["data"] = data


def _invalid_params() -> RpcError:
    return RpcError(INVALID_PARAMS, "Invalid request parameters", "")  # the SDK's words


class _Waiting:
    """A request of the server's to the client, waiting for its answer."""

    def __init__(self) -> None:
        self.done = anyio.Event()
        self.answer: Message | None = None


class _CallOnWorker:
    """A `tools/call` answered on the session's worker, its answer written there too: whether the
    client cancelled it, and whether it is done (its answer out, or left to the loop). The loop
    is woken only when it waits for it or must send its answer."""

    def __init__(self, its_id: object, loop: asyncio.AbstractEventLoop) -> None:
        self.id = its_id
        self.cancelled = False
        self.left: Message | None = None  # the answer the loop sends (what is served changed)
        self._loop = loop
        self._lock = threading.Lock()
        self._finished = False
        self._waiting: anyio.Event | None = None

    def cancel(self) -> None:
        self.cancelled = True

    def finish(self, left: Message | None, then: Callable[[], None]) -> None:
        """On the worker: done, `left` for the loop (`then` run there, as anyone waiting wakes)."""
        with self._lock:
            self._finished, self.left, waiting = True, left, self._waiting
        with contextlib.suppress(RuntimeError):  # the loop has closed: nobody waits
            if left is not None:
                self._loop.call_soon_threadsafe(then)
            elif waiting is not None:
                self._loop.call_soon_threadsafe(waiting.set)

    def finished(self) -> bool:
        with self._lock:
            return self._finished and self.left is None

    async def wait(self) -> None:
        """Until done, its answer out."""
        with self._lock:
            if self._finished and self.left is None:
                return
            if self._waiting is None:
                self._waiting = anyio.Event()
            waiting = self._waiting
        await waiting.wait()


class McpSession:
    """The session of `service` with one client, answering through `send` — a call that nothing
    else waits on answered on the worker through `send_now` (a blocking writer), when given."""

    def __init__(
        self, service: MemoryService, send: Send, send_now: Callable[[Message], None] | None = None
    ) -> None:
        self.service = service
        self._send = send
        self._send_now = send_now
        self._client: dict[str, Any] | None = None  # the client's `initialize` params
        self._initialized = False
        # One call or listing at a time per session, its disk work on the session's worker: the
        # loop, shared by a warm host, never waits.
        self._worker = SessionWorker()
        self._roots = SessionRoots(service, self._worker)
        self._one_at_a_time = anyio.Lock()
        self._in_flight: dict[object, anyio.CancelScope | _CallOnWorker] = {}
        self._on_worker: _CallOnWorker | None = None
        self._group: anyio.abc.TaskGroup | None = None
        self._waiting: dict[int, _Waiting] = {}
        self._last_id = 0
        self._ended = False

    async def run(self, messages: AsyncIterable[Message]) -> None:
        """Serve `messages` until they end; the requests in flight are answered first."""
        try:
            async with anyio.create_task_group() as group:
                self._group = group
                async for message in messages:
                    await self._take(message, group)
                await self._after_the_worker_call()  # answered before the session ends
                self._ended = True
                for waiting in self._waiting.values():  # no answer comes any more
                    waiting.done.set()
        finally:
            self._ended = True
            self._worker.close()

    async def _take(self, message: Message, group: anyio.abc.TaskGroup) -> None:
        method = message.get("method")
        if method is None:
            self._answered(message)
        elif "id" not in message:
            self._notified(method, message.get("params"))
        elif method == "initialize":  # at once, before the next frame is read (as the SDK)
            await self._request(message["id"], method, message.get("params"), None)
        elif self._answers_on_worker(method, message.get("params")):
            self._call_on_worker(message["id"], message["params"])
        else:
            scope = anyio.CancelScope()
            self._in_flight[_key(message["id"])] = scope
            group.start_soon(self._request, message["id"], method, message.get("params"), scope)

    async def _request(
        self, its_id: object, method: str, params: object, scope: anyio.CancelScope | None
    ) -> None:
        try:
            reply: Message = {"jsonrpc": "2.0", "id": its_id}
            with scope or anyio.CancelScope():
                try:
                    reply["result"] = await self._answer(method, params)
                except RpcError as error:
                    reply["error"] = error.error
                except Exception as error:
                    logger.exception("memtab mcp: %s failed", method)
                    reply["error"] = {"code": INTERNAL_ERROR, "message": str(error)}
            if scope is not None and scope.cancel_called:
                return  # the client cancelled it: never answered
            try:
                await self._send(reply)
            except (anyio.ClosedResourceError, anyio.BrokenResourceError, OSError) as error:
                logger.debug("memtab mcp: the client left before an answer (%r)", error)
        finally:
            if scope is not None and self._in_flight.get(_key(its_id)) is scope:
                del self._in_flight[_key(its_id)]

    def _answers_on_worker(self, method: str, params: object) -> bool:
        """Whether a request is a tool call the worker answers whole, its answer written there: one
        the loop would only hand over and wait for — nothing else in flight, the roots asked, its
        parameters a call's — so the answer leaves without waking the loop (a fifth of a warm
        search's CPU, and a thread hop under load)."""
        if self._send_now is None or method != "tools/call" or not self._initialized:
            return False
        if not self._worker_call_done() or self._in_flight or self._one_at_a_time.locked():
            return False
        if not isinstance(params, dict) or _has_modern_envelope(params):
            return False
        if not isinstance(params.get("name"), str):
            return False
        if not isinstance(params.get("arguments"), dict | None):
            return False
        return self._roots.asked or self._roots_asker() is None

    def _call_on_worker(self, its_id: object, params: dict[str, Any]) -> None:
        self._roots.asked = True  # asked already, or a client without roots: nothing to ask
        loop = asyncio.get_running_loop()
        call = _CallOnWorker(its_id, loop)
        self._on_worker = call
        self._in_flight[_key(its_id)] = call
        arguments = dict(params.get("arguments") or {})
        # Handed over once the loop has gone back to waiting for the next frame: its way there
        # (a read, a watch set up) would otherwise take the interpreter from the call's first
        # milliseconds.
        loop.call_soon(self._worker.submit, self._answer_on_worker, call, params["name"], arguments)

    def _answer_on_worker(self, call: _CallOnWorker, name: str, arguments: dict[str, Any]) -> None:
        """On the worker: the call's answer, written at once unless the client cancelled it or
        the session's tools changed (the loop tells that first, then answers)."""
        left: Message | None = None
        try:
            answer = answered_call(self.service, name, arguments, self._client_name())
            reply = {"jsonrpc": "2.0", "id": call.id, "result": call_result(answer)}
            if self._roots.changed():
                left = reply
            elif not call.cancelled:
                assert self._send_now is not None
                self._send_now(reply)
        except OSError as error:
            logger.debug("memtab mcp: the client left before an answer (%r)", error)
        finally:
            call.finish(left, partial(self._answer_left, call))

    def _answer_left(self, call: _CallOnWorker) -> None:
        """On the loop: the answer a worker's call left, sent after telling the tools changed."""
        if not self._ended and self._group is not None:
            self._group.start_soon(self._answer_after_telling, call)
        else:
            self._forget_worker_call(call)

    async def _answer_after_telling(self, call: _CallOnWorker) -> None:
        try:
            await self._roots.tell_if_changed(self._tell_tools_changed)
            if not call.cancelled and call.left is not None:
                with contextlib.suppress(
                    anyio.ClosedResourceError, anyio.BrokenResourceError, OSError
                ):
                    await self._send(call.left)
        finally:
            self._forget_worker_call(call)

    def _forget_worker_call(self, call: _CallOnWorker) -> None:
        if self._in_flight.get(_key(call.id)) is call:
            del self._in_flight[_key(call.id)]
        if self._on_worker is call:
            self._on_worker = None
        call.left = None
        call.finish(None, lambda: None)  # wakes whoever waits

    def _worker_call_done(self) -> bool:
        """Whether no call is on the worker (one finished is forgotten here)."""
        call = self._on_worker
        if call is not None and call.finished():
            self._forget_worker_call(call)
        return self._on_worker is None

    async def _answer(self, method: str, params: object) -> dict[str, Any]:
        if method != "initialize" and _has_modern_envelope(params):
            raise RpcError(INVALID_REQUEST, MODERN_ON_HANDSHAKE)
        given = {} if params is None else params
        assert isinstance(given, dict)  # the frame guard let through no other
        if method == "initialize":
            return self._initialize(given)
        if method == "ping":
            return {}
        if method not in ("tools/list", "tools/call"):
            raise RpcError(METHOD_NOT_FOUND, "Method not found", method)
        if not self._initialized:
            raise _invalid_params()
        if method == "tools/list":
            return await self._list_tools(given)
        return await self._call_tool(given)

    def _initialize(self, params: dict[str, Any]) -> dict[str, Any]:
        info = params.get("clientInfo")
        if (
            not isinstance(params.get("protocolVersion"), str)
            or not isinstance(params.get("capabilities"), dict)
            or not isinstance(info, dict)
            or not isinstance(info.get("name"), str)
            or not isinstance(info.get("version"), str)
        ):
            raise _invalid_params()
        self._client = params
        self._initialized = True
        return initialize_result(self.service, params["protocolVersion"])

    async def _list_tools(self, params: dict[str, Any]) -> dict[str, Any]:
        if not isinstance(params.get("cursor", ""), str | None):
            raise _invalid_params()
        await self._after_the_worker_call()
        async with self._one_at_a_time:
            await self._roots.settle(self._roots_asker())
            await self._worker.run(self.service.refresh)
            await self._worker.run(self.service.meet_client, self._client_name())
            self._roots.tools_listed()
            return listed_tools(self.service)

    async def _call_tool(self, params: dict[str, Any]) -> dict[str, Any]:
        name, arguments = params.get("name"), params.get("arguments")
        if not isinstance(name, str) or not isinstance(arguments, dict | None):
            raise _invalid_params()
        await self._after_the_worker_call()
        async with self._one_at_a_time:
            await self._roots.settle(self._roots_asker())
            answer = await self._worker.run(
                answered_call, self.service, name, dict(arguments or {}), self._client_name()
            )
            await self._roots.tell_if_changed(self._tell_tools_changed)
        return call_result(answer)

    async def _after_the_worker_call(self) -> None:
        """Wait for a call the worker answers: one call or listing at a time."""
        while not self._worker_call_done():
            assert self._on_worker is not None
            await self._on_worker.wait()

    def _client_name(self) -> str | None:
        info = self._client.get("clientInfo") if self._client is not None else None
        return info.get("name") if isinstance(info, dict) else None

    def _roots_asker(self) -> Callable[[], Awaitable[object]] | None:
        capabilities = self._client.get("capabilities") if self._client is not None else None
        if not isinstance(capabilities, dict) or capabilities.get("roots") is None:
            return None
        return partial(self._ask, "roots/list")

    async def _tell_tools_changed(self) -> None:
        await self._send({"jsonrpc": "2.0", "method": TOOLS_CHANGED})

    async def _ask(self, method: str) -> object:
        """The client's result to a request of the server's (RpcError: its error, or none)."""
        if self._ended:
            raise RpcError(INTERNAL_ERROR, "the client has gone")
        self._last_id += 1
        its_id, waiting = self._last_id, _Waiting()
        self._waiting[its_id] = waiting
        try:
            try:
                await self._send({"jsonrpc": "2.0", "id": its_id, "method": method})
            except (anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
                raise RpcError(INTERNAL_ERROR, "the client has gone") from None
            await waiting.done.wait()
        finally:
            del self._waiting[its_id]
        answer = waiting.answer
        if answer is None:
            raise RpcError(INTERNAL_ERROR, "the client has gone")
        if "error" in answer:
            raise RpcError(INTERNAL_ERROR, str(answer["error"].get("message")))
        return answer.get("result")

    def _answered(self, message: Message) -> None:
        waiting = self._waiting.get(message["id"]) if type(message.get("id")) is int else None
        if waiting is None:
            logger.debug("memtab mcp: an answer to no request of ours (%r)", message.get("id"))
            return
        waiting.answer = message
        waiting.done.set()

    def _notified(self, method: str, params: object) -> None:
        if method == "notifications/initialized":
            self._initialized = True
        elif not self._initialized:
            return
        if method == "notifications/cancelled":
            asked = params.get("requestId") if isinstance(params, dict) else None
            scope = self._in_flight.get(_key(asked))
            if scope is not None:
                scope.cancel()
        elif method == ROOTS_CHANGED:
            self._roots.asked = False  # asked again before the next listing or call


def _key(request_id: object) -> object:
    """A request's id as a cancellation names it (a number may come back as its string)."""
    return str(request_id) if type(request_id) is int else request_id
