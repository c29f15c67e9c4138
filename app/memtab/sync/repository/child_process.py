"""A child process's pipes, fed and emptied on threads of their own, its end waited for
without a poll's sleep, and its process group stopped (`git.Git` runs every git so)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import threading
import time
from typing import IO

POLL_S = 0.05
"""How often a wait looks at the cancel and the time limit."""
STOP_GRACE_S = 2.0
"""How long a stopped git has to remove its lock files before its group is killed (a left
`<ref>.lock` refuses later pushes)."""
_CHUNK = 1 << 16


def ended(process: subprocess.Popen[bytes], pipes: Pipes) -> bool:
    """Whether the child ended, waiting up to `POLL_S`, woken as its output ends."""
    if not pipes.drained(POLL_S):
        return process.poll() is not None
    try:
        process.wait(timeout=POLL_S)
    except subprocess.TimeoutExpired:
        return False
    return True


def kill(process: subprocess.Popen[bytes]) -> None:
    """Stop the child's process group: asked to end (git removes its locks), killed after
    `STOP_GRACE_S`."""
    try:
        os.killpg(process.pid, signal.SIGTERM)
    except (OSError, AttributeError):
        process.kill()
        process.wait()
        return
    deadline = time.monotonic() + STOP_GRACE_S
    while process.poll() is None or _group_alive(process.pid):
        if time.monotonic() > deadline:
            with contextlib.suppress(OSError):
                os.killpg(process.pid, signal.SIGKILL)
            break
        time.sleep(0.005)
    process.wait()


def _group_alive(group: int) -> bool:
    """Whether a member of the process group still runs (zombies do not count where /proc tells)."""
    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        return False
    except OSError:  # there, but not ours to signal
        return True
    try:
        pids = [name for name in os.listdir("/proc") if name.isdigit()]
    except OSError:
        return True
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat", "rb") as stat:
                state, _parent, member_of = stat.read().rsplit(b")", 1)[1].split()[:3]
        except (OSError, ValueError):
            continue  # gone meanwhile
        if int(member_of) == group and state != b"Z":
            return True
    return False


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
    """Write `data` and close; a child that stopped reading ends the writing."""
    try:
        with pipe:
            view = memoryview(data or b"")
            for start in range(0, len(view), _CHUNK):
                pipe.write(view[start : start + _CHUNK])
    except (BrokenPipeError, OSError, ValueError):
        pass
