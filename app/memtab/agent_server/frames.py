"""The frames `memtab mcp` reads from stdin, checked before the MCP SDK sees them (docs/formats.md
§22.7): capped, read strictly, one JSON-RPC message each; a bad one answered at once (-32700 or
-32600, with its id where readable) rather than dropped."""

from __future__ import annotations

import logging
import os
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager, suppress
from dataclasses import dataclass
from functools import partial
from typing import Any, cast

import anyio
import anyio.to_thread
from mcp.os.win32.utilities import rebind_std_handle_to_fd
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage
from mcp_types import (
    INVALID_REQUEST,
    PARSE_ERROR,
    ErrorData,
    JSONRPCError,
    jsonrpc_message_adapter,
)

from memtab.agent_server.bridge.frame_ids import (
    ID_WINDOW_CHARS,
    JSON_SPACE,
    RequestId,
    frame_id,
    request_id,
)
from memtab.fs.jsonfile import JsonError, JsonValueError, parse_strict_json

logger = logging.getLogger(__name__)

# The largest legal change JSON-escaped is 1.2 MiB.
MAX_FRAME_BYTES = 4 * 1024 * 1024
CHUNK_BYTES = 64 * 1024


@dataclass(frozen=True, slots=True)
class Refusal:
    """A frame refused: its JSON-RPC error code, the reason, the request's id if read."""

    code: int
    message: str
    request_id: RequestId | None = None

    def answer(self) -> JSONRPCError:
        error = ErrorData(code=self.code, message=self.message)
        return JSONRPCError(jsonrpc="2.0", id=self.request_id, error=error)


def check_frame(line: bytes) -> str | Refusal | None:
    """One stdin line without its newline: the text for the SDK, the refusal to answer, or None
    (blank)."""
    text = line.decode("utf-8", "replace")
    if not text.strip(JSON_SPACE):
        return None
    try:
        value = parse_strict_json(text)
    except JsonValueError as error:
        return Refusal(INVALID_REQUEST, f"Invalid request: {error}", frame_id(text, text))
    except JsonError as error:
        return Refusal(PARSE_ERROR, f"Parse error: {error}", frame_id(text, text))
    if isinstance(value, list):
        return Refusal(INVALID_REQUEST, "Invalid request: a batch (MCP takes one message a line)")
    if not isinstance(value, dict):
        return Refusal(INVALID_REQUEST, "Invalid request: not a JSON-RPC message (an object)")
    its_id = request_id(value)
    if "method" in value and "id" in value and its_id is None:
        return Refusal(INVALID_REQUEST, "Invalid request: an id must be a string or an integer")
    try:
        jsonrpc_message_adapter.validate_json(text, by_name=False)
    except ValueError as error:  # the SDK's validation error (pydantic's) is a ValueError
        return Refusal(INVALID_REQUEST, f"Invalid request: {_first_problem(error)}", its_id)
    return text


def _first_problem(error: ValueError) -> str:
    """The first thing the SDK's validation says is wrong, and where."""
    errors = getattr(error, "errors", None)
    problems: list[dict[str, Any]] = (
        errors(include_url=False, include_input=False) if callable(errors) else []
    )
    if not problems:
        return "not a JSON-RPC message"
    first = problems[0]
    where = ".".join(str(part) for part in first.get("loc", ())[1:]) or "the message"
    return f"{where}: {first.get('msg', 'not valid')}"[:200]


