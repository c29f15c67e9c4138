"""The tree's file operations on their own worker thread, each with what to do after it.

Create, move, delete and pin (`components.files.ops`) take the store's cross-process locks,
which a running mux may hold, so they never run on the GUI thread. Each operation is
submitted with an `OpFollowUp` — what the tree does once it is done (open the created
file, reopen a moved one) — and reported back with it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QObject, Signal, Slot

from memtab.components.files.ops import OpResult
from memtab.gui.tasks.runner import TaskContext, TaskRunner
from memtab.sources.model import MemoryFileRef

logger = logging.getLogger(__name__)

Operation = Callable[[], OpResult]


@dataclass(frozen=True)
class OpFollowUp:
    """What to do in the tree once a file operation has finished."""

    open_created: bool = False
    reopen: dict[MemoryFileRef, MemoryFileRef] | None = None
    """Open files (old → new) to reopen where a move put them."""
    without_copy: Operation | None = None
    """The same operation made even where history cannot keep a copy (`allow_unkept`):
    run when it was refused for that (`OpResult.unkept`) and the user chooses to."""


class _OpJob:
    """Runs one file operation on the worker thread."""

    def __init__(self, operation: Operation) -> None:
        self._operation = operation

    def __call__(self, context: TaskContext) -> OpResult:
        return self._operation()


class FileOpTasks(QObject):
    """Runs file operations one at a time, in order, off the GUI thread.

    Signals (GUI thread):
        op_finished(OpResult, OpFollowUp): an operation ended (its result says whether
            it succeeded).
        op_failed(str): an operation raised unexpectedly.
    """

    op_finished = Signal(object, object)
    op_failed = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        """Start the file-operations worker thread."""
        super().__init__(parent)
        self._follow_ups: dict[int, OpFollowUp] = {}
        self._runner = TaskRunner("file-ops", parent=self)
        self._runner.job_finished.connect(self._on_runner_job_finished)
        self._runner.job_failed.connect(self._on_runner_job_failed)

    @property
    def busy(self) -> bool:
        """Whether an operation is queued or running."""
        return self._runner.is_busy()

    def run(self, operation: Operation, follow_up: OpFollowUp | None = None) -> None:
        """Queue `operation`; `op_finished` brings its result and `follow_up` back."""
        job = self._runner.submit(_OpJob(operation))
        self._follow_ups[job] = follow_up or OpFollowUp()

    def shutdown(self) -> None:
        """Stop the worker thread (on window close)."""
        self._runner.shutdown()

    @Slot(int, object)
    def _on_runner_job_finished(self, job: int, result: object) -> None:
        follow_up = self._follow_ups.pop(job, OpFollowUp())
        assert isinstance(result, OpResult)
        self.op_finished.emit(result, follow_up)

    @Slot(int, str)
    def _on_runner_job_failed(self, job: int, message: str) -> None:
        self._follow_ups.pop(job, None)
        self.op_failed.emit(message)
