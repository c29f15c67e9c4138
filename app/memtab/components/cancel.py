"""What a long job checks between steps to stop early, without knowing who runs it.

`operations.job.JobContext` is one; the Qt-free code here only needs this much of it.
"""

from __future__ import annotations

from typing import Protocol


class CancelToken(Protocol):
    """Raises (the runner's cancellation exception) once the job was cancelled."""

    def raise_if_cancelled(self) -> None:
        """Stop the job here if it was cancelled or superseded."""
        ...
