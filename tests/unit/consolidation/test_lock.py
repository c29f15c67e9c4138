"""The cross-process consolidation lock: exclusive, named holder, released by the OS."""

from __future__ import annotations

import os
import signal
import subprocess
import threading
from collections.abc import Iterator

import pytest

from memtab.consolidation.errors import LockHeldError, RunCancelledError
from memtab.consolidation.running import ConsolidationLock
from memtab.store.home import Home
from support.processes import python_child

from .helpers import when_a_lock_is_refused

HOLDER = r"""
import sys
from pathlib import Path
from memtab.store.home import Home
from memtab.consolidation.running import ConsolidationLock
with ConsolidationLock(Home(Path(sys.argv[1]))).hold("elsewhere"):
    print("held", flush=True)
    sys.stdin.readline()
"""


@pytest.fixture
def holder(home: Home) -> Iterator[subprocess.Popen[str]]:
    """Another process holding the home's consolidation lock until its stdin closes."""
    with python_child(HOLDER, str(home.root)) as process:
        yield process


def test_another_process_holding_it_is_named_in_the_refusal(
    home: Home, holder: subprocess.Popen[str]
) -> None:
    with pytest.raises(LockHeldError) as refused, ConsolidationLock(home).hold("mine"):
        pass
    message = str(refused.value)
    assert f"pid {holder.pid}" in message and "workspace elsewhere" in message


def test_a_killed_holder_is_released_by_the_os_at_once(
    home: Home, holder: subprocess.Popen[str]
) -> None:
    holder.send_signal(signal.SIGKILL)
    holder.wait(10)
    lock = ConsolidationLock(home)
    with lock.hold("mine"):  # no waiting (wait_s=0): the lock died with its process
        assert lock.held


def test_waiting_gets_the_lock_when_the_holder_finishes(
    home: Home, holder: subprocess.Popen[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert holder.stdin is not None
    # Once this process waits, the holder exits; the OS releases its lock.
    when_a_lock_is_refused(monkeypatch, holder.stdin.close)
    lock = ConsolidationLock(home)
    with lock.hold("mine", wait_s=30):
        assert lock.held
    assert holder.wait(10) == 0


def test_a_cancelled_wait_stops_waiting(
    home: Home, holder: subprocess.Popen[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    cancel = threading.Event()
    when_a_lock_is_refused(monkeypatch, cancel.set)
    with (
        pytest.raises(RunCancelledError),  # not LockHeldError after 60 s
        ConsolidationLock(home).hold("mine", wait_s=60, cancel=cancel),
    ):
        pass


def test_two_holders_in_one_thread_are_never_both_granted(home: Home) -> None:
    first = ConsolidationLock(home)
    with first.hold("mine"):
        with (
            pytest.raises(LockHeldError, match=f"pid {os.getpid()}"),
            ConsolidationLock(home).hold("mine"),
        ):
            pass
        assert first.held
    with ConsolidationLock(home).hold("again"):
        pass


def test_the_holder_file_goes_with_the_lock(home: Home) -> None:
    lock = ConsolidationLock(home)
    holder_file = home.lock_path("consolidation").with_name("consolidation.holder.json")
    with lock.hold("mine"):
        assert holder_file.exists()
    assert not holder_file.exists()
