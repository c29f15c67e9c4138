"""The bridge's pipe (`bridge/pump.py`, docs/formats.md §22.8) between a test playing the
agent (pipes for its stdin and stdout) and one playing the host (the other end of a socket
pair): when the host dies or hangs, every request waiting is answered at once with a
JSON-RPC error, no answer of that host reaches the agent late, and the session goes on
with a new host, its `initialize` replayed."""

from __future__ import annotations

import contextlib
import json
import os
import select
import socket
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from memtab.agent_server.bridge.pump import CONNECTION_CLOSED, NoHostError, Pump, Reached

WITHIN_S = 5.0  # what "at once" is allowed on a loaded machine
# The pump pings a host quiet for QUIET_S while a request waits, and gives it up HANG_S
# after: short in the tests of that (`pinging`), out of the way in the others, whose host
# answers no ping (a loaded machine's pause between two steps would have it pinged).
QUIET_S, HANG_S = 0.1, 1.0
# A host that never answers a ping is given up sooner: its test sits through the wait whole.
HUNG_HANG_S = 0.5


def _line(message: dict[str, Any]) -> bytes:
    return json.dumps(message).encode() + b"\n"


INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 0,
    "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t"}},
}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}


def call(request_id: int | str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/list"}


def answer(request_id: object) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "result": {"tools": []}}


class _Reader:
    """Lines read from a descriptor or socket, each waited for at most WITHIN_S."""

    def __init__(self, read: Any, fileno: int) -> None:
        self._read = read
        self._fileno = fileno
        self._buffer = b""

    def line(self, within_s: float = WITHIN_S) -> dict[str, Any] | None:
        """The next line as JSON; None when the other end closed."""
        while b"\n" not in self._buffer:
            ready, _, _ = select.select([self._fileno], [], [], within_s)
            assert ready, f"nothing came within {within_s} s"
            chunk = self._read(65536)
            if not chunk:
                return None
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        message: dict[str, Any] = json.loads(line)
        return message

    def quiet(self, for_s: float) -> bool:
        """Whether nothing comes for `for_s`."""
        return not self._buffer and not select.select([self._fileno], [], [], for_s)[0]


class Host:
    """One connection the bridge made, as the host sees it."""

    def __init__(self, end: socket.socket) -> None:
        self.socket = end
        self.reads = _Reader(end.recv, end.fileno())

    def send(self, message: dict[str, Any]) -> None:
        self.socket.sendall(_line(message))

    def next_not_ping(self) -> dict[str, Any] | None:
        """The next line that is not the bridge's ping, each ping answered (as a live
        host's loop does)."""
        while True:
            message = self.reads.line()
            if message is None or message.get("method") != "ping":
                return message
            self.send({"jsonrpc": "2.0", "id": message["id"], "result": {}})

    def die(self) -> None:
        self.socket.close()


class Session:
    """The bridge's pump on a thread, between the test's agent and its hosts."""

    def __init__(
        self,
        *,
        hosts_to_give: int = 3,
        quiet_s: float = WITHIN_S,
        hang_s: float = WITHIN_S,
        writes: str = "direct",
    ) -> None:
        self.hosts: list[Host] = []
        self.next_host_may_start = threading.Event()
        self.next_host_may_start.set()
        self._gave = threading.Semaphore(0)
        self._left = hosts_to_give
        self._giving = threading.Lock()  # a host is given whole, or not once closing began
        agent_in, self._agent_writes = os.pipe()
        self._agent_reads, agent_out = os.pipe()
        self.agent = _Reader(lambda n: os.read(self._agent_reads, n), self._agent_reads)
        first = self._connect()
        self.pump = Pump(
            first,
            self._connect,
            stdin=agent_in,
            stdout=agent_out,
            quiet_s=quiet_s,
            hang_s=hang_s,
            writes=writes,
        )
        self._ends = (agent_in, agent_out)
        self.status: int | None = None
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _connect(self) -> Reached:
        if self.hosts:  # starting a host takes its time
            assert self.next_host_may_start.wait(WITHIN_S)
        with self._giving:
            if self._left == 0:
                raise NoHostError("none can start")
            self._left -= 1
            bridge_end, host_end = socket.socketpair()
            self.hosts.append(Host(host_end))
        self._gave.release()
        return Reached(bridge_end)

    def _run(self) -> None:
        try:
            self.status = self.pump.run()
        finally:
            for end in self._ends:
                os.close(end)

    def host(self, number: int) -> Host:
        """The `number`th host (from 1), once the bridge has connected to it."""
        while len(self.hosts) < number:
            assert self._gave.acquire(timeout=WITHIN_S), "the bridge did not connect again"
        return self.hosts[number - 1]

    def agent_sends(self, data: bytes) -> None:
        os.write(self._agent_writes, data)

    def agent_hangs_up(self) -> None:
        if self._agent_writes >= 0:
            os.close(self._agent_writes)
            self._agent_writes = -1

    def ended(self) -> int | None:
        self._thread.join(WITHIN_S)
        return self.status

    def close(self) -> None:
        with self._giving:  # the bridge ends as its host goes, not on a new host's timeouts
            self._left = 0
        self.next_host_may_start.set()
        self.agent_hangs_up()
        if self._thread.is_alive():
            for host in self.hosts:
                host.die()
            self._thread.join(WITHIN_S)
        os.close(self._agent_reads)
        for host in self.hosts:
            host.die()


