"""What the bridge reads of a request to say what became of it (`bridge/pump.py`,
docs/formats.md §22.8): its words and the server's agree on which tools change nothing
and on the write mode a session has without `--writes`."""

from __future__ import annotations

from memtab.agent_server.bridge.pump import (
    DEFAULT_WRITES,
    READ_TOOLS,
    change_in_flight,
    writes_option,
)
from memtab.agent_server.server_names import DEFAULT_WRITES as SERVED_DEFAULT_WRITES
from memtab.agent_server.server_names import READ_TOOLS as SERVED_READ_TOOLS
from memtab.agent_server.tools import CHANGE_TOOLS


def test_the_bridge_and_the_server_agree() -> None:
    assert READ_TOOLS == SERVED_READ_TOOLS
    assert DEFAULT_WRITES == SERVED_DEFAULT_WRITES


def test_every_change_tool_is_a_change_in_flight_and_no_read_is() -> None:
    def call(name: str) -> dict[str, object]:
        return {"method": "tools/call", "params": {"name": name, "arguments": {}}}

    for name in CHANGE_TOOLS:
        assert change_in_flight(call(name), "direct") is not None, name
    for name in READ_TOOLS:
        assert change_in_flight(call(name), "direct") is None, name
    assert change_in_flight({"method": "tools/list"}, "direct") is None
    assert change_in_flight({"method": "tools/call", "params": "x"}, "direct") is None


def test_the_write_mode_is_the_last_given() -> None:
    assert writes_option(["mcp"]) == DEFAULT_WRITES
    assert writes_option(["mcp", "--writes", "off", "--writes=direct"]) == "direct"
