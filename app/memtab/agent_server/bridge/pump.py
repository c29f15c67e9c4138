"""The bridge's pipe between the agent's stdio and the host's socket, byte for byte (docs/formats.md
§22.8): while the host starts, what the bridge knows answered at once (`front`) and the rest held
for it; every request in flight answered with an error when the host dies or hangs, then the session
replayed on a new host; the session ends after `MAX_RECONNECTS`."""

from __future__ import annotations

import contextlib
import json
import os
import select
import socket
import sys
import time
from collections.abc import Callable, Sequence

from memtab.agent_server.bridge.frame_ids import ID_WINDOW_CHARS, frame_id, request_id
from memtab.agent_server.bridge.front import TOOLS_CHANGED, Front, is_tools_list
from memtab.agent_server.bridge.rendezvous import last_option

TYPE_CHECKING = False  # as typing's, which the bridge's process never loads
if TYPE_CHECKING:  # lazy: the bridge's process does without `typing`
    from typing import Protocol

    class Starting(Protocol):
        """A host being started (`reach.Starting`): `fd` turns readable when it has ended."""

        fd: int
        reached: Reached | None
        error: str

        def close(self) -> None: ...


READ_TOOLS = ("list", "search", "view")
"""The tools that change nothing (`agent_server.server_names.READ_TOOLS`)."""
DEFAULT_WRITES = "inbox"
"""`memtab mcp --writes` when none is given (`cli/share/agent_server_commands.py`)."""
# A change's file: a rename's new name first.
_PATH_ARGUMENTS = ("new_path", "path", "old_path")


def writes_option(words: Sequence[str]) -> str:
    """The write mode a `memtab mcp` command line gives (its last `--writes`), else the default."""
    value = last_option(words, "--writes")
    return DEFAULT_WRITES if value is None else value


def change_in_flight(message: dict[str, object], writes: str) -> str | None:
    """What to tell the agent of a change request the host stopped before answering (it may have
    happened, how to check); None otherwise."""
    if message.get("method") != "tools/call":
        return None
    params = message.get("params")
    if not isinstance(params, dict):
        return None
    name = params.get("name")
    if not isinstance(name, str) or name in READ_TOOLS:
        return None
    arguments = params.get("arguments")
    values = [arguments.get(key) for key in _PATH_ARGUMENTS] if isinstance(arguments, dict) else []
    path = next((f"`{value}`" for value in values if isinstance(value, str) and value), "the file")
    if writes == "inbox":
        return (
            f"this change ({name}) may have reached the user's Memtab Inbox before it stopped: "
            "sending it again would propose it twice (the user can reject the copy)"
        )
    return (
        f"this change ({name}) may have been written before it stopped — `view` {path} to "
        "see: if the change is there, do not send it again; if not, send it again with "
        "`expected_sha256` set to the sha256 `view` gives, so it applies only to the file "
        "as you saw it"
    )


QUIET_S = 5.0
HANG_S = 10.0
MAX_RECONNECTS = 3
FRAME_CAP_BYTES = 4 * 1024 * 1024  # the frame guard's MAX_FRAME_BYTES
CHUNK_BYTES = 64 * 1024
HIGH_WATER_BYTES = 1024 * 1024  # what is buffered one way before that side is read again
CARRY_CAP_BYTES = 2 * FRAME_CAP_BYTES  # what the agent may send before its first answer
CLOSING_S = 5.0  # after the agent's stdin ends: how long the host may take to finish
CONNECTION_CLOSED = -32000  # the SDK's code for a connection that closed under a request
_INITIALIZED = b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n'


class Reached:
    """A connection to a host that welcomed the session, and the files it says the session's first
    answers are made from."""

    __slots__ = ("answers_from", "connection")

    def __init__(self, connection: socket.socket, answers_from: Sequence[str] = ()) -> None:
        self.connection = connection
        self.answers_from = list(answers_from)


Connect = Callable[[], Reached]
"""A new connection to a host, welcomed for this session (raises `NoHostError`)."""


class NoHostError(Exception):
    """No host can serve this session; the message says why."""


