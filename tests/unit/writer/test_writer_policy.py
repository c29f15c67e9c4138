"""The writer's state file and its every-N-turns policy (docs/formats.md §10.1)."""

from __future__ import annotations

import json
import math
import shutil
from typing import Any

import pytest

from memtab.store.home import Home
from memtab.store.xum_locks import removal_tombstone_path
from memtab.writer.job.policy import (
    RunTicket,
    WriterScheduler,
    load_state,
    sanitize_state,
    save_state,
)
from memtab.writer.records import WriterState

from .helpers import WORKSPACE_ID as WS


class Clock:
    """A settable epoch-ms clock."""

    def __init__(self, now: int = 1_000_000) -> None:
        self.now = now

    def __call__(self) -> int:
        return self.now

    def tick(self, ms: int = 1000) -> int:
        self.now += ms
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def scheduler(home: Home, clock: Clock) -> WriterScheduler:
    return WriterScheduler(home, clock=clock)


def state_json(home: Home) -> dict[str, Any]:
    return json.loads(home.writer_state_path(WS).read_text(encoding="utf-8"))


def turns(scheduler: WriterScheduler, count: int, interval: int, clock: Clock) -> list[int]:
    """Feed `count` turns, finishing each run at once; return the turns that ran (1-based)."""
    ran: list[int] = []
    for turn in range(1, count + 1):
        clock.tick()
        ticket = scheduler.on_completed_turn(WS, f"m{turn}", interval)
        if ticket is not None:
            ran.append(turn)
            clock.tick()
            scheduler.finish_run(ticket)
    return ran


# --- the state file ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (None, WriterState()),
        ([1, 2], WriterState()),
        ({"turnsSinceLastRun": "3"}, WriterState()),
        ({"turnsSinceLastRun": -2}, WriterState()),
        ({"turnsSinceLastRun": 0}, WriterState()),
        ({"turnsSinceLastRun": True}, WriterState()),
        ({"turnsSinceLastRun": 2.9}, WriterState(turns_since_last_run=2)),
        ({"turnsSinceLastRun": 4}, WriterState(turns_since_last_run=4)),
        ({"lastRunStartedAt": math.inf, "lastRunCompletedAt": "5"}, WriterState()),
        (
            {"lastRunStartedAt": 10, "lastRunCompletedAt": 12.5},
            WriterState(last_run_started_at=10, last_run_completed_at=12.5),
        ),
        ({"lastRunMessageId": "   "}, WriterState()),
        ({"lastRunMessageId": 7}, WriterState()),
        ({"lastRunMessageId": "  msg-1 "}, WriterState(last_run_message_id="msg-1")),
    ],
)
def test_loading_sanitizes_like_mux(raw: Any, expected: WriterState) -> None:
    assert sanitize_state(raw) == expected


def test_state_is_written_with_schema_version_1_and_no_absent_fields(home: Home) -> None:
    path = home.writer_state_path(WS)
    save_state(path, WriterState(turns_since_last_run=1, last_run_started_at=5))
    assert json.loads(path.read_text()) == {
        "schemaVersion": 1,
        "turnsSinceLastRun": 1,
        "lastRunStartedAt": 5,
    }
    assert path.read_text().startswith('{\n  "schemaVersion"')  # pretty-printed


def test_a_corrupt_or_foreign_state_file_loads_as_the_default(home: Home) -> None:
    path = home.writer_state_path(WS)
    path.parent.mkdir(parents=True)
    path.write_text("{not json")
    assert load_state(path) == WriterState()
    path.write_text('{"schemaVersion": 7, "turnsSinceLastRun": 3, "extra": 1}')
    assert load_state(path) == WriterState(turns_since_last_run=3)


# --- every N turns -------------------------------------------------------------------------


def test_interval_2_runs_every_second_turn(scheduler: WriterScheduler, clock: Clock) -> None:
    assert turns(scheduler, 6, 2, clock) == [2, 4, 6]