@contextlib.contextmanager
def running(**options: Any) -> Iterator[Session]:
    session = Session(**options)
    try:
        yield session
    finally:
        session.close()


@pytest.fixture
def session() -> Iterator[Session]:
    with running() as session:
        yield session


@pytest.fixture
def pinging() -> Iterator[Session]:
    with running(quiet_s=QUIET_S, hang_s=HANG_S) as session:
        yield session


@pytest.fixture
def pinging_a_hung_host() -> Iterator[Session]:
    with running(quiet_s=QUIET_S, hang_s=HUNG_HANG_S) as session:
        yield session


def initialized(session: Session) -> Host:
    """The agent's session opened on the first host."""
    host = session.host(1)
    session.agent_sends(_line(INITIALIZE))
    assert host.next_not_ping() == INITIALIZE
    host.send({"jsonrpc": "2.0", "id": 0, "result": {"protocolVersion": "2025-11-25"}})
    assert session.agent.line() == {
        "jsonrpc": "2.0",
        "id": 0,
        "result": {"protocolVersion": "2025-11-25"},
    }
    session.agent_sends(_line(INITIALIZED))
    assert host.next_not_ping() == INITIALIZED
    return host


def lost(message: dict[str, Any] | None, request_id: object) -> str:
    assert message is not None and message["id"] == request_id, message
    assert message["error"]["code"] == CONNECTION_CLOSED
    text: str = message["error"]["message"]
    assert text.startswith("Connection closed: Memtab's shared server stopped")
    return text


def test_a_host_dying_mid_call_answers_every_waiting_request_and_the_session_goes_on(
    session: Session,
) -> None:
    first = initialized(session)
    session.agent_sends(_line(call(1)) + _line(call("two")))
    assert first.reads.line() == call(1) and first.reads.line() == call("two")
    first.die()
    waiting = {session.agent.line()["id"], session.agent.line()["id"]}  # type: ignore[index]
    assert waiting == {1, "two"}
    second = session.host(2)
    replayed = second.reads.line()
    assert replayed is not None and replayed["method"] == "initialize"
    assert replayed["params"] == INITIALIZE["params"] and replayed["id"] != 0
    session.agent_sends(_line(call(3)))  # held until the new host has taken the replay
    second.send({"jsonrpc": "2.0", "id": replayed["id"], "result": {}})
    assert second.reads.line() == INITIALIZED
    assert second.reads.line() == call(3)
    second.send(answer(3))
    assert session.agent.line() == answer(3)  # the replay's answer never reached the agent


def test_the_answers_come_before_a_new_host_is_reached(session: Session) -> None:
    host = initialized(session)
    session.next_host_may_start.clear()
    session.agent_sends(_line(call(1)))
    assert host.reads.line() == call(1)
    host.die()
    lost(session.agent.line(), 1)  # while the next host is still starting
    session.next_host_may_start.set()
    assert session.host(2).reads.line() is not None


def test_the_answers_to_a_dead_host_say_it_stopped(session: Session) -> None:
    host = initialized(session)
    session.agent_sends(_line(call(1)))
    assert host.reads.line() == call(1)
    host.die()
    assert "(it exited)" in lost(session.agent.line(), 1)


def tool_call(request_id: int, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    params = {"name": name, "arguments": arguments}
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}


def test_a_change_in_flight_is_said_to_maybe_have_happened_and_how_to_check(
    session: Session,
) -> None:
    host = initialized(session)
    change = tool_call(1, "insert", {"path": "/memories/global/a.md", "insert_line": 0})
    read = tool_call(2, "view", {"path": "/memories/global/a.md"})
    session.agent_sends(_line(change) + _line(read))
    assert host.reads.line() == change and host.reads.line() == read
    host.die()
    said = {message["id"]: message for message in (session.agent.line(), session.agent.line())}
    assert lost(said[1], 1) == (
        "Connection closed: Memtab's shared server stopped before answering (it exited); "
        "this change (insert) may have been written before it stopped — `view` "
        "`/memories/global/a.md` to see: if the change is there, do not send it again; if "
        "not, send it again with `expected_sha256` set to the sha256 `view` gives, so it "
        "applies only to the file as you saw it; the next request goes to a new one"
    )
    assert lost(said[2], 2) == (  # a read changed nothing: it is only to be asked again
        "Connection closed: Memtab's shared server stopped before answering (it exited); "
        "the next request goes to a new one"
    )


