"""A window's job, whoever runs it: its context (cancel, progress) and the job service's
rules without Qt (states, outcomes, the book by key, routes); threads and signals are
`gui/tasks/`'s. No postponed annotations: the start compiles its NamedTuples' fields."""

import enum
import functools
import logging
import threading
from collections.abc import Callable, Iterator
from typing import Generic, NamedTuple, ParamSpec, Protocol, TypeVar

logger = logging.getLogger(__name__)

T = TypeVar("T")
P = ParamSpec("P")


class CancelToken(Protocol):
    """Raises (the runner's cancellation exception) once the job was cancelled."""

    # Stop the job here if it was cancelled or superseded.
    def raise_if_cancelled(self) -> None: ...


Progress = Callable[[int, int, str], None]
"""Where progress goes: (job id, step, message), from any thread."""


class JobCancelledError(Exception):
    """Raised inside a job (by `JobContext.raise_if_cancelled`) to end it as cancelled."""


class JobContext:
    """What a running job gets: its id, its cancel event and a progress channel."""

    def __init__(self, job_id: int, cancel_event: threading.Event, emit_progress: Progress) -> None:
        """Built by whoever runs the job; jobs only receive it."""
        self.job_id = job_id
        self.cancel_event = cancel_event
        self._emit_progress = emit_progress

    @classmethod
    def standalone(cls, progress: Progress | None = None) -> "JobContext":
        """A context for a job run in place (a test, a command): never cancelled unless
        its `cancel_event` is set; progress goes to `progress`, or nowhere."""
        return cls(0, threading.Event(), progress or _ignore_progress)

    def is_cancelled(self) -> bool:
        """Whether the job was cancelled or superseded; check it between steps."""
        return self.cancel_event.is_set()

    def raise_if_cancelled(self) -> None:
        """Raise `JobCancelledError` if the job was cancelled (the job then ends cancelled)."""
        if self.cancel_event.is_set():
            raise JobCancelledError

    def report_progress(self, step: int, message: str) -> None:
        """Report progress; thread-safe (the window delivers it on the GUI thread)."""
        self._emit_progress(self.job_id, step, message)


def _ignore_progress(_job_id: int, _step: int, _message: str) -> None:
    """Progress nobody follows."""


JobFunction = Callable[[JobContext], object]
"""A job: runs off the GUI thread, gets its context, returns its result."""