class _Line:
    """The line the agent is writing: its start and end, and all of it within the frame cap."""

    def __init__(self) -> None:
        self.head = bytearray()
        self.tail = bytearray()
        self.whole: bytearray | None = bytearray()
        self.size = 0

    def feed(self, data: bytes) -> None:
        self.size += len(data)
        if len(self.head) < ID_WINDOW_CHARS:
            self.head += data[: ID_WINDOW_CHARS - len(self.head)]
        self.tail = (self.tail + data)[-ID_WINDOW_CHARS:]
        if self.whole is not None:
            self.whole += data
            if len(self.whole) > FRAME_CAP_BYTES:
                self.whole = None

    def blank(self) -> bool:
        """No frame: nothing but JSON's white space (the frame guard skips it too)."""
        text = self.whole if self.whole is not None else self.head
        return self.size == 0 or not bytes(text).strip(b" \t\r")

    def message(self) -> dict[str, object] | None:
        """The line as a JSON object, when it is one within the cap."""
        if self.whole is None:
            return None
        try:
            value = json.loads(self.whole.decode("utf-8", "replace"))
        except (ValueError, RecursionError):
            return None
        return value if isinstance(value, dict) else None

    def id(self) -> int | str | None:
        """The id an answer to this line would carry (None: no request, or unreadable)."""
        message = self.message()
        if message is not None:
            return request_id(message)
        head = bytes(self.head).decode("utf-8", "replace")
        return frame_id(head, bytes(self.tail).decode("utf-8", "replace"))


def _key(value: object) -> tuple[str, object]:
    return type(value).__name__, value  # 1 and "1" are two ids


