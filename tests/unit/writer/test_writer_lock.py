"""One process per home runs the writer: the lock is exclusive across processes."""

from __future__ import annotations

import subprocess
import threading
from collections.abc import Iterator

import pytest

from memtab.store.home import Home
from memtab.writer.job.service import WriterLock
from support.processes import python_child

HOLDER = r"""
import sys
from memtab.store.home import Home
from memtab.writer.job.service import WriterLock
lock = WriterLock(Home(sys.argv[1]))
print("held" if lock.acquire() else "busy", flush=True)
sys.stdin.read()
"""


@pytest.fixture
def other_process(home: Home) -> Iterator[subprocess.Popen[str]]:
    """Another process holding the home's writer lock until its stdin closes."""
    with python_child(HOLDER, str(home.root)) as process:
        yield process


def test_the_lock_is_refused_while_another_process_holds_it(
    home: Home, other_process: subprocess.Popen[str]
) -> None:
    lock = WriterLock(home)
    assert not lock.acquire() and not lock.held
    assert other_process.stdin is not None
    other_process.stdin.close()  # the holder exits; the OS releases its lock
    assert other_process.wait(timeout=10) == 0
    assert lock.acquire() and lock.held
    lock.release()
    assert not lock.held


def test_a_released_lock_can_be_taken_again(home: Home) -> None:
    first = WriterLock(home)
    assert first.acquire() and first.acquire()  # idempotent
    first.release()
    first.release()  # idempotent
    second = WriterLock(home)
    assert second.acquire()
    second.release()


def test_a_second_lock_object_in_the_same_thread_is_refused(home: Home) -> None:
    # The old helper let a thread "re-enter" a lock it held: two owners both acquired.
    first, second = WriterLock(home), WriterLock(home)
    assert first.acquire()
    assert not second.acquire() and not second.held
    first.release()
    assert second.acquire()
    second.release()


def test_the_lock_may_be_released_on_another_thread(home: Home) -> None:
    lock = WriterLock(home)
    assert lock.acquire()
    releaser = threading.Thread(target=lock.release)
    releaser.start()
    releaser.join()
    assert not lock.held and WriterLock(home).acquire()
