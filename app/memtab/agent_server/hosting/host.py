"""The warm Memtab: one process serving every agent session of a home over a Unix socket, one
session per connection, exactly as `memtab mcp` on stdio (docs/formats.md §22.8); a peer of another
user or Memtab refused, catalogs shared; it exits when its name is another's or idle — only a served
session holds it, never a connection that is refused or only knocks."""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
import select
import signal
import socket
import threading
import time
from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

import anyio
import anyio.abc
import anyio.lowlevel
import anyio.to_thread

from memtab import __version__
from memtab.agent_server.bridge.greeting import STATUS
from memtab.agent_server.bridge.rendezvous import (
    PROTOCOL,
    Rendezvous,
    install_identity,
    peer_credentials,
)
from memtab.agent_server.catalog import MemoryCatalog
from memtab.agent_server.hosting.catalogs import CatalogShelf
from memtab.agent_server.hosting.handshake import (
    Hello,
    HostedBy,
    HostSetup,
    HostStatus,
    Welcome,
)
from memtab.agent_server.origin import SessionOrigin
from memtab.agent_server.service import MemoryService
from memtab.agent_server.serving.frames import CHUNK_BYTES
from memtab.agent_server.serving.server import keep_start_out_of_collections, serve_frames
from memtab.fs.clock import now_ms
from memtab.fs.records import Record

logger = logging.getLogger(__name__)

HELLO_CAP_BYTES = 1024 * 1024
HELLO_TIMEOUT_S = 10.0
IDLE_EXIT_S = 600.0
"""How long a host started for the agents waits without a session before it exits."""
CHECK_EVERY_S = 2.0
SEND_WAIT_S = 1.0
"""How long a worker waits for a full socket before trying it again (it may have been closed)."""
_DISCONNECTS = (anyio.BrokenResourceError, anyio.ClosedResourceError, anyio.EndOfStream)


class SessionRefusedError(Exception):
    """The session cannot be opened from its origin; the message says why."""


OpenSession = Callable[[SessionOrigin, CatalogShelf], MemoryService]
"""Opens a session's service from its origin, its catalogs from the shelf."""


