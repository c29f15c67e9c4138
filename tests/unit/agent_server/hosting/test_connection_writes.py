"""A session's answer written from its worker thread on the host's non-blocking socket
(`_Connection.send_from_thread`): whole and in order when the bridge reads slowly, an OSError once
the connection is closed — never a half line, never a worker stuck on a closed socket."""

from __future__ import annotations

import socket
import threading

import pytest

from memtab.agent_server.hosting.host import _Connection

WITHIN_S = 10.0


def test_an_answer_larger_than_the_socket_holds_waits_for_the_reader_and_arrives_whole() -> None:
    ours, bridge = socket.socketpair()
    ours.setblocking(False)
    connection = _Connection(ours)
    answer = bytes(range(256)) * 16_384 + b"\n"  # 4 MiB: many times what the socket buffers
    written = threading.Event()

    def write() -> None:
        connection.send_from_thread(answer)
        written.set()

    worker = threading.Thread(target=write)
    worker.start()
    assert not written.wait(0.2)  # the bridge reads nothing yet: the worker waits
    received = bytearray()
    bridge.settimeout(WITHIN_S)
    while len(received) < len(answer):
        received += bridge.recv(1 << 16)
    worker.join(WITHIN_S)
    assert written.is_set() and bytes(received) == answer
    connection.close()
    bridge.close()


def test_a_closed_connection_is_an_error_for_the_worker() -> None:
    ours, bridge = socket.socketpair()
    ours.setblocking(False)
    connection = _Connection(ours)
    connection.close()
    with pytest.raises(OSError):
        connection.send_from_thread(b'{"jsonrpc":"2.0","id":1,"result":{}}\n')
    bridge.close()
