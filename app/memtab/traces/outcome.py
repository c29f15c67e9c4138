"""How a run ended, as far as its dump tells (a writer's or a consolidation's), and the one
line that says why."""

from __future__ import annotations

import enum

from memtab.traces.describe import first_line
from memtab.traces.schema import CONSOLIDATION_KIND, DumpRecord


class Outcome(enum.StrEnum):
    """How a run ended, as far as its dump tells."""

    TIMED_OUT = "timed out"
    PROVIDER_ERROR = "provider error"
    POLICY_NOT_SATISFIED = "policy not satisfied"
    ABORTED = "aborted"
    WROTE_MEMORY = "wrote memory"
    NO_NEW_MEMORIES = "no new memories"
    CHANGED_MEMORY = "changed memory"
    """A consolidation that changed memory."""
    NO_CHANGES = "no changes"
    """A consolidation that changed nothing."""
    FAILED = "failed"
    """Failed before any attempt ran, or the attempts were lost to a damaged file."""
    UNREADABLE = "unreadable"
    """Nothing could be read from the file (missing, unreadable, not JSON at all)."""

    @property
    def failed(self) -> bool:
        """Whether the run did not do its job (everything but a write or a deliberate no-op)."""
        return self not in _DONE


_DONE = (Outcome.WROTE_MEMORY, Outcome.NO_NEW_MEMORIES, Outcome.CHANGED_MEMORY, Outcome.NO_CHANGES)


def assess(record: DumpRecord | None, file_problem: str | None) -> tuple[Outcome, str]:
    """The run's outcome and its one-line error (`record` None: nothing could be read)."""
    if record is None:
        return Outcome.UNREADABLE, first_line(file_problem or "")
    if record.kind == CONSOLIDATION_KIND:
        return _consolidation(record)
    attempts = record.attempts
    erring = next((a for a in reversed(attempts) if a.error), None)
    failed_call = next(
        (
            call
            for attempt in reversed(attempts)
            for call in reversed(attempt.tool_executions)
            if call.failed
        ),
        None,
    )
    reported = record.outcome
    if record.timed_out:
        outcome = Outcome.TIMED_OUT
    elif record.did_write_memory or reported == "wrote" or any(a.wrote for a in attempts):
        outcome = Outcome.WROTE_MEMORY
    elif (
        record.satisfied_memory_tool_policy
        or reported == "no_new_memories"
        or any(a.no_new_memories for a in attempts)
    ):
        outcome = Outcome.NO_NEW_MEMORIES
    elif any(a.aborted for a in attempts):
        outcome = Outcome.ABORTED
    elif erring is not None and erring.finish_reason in (None, "error"):
        outcome = Outcome.PROVIDER_ERROR
    elif not attempts:
        outcome = Outcome.FAILED
    else:
        outcome = Outcome.POLICY_NOT_SATISFIED

    if outcome in _DONE:
        error = ""
    elif record.error is not None:
        error = record.error
    elif erring is not None:
        error = erring.error or ""
    elif failed_call is not None:
        error = f"{failed_call.name}: {failed_call.problem}"
    elif outcome is Outcome.TIMED_OUT:
        error = f"Timed out after {record.timeout_ms} ms" if record.timeout_ms else "Timed out"
    elif outcome is Outcome.POLICY_NOT_SATISFIED:
        finish = attempts[-1].finish_reason
        error = "The model ended without calling memory_write or no_new_memories"
        if finish:
            error += f" (finish reason: {finish})"
    else:
        error = ""
    return outcome, first_line(error)


_CONSOLIDATED = {"changed": Outcome.CHANGED_MEMORY, "no_changes": Outcome.NO_CHANGES}


def _consolidation(record: DumpRecord) -> tuple[Outcome, str]:
    """A consolidation's outcome: what Memtab said of it, else how its one attempt ended
    (it may have changed memory before it failed: it failed all the same)."""
    if record.outcome in _CONSOLIDATED:
        return _CONSOLIDATED[record.outcome], ""
    attempt = record.attempts[-1] if record.attempts else None
    if record.timed_out:
        outcome = Outcome.TIMED_OUT
    elif attempt is not None and attempt.aborted:
        outcome = Outcome.ABORTED
    elif attempt is not None and attempt.error:
        outcome = Outcome.PROVIDER_ERROR
    else:
        outcome = Outcome.FAILED
    error = record.error or (attempt.error if attempt is not None else None) or ""
    return outcome, first_line(error)
