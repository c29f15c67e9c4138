"""The bridge's own answers while its host starts (`bridge/front.py`, `bridge/pump.py`,
docs/formats.md §22.8), between a test playing the agent and one playing the host: the agent's
`initialize` and `tools/list` answered from what a host answered before, the rest held; once the
host is up it is told the session first (the `initialize` replayed, `initialized`), then what
the agent sent, and a tools list that differs from the one answered is replaced; a start that fails
leaves the session to a server of its own, or to this process when nothing was answered."""

from __future__ import annotations

import os
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from memtab.agent_server.bridge.front import Front
from memtab.agent_server.bridge.known_answers import Answers, KnownAnswers, setup_key
from memtab.agent_server.bridge.pump import NoHostError, Pump, Reached

from .test_pump import INITIALIZE, INITIALIZED, WITHIN_S, Host, _line, _Reader

HOSTS_INITIALIZE = {"protocolVersion": "2025-11-25", "instructions": "Memtab is the user's memory"}
KEPT_TOOLS = {"tools": [{"name": "search"}]}
HOSTS_TOOLS = {"tools": [{"name": "search"}, {"name": "view"}]}
WORDS = ["mcp", "--writes", "off"]
CALL = {"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "search"}}


class Starting:
    """A host's start the test ends: `reach()` a host, or `fail()`."""

    def __init__(self) -> None:
        self.fd, self._done = os.pipe()
        self.reached: Reached | None = None
        self.error = "the shared server did not start"
        self.host: Host | None = None

    def reach(self) -> Host:
        bridge_end, host_end = socket.socketpair()
        self.reached, self.host = Reached(bridge_end, []), Host(host_end)
        os.write(self._done, b"!")
        return self.host

    def fail(self, why: str) -> None:
        self.error = why
        os.write(self._done, b"!")

    def close(self) -> None:
        os.close(self.fd)
        os.close(self._done)


class Cold:
    """The pump on a thread with no host up yet, its answers kept in `folder`."""

    def __init__(self, folder: Path, *, instead: socket.socket | None = None) -> None:
        self.starting = Starting()
        self.instead = instead
        agent_in, self._agent_writes = os.pipe()
        self._agent_reads, agent_out = os.pipe()
        self.agent = _Reader(lambda n: os.read(self._agent_reads, n), self._agent_reads)
        self.pump = Pump(
            None,
            self._no_second_host,
            starting=self.starting,  # type: ignore[arg-type]
            front=Front(str(folder), WORDS, "/src/app", {"HOME": "/u"}),
            instead=self._instead,
            stdin=agent_in,
            stdout=agent_out,
        )
        self._ends = (agent_in, agent_out)
        self.status: int | None = None
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _no_second_host(self) -> Reached:
        raise NoHostError("none can start")

    def _instead(self) -> Reached:
        if self.instead is None:
            raise NoHostError("none serves it")
        return Reached(self.instead)

    def _run(self) -> None:
        try:
            self.status = self.pump.run()
        finally:
            for end in self._ends:
                os.close(end)

    def agent_sends(self, *messages: dict[str, Any]) -> None:
        os.write(self._agent_writes, b"".join(_line(message) for message in messages))

    def close(self) -> None:
        os.close(self._agent_writes)
        if self.starting.host is not None:
            self.starting.host.die()
        self._thread.join(WITHIN_S)
        os.close(self._agent_reads)


@pytest.fixture
def kept(tmp_path: Path) -> Path:
    """The answers a host gave this setup before."""
    key = setup_key(WORDS, "/src/app", {"HOME": "/u"}, INITIALIZE["params"])
    KnownAnswers(str(tmp_path), key).keep(Answers(HOSTS_INITIALIZE, KEPT_TOOLS), [])
    return tmp_path


@pytest.fixture
def cold(kept: Path) -> Iterator[Cold]:
    session = Cold(kept)
    try:
        yield session
    finally:
        session.close()


def listed(request_id: object) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/list"}


def result(request_id: object, value: dict[str, Any]) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "result": value}


def opened_here(session: Cold) -> None:
    """The agent opens its session and makes a call; the bridge answers what it knows."""
    session.agent_sends(INITIALIZE, INITIALIZED, listed(1), CALL)
    assert session.agent.line() == result(0, HOSTS_INITIALIZE)
    assert session.agent.line() == result(1, KEPT_TOOLS)
    assert session.agent.quiet(0.2)  # the call waits for the host


