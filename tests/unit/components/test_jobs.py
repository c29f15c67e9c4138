"""The job service's rules without Qt: a job's states, how its run ended, the book of jobs
by key (the latest job wins)."""

from __future__ import annotations

import threading

import pytest

from memtab.components.jobs import (
    Closed,
    Ended,
    Job,
    JobBook,
    JobCancelledError,
    JobContext,
    JobFunction,
    Outcome,
    describe_failure,
    run_job,
)


def make_job(fn: JobFunction, key: str | None = None, job_id: int = 1) -> Job:
    context = JobContext(job_id, threading.Event(), lambda _id, _step, _message: None)
    return Job(fn, key, context, "test")


def not_failed(job: Job, error: BaseException) -> None:
    pytest.fail(f"job {job.job_id} failed: {error!r}")


def returns(value: object) -> JobFunction:
    return lambda _context: value


def test_a_queued_job_cancelled_is_withdrawn_and_never_claimed() -> None:
    job = make_job(returns(1))
    assert job.cancel()
    assert job.context.is_cancelled()
    assert not job.claim()
    assert not job.cancel()  # withdrawn once


def test_a_claimed_job_cancelled_is_not_withdrawn() -> None:
    job = make_job(returns(1))
    assert job.claim()
    assert not job.claim()
    assert not job.cancel()
    assert job.context.is_cancelled()


def test_a_run_finishes_with_its_result() -> None:
    assert run_job(make_job(returns([1, 2])), not_failed) == Ended(Outcome.FINISHED, [1, 2])


def test_a_job_cancelled_while_running_never_finishes_even_if_it_returns() -> None:
    def ignores_its_cancel(context: JobContext) -> str:
        context.cancel_event.set()
        return "stale"

    assert run_job(make_job(ignores_its_cancel), not_failed) == Ended(Outcome.CANCELLED)


def test_a_job_that_stops_on_its_cancel_is_cancelled() -> None:
    def stops(context: JobContext) -> None:
        context.cancel_event.set()
        context.raise_if_cancelled()

    assert run_job(make_job(stops), not_failed) == Ended(Outcome.CANCELLED)

    def raises_cancelled(_context: JobContext) -> None:
        raise JobCancelledError

    assert run_job(make_job(raises_cancelled), not_failed) == Ended(Outcome.CANCELLED)


def test_a_failure_is_said_in_words_and_told() -> None:
    told: list[tuple[Job, BaseException]] = []

    def breaks(_context: JobContext) -> None:
        raise ValueError(" no such scope \n")

    job = make_job(breaks)
    assert run_job(job, lambda *failure: told.append(failure)) == Ended(
        Outcome.FAILED, "ValueError: no such scope"
    )
    assert [(failed, type(error)) for failed, error in told] == [(job, ValueError)]


def test_failing_while_torn_down_is_being_cancelled() -> None:
    def breaks_on_cancel(context: JobContext) -> None:
        context.cancel_event.set()
        raise OSError("closed")

    assert run_job(make_job(breaks_on_cancel), not_failed) == Ended(Outcome.CANCELLED)


def test_a_failure_without_words_is_its_type() -> None:
    assert describe_failure(KeyError()) == "KeyError"
    assert describe_failure(OSError("disk full")) == "OSError: disk full"


def test_a_new_job_of_a_key_supersedes_only_that_keys_jobs() -> None:
    book = JobBook[str]()
    book.add(1, "scan", "first scan")
    book.add(2, "read", "a read")
    book.add(3, None, "a write")
    assert book.with_key("scan") == ["first scan"]
    assert book.with_key(None) == []
    assert book.busy("read") and not book.busy("listing") and book.busy()


def test_only_the_newest_of_a_key_reports_under_it() -> None:
    book = JobBook[None]()
    book.add(1, "scan", None)
    book.make_latest("scan", 1)
    book.add(2, "scan", None)
    book.make_latest("scan", 2)
    assert book.end(1) == Closed("scan", False)
    assert book.end(2) == Closed("scan", True)
    assert book.end(2) is None
    assert not book  # idle


def test_a_withdrawn_latest_no_longer_reports_under_its_key() -> None:
    book = JobBook[None]()
    book.add(5, "search", None)
    book.make_latest("search", 5)
    assert book.take_latest("search") == 5
    assert book.take_latest("search") is None
    assert book.end(5) == Closed("search", False)


def test_a_keyless_job_and_a_cleared_book() -> None:
    book = JobBook[str]()
    book.add(1, None, "write")
    book.add(2, "scan", "scan")
    book.make_latest("scan", 2)
    assert list(book) == [1, 2] and 2 in book and book.get(2) == "scan"
    assert book.get(9) is None
    assert book.end(1) == Closed(None, False)
    book.clear_latest()
    assert book.end(2) == Closed("scan", False)
    book.add(3, "scan", "again")
    book.clear()
    assert not book and book.items() == []