def plain(fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Callable[[JobContext], T]:
    """The job of an engine function that takes no context: once started it runs to its
    end (cancelling it drops its result)."""
    return functools.partial(_call_plain, functools.partial(fn, *args, **kwargs))


def _call_plain(call: Callable[[], T], _ctx: JobContext) -> T:
    return call()


class JobState(enum.Enum):
    QUEUED = enum.auto()
    RUNNING = enum.auto()
    WITHDRAWN = enum.auto()  # cancelled before it started: never runs


class Job:
    """A submitted job. Its state moves under a lock shared by both threads."""

    def __init__(self, fn: JobFunction, key: str | None, context: JobContext, label: str) -> None:
        self.fn = fn
        self.key = key
        self.label = label
        self.context = context
        self._lock = threading.Lock()
        self._state = JobState.QUEUED
        self.reported = threading.Event()
        """Set by the worker once the job's final signal is on its way (or it never ran)."""

    @property
    def job_id(self) -> int:
        return self.context.job_id

    def claim(self) -> bool:
        """Worker thread: move QUEUED → RUNNING; False if the job was withdrawn."""
        with self._lock:
            if self._state is not JobState.QUEUED:
                return False
            self._state = JobState.RUNNING
            return True

    def cancel(self) -> bool:
        """GUI thread: set the cancel event; True if the job was still queued (withdrawn)."""
        with self._lock:
            self.context.cancel_event.set()
            if self._state is JobState.QUEUED:
                self._state = JobState.WITHDRAWN
                return True
            return False


def describe_failure(exc: BaseException) -> str:
    """A job's exception as its failure says it: "<Type>: <message>"."""
    text = str(exc).strip()
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


class Outcome(enum.Enum):
    FINISHED = enum.auto()
    FAILED = enum.auto()
    CANCELLED = enum.auto()


class Ended(NamedTuple):
    """How a job ended: its result (finished), its failure's words (failed) or nothing."""

    outcome: Outcome
    value: object = None


def run_job(job: Job, failed: Callable[[Job, BaseException], None]) -> Ended:
    """Run a claimed job (on the worker thread) and say how it ended; `failed` is told of
    an exception that is a failure, not a cancel (to log it and report a defect)."""
    context = job.context
    try:
        # Once claimed, fn always runs (even if cancelled a moment ago): whoever saw the
        # job start may rely on the job's own cleanup having happened.
        result = job.fn(context)
    except JobCancelledError:
        return Ended(Outcome.CANCELLED)
    except Exception as exc:
        if context.is_cancelled():
            # Failing while being torn down is part of being cancelled.
            logger.info("Cancelled job %d raised on its way out", job.job_id, exc_info=True)
            return Ended(Outcome.CANCELLED)
        failed(job, exc)
        return Ended(Outcome.FAILED, describe_failure(exc))
    return Ended(Outcome.CANCELLED) if context.is_cancelled() else Ended(Outcome.FINISHED, result)


class Closed(NamedTuple):
    """A job the book let go: its key and whether it was the newest of it."""

    key: str | None
    latest: bool


class JobBook(Generic[T]):
    """The jobs not ended yet, by id, each with its key and what the holder keeps of it."""

    def __init__(self) -> None:
        self._jobs: dict[int, tuple[str | None, T]] = {}
        self._latest: dict[str, int] = {}  # key → its newest job (make_latest)

    def __contains__(self, job_id: object) -> bool:
        return job_id in self._jobs

    def __iter__(self) -> Iterator[int]:
        return iter(list(self._jobs))

    def __bool__(self) -> bool:
        return bool(self._jobs)

    def add(self, job_id: int, key: str | None, item: T) -> None:
        self._jobs[job_id] = (key, item)

    def get(self, job_id: int) -> T | None:
        found = self._jobs.get(job_id)
        return found[1] if found is not None else None

    def items(self) -> list[T]:
        return [item for _key, item in self._jobs.values()]

    def with_key(self, key: str | None) -> list[T]:
        """The jobs a new one of `key` supersedes (none without a key)."""
        if key is None:
            return []
        return [item for job_key, item in self._jobs.values() if job_key == key]

    def busy(self, key: str | None = None) -> bool:
        """Whether a job (of `key`, if given) is queued or running."""
        return any(key is None or job_key == key for job_key, _item in self._jobs.values())

    def make_latest(self, key: str, job_id: int) -> None:
        """`job_id` is the newest of `key`: it alone reports under the key when it ends."""
        self._latest[key] = job_id

    def take_latest(self, key: str) -> int | None:
        """The newest job of `key`, no longer reported under it (it is being withdrawn)."""
        return self._latest.pop(key, None)

    def end(self, job_id: int) -> Closed | None:
        """Let an ended job go; None if the book did not hold it."""
        found = self._jobs.pop(job_id, None)
        if found is None:
            return None
        key = found[0]
        if key is None or self._latest.get(key) != job_id:
            return Closed(key, False)
        del self._latest[key]
        return Closed(key, True)

    def clear_latest(self) -> None:
        self._latest.clear()

    def clear(self) -> None:
        self._jobs.clear()
        self._latest.clear()


class JobRoutes(Generic[T]):
    """Which holder (a feature's client) each job of a lane reports to, and how long each
    waited in the queue and ran, on `clock` (seconds) for the log."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self._clock = clock
        self._owners: dict[int, T] = {}
        self._clocked_at: dict[int, float] = {}

    def adopt(self, job_id: int, owner: T) -> None:
        """A job submitted by `owner`: it reports there, its wait timed from now."""
        self._owners[job_id] = owner
        self._clocked_at[job_id] = self._clock()

    def disown(self, job_id: int) -> None:
        """Drop whatever the job still reports (its owner has let it go)."""
        self._owners.pop(job_id, None)
        self._clocked_at.pop(job_id, None)

    def owner(self, job_id: int) -> T | None:
        """Where a job's progress goes (None: let go)."""
        return self._owners.get(job_id)

    def started(self, job_id: int) -> tuple[T, float] | None:
        """A job started: its owner and how long it waited (ms); its run timed from now."""
        owner = self._owners.get(job_id)
        if owner is None:
            return None
        now = self._clock()
        waited_ms = (now - self._clocked_at.get(job_id, now)) * 1000
        self._clocked_at[job_id] = now
        return owner, waited_ms

    def ended(self, job_id: int) -> tuple[T, float] | None:
        """A job ended: its owner (it reports no more) and how long it ran (ms)."""
        owner = self._owners.pop(job_id, None)
        clocked = self._clocked_at.pop(job_id, None)
        if owner is None:
            return None
        return owner, (self._clock() - clocked) * 1000 if clocked is not None else 0.0

    def clear(self) -> None:
        self._owners.clear()
        self._clocked_at.clear()
