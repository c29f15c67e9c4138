"""Driving `memtab mcp` with raw frames over stdio, as a broken or hostile client would:
bytes in, one answer line out, each waited for at most a given time."""

from __future__ import annotations

import contextlib
import json
import os
import queue
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from .stdio_client import server_parameters

_EXIT_TIMEOUT_S = 10


class RawServer:
    """A `memtab mcp` child: `send` writes a frame, `answer` reads the next answer."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        assert process.stdin is not None and process.stdout is not None
        self.process = process
        self._stdin: IO[bytes] = process.stdin
        self._lines: queue.Queue[bytes] = queue.Queue()
        self._reader = threading.Thread(target=self._read, args=(process.stdout,), daemon=True)
        self._reader.start()

    def _read(self, stdout: IO[bytes]) -> None:
        for line in stdout:
            self._lines.put(line)

    def send(self, *chunks: bytes) -> None:
        for chunk in chunks:
            self._stdin.write(chunk)
        self._stdin.flush()

    def answer(self, within_s: float) -> dict[str, Any]:
        """The next line the server writes, as JSON; AssertionError if none comes in time."""
        answer: dict[str, Any] = json.loads(self.answer_line(within_s))
        return answer

    def answer_line(self, within_s: float) -> bytes:
        """The next line the server writes, as it wrote it."""
        try:
            return self._lines.get(timeout=within_s)
        except queue.Empty:
            raise AssertionError(f"no answer within {within_s} s") from None

    def initialize(self) -> None:
        self.send(
            json.dumps(
                {
                    "jsonrpc": "2.0",
                    "id": 0,
                    "method": "initialize",
                    "params": {
                        "protocolVersion": "2025-11-25",
                        "capabilities": {},
                        "clientInfo": {"name": "raw-client", "version": "1"},
                    },
                }
            ).encode()
            + b"\n"
        )
        assert self.answer(within_s=30)["id"] == 0  # a cold start on a loaded machine
        self.send(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')

    def peak_rss_kib(self) -> int | None:
        """The child's peak resident memory (VmHWM), where /proc says it."""
        try:
            status = Path(f"/proc/{self.process.pid}/status").read_text()
        except OSError:
            return None
        for line in status.splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
        return None


@contextlib.contextmanager
def raw_server(home: Path, *options: str) -> Iterator[RawServer]:
    """`memtab mcp --home home *options`, initialized; ended (stdin closed, then killed if
    it will not stop) and its pipes closed when the block ends."""
    parameters = server_parameters(home, *options)
    with subprocess.Popen(
        [parameters.command, *parameters.args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env={**(parameters.env or {}), "PATH": os.environ.get("PATH", "")},
    ) as process:
        server = RawServer(process)
        try:
            server.initialize()
            yield server
        finally:
            with contextlib.suppress(BrokenPipeError):
                server._stdin.close()
            try:
                process.wait(_EXIT_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            server._reader.join(_EXIT_TIMEOUT_S)