def test_interval_5_runs_at_turn_5_and_10(scheduler: WriterScheduler, clock: Clock) -> None:
    assert turns(scheduler, 12, 5, clock) == [5, 10]


def test_interval_1_runs_on_every_turn(scheduler: WriterScheduler, clock: Clock) -> None:
    assert turns(scheduler, 3, 1, clock) == [1, 2, 3]


def test_turns_below_the_interval_are_persisted(
    home: Home, scheduler: WriterScheduler, clock: Clock
) -> None:
    assert scheduler.on_completed_turn(WS, "m1", 3) is None
    assert state_json(home) == {"schemaVersion": 1, "turnsSinceLastRun": 1}
    assert scheduler.on_completed_turn(WS, "m2", 3) is None
    assert state_json(home)["turnsSinceLastRun"] == 2


def test_a_run_is_persisted_before_it_starts(
    home: Home, scheduler: WriterScheduler, clock: Clock
) -> None:
    save_state(
        home.writer_state_path(WS),
        WriterState(turns_since_last_run=1, last_run_started_at=10, last_run_completed_at=20),
    )
    ticket = scheduler.on_completed_turn(WS, "msg-7", 2)
    assert ticket == RunTicket(WS, "msg-7", clock.now)
    assert state_json(home) == {
        "schemaVersion": 1,
        "turnsSinceLastRun": 0,
        "lastRunStartedAt": clock.now,
        "lastRunMessageId": "msg-7",
    }
    assert scheduler.is_in_flight(WS)


def test_finishing_a_run_records_its_completion(
    home: Home, scheduler: WriterScheduler, clock: Clock
) -> None:
    ticket = scheduler.on_completed_turn(WS, "m1", 1)
    assert ticket is not None
    clock.tick(2500)
    scheduler.finish_run(ticket)
    state = load_state(home.writer_state_path(WS))
    assert state.last_run_started_at == ticket.run_started_at
    assert state.last_run_completed_at == ticket.run_started_at + 2500
    assert not state.has_incomplete_run
    assert not scheduler.is_in_flight(WS)


def test_counting_survives_a_restart(home: Home, clock: Clock) -> None:
    first = WriterScheduler(home, clock=clock)
    assert first.on_completed_turn(WS, "m1", 3) is None
    assert first.on_completed_turn(WS, "m2", 3) is None
    restarted = WriterScheduler(home, clock=clock)
    assert restarted.on_completed_turn(WS, "m3", 3) is not None


def test_turns_during_a_run_are_persisted_and_no_run_is_deferred(
    home: Home, scheduler: WriterScheduler, clock: Clock
) -> None:
    ticket = scheduler.on_completed_turn(WS, "m1", 1)
    assert ticket is not None
    # In flight: even far past the interval, turns are only counted.
    for index in range(3):
        assert scheduler.on_completed_turn(WS, f"during{index}", 1) is None
    assert state_json(home)["turnsSinceLastRun"] == 3
    clock.tick()
    scheduler.finish_run(ticket)
    # Finishing does not start the deferred run by itself...
    assert not scheduler.is_in_flight(WS)
    assert state_json(home)["turnsSinceLastRun"] == 3
    # ...the next turn does.
    assert scheduler.on_completed_turn(WS, "after", 1) is not None


def test_completion_is_recorded_only_if_the_run_is_still_the_last(
    home: Home, scheduler: WriterScheduler, clock: Clock
) -> None:
    ticket = scheduler.on_completed_turn(WS, "m1", 1)
    assert ticket is not None
    # Another writer (or a reset) started a newer run meanwhile.
    newer = WriterState(last_run_started_at=ticket.run_started_at + 5)
    save_state(home.writer_state_path(WS), newer)
    clock.tick()
    scheduler.finish_run(ticket)
    assert load_state(home.writer_state_path(WS)) == newer
    assert not scheduler.is_in_flight(WS)


