"""Reaching a session's host (docs/formats.md §22.8): its socket, the handshake, and starting one
detached when none listens (one at a time, a hung one replaced), in the background while the bridge
answers what it knows; files in the runtime folder never opened through a link or waited on."""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import select
import socket
import stat
import sys
import time
from collections.abc import Iterator, Mapping

from memtab.agent_server.bridge.greeting import welcome_files, welcome_problem
from memtab.agent_server.bridge.pump import Connect, NoHostError, Reached
from memtab.agent_server.bridge.rendezvous import Rendezvous, peer_credentials

HANDSHAKE_TIMEOUT_S = 10.0
START_TIMEOUT_S = 30.0
IDLE_EXIT_S = 600.0
"""How long a host a bridge started waits without a session before it exits."""
MAX_LOG_BYTES = 1024 * 1024
_NOBODY = frozenset({errno.ENOENT, errno.ECONNREFUSED})
# Never through a link, never waiting on a FIFO, never kept by a child.
_RUNTIME_FILE_FLAGS = os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC


class _NobodyError(Exception):
    """Nothing listens at the socket."""


class _HungError(Exception):
    """Something listens there and says nothing."""


def running(place: Rendezvous, hello: bytes) -> Reached | None:
    """A connection to the host listening at `place`, welcomed for `hello`; None when none listens
    (or the one there hangs); NoHostError when it refuses."""
    try:
        return _handshake(place, hello)
    except (_NobodyError, _HungError):
        return None


def reach(place: Rendezvous, hello: bytes, home: str | None, env: Mapping[str, str]) -> Reached:
    """A connection to the host at `place`, welcomed for `hello`, started with `env` when none
    listens; NoHostError says why not."""
    reached = running(place, hello)
    if reached is not None:
        return reached
    with _start_lock(place):
        try:  # another bridge may have started it while this one waited
            return _handshake(place, hello)
        except (_NobodyError, _HungError):
            pass
        start_host(place, home, env)
    try:
        return _handshake(place, hello)
    except (_NobodyError, _HungError):
        raise NoHostError("the shared server started but does not answer") from None


def _handshake(place: Rendezvous, hello: bytes) -> Reached:
    """Connect, say hello and read the welcome (once more if the host was leaving)."""
    for attempt in range(2):
        connection = _connected(place)
        try:
            line = _welcome_line(connection, hello)
        except BaseException:
            connection.close()
            raise
        if line is None and attempt == 0:
            connection.close()
            continue
        problem = welcome_problem(line or b"")
        if problem is not None:
            connection.close()
            raise NoHostError(problem)
        return Reached(connection, welcome_files(line or b""))
    raise _NobodyError


def _connected(place: Rendezvous) -> socket.socket:
    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        connection.connect(place.socket)
        _pid, uid = peer_credentials(connection)
    except OSError as error:
        connection.close()
        if error.errno in _NOBODY:
            raise _NobodyError from None
        raise NoHostError(f"cannot connect to {place.socket}: {error.strerror}") from None
    if uid != os.geteuid():
        connection.close()
        raise NoHostError(f"{place.socket} is served by another user (uid {uid})")
    return connection


def _welcome_line(connection: socket.socket, hello: bytes) -> bytes | None:
    """The host's answer to `hello` (None: it closed the connection first)."""
    deadline = time.monotonic() + HANDSHAKE_TIMEOUT_S
    try:
        connection.sendall(hello)
    except OSError:
        return None
    answer = bytearray()
    while b"\n" not in answer:
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([connection], [], [], left)[0]:
            raise _HungError
        try:
            chunk = connection.recv(4096)
        except OSError:
            return None
        if not chunk:
            return None
        answer += chunk
    line, _, rest = bytes(answer).partition(b"\n")
    if rest:  # the host speaks first only after the agent: nothing may follow the welcome
        raise NoHostError("the host said more than its welcome")
    return line


@contextlib.contextmanager
def _start_lock(place: Rendezvous) -> Iterator[None]:
    """The lock bridges take to start a host, one at a time (NoHostError if not in time)."""
    try:
        handle = os.open(place.start_lock, _RUNTIME_FILE_FLAGS | os.O_RDWR, 0o600)
    except OSError as error:
        raise NoHostError(_unusable(place.start_lock, error)) from None
    try:
        deadline = time.monotonic() + START_TIMEOUT_S + HANDSHAKE_TIMEOUT_S
        while True:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise NoHostError("another session has been starting one too long") from None
                time.sleep(0.02)
        yield
    finally:
        os.close(handle)


def host_command(home: str | None, ready_fd: int) -> list[str]:
    """How a bridge starts the host: this Memtab (the bundle, else this Python)."""
    program = (
        [sys.executable] if getattr(sys, "frozen", False) else [sys.executable, "-m", "memtab"]
    )
    words = ["--home", home] if home else []
    idle = ["--idle-exit", f"{IDLE_EXIT_S:g}"]
    return [*program, *words, "mcp", "host", *idle, "--ready-fd", str(ready_fd)]


