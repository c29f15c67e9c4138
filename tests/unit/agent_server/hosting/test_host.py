"""The warm host (`hosting/host.py`, docs/formats.md §22.8) on a thread, reached over its real
socket: who it serves (this user only, this Memtab only), when it exits (idle, its name
taken over), and what it says it is."""

from __future__ import annotations

import json
import os
import shutil
import socket
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from memtab.agent_server.bridge.greeting import SESSION, STATUS, hello, session_origin
from memtab.agent_server.bridge.rendezvous import Rendezvous, rendezvous
from memtab.agent_server.hosting.handshake import HostStatus, Welcome
from memtab.agent_server.hosting.status import host_status
from support.demo_homes import copied_demo_home
from support.mcp_hosts import Clock, Running, start

WITHIN_S = 10.0


@pytest.fixture
def home(tmp_path: Path) -> str:
    return str(copied_demo_home(tmp_path / "demo").root)


@pytest.fixture
def place(home: str) -> Rendezvous:
    return rendezvous(home, os.environ)


@pytest.fixture
def running(place: Rendezvous) -> Iterator[Running]:
    host = start(place)
    try:
        yield host
    finally:
        host.stop()


def connect(place: Rendezvous) -> socket.socket:
    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    connection.settimeout(WITHIN_S)
    connection.connect(place.socket)
    return connection


def first_line(connection: socket.socket) -> bytes:
    data = b""
    while b"\n" not in data:
        chunk = connection.recv(4096)
        if not chunk:
            return data
        data += chunk
    return data.split(b"\n", 1)[0]


def session_hello(home: str, *options: str) -> bytes:
    return hello(SESSION, session_origin(["mcp", "--home", home, *options], os.environ))


def welcome(connection: socket.socket, line: bytes) -> Welcome:
    connection.sendall(line)
    answer = Welcome.read(json.loads(first_line(connection)))
    assert answer is not None
    return answer


def test_a_session_is_welcomed_and_served_mcp(
    running: Running, place: Rendezvous, home: str
) -> None:
    with connect(place) as connection:
        answer = welcome(connection, session_hello(home, "--writes", "off"))
        assert answer.ok and answer.pid == os.getpid()
        initialize = {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": {"name": "t", "version": "1"},
            },
        }
        connection.sendall(json.dumps(initialize).encode() + b"\n")
        served = json.loads(first_line(connection))
        assert served["id"] == 1 and served["result"]["serverInfo"]["name"] == "memtab"


def test_a_session_it_cannot_open_is_refused_with_the_reason(
    running: Running, place: Rendezvous, home: str
) -> None:
    with connect(place) as connection:
        answer = welcome(connection, session_hello(home, "--workspace", "nope"))
    assert not answer.ok and answer.reason == "Unknown workspace 'nope' (see `memtab workspaces`)"


def test_a_bridge_of_another_memtab_is_refused(place: Rendezvous, home: str) -> None:
    host = start(place, version="0.0.1-other")
    try:
        with connect(place) as connection:
            answer = welcome(connection, session_hello(home))
        assert not answer.ok and answer.memtab == "0.0.1-other"
        assert answer.reason is not None and "this host 0.0.1-other" in answer.reason
    finally:
        host.stop()


def test_it_says_how_it_is(running: Running, place: Rendezvous, home: str) -> None:
    with connect(place) as connection:
        assert welcome(connection, session_hello(home)).ok
        status = host_status(place.socket)
    assert status == HostStatus(
        memtab=status.memtab if status else "",
        protocol=1,
        pid=os.getpid(),
        hosted_by="command",
        started_at=status.started_at if status else 0,
        sessions=1,
        idle_exit_s=None,
        socket=place.socket,
    )


def test_it_exits_after_its_idle_time_and_never_while_a_session_is_open(
    place: Rendezvous, home: str
) -> None:
    clock = Clock()
    running = start(place, hosted_by="agents", idle_exit_s=600.0, clock=clock)
    try:
        connection = connect(place)
        assert welcome(connection, session_hello(home)).ok
        clock.now += 3600
        running.checks_pass()
        assert running.thread.is_alive()  # an hour with a session open
        connection.close()
        running.checks_pass()
        assert running.thread.is_alive()  # the idle time starts when the last one ends
        clock.now += 599
        running.checks_pass()
        assert running.thread.is_alive()
        clock.now += 1
        assert running.ended()
        assert not Path(place.socket).exists()
    finally:
        running.stop()


