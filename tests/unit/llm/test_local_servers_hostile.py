"""A local server that misbehaves never hangs, crashes or writes to the terminal through
`memtab models --local`: a probe ends within its deadline however slowly the server
drips, deep JSON is no model list, the timeout is a finite number, and model names are
printed inert."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from memtab.cli.main import main
from memtab.llm.local_servers import ServerKind, find_local_servers

from .test_local_servers import _serve

# The probe sits through its deadline whole (twice: two paths asked, each given three
# timeouts), so the drips are as short as keeps a loaded machine's read from timing out.
DRIP_S = 0.03


@pytest.fixture
def dripping() -> Iterator[int]:
    """A server that answers one byte of its headers every DRIP_S, for ever."""
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(DRIP_S)
    stop = threading.Event()

    def drip(connection: socket.socket) -> None:
        with connection:
            try:
                connection.recv(4096)
                connection.sendall(b"HTTP/1.1 200 OK\r\n")
                while not stop.wait(DRIP_S):
                    connection.sendall(b"X")
            except OSError:
                return  # the client hung up: done

    def accept() -> None:
        while not stop.is_set():
            try:
                connection, _ = listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            threading.Thread(target=drip, args=(connection,), daemon=True).start()

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield int(listener.getsockname()[1])
    finally:
        stop.set()
        thread.join()
        listener.close()


@pytest.mark.timeout(60)
def test_a_server_that_drips_its_headers_is_given_up_at_its_deadline(dripping: int) -> None:
    kind = ServerKind("ollama", "Ollama", dripping, native_models_path="/api/tags")
    # Each read's own timeout is three drips long: only the deadline ends the requests.
    assert find_local_servers([kind], timeout=3 * DRIP_S) == []


class _RawHandler(BaseHTTPRequestHandler):
    """Answers every GET with 200 and JSON nested 100,000 levels."""

    def do_GET(self) -> None:
        body = b"[" * 100_000 + b"]" * 100_000
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


def test_deep_json_is_no_model_list() -> None:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _RawHandler)
    thread = threading.Thread(target=server.serve_forever, args=(0.01,), daemon=True)
    thread.start()
    try:
        port = int(server.server_address[1])
        kind = ServerKind("ollama", "Ollama", port, native_models_path="/api/tags")
        assert find_local_servers([kind], timeout=5) == []
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize("timeout", ["1e999", "nan", "-1", "0"])
def test_a_timeout_that_is_not_a_finite_positive_number_is_refused(
    timeout: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["models", "--local", "--timeout", timeout]) == 1
    assert "the timeout must be more than 0 and at most 60 s" in capsys.readouterr().err


def test_escape_sequences_in_model_names_are_printed_inert(
    capsys: pytest.CaptureFixture[str],
) -> None:
    evil = "evil\x1b]52;c;aGVsbG8=\x07\x1b[2J\u202e"
    for port in _serve({"/api/tags": {"models": [{"name": evil}, {"name": "llama3"}]}}):
        assert main(["models", "--local", "--port", f"ollama={port}"]) == 0
        out = capsys.readouterr().out
        assert "\x1b" not in out and "\x07" not in out and "\u202e" not in out
        assert "evil\\x1b]52;c;aGVsbG8=\\x07\\x1b[2J\\u202e" in out
        code = main(["settings", "use-local", "ollama", "--port", f"ollama={port}"])
        err = capsys.readouterr().err
        assert code == 1 and "\x1b" not in err and "evil\\x1b" in err