class McpHost:
    """Serves the sessions that reach `rendezvous.socket` until stopped, replaced, or idle for
    `idle_exit_s` (None: never), looking every `check_every_s` on `clock`."""

    def __init__(
        self,
        rendezvous: Rendezvous,
        open_session: OpenSession,
        *,
        hosted_by: HostedBy,
        idle_exit_s: float | None,
        clock: Callable[[], float] = time.monotonic,
        check_every_s: float = CHECK_EVERY_S,
        version: str = __version__,
        setup: HostSetup | None = None,
    ) -> None:
        self.rendezvous = rendezvous
        self.setup = setup
        self.hosted_by = hosted_by
        self.idle_exit_s = idle_exit_s
        self.sessions = 0  # sessions welcomed and not yet ended
        self.checks = 0  # how often the name and the idle time were looked at
        self.shelf = CatalogShelf()
        self._open_session = open_session
        self._clock = clock
        self._check_every_s = check_every_s
        self._version = version
        self._idle_since = clock()
        self._started_at = now_ms()
        self._identity: tuple[int, int] | None = None
        self._listener: anyio.abc.SocketListener | None = None
        self._scope: anyio.CancelScope | None = None
        self._token: Any = None
        self._stop_asked = False

    def run(self, *, ready: Callable[[], None] | None = None, signals: bool = False) -> None:
        """Serve until done (blocks); `ready` once the socket takes connections; `signals`: SIGTERM
        and SIGINT stop it."""
        keep_start_out_of_collections()
        anyio.run(partial(self.serve, ready=ready, signals=signals))

    async def serve(
        self, *, ready: Callable[[], None] | None = None, signals: bool = False
    ) -> None:
        listening = self._bind()
        try:
            self._listener = await anyio.abc.SocketListener.from_socket(listening)
            async with anyio.create_task_group() as group:
                self._scope = group.cancel_scope
                self._token = anyio.lowlevel.current_token()
                if self._stop_asked:
                    group.cancel_scope.cancel()
                group.start_soon(self._accept, group)
                group.start_soon(self._look_after, group)
                if signals:
                    group.start_soon(self._stop_on_signals)
                logger.info(
                    "memtab mcp host: serving %s (pid %d, %s)",
                    self.rendezvous.socket,
                    os.getpid(),
                    self.hosted_by,
                )
                if ready is not None:
                    ready()
        finally:
            self._let_go_of_name()
            with contextlib.suppress(Exception):
                listening.close()
            self.shelf.close()
            logger.info("memtab mcp host: stopped (%s)", self.rendezvous.socket)

    def stop(self) -> None:
        """Stop serving (from any thread): the open sessions end, their bridges reconnect.
        Returns at once: the cancel is handed to the loop, which runs it when it next can (a
        loop held by a long call would otherwise hold the caller, `memtab watch`'s exit)."""
        self._stop_asked = True
        if self._scope is None or self._token is None:
            return
        loop = self._token.native_token  # asyncio's, the backend `anyio.run` uses
        with contextlib.suppress(RuntimeError):  # the loop has already ended
            loop.call_soon_threadsafe(self._scope.cancel)

    async def _stop_on_signals(self) -> None:
        with anyio.open_signal_receiver(signal.SIGTERM, signal.SIGINT) as received:
            async for _ in received:
                assert self._scope is not None
                self._scope.cancel()
                return

    async def _accept(self, group: anyio.abc.TaskGroup) -> None:
        assert self._listener is not None
        while True:
            try:
                stream = await self._listener.accept()
            except (anyio.ClosedResourceError, OSError):
                return  # no longer listening: the sessions open end as they will
            group.start_soon(self._connection, stream)

    async def _look_after(self, group: anyio.abc.TaskGroup) -> None:
        """Every `check_every_s`: stop taking sessions once the name is another's; exit when none is
        left, or idle."""
        while True:
            await anyio.sleep(self._check_every_s)
            self.checks += 1
            if self._listener is not None and not self._owns_name():
                logger.info("memtab mcp host: %s is no longer this host's", self.rendezvous.socket)
                await self._listener.aclose()
                self._listener = None
            if self.sessions == 0 and (self._listener is None or self._idle_too_long()):
                group.cancel_scope.cancel()

    def _idle_too_long(self) -> bool:
        if self.idle_exit_s is None or self._clock() - self._idle_since < self.idle_exit_s:
            return False
        logger.info("memtab mcp host: no session for %g s", self.idle_exit_s)
        return True

    async def _connection(self, stream: anyio.abc.SocketStream) -> None:
        connection = _Connection(stream.extra(anyio.abc.SocketAttribute.raw_socket))
        try:
            await self._serve_connection(connection)
        except Exception as error:
            if _only_disconnects(error):
                logger.debug("memtab mcp host: a bridge went away (%r)", error)
            else:
                logger.exception("memtab mcp host: a session failed")
        finally:
            connection.close()

    async def _serve_connection(self, connection: _Connection) -> None:
        pid, uid = peer_credentials(connection.socket)
        if uid != os.geteuid():
            logger.info("memtab mcp host: refused a connection of uid %d (pid %d)", uid, pid)
            return
        try:
            with anyio.fail_after(HELLO_TIMEOUT_S):
                line, rest = await connection.first_line(HELLO_CAP_BYTES)
        except (TimeoutError, ValueError) as error:
            logger.info("memtab mcp host: no hello from pid %d (%s)", pid, error or "in time")
            return
        hello = Hello.read(_parsed(line))
        if hello is None:
            logger.info("memtab mcp host: pid %d sent no hello", pid)
            return
        problem = self._skew(hello)
        if hello.purpose == STATUS and problem is None:
            await connection.send_record(self.status())
            return
        if problem is None and hello.origin is None:
            problem = "the hello carries no session origin"
        if problem is not None:
            await self._refuse(connection, pid, problem)
            return
        assert hello.origin is not None
        self.sessions += 1  # from here the session holds the host, opened or not yet
        try:
            service = await self._opened(connection, pid, hello.origin)
            if service is not None:
                try:
                    await self._serve(service, connection, pid, rest)
                finally:  # only a served session restarts the idle time
                    self._idle_since = self._clock()
        finally:
            self.sessions -= 1

    async def _opened(
        self, connection: _Connection, pid: int, origin: SessionOrigin
    ) -> MemoryService | None:
        """The session's service, welcomed; None when it was refused."""
        try:
            service = await anyio.to_thread.run_sync(self._open_session, origin, self.shelf)
        except SessionRefusedError as error:
            await self._refuse(connection, pid, str(error))
            return None
        try:
            await connection.send_record(self._welcome(None, _answers_from(service)))
        except BaseException:
            service.close()
            raise
        return service

    async def _serve(
        self, service: MemoryService, connection: _Connection, pid: int, rest: bytes
    ) -> None:
        self._warm_fresh_catalogs()
        logger.info("memtab mcp host: a session of pid %d (%d open)", pid, self.sessions)
        connection.leftover = rest
        try:
            await serve_frames(
                service, connection.receive, connection.send, connection.send_from_thread
            )
        finally:
            service.close()

    async def _refuse(self, connection: _Connection, pid: int, problem: str) -> None:
        await connection.send_record(self._welcome(problem))
        logger.info("memtab mcp host: refused a session of pid %d: %s", pid, problem)

    def _welcome(self, problem: str | None, answers_from: tuple[str, ...] = ()) -> Welcome:
        return Welcome(
            ok=problem is None,
            memtab=self._version,
            protocol=PROTOCOL,
            pid=os.getpid(),
            reason=problem,
            answers_from=answers_from,
        )

    def _skew(self, hello: Hello) -> str | None:
        python, package = install_identity()
        ours = (self._version, PROTOCOL, python, package)
        if (hello.memtab, hello.protocol, hello.python, hello.package) == ours:
            return None
        return (
            f"the bridge is Memtab {hello.memtab} (protocol {hello.protocol}, {hello.package}), "
            f"this host {self._version} (protocol {PROTOCOL}, {package})"
        )

    def status(self) -> HostStatus:
        return HostStatus(
            memtab=self._version,
            protocol=PROTOCOL,
            pid=os.getpid(),
            hosted_by=self.hosted_by,
            started_at=self._started_at,
            sessions=self.sessions,
            idle_exit_s=self.idle_exit_s,
            socket=self.rendezvous.socket,
            setup=self.setup,
        )

    def _warm_fresh_catalogs(self) -> None:
        """List a catalog the first session took, on a worker thread."""
        fresh, self.shelf.fresh = self.shelf.fresh, []
        for catalog in fresh:
            threading.Thread(
                target=_warm, args=(catalog,), name="memtab-mcp-warm", daemon=True
            ).start()

    def _bind(self) -> socket.socket:
        """A socket listening under the rendezvous name (taken over from a host before)."""
        path = self.rendezvous.socket
        beside = f"{path}.{os.getpid()}"
        listening = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(beside)
            listening.bind(beside)
            os.chmod(beside, 0o600)
            listening.listen(128)
            with self._name_lock():
                os.replace(beside, path)
                info = os.stat(path)
                self._identity = (info.st_dev, info.st_ino)
        except BaseException:
            listening.close()
            with contextlib.suppress(OSError):
                os.unlink(beside)
            raise
        return listening

    def _owns_name(self) -> bool:
        try:
            info = os.stat(self.rendezvous.socket)
        except OSError:
            return False
        return (info.st_dev, info.st_ino) == self._identity

    def _let_go_of_name(self) -> None:
        with self._name_lock(), contextlib.suppress(OSError):
            if self._owns_name():
                os.unlink(self.rendezvous.socket)

    @contextlib.contextmanager
    def _name_lock(self) -> Iterator[None]:
        """Hosts take and give up the name one at a time."""
        flags = os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
        handle = os.open(self.rendezvous.socket + ".name", flags, 0o600)  # never a link's
        try:
            fcntl.flock(handle, fcntl.LOCK_EX)
            yield
        finally:
            os.close(handle)