def test_crash_recovery_makes_the_first_turn_run(
    home: Home, scheduler: WriterScheduler, clock: Clock
) -> None:
    # Interval 5 and a run that started but never completed (the app died mid-run).
    save_state(
        home.writer_state_path(WS),
        WriterState(turns_since_last_run=0, last_run_started_at=clock.now),
    )
    clock.tick()
    assert scheduler.on_completed_turn(WS, "m1", 5) is not None


def test_a_completion_older_than_the_start_is_an_incomplete_run(
    home: Home, scheduler: WriterScheduler, clock: Clock
) -> None:
    save_state(
        home.writer_state_path(WS),
        WriterState(last_run_started_at=500, last_run_completed_at=400),
    )
    assert scheduler.on_completed_turn(WS, "m1", 4) is not None


def test_a_complete_previous_run_gets_no_recovery(
    home: Home, scheduler: WriterScheduler, clock: Clock
) -> None:
    save_state(
        home.writer_state_path(WS),
        WriterState(last_run_started_at=500, last_run_completed_at=500),
    )
    assert scheduler.on_completed_turn(WS, "m1", 4) is None


def test_a_run_in_flight_here_is_not_mistaken_for_a_crash(
    home: Home, scheduler: WriterScheduler, clock: Clock
) -> None:
    ticket = scheduler.on_completed_turn(WS, "m1", 5)
    assert ticket is None
    for turn in range(2, 6):
        ticket = scheduler.on_completed_turn(WS, f"m{turn}", 5) or ticket
    assert ticket is not None
    # The state now looks "incomplete", but the run is alive in this process: no recovery.
    assert scheduler.on_completed_turn(WS, "m6", 5) is None
    assert state_json(home)["turnsSinceLastRun"] == 1


def test_an_abandoned_run_is_retried_on_the_next_turn(
    home: Home, scheduler: WriterScheduler, clock: Clock
) -> None:
    ticket = scheduler.on_completed_turn(WS, "m1", 3)
    assert ticket is None
    ticket = scheduler.on_completed_turn(WS, "m2", 3) or scheduler.on_completed_turn(WS, "m3", 3)
    assert ticket is not None
    scheduler.abandon_run(ticket)
    assert not scheduler.is_in_flight(WS)
    assert load_state(home.writer_state_path(WS)).has_incomplete_run
    clock.tick()
    assert scheduler.on_completed_turn(WS, "m4", 3) is not None


def test_the_interval_is_clamped_to_1_50(scheduler: WriterScheduler, clock: Clock) -> None:
    assert scheduler.on_completed_turn(WS, "m1", 0) is not None


def test_workspaces_are_counted_separately(scheduler: WriterScheduler) -> None:
    assert scheduler.on_completed_turn("ws-a", "m1", 2) is None
    assert scheduler.on_completed_turn("ws-b", "m1", 2) is None
    assert scheduler.on_completed_turn("ws-a", "m2", 2) is not None


def test_a_state_file_changed_by_another_process_is_recognized(
    home: Home, scheduler: WriterScheduler
) -> None:
    assert not scheduler.is_foreign_change(WS)  # nothing there
    scheduler.on_completed_turn(WS, "m1", 3)
    assert not scheduler.is_foreign_change(WS)  # what we wrote
    save_state(home.writer_state_path(WS), WriterState(turns_since_last_run=2))
    assert scheduler.is_foreign_change(WS)


def test_a_workspace_xum_removed_gets_no_run_and_no_state_file(
    scheduler: WriterScheduler, home: Home, clock: Clock
) -> None:
    ticket = None
    for turn in range(3):
        ticket = scheduler.on_completed_turn(WS, f"m{turn}", 3) or ticket
    assert ticket is not None  # a run was under way when xum removed the workspace
    tombstone = removal_tombstone_path(home, WS)
    tombstone.parent.mkdir(parents=True)
    tombstone.write_text(json.dumps({"workspaceId": WS, "removedAt": 1}))
    shutil.rmtree(home.workspace_dir(WS))  # xum deletes the session dir
    clock.tick()
    scheduler.finish_run(ticket)
    assert scheduler.on_completed_turn(WS, "m9", 1) is None
    assert not home.workspace_dir(WS).exists()
