"""The day's first session (docs/formats.md §22.8, issue 97): with no host up, the bridge answers
`initialize` and `tools/list` at once with what a host answered the same setup before — exactly
those answers, what a warm host answers too — and hands the first tool call to the host it starts;
answers made from a registry changed since wait for the host. The test holds the lock bridges take
to start a host, so that only the bridge itself can answer while it is held."""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from memtab.agent_server.bridge.rendezvous import rendezvous
from support.demo_homes import copied_demo_home
from support.mcp_hosts import end_hosts, sockets

from ..raw_stdio import RawServer
from ..stdio_client import server_parameters

# slow: each test starts `memtab mcp` processes and a host (~1 s of CPU each)
pytestmark = pytest.mark.slow

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "claude-code", "version": "2.1.332"},
    },
}
STARTING_S = 90.0  # a host's start on a loaded 2-core machine


@pytest.fixture
def demo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.delenv("MEMTAB_MCP_SHARED")
    try:
        yield copied_demo_home(tmp_path / "demo").root
    finally:
        end_hosts()


@contextlib.contextmanager
def spawned(home: Path, stderr: int | None = subprocess.DEVNULL, **env: str) -> Iterator[RawServer]:
    """`memtab mcp --home home` as an agent spawns it, not yet spoken to (`env` added)."""
    parameters = server_parameters(home, "--writes", "off")
    with subprocess.Popen(
        [parameters.command, *parameters.args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=stderr,
        env={**(parameters.env or {}), "PATH": os.environ.get("PATH", ""), **env},
    ) as process:
        server = RawServer(process)
        try:
            yield server
        finally:
            with contextlib.suppress(BrokenPipeError):
                assert process.stdin is not None
                process.stdin.close()
            process.wait(30)


def send(server: RawServer, message: dict[str, Any]) -> None:
    server.send(json.dumps(message).encode() + b"\n")


def opened(server: RawServer, within_s: float) -> tuple[dict[str, Any], dict[str, Any]]:
    """The session opened as agents open it: the results of `initialize` and `tools/list`."""
    send(server, INITIALIZE)
    initialized = server.answer(within_s)
    send(server, {"jsonrpc": "2.0", "method": "notifications/initialized"})
    send(server, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
    listed = server.answer(within_s)
    assert (initialized["id"], listed["id"]) == (1, 2)
    return initialized["result"], listed["result"]


@contextlib.contextmanager
def no_host_can_start(home: Path) -> Iterator[None]:
    """Hold the lock every bridge takes before it starts a host."""
    handle = os.open(rendezvous(str(home), os.environ).start_lock, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield
    finally:
        os.close(handle)


def search(server: RawServer, within_s: float) -> dict[str, Any]:
    call = {"name": "search", "arguments": {"query": "token"}}
    send(server, {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": call})
    answer = server.answer(within_s)
    assert answer["id"] == 3 and not answer["result"]["isError"], answer
    return answer


def test_the_days_first_session_is_answered_before_any_host_as_a_host_answers(demo: Path) -> None:
    with spawned(demo) as yesterday:  # starts a host: its answers are kept
        hosts_said = opened(yesterday, STARTING_S)
        search(yesterday, STARTING_S)
    end_hosts()
    with spawned(demo) as first:
        with no_host_can_start(demo):
            assert opened(first, within_s=30) == hosts_said
            assert sockets() == []  # the bridge answered: no host is up
            with pytest.raises(AssertionError):
                search(first, within_s=0.5)  # the call waits for the host
        assert first.answer(STARTING_S)["id"] == 3  # the host it started answers it
        assert len(sockets()) == 1
        with pytest.raises(AssertionError):  # the host's answers matched: nothing to list again
            first.answer(within_s=1.0)
    with spawned(demo) as warm:  # a warm host answers the same
        assert opened(warm, STARTING_S) == hosts_said
    end_hosts()
    registry = demo / "config.json"
    registry.write_text(registry.read_text())  # rewritten since: what it says may differ
    with spawned(demo) as after:
        with no_host_can_start(demo):
            send(after, INITIALIZE)
            with pytest.raises(AssertionError):
                after.answer(within_s=2.0)  # not from answers made from the registry before
        assert after.answer(STARTING_S)["id"] == 1


def test_the_first_tool_call_is_answered_by_a_host_that_never_loaded_the_sdk(demo: Path) -> None:
    # Importing the SDK was most of a cold host's start (issue 97): the host the bridge starts
    # serves the `initialize` era itself. Python lists every module the host imports in its log.
    with spawned(demo, PYTHONPROFILEIMPORTTIME="1") as first:
        opened(first, STARTING_S)
        search(first, STARTING_S)
        log = Path(rendezvous(str(demo), os.environ).log).read_text()
    lines = [line for line in log.splitlines() if line.startswith("import time:")]
    imported = {line.rsplit("|", 1)[1].strip() for line in lines}
    assert "memtab.agent_server.hosting.host" in imported  # the host's imports are there
    assert not {"mcp", "mcp_types", "pydantic", "pydantic_core"} & imported


def test_a_probe_for_the_stateless_protocol_is_answered_at_once_on_a_cold_home(demo: Path) -> None:
    # Claude Code 2.1.332's first request; it restarts a server that has not answered in 3 s.
    with spawned(demo) as first, no_host_can_start(demo):
        send(first, {"jsonrpc": "2.0", "id": 0, "method": "server/discover", "params": {}})
        assert first.answer(within_s=2.0)["error"]["code"] == -32601  # "initialize instead"
        assert sockets() == []


@pytest.mark.parametrize("moment", ["while its host starts", "serving"])
def test_an_agent_stopping_the_bridge_with_sigint_ends_it_quietly(demo: Path, moment: str) -> None:
    with spawned(demo, stderr=subprocess.PIPE) as session:
        if moment == "serving":
            opened(session, STARTING_S)
        else:  # the bridge answers a ping itself: it is in its loop, the host starting
            send(session, {"jsonrpc": "2.0", "id": 0, "method": "ping"})
            assert session.answer(STARTING_S) == {"jsonrpc": "2.0", "id": 0, "result": {}}
        session.process.send_signal(signal.SIGINT)
        assert session.process.wait(30) == 0
        assert session.process.stderr is not None
        assert b"Traceback" not in session.process.stderr.read()