def closed_after(place: Rendezvous, line: bytes) -> None:
    """Connect, send `line` (nothing: hang up at once) and read until the host closes."""
    with connect(place) as connection:
        if line:
            connection.sendall(line)
            while connection.recv(4096):
                pass


def test_connections_that_are_no_session_never_keep_it_from_exiting_idle(
    place: Rendezvous, home: str
) -> None:
    clock = Clock()
    running = start(place, hosted_by="agents", idle_exit_s=600.0, clock=clock)
    try:
        clock.now += 599
        other_memtab = json.loads(session_hello(home))
        other_memtab["memtab"] = "0.0.1-other"
        knocks = [
            b"",
            b"not a hello\n",
            json.dumps(other_memtab).encode() + b"\n",
            hello(STATUS),
            session_hello(home, "--workspace", "nope"),  # a session it cannot open
        ]
        for knock in knocks:
            closed_after(place, knock)
        running.checks_pass()
        assert running.thread.is_alive()
        with connect(place):  # one that never says hello is open as the time comes
            clock.now += 1
            assert running.ended()
    finally:
        running.stop()


def test_a_host_whose_name_another_took_exits_after_its_last_session(
    place: Rendezvous, home: str
) -> None:
    older = start(place)
    newer: Running | None = None
    try:
        connection = connect(place)
        assert welcome(connection, session_hello(home)).ok
        newer = start(place)
        older.checks_pass()
        assert older.thread.is_alive()  # its session goes on
        connection.close()
        assert older.ended()
        with connect(place) as again:  # the name is the newer host's, still there
            assert welcome(again, session_hello(home)).ok
    finally:
        older.stop()
        if newer is not None:
            newer.stop()
    assert not Path(place.socket).exists()


NOBODY = 65534


def said_to(uid: int, path: str, line: bytes) -> bytes:
    """What a process of user `uid` reads after connecting to `path` and sending `line`
    (`closed`: nothing, the connection ended)."""
    readable, writable = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - the child writes what it got, then exits
        try:
            os.setgid(uid)
            os.setuid(uid)
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
                connection.settimeout(WITHIN_S)
                connection.connect(path)
                connection.sendall(line)
                os.write(writable, connection.recv(4096) or b"closed")
        except (ConnectionResetError, BrokenPipeError):  # closed, the hello unread
            os.write(writable, b"closed")
        except BaseException as error:
            os.write(writable, repr(error).encode())
        finally:
            os._exit(0)
    os.close(writable)
    with os.fdopen(readable, "rb") as said:
        what = said.read()
    os.waitpid(child, 0)
    return what


@pytest.mark.skipif(os.geteuid() != 0, reason="connecting as another user needs root")
def test_another_users_connection_is_refused(
    running: Running, place: Rendezvous, home: str, caplog: pytest.LogCaptureFixture
) -> None:
    # As if another user could reach the socket (a link where anyone may look): the
    # kernel's word on who connected decides.
    reachable = Path(tempfile.mkdtemp(prefix="memtab-peer-"))
    try:
        reachable.chmod(0o711)
        link = reachable / "host.sock"
        os.link(place.socket, link)
        link.chmod(0o666)
        caplog.set_level("INFO", "memtab.agent_server.hosting.host")
        assert said_to(NOBODY, str(link), session_hello(home)) == b"closed"  # unanswered
    finally:
        shutil.rmtree(reachable)
    assert f"refused a connection of uid {NOBODY}" in caplog.text
    with connect(place) as connection:  # the user's own are still served
        assert welcome(connection, session_hello(home)).ok


def test_stop_returns_at_once_while_the_loop_is_held_and_the_host_ends_when_it_is_free(
    place: Rendezvous,
) -> None:
    host = start(place)
    released = threading.Event()
    host.host._token.native_token.call_soon_threadsafe(released.wait, WITHIN_S)
    try:
        began = time.monotonic()
        host.host.stop()
        assert time.monotonic() - began < 1.0
        assert host.thread.is_alive()
    finally:
        released.set()
    assert host.ended()
