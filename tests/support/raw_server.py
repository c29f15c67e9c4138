"""A loopback HTTP server that misbehaves on purpose, one handler per connection.

For what a scripted `FakeModelServer` cannot do: drip a reply a byte at a time, send a
reply without end, hold a request and see the moment the client hangs up::

    with RawServer(drip_body) as server:
        provider = OpenAIProvider("m", None, server.base_url + "/v1", options=...)
        ...
        assert server.hung_up.wait(5)

Each handler gets the accepted socket after the request was read whole (headers and the
body `content-length` says). `hung_up` is set when a handler sees the client close.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable
from types import TracebackType

Handler = Callable[[socket.socket, "RawServer"], None]


class RawServer:
    """Serves every connection with `handler` on its own thread until closed."""

    def __init__(self, handler: Handler) -> None:
        self.handler = handler
        self.hung_up = threading.Event()
        self.requests: list[bytes] = []
        self.sent = 0
        self.stop = threading.Event()
        self._listener = socket.create_server(("127.0.0.1", 0))
        self._listener.settimeout(0.05)
        self._threads: list[threading.Thread] = []
        self._accepting = threading.Thread(target=self._accept, daemon=True)
        self._accepting.start()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._listener.getsockname()[1]}"

    def _accept(self) -> None:
        while not self.stop.is_set():
            try:
                connection, _ = self._listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            thread = threading.Thread(target=self._serve, args=(connection,), daemon=True)
            self._threads.append(thread)
            thread.start()

    def _serve(self, connection: socket.socket) -> None:
        with connection:
            try:
                self.requests.append(_read_request(connection))
                self.handler(connection, self)
            except OSError:
                self.hung_up.set()

    def send(self, connection: socket.socket, data: bytes) -> None:
        """Send `data`, counting it; OSError once the client is gone."""
        connection.sendall(data)
        self.sent += len(data)

    def wait_for_hang_up(self, connection: socket.socket) -> None:
        """Block until the client closes the connection (or the server stops)."""
        connection.settimeout(0.05)
        while not self.stop.is_set():
            try:
                if connection.recv(4096) == b"":
                    self.hung_up.set()
                    return
            except TimeoutError:
                continue

    def close(self) -> None:
        self.stop.set()
        self._accepting.join()
        self._listener.close()
        for thread in self._threads:
            thread.join()

    def __enter__(self) -> RawServer:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()


def _read_request(connection: socket.socket) -> bytes:
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = connection.recv(65536)
        if not chunk:
            raise OSError("the client closed before sending its request")
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    while len(body) < length:
        chunk = connection.recv(65536)
        if not chunk:
            raise OSError("the client closed before sending its body")
        body += chunk
    return head + b"\r\n\r\n" + body
