"""The background writer's operations (`memtab.writer.job.service.WriterService` does the
work): the writer lock taken and every transcript followed from its end, a poll of the
transcripts that changed, a writer state another process advanced, and a run."""

from __future__ import annotations

from collections.abc import Callable

from memtab.components.jobs import JobContext
from memtab.writer.job.lock import WriterLock
from memtab.writer.job.policy import RunTicket
from memtab.writer.job.result import WriterRunResult
from memtab.writer.job.service import PollResult, WriterService


def begin(lock: WriterLock, service: WriterService, _ctx: JobContext) -> bool:
    """Take the writer lock (never waits) and, when taken, follow every transcript from
    its end; False when another Memtab process holds it. The lock is a file (created,
    flocked, its holder written down): off the GUI thread."""
    if not lock.acquire():
        return False
    service.prime()
    return True


def poll(
    service: WriterService,
    workspace_ids: list[str] | None,
    paused: Callable[[], bool],
    _ctx: JobContext,
) -> PollResult:
    """Read the transcripts' new lines (`workspace_ids`' or, None, every one) and say which
    runs the policy starts."""
    # Asked as the job runs, not when it was queued: a poll queued just before a pause
    # must not count the turns that arrive after it.
    return service.poll(workspace_ids, paused=paused())


def check_states(service: WriterService, workspace_ids: list[str], _ctx: JobContext) -> list[str]:
    """The workspaces whose writer state another process advanced (mux runs its writer)."""
    return service.check_state_changes(workspace_ids)


def run(service: WriterService, ticket: RunTicket, ctx: JobContext) -> WriterRunResult:
    """One writer run (cancelled within about a second)."""
    return service.run(ticket, ctx.cancel_event)
