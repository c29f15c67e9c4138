"""The last answer of `memtab mcp` (`bridge/fallback.py`, docs/formats.md §22.8): with the
standard library alone, it answers `initialize` as the SDK would, lists the read tools
and answers every call with the reason memory is not served."""

from __future__ import annotations

import json
import os
import threading

from mcp_types import version

from memtab import __version__
from memtab.agent_server.bridge.fallback import (
    HANDSHAKE_VERSIONS,
    LATEST_HANDSHAKE,
    answer,
    reason_words,
    serve_reason,
)
from memtab.agent_server.server_names import READ_TOOLS

WORDS = reason_words("the reason")


def test_it_speaks_the_handshakes_the_sdk_speaks() -> None:
    assert HANDSHAKE_VERSIONS == version.HANDSHAKE_PROTOCOL_VERSIONS
    assert LATEST_HANDSHAKE == version.LATEST_HANDSHAKE_VERSION


def test_initialize_is_answered_in_the_clients_revision_saying_why() -> None:
    asked = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "c"}}
    result = answer({"jsonrpc": "2.0", "id": 7, "method": "initialize", "params": asked}, WORDS)
    assert result == {
        "jsonrpc": "2.0",
        "id": 7,
        "result": {
            "protocolVersion": "2025-06-18",
            "capabilities": {"tools": {"listChanged": False}},
            "serverInfo": {"name": "memtab", "version": __version__},
            "instructions": WORDS,
        },
    }
    later = {**asked, "protocolVersion": "2099-01-01"}
    newest = answer({"jsonrpc": "2.0", "id": 8, "method": "initialize", "params": later}, WORDS)
    assert newest is not None and newest["result"]["protocolVersion"] == LATEST_HANDSHAKE  # type: ignore[index]


def test_the_read_tools_are_listed_and_every_call_says_why() -> None:
    listed = answer({"jsonrpc": "2.0", "id": "a", "method": "tools/list"}, WORDS)
    assert listed is not None
    tools = listed["result"]["tools"]  # type: ignore[index]
    assert [tool["name"] for tool in tools] == list(READ_TOOLS)
    assert all(tool["description"] == WORDS for tool in tools)
    call = {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "search"}}
    assert answer(call, WORDS) == {
        "jsonrpc": "2.0",
        "id": 3,
        "result": {"content": [{"type": "text", "text": WORDS}], "isError": True},
    }
    assert WORDS == (
        "Memtab cannot serve memory in this session: the reason. Tell the user: running "
        "`memtab doctor` in a terminal says more; memory comes back in the next session once "
        "it is fixed."
    )


def test_notifications_are_taken_in_silence_and_other_methods_are_not_found() -> None:
    assert answer({"jsonrpc": "2.0", "method": "notifications/initialized"}, WORDS) is None
    assert answer({"jsonrpc": "2.0", "id": 1, "result": {}}, WORDS) is None
    assert answer({"jsonrpc": "2.0", "id": True, "method": "ping"}, WORDS) is None
    unknown = answer({"jsonrpc": "2.0", "id": 2, "method": "resources/list"}, WORDS)
    assert unknown is not None and unknown["error"]["code"] == -32601  # type: ignore[index]


def test_it_serves_until_the_agent_hangs_up() -> None:
    agent_in, to_server = os.pipe()
    from_server, agent_out = os.pipe()
    ping = b'{"jsonrpc": "2.0", "id": 1, "method": "ping"}\n'
    os.write(to_server, b"not json\n\n" + ping[:10])
    served: list[int] = []
    thread = threading.Thread(
        target=lambda: served.append(serve_reason("why", stdin=agent_in, stdout=agent_out))
    )
    thread.start()
    os.write(to_server, ping[10:])
    os.close(to_server)
    thread.join(10)
    os.close(agent_out)
    with os.fdopen(from_server, "rb") as out:
        lines = [json.loads(line) for line in out.read().splitlines()]
    os.close(agent_in)
    assert served == [0]
    assert lines == [
        {
            "jsonrpc": "2.0",
            "id": None,
            "error": {"code": -32700, "message": "Parse error: not JSON"},
        },
        {"jsonrpc": "2.0", "id": 1, "result": {}},
    ]