class Pump:
    """Runs one session's bytes between the agent (`stdin`, `stdout`) and a host: the one `reached`,
    else the one `starting` reaches, answering what `front` knows meanwhile (`instead`: who serves
    the session when no host starts after that)."""

    def __init__(
        self,
        reached: Reached | None,
        connect: Connect,
        *,
        starting: Starting | None = None,
        front: Front | None = None,
        instead: Connect | None = None,
        stdin: int = 0,
        stdout: int = 1,
        clock: Callable[[], float] = time.monotonic,
        quiet_s: float = QUIET_S,
        hang_s: float = HANG_S,
        writes: str = DEFAULT_WRITES,
    ) -> None:
        assert reached is not None or starting is not None
        self._socket: socket.socket | None = None
        self._starting = starting
        self._front = front or Front()
        self._instead = instead
        self._connect = connect
        self._stdin = stdin
        self._stdout = stdout
        self._clock = clock
        self._quiet_s = quiet_s
        self._hang_s = hang_s
        self._to_host = bytearray()
        self._to_agent = bytearray()
        self._from_host = bytearray()  # the host's line not yet whole
        self._line = _Line()
        self._dropping = False  # the rest of the agent's line goes nowhere
        self._pending: dict[tuple[str, object], int | str] = {}
        self._changes: dict[tuple[str, object], str] = {}  # what to say of a change in flight
        self._writes = writes
        self._initialize: dict[str, object] | None = None
        self._initialize_key: tuple[str, object] | None = None
        self._initialized = False
        self._session_open = False  # the host answered the agent's initialize
        self._own = f"memtab-bridge-{os.getpid()}-"
        self._own_count = 0
        self._ping: str | None = None
        self._ping_at = 0.0
        self._replay: str | None = None
        self._held = bytearray()  # the agent's lines for the host, sent once it knows the session
        self._listing: set[tuple[str, object]] = set()  # the agent's `tools/list` requests
        self._checking: str | None = None  # the `tools/list` checking the list answered here
        self._heard_at = clock()
        self._agent_open = True
        self._closing_since: float | None = None
        self._losses = 0
        self._status: int | None = None
        # What the agent sent before any answer: handed to this process's server if the host is lost
        # then.
        self._carry: bytearray | None = bytearray()
        self._carries_change = False  # a change among it: never run twice, never handed over
        self.carried: bytes | None = None
        """Set when `run` returned None: what the agent sent, for this process to serve."""
        self.lost_because = ""
        if reached is not None:
            self._take(reached)

    def run(self) -> int | None:
        """Pump until the session ends; the exit status, or None when this process is to serve it
        (`carried` first)."""
        blocking = [(fd, os.get_blocking(fd)) for fd in (self._stdin, self._stdout)]
        for fd, _ in blocking:
            os.set_blocking(fd, False)
        try:
            while self._status is None and self.carried is None:
                self._turn()
            if self.carried is not None:
                return None
            self._flush_to_agent()
            return self._status
        finally:
            for fd, was in blocking:
                with contextlib.suppress(OSError):
                    os.set_blocking(fd, was)
            if self._socket is not None:
                self._socket.close()

    def _turn(self) -> None:
        poller = select.poll()
        reading_agent = self._agent_open and self._replay is None
        if reading_agent and len(self._to_host) < HIGH_WATER_BYTES:
            poller.register(self._stdin, select.POLLIN)
        if self._to_agent:
            poller.register(self._stdout, select.POLLOUT)
        connection = self._socket
        if connection is None:
            assert self._starting is not None
            poller.register(self._starting.fd, select.POLLIN)
        else:
            events = select.POLLOUT if self._to_host else 0
            if len(self._to_agent) < HIGH_WATER_BYTES:
                events |= select.POLLIN
            if events:
                poller.register(connection, events)
        timeout = self._timeout()
        for fd, event in poller.poll(None if timeout is None else max(timeout, 0.0) * 1000):
            if self._status is not None or self._socket is not connection or self.carried:
                return
            if fd == self._stdin:
                self._read_agent()
            elif fd == self._stdout:
                self._write_agent()
            elif connection is None:
                self._started()
            else:
                self._on_socket(connection, event)
        if self._status is None and self._socket is connection and self.carried is None:
            self._keep_time()

    def _timeout(self) -> float | None:
        if self._socket is None:
            return None  # the start has its own time
        now = self._clock()
        deadlines = []
        if self._ping is not None:
            deadlines.append(self._ping_at + self._hang_s)
        elif self._pending or self._replay is not None:
            deadlines.append(self._heard_at + self._quiet_s)
        if self._closing_since is not None:
            deadlines.append(self._closing_since + CLOSING_S)
        return min(deadlines) - now if deadlines else None

    def _keep_time(self) -> None:
        if self._socket is None:
            if not self._agent_open and not self._pending:
                self._status = 0  # the agent left, nothing waits for the host
            return
        now = self._clock()
        if self._ping is not None and now - max(self._ping_at, self._heard_at) >= self._hang_s:
            self._lost(f"it did not answer for {self._hang_s + self._quiet_s:g} s")
        elif (
            self._ping is None
            and (self._pending or self._replay is not None)
            and now - self._heard_at >= self._quiet_s
        ):
            self._ping = self._own_id("ping")
            self._ping_at = now
            self._to_host += _line({"jsonrpc": "2.0", "id": self._ping, "method": "ping"})
        if self._closing_since is not None and now - self._closing_since >= CLOSING_S:
            self._lost("it did not finish after the agent's input ended")

    def _read_agent(self) -> None:
        try:
            chunk = os.read(self._stdin, CHUNK_BYTES)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        if self._carry is not None:
            self._carry += chunk
            if len(self._carry) > CARRY_CAP_BYTES:
                self._carry = None
        if not chunk:
            self._agent_open = False
            self._end_line(newline=False)  # a last line without its newline is a frame too
            self._closing_since = self._clock()
            self._shut_when_sent()
            return
        start = 0
        while start < len(chunk):
            newline = chunk.find(b"\n", start)
            end = len(chunk) if newline < 0 else newline
            part = chunk[start:end]
            self._line.feed(part)
            if not self._dropping:
                self._to_host += part
            if newline < 0:
                break
            if not self._dropping:
                self._to_host += b"\n"
            self._end_line(newline=True)
            start = newline + 1

    def _end_line(self, *, newline: bool) -> None:
        line, self._line = self._line, _Line()
        if line.blank():
            self._dropping = False
            return
        message = line.message()
        if self._dropping:  # the host that got its start is gone
            self._dropping = False
            its_id = line.id()
            if its_id is not None:
                change = change_in_flight(message, self._writes) if message else None
                self._answer_lost(its_id, "it stopped while this request was being sent", change)
            return
        its_id = request_id(message) if message is not None else line.id()
        if message is not None and self._answered_here(message, its_id):
            del self._to_host[len(self._to_host) - line.size - newline :]  # never the host's
            return
        if its_id is not None:
            self._pending[_key(its_id)] = its_id
            if message is not None and is_tools_list(message):
                self._listing.add(_key(its_id))
        if message is None:
            return
        change = change_in_flight(message, self._writes) if its_id is not None else None
        if change is not None:
            self._changes[_key(its_id)] = change
            self._carries_change = True
        method = message.get("method")
        if method == "initialize" and its_id is not None:
            self._initialize, self._initialize_key = message, _key(its_id)
        elif method == "notifications/initialized":
            self._initialized = True
        elif method == "notifications/cancelled":
            params = message.get("params")
            if isinstance(params, dict):
                self._forget(_key(params.get("requestId")))

    def _answered_here(self, message: dict[str, object], its_id: int | str | None) -> bool:
        """Whether the agent's `message` is answered by the bridge itself, while no host is up."""
        if message.get("method") == "initialize" and its_id is not None:
            self._front.asked_to_initialize(message.get("params"))
        if self._socket is not None:
            return False
        if its_id is None:  # `initialized` waits until the host is told the session
            initialized = message.get("method") == "notifications/initialized"
            if initialized and self._front.initialized_here:
                self._initialized = True
                return True
            return False
        answer = self._front.answer_here(message)
        if answer is None:
            return False
        if message.get("method") == "initialize":
            self._initialize, self._initialize_key = message, _key(its_id)
            self._session_open = True
        self._to_agent += _line({"jsonrpc": "2.0", "id": its_id, **answer})
        self._carry = None  # the agent has had answers: no longer this process's to take over
        return True

    def _write_agent(self) -> None:
        try:
            written = os.write(self._stdout, self._to_agent[:CHUNK_BYTES])
        except BlockingIOError:
            return
        except OSError:  # the agent is gone: nobody reads the answers
            self._status = 0
            self._to_agent.clear()
            return
        del self._to_agent[:written]

    def _flush_to_agent(self) -> None:
        """What is left for the agent, written before the bridge exits."""
        deadline = self._clock() + CLOSING_S
        while self._to_agent and self._clock() < deadline:
            select.poll().poll(10)
            self._write_agent()

    def _on_socket(self, connection: socket.socket, event: int) -> None:
        if event & select.POLLOUT and self._to_host:
            try:
                sent = connection.send(self._to_host[:CHUNK_BYTES])
            except BlockingIOError:
                sent = 0
            except OSError:
                self._lost("its connection broke")
                return
            del self._to_host[:sent]
            self._shut_when_sent()
        if event & (select.POLLIN | select.POLLHUP | select.POLLERR):
            try:
                chunk = connection.recv(CHUNK_BYTES)
            except BlockingIOError:
                return
            except OSError:
                chunk = b""
            if not chunk:
                self._lost("it exited" if self._agent_open else "the session ended")
                return
            self._heard_at = self._clock()
            self._from_host += chunk
            self._host_lines()

    def _host_lines(self) -> None:
        while (newline := self._from_host.find(b"\n")) >= 0:
            line = bytes(self._from_host[: newline + 1])
            del self._from_host[: newline + 1]
            if self._host_line(line):
                self._to_agent += line
                self._carry = None
        if self._to_agent:
            self._write_agent()  # the answers first: keeping them below reads and writes a file
        self._front.keep()

    def _host_line(self, line: bytes) -> bool:
        """Take note of a line of the host's; whether it goes on to the agent."""
        try:
            message = json.loads(line)
        except (ValueError, RecursionError):
            return True
        if not isinstance(message, dict) or "method" in message or "id" not in message:
            return True  # the host's own requests and notifications pass as they are
        key = _key(message["id"])
        result = message.get("result")
        if self._ping is not None and key == _key(self._ping):
            self._ping = None
            return False
        if self._replay is not None and key == _key(self._replay):
            self._replay = None
            if isinstance(result, dict):
                self._front.host_initialized(result)
            self._told_the_session()
            return False
        if self._checking is not None and key == _key(self._checking):
            self._checking = None
            if isinstance(result, dict) and self._front.host_listed(result):
                self._to_agent += _line(TOOLS_CHANGED)  # the list answered before was not this
            return False
        self._forget(key)
        if key == self._initialize_key and isinstance(result, dict):
            self._session_open = True
            self._front.host_initialized(result)
        if key in self._listing:
            self._listing.discard(key)
            if isinstance(result, dict):
                self._front.host_listed(result)
        return True

    def _told_the_session(self) -> None:
        """The host knows the session (its `initialize` replayed): what the agent said since
        follows, and the tools list answered here is checked."""
        if self._initialized:
            self._to_host += _INITIALIZED
        self._to_host += self._held
        self._held.clear()
        if self._front.tools_here is not None:
            self._checking = self._own_id("tools")
            self._to_host += _line({"jsonrpc": "2.0", "id": self._checking, "method": "tools/list"})

    def _shut_when_sent(self) -> None:
        if not self._agent_open and not self._to_host and self._socket is not None:
            with contextlib.suppress(OSError):
                self._socket.shutdown(socket.SHUT_WR)

    def _lost(self, why: str) -> None:
        """The host died or hangs: answer what waits and connect again (or end), or hand the session
        to this process."""
        if self._socket is not None:
            self._socket.close()
            self._socket = None
        session_goes_on = self._agent_open or bool(self._pending)
        if session_goes_on and self._carry is not None and not self._carries_change:
            self.carried = bytes(self._carry)
            self.lost_because = f"Memtab's shared server stopped before answering ({why})"
            return
        for key, waiting in list(self._pending.items()):
            self._answer_lost(waiting, why, self._changes.get(key))
        self._pending.clear()
        self._changes.clear()
        self._to_host.clear()
        self._from_host.clear()
        self._held.clear()
        self._listing.clear()
        self._ping = self._replay = self._checking = None
        self._dropping = self._line.size > 0
        self._flush_to_agent()  # the answers first: starting a host may take seconds
        if not self._agent_open:
            self._status = 0
            return
        self._losses += 1
        if self._losses > MAX_RECONNECTS:
            self._end(f"Memtab's shared server stopped {self._losses} times ({why})")
            return
        try:
            reached = self._connect()
        except NoHostError as error:
            self._end(f"Memtab's shared server stopped ({why}) and none could start: {error}")
            return
        self._take(reached)

    def _started(self) -> None:
        """The host started in the background was reached, or not: the session goes on with it, or
        in a process of its own."""
        starting, self._starting = self._starting, None
        assert starting is not None
        starting.close()
        if starting.reached is not None:
            self._take(starting.reached)
            return
        why = f"no shared server started ({starting.error})"
        if self._carry is not None:  # nothing reached a host: all of it is this process's to serve
            self.carried = bytes(self._carry)
            self.lost_because = starting.error
            return
        try:  # the agent has had answers: the session goes on in a server of its own
            if self._instead is None:
                raise NoHostError("none serves it instead")
            self._take(self._instead())
        except NoHostError as error:
            self._lost(f"{why}; {error}")

    def _take(self, reached: Reached) -> None:
        """Go on with the host `reached`: told the session first (its `initialize` replayed) when it
        was opened with another host or by the bridge itself."""
        connection = reached.connection
        connection.setblocking(False)
        self._socket = connection
        self._heard_at = self._clock()
        self._front.host_welcomed(reached.answers_from)
        if self._session_open and self._initialize is not None:
            self._held[:0] = self._to_host  # the agent's lines since, after the replay
            self._to_host.clear()
            self._replay = self._own_id("initialize")
            self._to_host += _line({**self._initialize, "id": self._replay})

    def _forget(self, key: tuple[str, object]) -> None:
        """A request answered (or cancelled): no longer waiting."""
        self._pending.pop(key, None)
        self._changes.pop(key, None)

    def _answer_lost(self, its_id: int | str, why: str, change: str | None = None) -> None:
        """Answer a request the host never will; a change says it may have happened."""
        message = f"Connection closed: Memtab's shared server stopped before answering ({why})"
        if change is not None:
            message += f"; {change}"
        message += "; the next request goes to a new one"
        error = {"code": CONNECTION_CLOSED, "message": message}
        self._to_agent += _line({"jsonrpc": "2.0", "id": its_id, "error": error})
        self._carry = None

    def _end(self, message: str) -> None:
        print(f"memtab mcp: {message}; ending this session", file=sys.stderr, flush=True)
        self._status = 1

    def _own_id(self, what: str) -> str:
        self._own_count += 1
        return f"{self._own}{what}-{self._own_count}"


def _line(message: dict[str, object]) -> bytes:
    return json.dumps(message, ensure_ascii=False).encode("utf-8", "surrogatepass") + b"\n"
