"""sync.importer's Beside: a call on a thread of its own, its result or error for the caller."""

from __future__ import annotations

import threading

import pytest

from memtab.sync.importer import Beside


def test_the_call_runs_while_the_caller_works_and_its_result_is_returned() -> None:
    started, caller_done = threading.Event(), threading.Event()

    def call() -> str:
        started.set()
        assert caller_done.wait(5), "the call did not run beside the caller"
        return threading.current_thread().name

    beside = Beside(call, "memtab-test-beside")
    assert started.wait(5)  # started at once, not when the result is asked
    caller_done.set()
    assert beside.result() == "memtab-test-beside"


def test_what_the_call_raised_is_raised_where_the_caller_waits() -> None:
    def call() -> None:
        raise OSError("disk full")

    beside = Beside(call, "memtab-test-beside")
    with pytest.raises(OSError, match="disk full"):
        beside.result()


def test_a_call_returning_none_gives_none() -> None:
    assert Beside(lambda: None, "memtab-test-beside").result() is None
