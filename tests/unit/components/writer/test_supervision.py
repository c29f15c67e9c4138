"""The background writer's supervision without Qt: beginning under the lock (standing by,
a change meanwhile polled once more), a batch's checks before its polls, runs queued and
going, paused runs withdrawn or abandoned, and the status each run's end leaves."""

from __future__ import annotations

from dataclasses import dataclass

from memtab.components.activity.change_batch import ChangeBatch
from memtab.components.writer.supervision import (
    STANDBY,
    Supervision,
    WatchJob,
    WatchStep,
    WriterActivity,
)
from memtab.store.home import PathKind, PathPlace


@dataclass(frozen=True)
class Ticket:
    workspace_id: str


def batch(*places: PathPlace) -> ChangeBatch:
    return ChangeBatch(tuple(f"/p{i}" for i in range(len(places))), places)


def following() -> Supervision[Ticket]:
    supervision: Supervision[Ticket] = Supervision()
    assert supervision.start() == WatchStep(WatchJob.BEGIN)
    assert supervision.began(took_lock=True) == (True, None)
    return supervision


def test_nothing_is_watched_before_start_and_start_begins_once() -> None:
    supervision: Supervision[Ticket] = Supervision()
    assert supervision.batch_steps(batch(PathPlace(PathKind.CHAT_TRANSCRIPT, "ws"))) == []
    assert supervision.start() == WatchStep(WatchJob.BEGIN)
    assert supervision.start() is None


def test_a_change_while_beginning_is_polled_everywhere_once_the_lock_is_taken() -> None:
    supervision: Supervision[Ticket] = Supervision()
    supervision.start()
    assert supervision.batch_steps(batch(PathPlace(PathKind.CHAT_TRANSCRIPT, "ws"))) == []
    assert supervision.began(took_lock=True) == (True, WatchStep(WatchJob.POLL))


def test_without_the_lock_it_stands_by_and_the_next_change_tries_again() -> None:
    supervision: Supervision[Ticket] = Supervision()
    supervision.start()
    assert supervision.began(took_lock=False) == (False, None)
    standing_by = supervision.status
    assert standing_by.standby and standing_by.message == STANDBY
    change = batch(PathPlace(PathKind.CHAT_TRANSCRIPT, "ws"))
    assert supervision.batch_steps(change) == [WatchStep(WatchJob.BEGIN)]
    assert supervision.batch_steps(change) == []  # one BEGIN at a time
    assert supervision.began(took_lock=True) == (True, WatchStep(WatchJob.POLL))
    following = supervision.status
    assert not following.standby and following.message == ""


def test_a_begin_that_failed_is_tried_again_with_the_next_change() -> None:
    supervision: Supervision[Ticket] = Supervision()
    supervision.start()
    supervision.watch_submitted(1, WatchJob.BEGIN)
    assert supervision.watch_ended(1, finished=False) is WatchJob.BEGIN
    change = batch(PathPlace(PathKind.CHAT_TRANSCRIPT, "ws"))
    assert supervision.batch_steps(change) == [WatchStep(WatchJob.BEGIN)]


def test_a_batch_checks_the_states_before_polling_the_transcripts_it_touched() -> None:
    steps = following().batch_steps(
        batch(
            PathPlace(PathKind.CHAT_TRANSCRIPT, "b"),
            PathPlace(PathKind.WRITER_STATE, "a"),
            PathPlace(PathKind.CHAT_TRANSCRIPT, "a"),
        )
    )
    assert steps == [WatchStep(WatchJob.CHECK, ["a"]), WatchStep(WatchJob.POLL, ["a", "b"])]


def test_the_home_or_every_workspace_changed_polls_every_transcript() -> None:
    supervision = following()
    for place in (PathPlace(PathKind.HOME), PathPlace(PathKind.WORKSPACE_DIR)):
        assert supervision.batch_steps(batch(place)) == [WatchStep(WatchJob.POLL)]
    assert supervision.batch_steps(batch(PathPlace(PathKind.GLOBAL_SCOPE))) == []


def test_a_run_goes_then_settles_with_its_workspace_name() -> None:
    supervision = following()
    ticket = Ticket("ws")
    assert supervision.polled({"ws": "Web app"}, [ticket]) == ([ticket], [])
    supervision.run_submitted(5, ticket)
    assert supervision.run_started(5) is ticket
    running = supervision.status
    assert running.activity is WriterActivity.RUNNING and running.workspace_name == "Web app"
    assert supervision.run_ended(5) == (ticket, True)
    supervision.settle(WriterActivity.IDLE, ticket, "wrote 2 notes")
    settled = supervision.status
    assert settled.activity is WriterActivity.IDLE and settled.message == "wrote 2 notes"
    assert supervision.run_started(5) is None  # ended: not ours any more


def test_pausing_withdraws_the_queued_runs_and_abandons_new_tickets() -> None:
    supervision = following()
    going, queued = Ticket("a"), Ticket("b")
    supervision.run_submitted(1, going)
    supervision.run_submitted(2, queued)
    supervision.run_started(1)
    assert supervision.set_paused(True) == [2]
    assert supervision.set_paused(True) is None  # paused already
    assert supervision.run_ended(2) == (queued, False)
    assert supervision.polled({}, [Ticket("c")]) == ([], [Ticket("c")])
    assert supervision.set_paused(False) == []
    assert not supervision.paused


def test_once_closed_nothing_starts() -> None:
    supervision = following()
    supervision.closed = True
    assert supervision.batch_steps(batch(PathPlace(PathKind.HOME))) == []
    assert supervision.polled({}, [Ticket("a")]) == ([], [Ticket("a")])
