"""A child process's pipes, fed and emptied on threads of their own, its end waited for
without a poll's sleep, and its process group killed (`git.Git` runs every git so)."""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
from typing import IO

POLL_S = 0.05
"""How often a wait looks at the cancel and the time limit."""
_CHUNK = 1 << 16


def ended(process: subprocess.Popen[bytes], pipes: Pipes) -> bool:
    """Whether the child ended, waiting up to `POLL_S`: woken as its output ends, which
    is when it exits but for a child it left holding the pipes (ssh), so a git that takes
    5 ms is not waited for as a poll's sleep does (up to half again its time)."""
    if not pipes.drained(POLL_S):
        return process.poll() is not None
    try:
        process.wait(timeout=POLL_S)
    except subprocess.TimeoutExpired:
        return False
    return True


def kill(process: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (OSError, AttributeError):
        process.kill()
    process.wait()


class Pipes:
    """A child's stdin fed and its stdout and stderr read, each on a thread of its own."""

    def __init__(self, process: subprocess.Popen[bytes], input_data: bytes | None) -> None:
        self._out: list[bytes] = []
        self._err: list[bytes] = []
        self._threads = [
            threading.Thread(target=_drain, args=(process.stdout, self._out), daemon=True),
            threading.Thread(target=_drain, args=(process.stderr, self._err), daemon=True),
        ]
        if process.stdin is not None:
            feed = threading.Thread(target=_feed, args=(process.stdin, input_data), daemon=True)
            self._threads.append(feed)
        for thread in self._threads:
            thread.start()

    def drained(self, timeout_s: float) -> bool:
        """Wait for stdout and stderr to end; whether they did."""
        deadline = time.monotonic() + timeout_s
        for thread in self._threads[:2]:
            thread.join(max(deadline - time.monotonic(), 0))
        return not any(thread.is_alive() for thread in self._threads[:2])

    def join(self, timeout_s: float) -> bool:
        """Wait for the three to end; whether they did."""
        deadline = time.monotonic() + timeout_s
        for thread in self._threads:
            thread.join(max(deadline - time.monotonic(), 0))
        return not any(thread.is_alive() for thread in self._threads)

    @property
    def stdout(self) -> bytes:
        return b"".join(self._out)

    @property
    def stderr(self) -> bytes:
        return b"".join(self._err)


def _drain(pipe: IO[bytes] | None, into: list[bytes]) -> None:
    if pipe is None:
        return
    with pipe:
        while chunk := pipe.read(_CHUNK):
            into.append(chunk)


def _feed(pipe: IO[bytes], data: bytes | None) -> None:
    """Write `data` and close: a child that stopped reading (it failed, or was killed)
    ends the writing, its own message says why."""
    try:
        with pipe:
            view = memoryview(data or b"")
            for start in range(0, len(view), _CHUNK):
                pipe.write(view[start : start + _CHUNK])
    except (BrokenPipeError, OSError, ValueError):
        pass
