"""The window's sync jobs without Qt: one at a time, the larger request kept while one runs,
what waited runs when it ends (not once the window closes), the schedule's turns and what
a watcher batch asks."""

from __future__ import annotations

from memtab.components.activity.change_batch import ChangeBatch
from memtab.components.sync.status import (
    BatchWants,
    Schedule,
    SyncTurns,
    batch_wants,
    schedule_after,
)
from memtab.store.home import PathKind, PathPlace


def batch(*kinds: PathKind) -> ChangeBatch:
    return ChangeBatch(tuple(f"/p{i}" for i in range(len(kinds))), tuple(map(PathPlace, kinds)))


def test_a_request_runs_at_once_when_nothing_runs() -> None:
    assert not SyncTurns().busy
    turns = SyncTurns()
    assert turns.request("look") == "look"
    turns.submitted(1, "look")
    assert turns.busy and not turns.syncing
    assert turns.cancellable is None  # a look is not stopped


def test_a_request_while_one_runs_waits_and_the_larger_one_is_kept() -> None:
    turns = SyncTurns()
    turns.submitted(1, "look")
    assert turns.request("changes") is None
    assert turns.request("full") is None
    assert turns.request("changes") is None  # smaller than the full one kept
    assert turns.ended(1) == ("look", "full")
    turns.submitted(2, "full")
    assert turns.syncing and turns.cancellable == 2
    assert turns.ended(2) == ("full", None)
    assert not turns.busy


def test_a_job_not_running_ends_nothing() -> None:
    turns = SyncTurns()
    turns.submitted(1, "changes")
    turns.request("look")
    assert turns.ended(7) == (None, None)
    assert turns.syncing and turns.busy


def test_once_closed_nothing_is_submitted() -> None:
    turns = SyncTurns()
    turns.submitted(1, "full")
    turns.request("changes")
    turns.closed = True
    assert turns.request("look") is None
    assert turns.ended(1) == ("full", None)


def test_the_schedule_starts_once_set_up_then_keeps_an_interval_after_each_full_sync() -> None:
    assert schedule_after("look", configured=False, scheduled=False) is Schedule.STOP
    assert schedule_after("look", configured=True, scheduled=False) is Schedule.FIRST
    assert schedule_after("changes", configured=True, scheduled=True) is Schedule.KEEP
    assert schedule_after("full", configured=True, scheduled=True) is Schedule.INTERVAL
    assert schedule_after("full", configured=True, scheduled=True, closed=True) is Schedule.STOP


def test_a_batch_asks_a_look_for_sync_files_and_a_settled_sync_for_memory() -> None:
    assert batch_wants(batch(PathKind.SYNC), configured=False) == BatchWants(look=True)
    memory = batch(PathKind.PROJECT_SCOPE)
    assert batch_wants(memory, configured=True) == BatchWants(settle=True)
    assert batch_wants(memory, configured=False) == BatchWants()
    everything = BatchWants(look=True, settle=True)  # the home as a whole: anything changed
    assert batch_wants(batch(PathKind.HOME), configured=True) == everything
    assert batch_wants(batch(PathKind.CHAT_TRANSCRIPT), configured=True) == BatchWants()
