"""The tree's file operations (`components.files.ops`) as writes of the window's
`FileChannel`, in order with the editor's saves (they take locks a running mux may hold),
each with an `OpFollowUp` for after it; what they touch counts as the user's own write."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from PySide6.QtCore import QObject, Signal

from memtab.components.activity.own_writes import OwnWrites
from memtab.components.files.ops import OpResult
from memtab.components.files.undo import UndoStack
from memtab.components.jobs import JobContext
from memtab.gui.tasks.file_channel import FileChannel
from memtab.gui.tasks.jobs import JobService

Operation = Callable[[], OpResult]
T = TypeVar("T")


@dataclass(frozen=True)
class OpFollowUp:
    """What to do in the tree once a file operation has finished."""

    open_created: bool = False
    edit_created: bool = False
    """Once the created file is open, put the cursor in its text (a new file: its body),
    so what the user types next goes there, not to the tree's type-ahead."""
    without_copy: Operation | None = None
    """The same operation made even where history cannot keep a copy (`allow_unkept`):
    run when it was refused for that (`OpResult.unkept`) and the user chooses to."""


class _OpJob:
    """Runs one file operation on the worker thread."""

    def __init__(self, operation: Operation) -> None:
        self._operation = operation

    def __call__(self, context: JobContext) -> OpResult:
        return self._operation()


class FileOpTasks(QObject):
    """Runs file operations one at a time, in order, off the GUI thread. Signals:
    op_queued(OpFollowUp), op_finished(OpResult, OpFollowUp), op_failed(str), and ended()
    after each operation or decision (Edit → Undo waits for the last)."""

    op_queued = Signal(object)
    op_finished = Signal(object, object)
    op_failed = Signal(str)
    ended = Signal()

    def __init__(
        self, parent: QObject | None, channel: FileChannel, own_writes: OwnWrites | None = None
    ) -> None:
        """Operations go through the window's file channel; what they change is told to
        `own_writes` (the window's) as the user's own writes."""
        super().__init__(parent)
        self._channel = channel
        self._own_writes = own_writes
        self._pending = 0

    @property
    def busy(self) -> bool:
        """Whether an operation is queued or running."""
        return self._pending > 0

    def run(self, operation: Operation, follow_up: OpFollowUp | None = None) -> None:
        """Queue `operation`; `op_finished` brings its result and `follow_up` back."""
        follow_up = follow_up or OpFollowUp()
        self._pending += 1
        self._channel.write(
            _OpJob(operation), functools.partial(self._finished, follow_up=follow_up), self._failed
        )
        self.op_queued.emit(follow_up)

    def decide(
        self,
        job: Callable[[JobContext], T],
        done: Callable[[T], None],
        failed: Callable[[str], None],
    ) -> None:
        """Queue another feature's change that pushes its own undo step (an Inbox accept
        or reject): in order with the operations, reported to `done` or `failed`, and
        `busy` until then — so Edit → Undo pressed meanwhile waits for it."""

        def finished(result: T) -> None:
            self._pending -= 1
            done(result)
            self.ended.emit()

        def raised(message: str) -> None:
            self._pending -= 1
            failed(message)
            self.ended.emit()

        self._pending += 1
        self._channel.write(job, finished, raised)

    def wrote(self, physical: Sequence[str]) -> None:
        """An operation of the window (one `decide` ran too) changed the files at
        `physical`: the user's own writes, whenever a scan saw them."""
        if self._own_writes is not None and physical:
            self._own_writes.written(physical)

    def _finished(self, result: object, follow_up: OpFollowUp) -> None:
        self._pending -= 1
        assert isinstance(result, OpResult)
        self.wrote(result.touched)
        self.op_finished.emit(result, follow_up)
        self.ended.emit()

    def _failed(self, message: str) -> None:
        self._pending -= 1
        self.op_failed.emit(message)
        self.ended.emit()


class FileParts:
    """The window's file machinery (`WindowContext.files`, `file_ops`, `undo_stack`), each
    made with its first use: the channel of the window's reads and writes of memory files,
    the file-operation worker on it, and how to take back each file operation."""

    def __init__(
        self, jobs: JobService, owner: QObject, own_writes: OwnWrites | None = None
    ) -> None:
        """The channel's and the worker's QObjects are `owner`'s, their lanes `jobs`';
        the operations' writes are told to `own_writes`."""
        self._jobs = jobs
        self._owner = owner
        self._own_writes = own_writes
        self._channel: FileChannel | None = None
        self._ops: FileOpTasks | None = None
        self._undo: UndoStack | None = None

    @property
    def channel(self) -> FileChannel:
        if self._channel is None:
            self._channel = FileChannel(self._jobs, self._owner)
        return self._channel

    @property
    def ops(self) -> FileOpTasks:
        if self._ops is None:
            self._ops = FileOpTasks(self._owner, self.channel, self._own_writes)
        return self._ops

    @property
    def ops_busy(self) -> bool:
        """Whether a file operation is queued or running (False before the first)."""
        return self._ops is not None and self._ops.busy

    @property
    def undo(self) -> UndoStack:
        if self._undo is None:
            self._undo = UndoStack()
        return self._undo

    def shutdown(self) -> None:
        """Let the writes asked for finish (see `FileChannel.shutdown`)."""
        if self._channel is not None:
            self._channel.shutdown()