def start_host(place: Rendezvous, home: str | None, env: Mapping[str, str]) -> None:
    """Start the host detached with `env`, logging to its log, and wait until it takes connections;
    NoHostError."""
    log = open_host_log(place.log)
    try:
        readable, writable = os.pipe()
    except OSError as error:
        os.close(log)
        raise NoHostError(f"cannot start the shared server: {error.strerror}") from None
    try:
        command = host_command(home, writable)
        child = os.fork()
        if child == 0:  # pragma: no cover - the forked child execs or exits
            _become_host(command, dict(env), writable, readable, log)
        os.close(writable)
        writable = -1
        os.waitpid(child, 0)
        ready = select.select([readable], [], [], START_TIMEOUT_S)[0]
        said = os.read(readable, 1) if ready else None
    except OSError as error:
        raise NoHostError(f"cannot start the shared server: {error.strerror}") from None
    finally:
        os.close(log)
        os.close(readable)
        if writable >= 0:
            os.close(writable)
    if said is None:
        raise NoHostError(f"the shared server was not ready in {START_TIMEOUT_S:g} s")
    if said != b"R":
        raise NoHostError(f"the shared server could not start (see {place.log})")


def open_host_log(path: str) -> int:
    """The host's log open to append: never through a link, a regular unlinked file of the user's,
    private, emptied in place past `MAX_LOG_BYTES`; NoHostError."""
    try:
        handle = os.open(path, _RUNTIME_FILE_FLAGS | os.O_WRONLY | os.O_APPEND, 0o600)
    except OSError as error:
        raise NoHostError(_unusable(path, error)) from None
    try:
        info = os.fstat(handle)
        if not stat.S_ISREG(info.st_mode) or info.st_nlink != 1 or info.st_uid != os.geteuid():
            raise NoHostError(f"{path} is not the shared server's own log (a link, or not a file)")
        if info.st_mode & 0o077:
            os.fchmod(handle, 0o600)
        if info.st_size > MAX_LOG_BYTES:
            os.ftruncate(handle, 0)
        os.set_blocking(handle, True)
    except OSError as error:
        os.close(handle)
        raise NoHostError(_unusable(path, error)) from None
    except NoHostError:
        os.close(handle)
        raise
    return handle


def _unusable(path: str, error: OSError) -> str:
    """Why a file in the runtime folder cannot be used, in words."""
    if error.errno == errno.ELOOP:
        return f"{path} is a link (never followed: someone else may have put it there)"
    if error.errno == errno.ENXIO:
        return f"{path} is a FIFO (never written into)"
    return f"cannot open {path}: {error.strerror or error}"


def _become_host(
    command: list[str], env: dict[str, str], ready: int, other_end: int, log: int
) -> None:
    """In the forked child: a new session, forked again, the grandchild execs the host."""
    try:
        os.close(other_end)
        os.setsid()
        if os.fork() > 0:
            os._exit(0)
        os.chdir("/")
        os.dup2(os.open(os.devnull, os.O_RDWR), 0)
        os.dup2(log, 1)
        os.dup2(log, 2)
        os.set_inheritable(ready, True)
        os.execve(command[0], command, env)
    finally:
        os._exit(127)


class Starting:
    """`connect()` run on a thread while the bridge answers what it knows; `fd` turns readable when
    it has ended (`reached`, else `error`)."""

    def __init__(self, connect: Connect) -> None:
        import threading  # lazy: only a session that starts its host needs a thread

        self.reached: Reached | None = None
        self.error = "the shared server did not start"
        self.fd, self._done = os.pipe()
        self._thread = threading.Thread(
            target=self._run, args=(connect,), name="memtab-mcp-start", daemon=True
        )
        self._thread.start()

    def _run(self, connect: Connect) -> None:
        try:
            self.reached = connect()
        except NoHostError as error:
            self.error = str(error)
        except Exception as error:  # a fault of the bridge's: this session is served all the same
            self.error = repr(error)
        finally:
            os.write(self._done, b"!")

    def close(self) -> None:
        """After `fd` turned readable: the thread is done with its pipe."""
        self._thread.join()
        os.close(self.fd)
        os.close(self._done)


def serve_in_child(words: list[str], env: Mapping[str, str]) -> Reached:
    """This session served by a `memtab <words>` child of its own (no shared server), spoken to as a
    host is, over a socket pair (no handshake); NoHostError."""
    frozen = getattr(sys, "frozen", False)
    command = [sys.executable, *([] if frozen else ["-m", "memtab"]), *words]
    child_env = {**env, "MEMTAB_MCP_SHARED": "off"}
    try:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    except OSError as error:
        raise NoHostError(f"cannot serve this session in a process of its own: {error}") from None
    try:
        child = os.fork()
        if child == 0:  # pragma: no cover - the forked child execs or exits
            _become_server(command, child_env, theirs.fileno())
    except OSError as error:
        ours.close()
        raise NoHostError(f"cannot serve this session in a process of its own: {error}") from None
    finally:
        theirs.close()
    return Reached(ours, [])


def _become_server(command: list[str], env: dict[str, str], channel: int) -> None:
    """In the forked child: the channel as its stdin and stdout, then the server."""
    try:
        os.dup2(channel, 0)
        os.dup2(channel, 1)
        os.execve(command[0], command, env)
    finally:
        os._exit(127)
