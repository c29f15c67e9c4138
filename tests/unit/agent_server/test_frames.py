"""`memtab mcp`'s frame guard, in-process: every frame the SDK would drop unanswered gets
a JSON-RPC error at once (-32700 not JSON, -32600 no message the server takes), with the
request's id when it can be read; a frame over the cap is answered without being held in
memory; every frame the SDK accepts reaches it unchanged."""

from __future__ import annotations

import json
import tracemalloc
from collections.abc import Iterable, Iterator
from types import SimpleNamespace
from typing import Any

import anyio
import pytest

from memtab.agent_server.serving.frames import (
    CHUNK_BYTES,
    MAX_FRAME_BYTES,
    FrameGuard,
    check_frame,
    message_problem,
)

PARSE, INVALID = -32700, -32600
CALL = b'"method":"tools/call","params":{"name":"list","arguments":{"scope":"%s"}}'

HOSTILE = [
    # (frame, code, id answered, what the message says)
    (b'{"jsonrpc":"2.0","id":1,' + CALL % b"\\ud800" + b"}", INVALID, 1, "lone surrogate"),
    (b'{"jsonrpc":"2.0","id":2,"method":"x","params":{"a":' + b"[" * 200 + b"]" * 200 + b"}}",
     INVALID, 2, "more than 128 levels"),
    (b'{"jsonrpc":"2.0","id":3,' + CALL % b"a\x00b" + b"}", PARSE, 3, "control character"),
    (b'\xef\xbb\xbf{"jsonrpc":"2.0","id":4,"method":"tools/list"}', PARSE, 4, "byte order mark"),
    (b'[{"jsonrpc":"2.0","id":5,"method":"tools/list"}]', INVALID, None, "a batch"),
    (b'{"jsonrpc":"2.0","id":1e999,"method":"tools/list"}', INVALID, None, "1e999"),
    (b'{"jsonrpc":"2.0","id":6.5,"method":"tools/list"}', INVALID, None, "string or an integer"),
    (b'{"jsonrpc":"2.0","id":true,"method":"tools/list"}', INVALID, None, "string or an integer"),
    (b'{"jsonrpc":"2.0","id":null,"method":"tools/list"}', INVALID, None, "string or an integer"),
    (b'{"jsonrpc":"2.0","id":7,"method":"x","params":{"a":NaN}}', PARSE, 7, "NaN"),
    (b'{"jsonrpc":"2.0","id":8,"method":"x","params":[1]}', INVALID, 8, "params"),
    (b'{"jsonrpc":"2.0","id":"r-9","method":"tools/call","params":{', PARSE, "r-9", "JSON"),
    # TypeScript's SDK writes the id last
    (b'{"method":"tools/call","params":{"a":"\x00"},"jsonrpc":"2.0","id":"ts-1"}',
     PARSE, "ts-1", ""),
    (b'{"jsonrpc":"2.0","id":"\\udc00","method":"x","params":{"a":"\x00"}}', PARSE, None, ""),
    (b'{"jsonrpc":"2.0","id":10,"result":5}', INVALID, None, "result"),  # an answer: never
    (b"5", INVALID, None, "not a JSON-RPC message"),
    (b"\xff\xfe", PARSE, None, "not valid JSON"),
]  # fmt: skip
ACCEPTED = [
    b'{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
    b'{"jsonrpc":"2.0","method":"notifications/initialized"}\r',
    b'{"jsonrpc":"2.0","id":"a","method":"x",'
    b'"params":{"t":"\\ud83d\\ude00 \\\\ud800","n":[1.5,-2e300]}}',
    b'{"jsonrpc":"2.0","id":12345678901234567890,"method":"x"}',
    b'{"jsonrpc":"2.0","id":2,"result":{}}',
    b'{"jsonrpc":"2.0","id":null,"error":{"code":-1,"message":"m"}}',
]  # fmt: skip


class Answers:
    """The transport's write stream, as the guard sees it."""

    def __init__(self) -> None:
        self.sent: list[Refused] = []

    async def send(self, message: dict[str, Any]) -> None:
        assert set(message) == {"jsonrpc", "id", "error"}
        self.sent.append(Refused(message))


def guard_over(chunks: Iterable[bytes]) -> tuple[FrameGuard, Answers]:
    feed: Iterator[bytes] = iter(chunks)

    async def read() -> bytes:
        return next(feed, b"")

    guard, answers = FrameGuard(read), Answers()
    guard.answer_through(answers.send)
    return guard, answers


class Refused:
    """A refusal as sent: its id and error."""

    def __init__(self, message: dict[str, Any]) -> None:
        self.message = message
        self.id = message["id"]
        error = message["error"]
        self.error = SimpleNamespace(code=error["code"], message=error["message"])


def run(chunks: Iterable[bytes]) -> tuple[list[str], list[Refused]]:
    """What the SDK is given of `chunks` read as stdin, and the answers sent."""
    guard, answers = guard_over(chunks)
    passed: list[str] = []

    async def read_all() -> None:
        with anyio.fail_after(5):  # a regression fails, never hangs
            passed.extend([line async for line in guard])

    anyio.run(read_all)
    return passed, answers.sent


def answered(error: Refused) -> dict[str, Any]:
    return json.loads(json.dumps(error.message))


@pytest.mark.parametrize(("frame", "code", "request_id", "says"), HOSTILE)
def test_a_frame_the_sdk_would_drop_gets_its_error_at_once(
    frame: bytes, code: int, request_id: int | str | None, says: str
) -> None:
    passed, (error,) = run([frame + b"\n"])
    assert passed == []
    assert answered(error) == {
        "jsonrpc": "2.0",
        "id": request_id,
        "error": {"code": code, "message": error.error.message},
    }
    assert says in error.error.message
    assert error.error.message.startswith("Parse error: " if code == PARSE else "Invalid request: ")


