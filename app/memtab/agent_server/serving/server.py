"""`memtab mcp`: Memtab's memory as an MCP server (docs/formats.md §22), over stdio or a host's
socket: the frames through `frames`, the client's first request deciding the session's era — the
`initialize` handshake served by Memtab itself (`mcp_session`), the 2026-07-28 era by the SDK
(`sdk_server`, imported then) — what the session serves decided by the client's roots (§22.9)."""

from __future__ import annotations

import contextlib
import gc
import json
import logging
import os
import sys
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from functools import partial

import anyio
import anyio.to_thread

from memtab.agent_server.service import MemoryService
from memtab.agent_server.serving.frames import FrameGuard, Message, claimed_stdin, read_chunk
from memtab.agent_server.serving.mcp_session import McpSession, opens_modern

logger = logging.getLogger(__name__)

WriteBytes = Callable[[bytes], Awaitable[None]]
WriteNow = Callable[[bytes], None]
"""Writes bytes whole from a worker thread, blocking while the reader is behind."""
WIRE_WAIT_S = 0.0005
WIRE_WAIT_MAX_S = 0.05


class Answers:
    """The session's answers written whole, one line each, one at a time — from the loop, or (with
    `write_now`, a blocking writer) from the session's worker thread."""

    def __init__(self, write: WriteBytes, write_now: WriteNow | None = None) -> None:
        self._write = write
        self._lock = anyio.Lock()
        self._wire = threading.Lock()  # held for each line, whichever thread writes it
        self.write_now = write_now

    async def send(self, message: Message) -> None:
        await self.write(encoded(message))

    async def send_text(self, text: str) -> None:
        await self.write(text.encode("utf-8", "replace"))

    async def write(self, data: bytes) -> None:
        async with self._lock:
            wait_s = WIRE_WAIT_S
            while not self._wire.acquire(blocking=False):  # a worker's line going out
                await anyio.sleep(wait_s)
                wait_s = min(2 * wait_s, WIRE_WAIT_MAX_S)  # longer when the client reads slowly
            try:
                await self._write(data)
            finally:
                self._wire.release()

    def send_now(self, message: Message) -> None:
        """`message` written from the calling thread, waiting for the wire (never on the loop)."""
        assert self.write_now is not None
        data = encoded(message)
        with self._wire:
            self.write_now(data)


def encoded(message: Message) -> bytes:
    """A message's line as the session writes it."""
    try:
        line = json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate in a text: written escaped
        line = json.dumps(message, separators=(",", ":")).encode("ascii")
    return line + b"\n"


async def serve_frames(
    service: MemoryService,
    read: Callable[[], Awaitable[bytes]],
    write: WriteBytes,
    write_now: WriteNow | None = None,
) -> None:
    """Serve one session of `service`: frames from `read`, answers to `write` (or, for a call
    answered on the session's worker, `write_now`)."""
    guard = FrameGuard(read)
    answers = Answers(write, write_now)
    guard.answer_through(answers.send)
    lead: list[tuple[str, Message]] = []
    async for text, message in guard.messages():
        lead.append((text, message))
        if "method" in message and "id" in message:
            break  # the first request: it decides the era
    if lead and opens_modern(lead[-1][1]):
        from memtab.agent_server.serving import sdk_server  # lazy: the 2026-07-28 era is the SDK's

        await sdk_server.serve_sdk_session(
            service, [text for text, _ in lead], guard, answers.send_text
        )
        return
    send_now = answers.send_now if write_now is not None else None
    await McpSession(service, answers.send, send_now).run(_chained(lead, guard))


async def _chained(lead: list[tuple[str, Message]], guard: FrameGuard) -> AsyncIterator[Message]:
    for _, message in lead:
        yield message
    async for _, message in guard.messages():
        yield message


def keep_start_out_of_collections() -> None:
    """Move what the start made out of the cycle collector's sight before serving (a first listing
    makes many objects)."""
    gc.freeze()


def serve_stdio(service: MemoryService) -> None:
    """Serve `service` on this process's stdin and stdout until the client hangs up."""
    keep_start_out_of_collections()

    async def run() -> None:
        with claimed_stdin() as wire_in, _claimed_stdout() as wire_out:
            await serve_frames(
                service,
                partial(read_chunk, wire_in),
                partial(_write_fd, wire_out),
                partial(_write_fd_now, wire_out),
            )

    logger.info("memtab mcp: serving over stdio (writes: %s)", service.writes)
    try:
        anyio.run(run)
    except KeyboardInterrupt:
        print("memtab mcp: stopped", file=sys.stderr)
    finally:
        service.close()


@contextlib.contextmanager
def _claimed_stdout() -> Iterator[int]:
    """The descriptor answers go out on: stdout duplicated while fd 1 is stderr (a stray print
    misses the wire), restored at the end."""
    wire = os.dup(1)
    diverted = False
    with contextlib.suppress(OSError):
        os.dup2(2, 1)
        diverted = True
    try:
        yield wire
    finally:
        if diverted:
            with contextlib.suppress(OSError):
                os.dup2(wire, 1)
        os.close(wire)


async def _write_fd(fd: int, data: bytes) -> None:
    """`data` written whole to `fd`, on a worker thread (a slow reader never stalls the loop);
    a closed pipe ends the session as the client leaving does."""
    try:
        await anyio.to_thread.run_sync(_write_fd_now, fd, data)
    except OSError as error:
        raise anyio.BrokenResourceError from error


def _write_fd_now(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]