def told_the_session(host: Host) -> None:
    """The host is told the session first, as the agent opened it, then the agent's call."""
    replayed = host.next_not_ping()
    assert replayed is not None and replayed["method"] == "initialize"
    assert replayed["params"] == INITIALIZE["params"] and replayed["id"] != 0
    host.send(result(replayed["id"], HOSTS_INITIALIZE))
    assert host.next_not_ping() == INITIALIZED
    assert host.next_not_ping() == CALL


def test_the_agent_is_answered_before_the_host_and_a_list_that_differs_is_replaced(
    cold: Cold, kept: Path
) -> None:
    opened_here(cold)
    host = cold.starting.reach()
    told_the_session(host)
    check = host.next_not_ping()
    assert check is not None and check["method"] == "tools/list" and check["id"] != 1
    host.send(result(7, {"content": []}))
    host.send(result(check["id"], HOSTS_TOOLS))
    assert cold.agent.line() == result(7, {"content": []})
    changed = cold.agent.line()
    assert changed == {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}
    cold.agent_sends(listed(2))
    assert host.next_not_ping() == listed(2)  # the agent lists again: the host answers
    key = setup_key(WORDS, "/src/app", {"HOME": "/u"}, INITIALIZE["params"])
    now = KnownAnswers(str(kept), key).read()
    assert now is not None and now.tools == HOSTS_TOOLS  # kept for the next session


def test_a_start_that_fails_after_answers_goes_on_in_a_server_of_its_own(kept: Path) -> None:
    bridge_end, own_end = socket.socketpair()
    own = Host(own_end)  # the session's own server, once the start failed
    session = Cold(kept, instead=bridge_end)
    try:
        opened_here(session)
        session.starting.fail("the shared server was not ready in 30 s")
        told_the_session(own)
        own.send(result(7, {"content": []}))
        assert session.agent.line() == result(7, {"content": []})
    finally:
        own.die()
        session.close()


def test_a_start_that_fails_before_any_answer_leaves_everything_to_this_process(
    tmp_path: Path,
) -> None:
    session = Cold(tmp_path)  # nothing kept: nothing answered here
    try:
        session.agent_sends(INITIALIZE, CALL)
        assert session.agent.quiet(0.2)
        session.starting.fail("the shared server could not start (see its log)")
        session._thread.join(WITHIN_S)
        assert session.pump.carried == _line(INITIALIZE) + _line(CALL)
        assert session.pump.lost_because == "the shared server could not start (see its log)"
    finally:
        session.close()


def test_a_probe_for_the_stateless_protocol_is_told_at_once_to_initialize(tmp_path: Path) -> None:
    # Claude Code 2.1.332 probes `server/discover` first and restarts a server silent for 3 s; a
    # cold home has nothing kept, so the host answers the rest once it is up.
    session = Cold(tmp_path)
    discover = {"jsonrpc": "2.0", "id": 0, "method": "server/discover", "params": {}}
    opening = {**INITIALIZE, "id": 1}
    try:
        session.agent_sends(discover)
        refusal = session.agent.line()
        assert refusal is not None and refusal["id"] == 0
        assert refusal["error"]["code"] == -32601  # method not found: the client initializes
        session.agent_sends(opening, INITIALIZED, listed(2))
        assert session.agent.quiet(0.2)  # nothing kept: the host answers
        host = session.starting.reach()
        assert host.next_not_ping() == opening  # never the probe the bridge answered
        host.send(result(1, HOSTS_INITIALIZE))
        assert host.next_not_ping() == INITIALIZED
        assert host.next_not_ping() == listed(2)
        assert session.agent.line() == result(1, HOSTS_INITIALIZE)
    finally:
        session.close()


def test_a_probe_to_a_host_that_is_up_is_the_hosts_to_answer(tmp_path: Path) -> None:
    session = Cold(tmp_path)
    discover = {"jsonrpc": "2.0", "id": 0, "method": "server/discover", "params": {}}
    try:
        host = session.starting.reach()
        session.agent_sends(CALL)
        assert host.next_not_ping() == CALL  # the bridge goes on with the host now
        session.agent_sends(discover)
        assert host.next_not_ping() == discover
        host.send(result(0, {"supportedVersions": ["2026-07-28"]}))
        assert session.agent.line() == result(0, {"supportedVersions": ["2026-07-28"]})
    finally:
        session.close()
