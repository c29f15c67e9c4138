"""Warm MCP hosts in tests (docs/formats.md §22.8): one on a thread of the test, and the ones
a test's sessions started (detached, as agents' are), found and ended with the test."""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from collections.abc import Callable
from pathlib import Path

from memtab.agent_server.bridge.rendezvous import Rendezvous
from memtab.agent_server.hosting.host import McpHost
from memtab.agent_server.hosting.status import host_status
from memtab.cli.share.mcp_sessions import open_session

WITHIN_S = 10.0
# Long enough for a host on a loaded 2-core machine to stop once asked.
_STOP_TIMEOUT_S = 20.0
# Long enough for a process to import the SDK and start hosting at load 10 or more.
_START_TIMEOUT_S = 90.0


def sockets() -> list[Path]:
    """The hosts' sockets in this test's runtime folder."""
    return sorted((Path(os.environ["XDG_RUNTIME_DIR"]) / "memtab").glob("*.sock"))


def host_pids() -> list[int]:
    """The pids of the hosts that answer in this test's runtime folder."""
    found = (host_status(str(path)) for path in sockets())
    return [status.pid for status in found if status is not None]


def gone(pid: int) -> bool:
    """Whether process `pid` has exited (a zombie no parent reaped counts)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return True
    return state in ("Z", "X")


def wait_for(condition: Callable[[], object], what: str) -> None:
    """Wait until `condition()` holds (a failure after _START_TIMEOUT_S, not a timing test)."""
    deadline = time.monotonic() + _START_TIMEOUT_S
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"never happened: {what}")
        time.sleep(0.02)


def wait_gone(pid: int, timeout_s: float = _STOP_TIMEOUT_S) -> bool:
    deadline = time.monotonic() + timeout_s
    while not gone(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def end(pid: int) -> None:
    """Stop a host (SIGTERM, else SIGKILL) and wait until it has exited."""
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGCONT)
        os.kill(pid, signal.SIGTERM)
    if not wait_gone(pid):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        wait_gone(pid)


def end_hosts(also: list[int] | None = None) -> None:
    """End every host of this test (and the pids in `also`)."""
    for pid in {*host_pids(), *(also or [])}:
        end(pid)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Running:
    """A host on a thread; `stop()` ends it and waits."""

    def __init__(self, host: McpHost) -> None:
        self.host = host
        ready = threading.Event()
        self.thread = threading.Thread(target=host.run, kwargs={"ready": ready.set}, daemon=True)
        self.thread.start()
        assert ready.wait(WITHIN_S), "the host did not start"

    def checks_pass(self, count: int = 3) -> None:
        """Wait until the host has looked at its name and idle time `count` times more."""
        target = self.host.checks + count
        deadline = time.monotonic() + WITHIN_S
        while self.host.checks < target and self.thread.is_alive():
            assert time.monotonic() < deadline
            time.sleep(0.005)

    def ended(self) -> bool:
        self.thread.join(WITHIN_S)
        return not self.thread.is_alive()

    def stop(self) -> None:
        self.host.stop()
        assert self.ended()


def start(place: Rendezvous, **options: object) -> Running:
    settings: dict[str, object] = {"hosted_by": "command", "idle_exit_s": None}
    settings.update(options)
    return Running(McpHost(place, open_session, check_every_s=0.01, **settings))  # type: ignore[arg-type]
