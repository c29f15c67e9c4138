"""What a job gets while it runs, whoever runs it: its id, its cancel event, a way to say
how far it got.

A job is a plain function `fn(ctx: JobContext) -> result` (an operation of this package,
its arguments bound with `functools.partial`). The window runs it on one of its job
service's lanes (`gui/tasks/jobs.py`); a test or a command can run it in place with a
context of its own (`JobContext.standalone()`). Nothing here knows of Qt.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

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
    def standalone(cls, progress: Progress | None = None) -> JobContext:
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
