"""The cross-process consolidation lease: take-over rules, renewal, loss and release."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time

import pytest

from memtab.consolidation.errors import LeaseHeldError
from memtab.consolidation.lease import (
    ConsolidationLease,
    LeaseInfo,
    lease_path,
    pid_alive,
    read_lease,
    wall_clock_ms,
)
from memtab.fs.atomic import atomic_write_json
from memtab.store.home import Home

MINUTE_MS = 60_000


def dead_pid() -> int:
    """The pid of a process that has exited (and been reaped)."""
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    process.wait()
    return process.pid


def write_lease(home: Home, *, pid: int, host: str, expires_in_ms: int) -> None:
    now = wall_clock_ms()
    info = LeaseInfo(pid, host, "someone-else", "other-ws", now, now + expires_in_ms)
    atomic_write_json(lease_path(home), info.to_json())


def test_a_dead_owner_on_this_host_is_taken_over_even_before_expiry(home: Home) -> None:
    pid = dead_pid()
    assert pid_alive(pid) is False
    write_lease(home, pid=pid, host=socket.gethostname(), expires_in_ms=10 * MINUTE_MS)
    lease = ConsolidationLease(home)
    lease.acquire("mine")
    current = read_lease(home)
    assert current is not None and current.token == lease.token and current.pid == os.getpid()
    lease.release()
    assert not lease_path(home).exists()


def test_an_expired_lease_is_taken_over_even_if_its_owner_lives(home: Home) -> None:
    write_lease(home, pid=os.getpid(), host="elsewhere", expires_in_ms=-1)
    lease = ConsolidationLease(home)
    lease.acquire("mine")
    assert lease.held
    lease.release()


def test_a_live_lease_of_another_host_is_honoured(home: Home) -> None:
    write_lease(home, pid=dead_pid(), host="build-server", expires_in_ms=MINUTE_MS)
    with pytest.raises(LeaseHeldError, match="on build-server"):
        ConsolidationLease(home).acquire("mine")
    assert read_lease(home) is not None and read_lease(home).token == "someone-else"  # type: ignore[union-attr]


def test_a_corrupt_lease_file_is_replaced(home: Home) -> None:
    path = lease_path(home)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("{not json")
    lease = ConsolidationLease(home)
    lease.acquire("mine")
    assert json.loads(path.read_text())["token"] == lease.token
    lease.release()


def test_the_holder_renews_its_lease_while_it_runs(home: Home) -> None:
    lease = ConsolidationLease(home, ttl_s=0.5, renew_interval_s=0.05)
    with lease.hold("mine"):
        first = read_lease(home)
        assert first is not None
        deadline = time.monotonic() + 5
        while (current := read_lease(home)) is not None and current.expires_at == first.expires_at:
            assert time.monotonic() < deadline, "the lease was never renewed"
            time.sleep(0.02)
        assert current is not None and current.expires_at > first.expires_at
    assert not lease_path(home).exists()


def test_a_lease_taken_over_is_reported_lost_and_not_released_by_the_old_holder(
    home: Home,
) -> None:
    lease = ConsolidationLease(home)
    lease.acquire("mine")
    assert lease.lost_reason() is None
    write_lease(home, pid=12345, host="elsewhere", expires_in_ms=MINUTE_MS)
    assert lease.renew() is False
    assert "taken over (pid 12345 on elsewhere)" in (lease.lost_reason() or "")
    lease.release()
    assert read_lease(home) is not None  # the new owner's lease stays
