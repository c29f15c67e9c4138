"""The frames `memtab mcp` reads from stdin or a bridge, checked before the session sees them
(docs/formats.md §22.7): capped, read strictly, one JSON-RPC message each; a bad one answered at
once (-32700 or -32600, with its id where readable) rather than dropped. Standard library and
anyio: the SDK is loaded only by a session in its era (`sdk_server`)."""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from functools import partial
from typing import Any

import anyio
import anyio.to_thread

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
PARSE_ERROR = -32700  # JSON-RPC's
INVALID_REQUEST = -32600

Message = dict[str, Any]
"""One JSON-RPC message as read."""
Send = Callable[[Message], Awaitable[None]]
"""Writes one message to the client."""


@dataclass(frozen=True, slots=True)
class Refusal:
    """A frame refused: its JSON-RPC error code, the reason, the request's id if read."""

    code: int
    message: str
    request_id: RequestId | None = None

    def answer(self) -> Message:
        error = {"code": self.code, "message": self.message}
        return {"jsonrpc": "2.0", "id": self.request_id, "error": error}


def check_frame(line: bytes) -> str | Refusal | None:
    """One stdin line without its newline: the text for the session, the refusal to answer, or
    None (blank)."""
    checked = read_frame(line)
    return checked[0] if isinstance(checked, tuple) else checked


def read_frame(line: bytes) -> tuple[str, Message] | Refusal | None:
    """One line without its newline: its text and message, the refusal to answer, or None."""
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
    problem = message_problem(value)
    if problem is not None:
        return Refusal(INVALID_REQUEST, f"Invalid request: {problem}", its_id)
    return text, value


def message_problem(value: Message) -> str | None:
    """What keeps `value` from being a JSON-RPC 2.0 message as MCP's schema (`mcp_types.jsonrpc`)
    reads one: a request, a notification, a result or an error; None when it is one."""
    if value.get("jsonrpc") != "2.0":
        return 'jsonrpc: Input should be "2.0"'
    if "method" in value:
        if not isinstance(value["method"], str):
            return "method: Input should be a valid string"
        if value.get("params") is not None and not isinstance(value["params"], dict):
            return "params: Input should be a valid dictionary"
        return None
    if not _is_id(value.get("id"), nullable="error" in value):
        return "id: Field required" if "id" not in value else "id: not a string or an integer"
    if "result" in value:
        return None if isinstance(value["result"], dict) else "result: Field required (an object)"
    error = value.get("error")
    if not isinstance(error, dict):
        return "result or error: Field required"
    if not _int_like(error.get("code")) or not isinstance(error.get("message"), str):
        return "error: Field required (an integer code and a message)"
    return None


def _int_like(value: object) -> bool:
    """Whether the schema reads `value` as an integer (it takes "7" and 7.0 as 7)."""
    if isinstance(value, float):
        return value.is_integer()
    if isinstance(value, str):
        try:
            int(value.strip())
        except ValueError:
            return False
        return True
    return isinstance(value, int)


def _is_id(value: object, *, nullable: bool) -> bool:
    return type(value) is int or isinstance(value, str) or (nullable and value is None)


class FrameGuard:
    """The frames read from `read`: the messages passing `read_frame` (`messages()`; iterated, their
    text), the others answered through what `answer_through` gives."""

    def __init__(self, read: Callable[[], Awaitable[bytes]]) -> None:
        self._read = read
        self._buffer = bytearray()
        self._searched = 0  # the buffer holds no newline before this offset
        self._ended = False  # no more input
        self._stopped = False  # the server took no more answers: nothing more is handed on
        self._send: Send | None = None
        self._ready = anyio.Event()

    def answer_through(self, send: Send) -> None:
        """Send the refusals' answers with `send`."""
        self._send = send
        self._ready.set()

    def __aiter__(self) -> FrameGuard:
        return self

    async def __anext__(self) -> str:
        return (await self.next_message())[0]

    async def messages(self) -> AsyncIterator[tuple[str, Message]]:
        """Each message passing the checks: its text and what it says."""
        while True:
            try:
                yield await self.next_message()
            except StopAsyncIteration:
                return

    async def next_message(self) -> tuple[str, Message]:
        """The next message passing the checks (StopAsyncIteration at the end)."""
        while True:
            line = None if self._stopped else await self._next_line()
            if line is None:
                raise StopAsyncIteration
            checked = read_frame(line) if isinstance(line, bytes) else line
            if isinstance(checked, tuple):
                return checked
            if checked is not None:
                await self._answer(checked)

    async def _answer(self, refusal: Refusal) -> None:
        logger.info("memtab mcp: refused a frame (%d): %s", refusal.code, refusal.message)
        await self._ready.wait()
        assert self._send is not None
        try:
            await self._send(refusal.answer())
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
        _rebind_stdin()
    except OSError:  # not diverted: read the duplicate all the same
        pass
    try:
        yield wire
    finally:
        with suppress(OSError):
            os.dup2(wire, 0)
            _rebind_stdin()


def _rebind_stdin() -> None:
    """On Windows, point the Win32 stdin handle at fd 0 too (a child inherits that one)."""
    if sys.platform == "win32":  # pragma: no cover - Windows only
        from mcp.os.win32.utilities import rebind_std_handle_to_fd  # lazy: Windows' alone

        with suppress(OSError):
            rebind_std_handle_to_fd(0)


async def read_chunk(fd: int) -> bytes:
    """Up to CHUNK_BYTES from `fd`, on a worker thread; empty at the end (or an error)."""
    try:
        return await anyio.to_thread.run_sync(
            partial(os.read, fd, CHUNK_BYTES), abandon_on_cancel=True
        )
    except OSError:
        return b""
