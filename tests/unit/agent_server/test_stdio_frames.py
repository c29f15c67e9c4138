"""`memtab mcp` over stdio, sent frames a broken or hostile client writes: each gets its
JSON-RPC error within a second (it used to get none: the client waited for ever), twenty
10 MB proposals are refused without the server's memory growing, and the server goes on."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memtab.agent_server.serving.frames import MAX_FRAME_BYTES
from memtab.store.files import MAX_FILE_BYTES
from memtab.store.home import Home

from .raw_stdio import RawServer, raw_server

# slow: each test starts `memtab mcp` (~1 s of CPU) and pushes up to 200 MB through it
pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("served")]

PARSE, INVALID = -32700, -32600
MB = 1024 * 1024


def tools_call(request_id: int, name: str, arguments: dict[str, object]) -> bytes:
    message = {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "tools/call",
        "params": {"name": name, "arguments": arguments},
    }
    return json.dumps(message).encode() + b"\n"


def refused(server: RawServer, request_id: int | None, code: int) -> str:
    answer = server.answer(within_s=1)
    assert (answer["id"], answer["error"]["code"]) == (request_id, code), answer
    message: str = answer["error"]["message"]
    return message


def a_call_still_works(server: RawServer) -> None:
    server.send(tools_call(99, "view", {"path": "/memories"}))
    answer = server.answer(within_s=10)
    assert answer["id"] == 99 and not answer["result"]["isError"], answer


HOSTILE = [
    (b'{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"a":"\\ud800"}}', 1, INVALID),
    (b'{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"a":'
     + b"[" * 200 + b"]" * 200 + b"}}", 2, INVALID),
    (b'{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"a":"\x00"}}', 3, PARSE),
    (b'\xef\xbb\xbf{"jsonrpc":"2.0","id":4,"method":"tools/list"}', 4, PARSE),
    (b'[{"jsonrpc":"2.0","id":5,"method":"tools/list"}]', None, INVALID),
    (b'{"jsonrpc":"2.0","id":1e999,"method":"tools/list"}', None, INVALID),
]  # fmt: skip


def test_every_frame_the_sdk_cannot_take_is_answered_at_once(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    home.global_root.mkdir(parents=True)
    with raw_server(home.root, "--writes", "off") as server:
        for frame, request_id, code in HOSTILE:
            server.send(frame + b"\n")
            refused(server, request_id, code)
        a_call_still_works(server)


def test_twenty_10_mb_proposals_are_refused_and_the_server_stays_small(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    home.global_root.mkdir(parents=True)
    text = "x" * (10 * MB)
    with raw_server(home.root) as server:
        before = server.peak_rss_kib()
        for number in range(1, 21):
            server.send(tools_call(number, "create", {"path": f"/memories/global/{number}.md",
                                                      "file_text": text}))  # fmt: skip
            message = refused(server, number, INVALID)
            assert f"over the {MAX_FRAME_BYTES}-byte cap" in message
        # within the frame's cap, the direct write's cap refuses it
        server.send(tools_call(21, "create", {"path": "/memories/global/a.md",
                                              "file_text": "y" * (3 * MB)}))  # fmt: skip
        answer = server.answer(within_s=5)["result"]
        assert answer["isError"] and answer["content"][0]["text"].startswith(
            f"Memory files are limited to {MAX_FILE_BYTES} bytes (got {3 * MB})"
        )
        after = server.peak_rss_kib()
        a_call_still_works(server)
    if before is not None and after is not None:
        assert after - before < 48 * 1024, (before, after)
    assert not (home.root / "memtab" / "proposals").exists()