def test_a_proposal_in_flight_is_said_to_maybe_be_in_the_inbox() -> None:
    with running(writes="inbox") as session:
        host = initialized(session)
        change = tool_call(1, "rename", {"old_path": "/memories/a.md", "new_path": "/memories/b"})
        session.agent_sends(_line(change))
        assert host.reads.line() == change
        host.die()
        assert "; this change (rename) may have reached the user's Memtab Inbox before it " in (
            lost(session.agent.line(), 1)
        )


def test_a_hung_host_is_pinged_then_given_up_and_its_late_answer_never_arrives(
    pinging_a_hung_host: Session,
) -> None:
    session = pinging_a_hung_host
    host = initialized(session)
    session.agent_sends(_line(call(1)))
    assert host.reads.line() == call(1)
    ping = host.reads.line()  # after QUIET_S without a word
    assert ping is not None and ping["method"] == "ping"
    assert "did not answer" in lost(session.agent.line(), 1)  # HUNG_HANG_S later
    session.host(2)
    with contextlib.suppress(OSError):
        host.send(answer(1))  # wakes up: too late, the bridge let go of it
    assert session.agent.quiet(for_s=0.25)


def test_a_host_answering_the_ping_is_waited_for(pinging: Session) -> None:
    session = pinging
    host = initialized(session)
    session.agent_sends(_line(call(1)))
    assert host.reads.line() == call(1)
    for _ in range(3):  # a long call: the host is alive, its loop answers
        ping = host.reads.line()
        assert ping is not None and ping["method"] == "ping"
        host.send({"jsonrpc": "2.0", "id": ping["id"], "result": {}})
    host.send(answer(1))
    assert session.agent.line() == answer(1)  # the pongs were the bridge's own
    assert len(session.hosts) == 1


def test_a_line_the_dead_host_got_part_of_is_answered_and_not_sent_on(session: Session) -> None:
    first = initialized(session)
    whole = _line({**call(7), "params": {"pad": "x" * 1000}})
    session.agent_sends(whole[:500])
    assert select.select([first.socket], [], [], WITHIN_S)[0]
    first.die()
    second = session.host(2)  # connected while the line is still being written
    replayed = second.reads.line()
    assert replayed is not None and replayed["method"] == "initialize"
    second.send({"jsonrpc": "2.0", "id": replayed["id"], "result": {}})
    assert second.reads.line() == INITIALIZED
    session.agent_sends(whole[500:])
    assert "(it stopped while this request was being sent)" in lost(session.agent.line(), 7)
    session.agent_sends(_line(call(8)))
    assert second.reads.line() == call(8)  # nothing of line 7 came before it


def test_a_cancelled_request_is_not_answered_when_the_host_dies(session: Session) -> None:
    host = initialized(session)
    cancel = {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}}
    session.agent_sends(_line(call(1)) + _line(cancel) + _line(call(2)))
    for sent in (call(1), cancel, call(2)):
        assert host.reads.line() == sent
    host.die()
    lost(session.agent.line(), 2)
    assert session.agent.quiet(for_s=0.3)


def test_when_no_host_can_be_had_the_session_ends_after_its_answers() -> None:
    running = Session(hosts_to_give=1)
    try:
        host = initialized(running)
        running.agent_sends(_line(call(1)))
        assert host.reads.line() == call(1)
        host.die()
        lost(running.agent.line(), 1)
        assert running.ended() == 1
    finally:
        running.close()


def test_when_the_agent_hangs_up_the_host_is_told_and_the_bridge_ends(session: Session) -> None:
    host = initialized(session)
    session.agent_hangs_up()
    assert host.reads.line() is None  # the host reads the end of its input
    host.die()
    assert session.ended() == 0


def test_a_host_lost_before_any_answer_hands_the_session_to_this_process(
    session: Session,
) -> None:
    host = session.host(1)
    session.agent_sends(_line(INITIALIZE) + b'{"jsonrpc": "2.0", "id": 1, "meth')
    assert host.next_not_ping() == INITIALIZE
    host.die()  # it crashed on the agent's initialize
    session.ended()
    assert session.pump.carried == _line(INITIALIZE) + b'{"jsonrpc": "2.0", "id": 1, "meth'
    assert "(it exited)" in session.pump.lost_because
    assert session.agent.line() is None  # nothing answered: this process answers it all
    assert len(session.hosts) == 1  # and no other host was tried


def test_a_change_asked_before_any_answer_is_never_handed_over(session: Session) -> None:
    host = session.host(1)
    change = tool_call(1, "create", {"path": "/memories/global/a.md", "file_text": "x"})
    session.agent_sends(_line(change))  # a stateless client's first request may change
    assert host.next_not_ping() == change
    host.die()
    assert "this change (create) may have been written" in lost(session.agent.line(), 1)
    assert session.pump.carried is None and session.host(2) is not None


def test_once_the_agent_has_an_answer_a_lost_host_is_replaced(session: Session) -> None:
    host = session.host(1)
    session.agent_sends(_line(call(1)))
    assert host.next_not_ping() == call(1)
    host.send(answer(1))
    assert session.agent.line() == answer(1)
    host.die()
    assert session.host(2) is not None and session.pump.carried is None
