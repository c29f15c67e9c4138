"""How a writer run ended, as far as its dump tells, and the one line that says why."""

from __future__ import annotations

import enum

from memtab.traces.describe import first_line
from memtab.traces.schema import DumpRecord


class Outcome(enum.StrEnum):
    """How a writer run ended, as far as its dump tells."""

    TIMED_OUT = "timed out"
    PROVIDER_ERROR = "provider error"
    POLICY_NOT_SATISFIED = "policy not satisfied"
    ABORTED = "aborted"
    WROTE_MEMORY = "wrote memory"
    NO_NEW_MEMORIES = "no new memories"
    FAILED = "failed"
    """Failed before any attempt ran, or the attempts were lost to a damaged file."""
    UNREADABLE = "unreadable"
    """Nothing could be read from the file (missing, unreadable, not JSON at all)."""

    @property
    def failed(self) -> bool:
        """Whether the run did not do its job (everything but a write or a deliberate no-op)."""
        return self not in (Outcome.WROTE_MEMORY, Outcome.NO_NEW_MEMORIES)


def assess(record: DumpRecord | None, file_problem: str | None) -> tuple[Outcome, str]:
    """The run's outcome and its one-line error (`record` None: nothing could be read).

    mux sets an attempt's `error` only when the model call threw (a provider error, or an
    abort); Memtab also notes a policy failure there, with a finish reason, and keeps a
    run-level `error` and `outcome`.
    """
    if record is None:
        return Outcome.UNREADABLE, first_line(file_problem or "")
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

    if outcome in (Outcome.WROTE_MEMORY, Outcome.NO_NEW_MEMORIES):
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