class FrameGuard:
    """What the SDK's stdio transport reads as stdin: lines passing `check_frame` from `read`, the
    others answered on the stream `answer_through` gives."""

    def __init__(self, read: Callable[[], Awaitable[bytes]]) -> None:
        self._read = read
        self._buffer = bytearray()
        self._searched = 0  # the buffer holds no newline before this offset
        self._ended = False  # no more input
        self._stopped = False  # the server took no more answers: nothing more is handed on
        self._answers: Any = None
        self._ready = anyio.Event()

    def answer_through(self, stream: Any) -> None:
        """Send the refusals' answers on `stream` (an SDK write stream of SessionMessage)."""
        self._answers = stream
        self._ready.set()

    def __aiter__(self) -> FrameGuard:
        return self

    async def __anext__(self) -> str:
        while True:
            line = None if self._stopped else await self._next_line()
            if line is None:
                raise StopAsyncIteration
            checked = check_frame(line) if isinstance(line, bytes) else line
            if isinstance(checked, str):
                return checked
            if checked is not None:
                await self._answer(checked)

    async def _answer(self, refusal: Refusal) -> None:
        logger.info("memtab mcp: refused a frame (%d): %s", refusal.code, refusal.message)
        await self._ready.wait()
        try:
            await self._answers.send(SessionMessage(refusal.answer()))
        except (anyio.ClosedResourceError, anyio.BrokenResourceError):
            self._stopped = True

    async def _chunk(self) -> bytes:
        if self._ended:
            return b""
        chunk = await self._read()
        self._ended = not chunk
        return chunk

    async def _next_line(self) -> bytes | Refusal | None:
        """The next line, a refusal of one over the cap, or None at the end."""
        while True:
            newline = self._buffer.find(b"\n", self._searched)
            if newline > MAX_FRAME_BYTES:
                tail = self._buffer[newline - ID_WINDOW_CHARS : newline]
                refusal = _over_cap(self._buffer[:ID_WINDOW_CHARS], tail, newline)
                del self._buffer[: newline + 1]
                self._searched = 0
                return refusal
            if newline >= 0:
                line = bytes(self._buffer[:newline])
                del self._buffer[: newline + 1]
                if not self._buffer:  # let go of what a long line made it take
                    self._buffer = bytearray()
                self._searched = 0
                return line
            if len(self._buffer) > MAX_FRAME_BYTES:
                return await self._discard_over_cap()
            self._searched = len(self._buffer)
            chunk = await self._chunk()
            if not chunk:
                line, self._buffer, self._searched = bytes(self._buffer), bytearray(), 0
                return line or None
            self._buffer += chunk

    async def _discard_over_cap(self) -> Refusal:
        """Discard the rest of a line over the cap, keeping its ends for the id: the refusal."""
        head = bytes(self._buffer[:ID_WINDOW_CHARS])
        tail = bytes(self._buffer[-ID_WINDOW_CHARS:])
        size = len(self._buffer)
        self._buffer, self._searched = bytearray(), 0
        while True:
            chunk = await self._chunk()
            newline = chunk.find(b"\n")
            part = chunk if newline < 0 else chunk[:newline]
            size += len(part)
            tail = (tail + part)[-ID_WINDOW_CHARS:]
            if newline >= 0:
                self._buffer += chunk[newline + 1 :]
                break
            if not chunk:
                break
        return _over_cap(head, tail, size)


def _over_cap(head: bytes | bytearray, tail: bytes | bytearray, size: int) -> Refusal:
    """The refusal of a frame of `size` bytes over the cap."""
    its_id = frame_id(
        bytes(head[:ID_WINDOW_CHARS]).decode("utf-8", "replace"),
        bytes(tail[-ID_WINDOW_CHARS:]).decode("utf-8", "replace"),
    )
    message = (
        f"Invalid request: the frame is over the {MAX_FRAME_BYTES}-byte cap ({size} bytes); "
        "it was not read"
    )
    return Refusal(INVALID_REQUEST, message, its_id)


STDIN_CLAIMED = False
"""Whether this process's server took stdin."""


@contextmanager
def claimed_stdin() -> Iterator[int]:
    """The descriptor the frames come in on: stdin duplicated while fd 0 is the null device,
    restored at the end (the duplicate never closed)."""
    global STDIN_CLAIMED
    STDIN_CLAIMED = True
    try:
        wire = os.dup(0)
    except OSError:  # no stdin at all: read in place, which ends at once
        yield 0
        return
    try:
        null = os.open(os.devnull, os.O_RDONLY)
        try:
            os.dup2(null, 0)
        finally:
            os.close(null)
        with suppress(OSError):
            rebind_std_handle_to_fd(0)
    except OSError:  # not diverted: read the duplicate all the same
        pass
    try:
        yield wire
    finally:
        with suppress(OSError):
            os.dup2(wire, 0)
            rebind_std_handle_to_fd(0)


async def read_chunk(fd: int) -> bytes:
    """Up to CHUNK_BYTES from `fd`, on a worker thread; empty at the end (or an error)."""
    try:
        return await anyio.to_thread.run_sync(
            partial(os.read, fd, CHUNK_BYTES), abandon_on_cancel=True
        )
    except OSError:
        return b""


@asynccontextmanager
async def guarded_stdio_server() -> AsyncIterator[tuple[Any, Any]]:
    """The SDK's stdio transport with its stdin read through a `FrameGuard`."""
    with claimed_stdin() as wire:
        async with guarded_streams(partial(read_chunk, wire)) as streams:
            yield streams


@asynccontextmanager
async def guarded_streams(
    read: Callable[[], Awaitable[bytes]], text_out: Any = None
) -> AsyncIterator[tuple[Any, Any]]:
    """The SDK's stdio transport over any byte stream: frames from `read` through a `FrameGuard`,
    answers to `text_out` (None: stdout)."""
    guard = FrameGuard(read)
    stdin = cast("anyio.AsyncFile[str]", guard)  # the transport only iterates it
    async with stdio_server(stdin=stdin, stdout=text_out) as (read_stream, write_stream):
        guard.answer_through(write_stream)
        yield read_stream, write_stream