class _Connection:
    """A session's socket, read and written on the loop with `wait_readable` (anyio's streams race a
    cancelled read)."""

    def __init__(self, raw: socket.socket) -> None:
        self.socket = raw
        self.leftover = b""

    async def receive(self) -> bytes:
        """The next chunk of the session's frames; empty at the end or when broken."""
        if self.leftover:
            chunk, self.leftover = self.leftover, b""
            return chunk
        while True:
            try:
                return self.socket.recv(CHUNK_BYTES)
            except BlockingIOError:
                await anyio.wait_readable(self.socket)
            except OSError:
                return b""

    async def send(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            try:
                sent = self.socket.send(view)
            except BlockingIOError:
                await anyio.wait_writable(self.socket)
                continue
            except OSError as error:
                raise anyio.BrokenResourceError from error
            view = view[sent:]

    def send_from_thread(self, data: bytes) -> None:
        """`data` written whole from a session's worker, waiting while the bridge is behind (the
        socket stays non-blocking for the loop); OSError once it is closed."""
        view = memoryview(data)
        while view:
            try:
                view = view[self.socket.send(view) :]
            except BlockingIOError:
                try:
                    select.select([], [self.socket], [], SEND_WAIT_S)
                except ValueError as error:  # closed meanwhile
                    raise OSError("the session's socket was closed") from error

    async def send_record(self, record: Record) -> None:
        line = json.dumps(record.to_json(), ensure_ascii=False) + "\n"
        await self.send(line.encode("utf-8", "surrogatepass"))

    async def first_line(self, cap: int) -> tuple[bytes, bytes]:
        """The first line and what came after it; ValueError past `cap` or at the end first."""
        buffer = bytearray()
        while (newline := buffer.find(b"\n")) < 0:
            if len(buffer) > cap:
                raise ValueError(f"the first line is over {cap} bytes")
            chunk = await self.receive()
            if not chunk:
                raise ValueError("the connection ended before its first line")
            buffer += chunk
        return bytes(buffer[:newline]), bytes(buffer[newline + 1 :])

    def close(self) -> None:
        self.socket.close()


def _answers_from(service: MemoryService) -> tuple[str, ...]:
    """The files a session's `initialize` and tools are made from, beside its command line and
    directory: its home (there or not) and the registry that decides what it serves (§22.9)."""
    return (str(service.home.root), str(service.home.config_path))


def _parsed(line: bytes) -> Any:
    try:
        return json.loads(line)
    except ValueError:
        return None


def _warm(catalog: MemoryCatalog) -> None:
    try:
        catalog.rows()
    except Exception:  # the first call lists again and says what failed
        logger.info("memtab mcp host: listing ahead failed", exc_info=True)


def _only_disconnects(error: BaseException) -> bool:
    """Whether `error` (a group's too) is nothing but a bridge going away."""
    if isinstance(error, BaseExceptionGroup):
        return all(_only_disconnects(inner) for inner in error.exceptions)
    return isinstance(error, _DISCONNECTS | ConnectionError)
