"""Scanning the memory home off the GUI thread: the Qt facade over `views.scan.scan_home`.

`ScanTasks.scan(request)` submits the scan as the latest job of one key, so only the
newest scan lands; `scan_finished(ScanOutcome)` / `scan_failed(str)` report it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from PySide6.QtCore import QObject, Signal, Slot

from memtab.gui.tasks.runner import TaskContext, TaskRunner
from memtab.views.scan import HomeScan, ScanOutcome, ScanRequest, scan_home

logger = logging.getLogger(__name__)

SCAN_KEY = "scan"

Presenter = Callable[[HomeScan], object]
"""Runs on the worker right after a scan (e.g. to build the tree); result in `presented`."""


class _ScanJob:
    """The job function: scan, then present, on the worker thread."""

    def __init__(self, request: ScanRequest, present: Presenter | None) -> None:
        self._request = request
        self._present = present

    def __call__(self, context: TaskContext) -> ScanOutcome:
        scan = scan_home(self._request, context)
        context.raise_if_cancelled()
        presented = self._present(scan) if self._present is not None else None
        return ScanOutcome(self._request, scan, presented)


class ScanTasks(QObject):
    """Runs home scans on a worker thread; only the newest submitted scan ever lands.

    Signals (GUI thread):
        scan_finished(ScanOutcome)
        scan_failed(str): a message for the user.
    """

    scan_finished = Signal(object)
    scan_failed = Signal(str)

    def __init__(self, present: Presenter | None = None, parent: QObject | None = None) -> None:
        """`present` post-processes each scan on the worker (may be None)."""
        super().__init__(parent)
        self._present = present
        self._runner = TaskRunner("scan", parent=self)
        self._runner.latest_finished.connect(self._on_runner_latest_finished)
        self._runner.latest_failed.connect(self._on_runner_latest_failed)

    @property
    def busy(self) -> bool:
        """Whether a scan is queued or running."""
        return self._runner.is_busy(SCAN_KEY)

    def scan(self, request: ScanRequest) -> int:
        """Start a scan, superseding any scan still queued or running; returns its job id."""
        return self._runner.submit_latest(SCAN_KEY, _ScanJob(request, self._present))

    def shutdown(self, timeout_ms: int = 3000) -> None:
        """Cancel scans and stop the worker thread (on window close)."""
        self._runner.shutdown(timeout_ms)

    @Slot(str, object)
    def _on_runner_latest_finished(self, _key: str, outcome: object) -> None:
        assert isinstance(outcome, ScanOutcome)
        self.scan_finished.emit(outcome)

    @Slot(str, str)
    def _on_runner_latest_failed(self, _key: str, message: str) -> None:
        self.scan_failed.emit(f"Could not read the memory home: {message}")
