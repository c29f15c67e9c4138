"""Why a consolidation run did not happen or did not finish: one exception per reason. Every message
is one line meant for the user (CLI error line, GUI status bar)."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from memtab.store.sidecars.journal import ConsolidationRecord

FailureKind = Literal["error", "timeout", "cancelled", "config", "stopped"]


class ConsolidationError(Exception):
    """Base of every consolidation failure; `str(error)` is the user-facing message."""


class RunInFlightError(ConsolidationError):
    """A run for this workspace is already going (a second trigger is refused)."""

    def __init__(self, workspace_id: str) -> None:
        super().__init__(f"a consolidation run is already in flight for workspace {workspace_id}")
        self.workspace_id = workspace_id


class DebouncedError(ConsolidationError):
    """An automatic run asked for too soon after the last one (6 h debounce)."""

    def __init__(self, workspace_id: str, message: str, next_allowed_at: int) -> None:
        super().__init__(message)
        self.workspace_id = workspace_id
        self.next_allowed_at = next_allowed_at


class LockHeldError(ConsolidationError):
    """Another Memtab process holds the home's consolidation lock (it is running)."""


class RunFailedError(ConsolidationError):
    """The run started but did not finish: provider error, timeout or cancellation. A run that
    failed before changing anything is not journaled, so it sets no debounce anchor."""

    def __init__(self, kind: FailureKind, message: str) -> None:
        super().__init__(message)
        self.kind: FailureKind = kind
        self.record: ConsolidationRecord | None = None
        self.trace_path: Path | None = None


class RunStoppedError(RunFailedError):
    """The run stopped midway, or could not record what it did: a full disk, a scope
    another program keeps locked, a journal that cannot be written. The message says what
    was and was not done; `record` is what was applied (also in the runs log)."""

    def __init__(self, message: str, record: ConsolidationRecord | None = None) -> None:
        super().__init__("stopped", message)
        self.record = record


class RunCancelledError(RunFailedError):
    """The caller cancelled the run (it stopped within about a second)."""

    def __init__(self, message: str = "the consolidation run was cancelled") -> None:
        super().__init__("cancelled", message)


class PlanError(ConsolidationError):
    """A plan file that cannot be used (unreadable, another home, malformed, altered)."""