def test_what_the_sdk_accepts_reaches_it_unchanged_and_blank_lines_are_no_frames() -> None:
    stdin = b"\n \r\n".join(ACCEPTED) + b"\n\n"
    passed, sent = run([stdin[i : i + 7] for i in range(0, len(stdin), 7)])
    assert passed == [frame.decode() for frame in ACCEPTED]
    assert sent == []
    assert [check_frame(frame) for frame in (b"", b" \t\r")] == [None, None]
    frame = '{"jsonrpc":"2.0","id":1,"method":"x"}'
    assert check_frame(frame.encode()) == frame


def test_the_last_frame_needs_no_newline() -> None:
    passed, _ = run([ACCEPTED[0]])
    assert passed == [ACCEPTED[0].decode()]


def frame_over_cap(request_id: int | str, *, id_last: bool, size: int) -> Iterator[bytes]:
    """A tools/call frame of `size` bytes and its newline, made chunk by chunk."""
    id_member = b'"id":' + json.dumps(request_id).encode()
    head = b'{"method":"tools/call","params":{"name":"create","arguments":{"file_text":"'
    tail = b'"}},"jsonrpc":"2.0",' + id_member + b"}\n"
    if not id_last:
        head = b'{"jsonrpc":"2.0",' + id_member + b"," + head[1:]
        tail = b'"}}}\n'
    yield head
    body = size - len(head) - len(tail) + 1
    while body > 0:
        yield b"x" * min(CHUNK_BYTES, body)
        body -= CHUNK_BYTES
    yield tail


def test_a_frame_over_the_cap_is_answered_without_being_held() -> None:
    size = 5 * MAX_FRAME_BYTES
    chunks = [
        *frame_over_cap(1, id_last=False, size=size),
        *frame_over_cap("last", id_last=True, size=MAX_FRAME_BYTES + 1),
        ACCEPTED[0] + b"\n",
    ]
    tracemalloc.start()
    try:
        passed, sent = run(chunks)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert passed == [ACCEPTED[0].decode()]
    assert [(e.id, e.error.code) for e in sent] == [(1, INVALID), ("last", INVALID)]
    assert sent[0].error.message == (
        f"Invalid request: the frame is over the {MAX_FRAME_BYTES}-byte cap ({size} bytes); "
        "it was not read"
    )
    assert peak < 1.5 * MAX_FRAME_BYTES


def test_a_frame_at_the_cap_is_read() -> None:
    frame = b'{"jsonrpc":"2.0","id":1,"method":"x","params":{"t":"'
    frame += b"y" * (MAX_FRAME_BYTES - len(frame) - 3) + b'"}}'
    assert len(frame) == MAX_FRAME_BYTES
    passed, sent = run([frame[i : i + CHUNK_BYTES] for i in range(0, len(frame), CHUNK_BYTES)])
    assert (len(passed), sent) == (1, [])


def test_an_answer_the_server_can_no_longer_take_ends_the_input() -> None:
    async def closed(message: dict[str, Any]) -> None:
        raise anyio.ClosedResourceError

    feed = iter([b"[]\n" + ACCEPTED[0] + b"\n"])

    async def read() -> bytes:
        return next(feed, b"")

    guard = FrameGuard(read)
    guard.answer_through(closed)

    async def read_all() -> list[str]:
        with anyio.fail_after(5):
            return [line async for line in guard]

    assert anyio.run(read_all) == []


SHAPES = [
    {"jsonrpc": "2.0", "id": 1, "method": "m"},
    {"jsonrpc": "2.0", "id": "a", "method": "m", "params": None},
    {"jsonrpc": "2.0", "method": "m", "params": {}},
    {"jsonrpc": "2.0", "method": 5},
    {"jsonrpc": "2.0", "id": 1, "method": "m", "params": "x"},
    {"jsonrpc": "1.0", "id": 1, "method": "m"},
    {"id": 1, "method": "m"},
    {"jsonrpc": "2.0", "id": 1, "result": {}},
    {"jsonrpc": "2.0", "id": 1, "result": []},
    {"jsonrpc": "2.0", "result": {}},
    {"jsonrpc": "2.0", "id": None, "result": {}},
    {"jsonrpc": "2.0", "id": 1.5, "result": {}},
    {"jsonrpc": "2.0", "id": None, "error": {"code": 1, "message": "m"}},
    {"jsonrpc": "2.0", "id": 1, "error": {"code": 1, "message": "m", "data": [1]}},
    {"jsonrpc": "2.0", "id": 1, "error": {"code": "1", "message": "m"}},
    {"jsonrpc": "2.0", "id": 1, "error": {"code": "one", "message": "m"}},
    {"jsonrpc": "2.0", "id": 1, "error": {"code": 1.5, "message": "m"}},
    {"jsonrpc": "2.0", "id": True, "method": "m"},
    {"jsonrpc": "2.0", "id": 1, "error": {"code": 1}},
    {"jsonrpc": "2.0", "id": 1, "error": "e"},
    {"jsonrpc": "2.0", "id": 1},
    {"jsonrpc": "2.0"},
]


@pytest.mark.parametrize("message", SHAPES)
def test_a_message_passes_exactly_when_the_sdks_schema_takes_it(message: dict[str, Any]) -> None:
    """The guard checks what the SDK's models check (`mcp_types.jsonrpc`), without them."""
    from mcp_types import jsonrpc_message_adapter

    try:
        jsonrpc_message_adapter.validate_python(message, by_name=False, strict=False)
        sdk_takes = True
    except ValueError:
        sdk_takes = False
    assert (message_problem(message) is None) == sdk_takes
