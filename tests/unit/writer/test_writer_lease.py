"""One process per home runs the writer: the lease is exclusive across processes."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator

import pytest

from memtab.store.home import Home
from memtab.writer.lease import WriterLease

HOLDER = r"""
import sys
from memtab.store.home import Home
from memtab.writer.lease import WriterLease
lease = WriterLease(Home(sys.argv[1]))
print("held" if lease.acquire() else "busy", flush=True)
sys.stdin.read()
"""


@pytest.fixture
def other_process(home: Home) -> Iterator[subprocess.Popen[str]]:
    """Another process holding the home's writer lease until its stdin closes."""
    process = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(home.root)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None and process.stdout.readline().strip() == "held"
    yield process
    if process.poll() is None:
        process.kill()
        process.wait()


def test_the_lease_is_refused_while_another_process_holds_it(
    home: Home, other_process: subprocess.Popen[str]
) -> None:
    lease = WriterLease(home)
    assert not lease.acquire() and not lease.held
    assert other_process.stdin is not None
    other_process.stdin.close()  # the holder exits; the OS releases its lock
    assert other_process.wait(timeout=10) == 0
    assert lease.acquire() and lease.held
    lease.release()
    assert not lease.held


def test_a_released_lease_can_be_taken_again(home: Home) -> None:
    first = WriterLease(home)
    assert first.acquire() and first.acquire()  # idempotent
    first.release()
    first.release()  # idempotent
    second = WriterLease(home)
    assert second.acquire()
    second.release()
