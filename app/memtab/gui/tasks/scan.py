"""Scanning the memory home off the GUI thread: the Qt facade over `components.tree.scan`
and `components.tree.full_scan`.

`ScanTasks.scan(request, present)` submits a full scan (`full_scan.scan_home`, imported by
the worker that runs the first one) as the latest job of one key, so only the
newest scan lands; `scan_finished(ScanOutcome)` / `scan_failed(str)` report it.
`outline(request, present)` runs `components.tree.scan.scan_outline` first (a big home's first
paint); `outline_finished(ScanOutcome)` reports it, `outline_skipped()` a home it found small
(or an outline that failed: the scan after it says what is wrong).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from PySide6.QtCore import QObject, Signal, Slot

from memtab.components.tree.scan import HomeScan, ScanOutcome, ScanRequest, scan_outline
from memtab.gui.tasks.runner import TaskContext, TaskRunner

logger = logging.getLogger(__name__)

SCAN_KEY = "scan"
OUTLINE_KEY = "outline"

Presenter = Callable[[HomeScan], object]
"""Runs on the worker right after a scan (e.g. to build the tree); result in `presented`."""


class _ScanJob:
    """The job function: scan (or outline), then present, on the worker thread."""

    def __init__(self, request: ScanRequest, present: Presenter | None, outline: bool) -> None:
        self._request = request
        self._present = present
        self._outline = outline

    def __call__(self, context: TaskContext) -> ScanOutcome | None:
        if self._outline:
            scan = scan_outline(self._request, context)
            if scan is None:
                return None
        else:
            # lazy: the worker loads the full scan's readers (the journal…, ~10 ms): a big
            # home's outline paints before them.
            from memtab.components.tree.full_scan import scan_home

            scan = scan_home(self._request, context)
        context.raise_if_cancelled()
        presented = self._present(scan) if self._present is not None else None
        return ScanOutcome(self._request, scan, presented)


class ScanTasks(QObject):
    """Runs home scans on a worker thread; only the newest submitted scan ever lands.

    Signals (GUI thread):
        scan_finished(ScanOutcome)
        outline_finished(ScanOutcome): an outline of a big home (see `outline`).
        outline_skipped(): no outline to show (a small home, or the outline failed).
        scan_failed(str): a message for the user.
    """

    scan_finished = Signal(object)
    outline_finished = Signal(object)
    outline_skipped = Signal()
    scan_failed = Signal(str)

    def __init__(self, present: Presenter | None = None, parent: QObject | None = None) -> None:
        """`present` post-processes each scan on the worker, unless a submission brings
        its own (may be None)."""
        super().__init__(parent)
        self._present = present
        self._runner = TaskRunner("scan", parent=self)
        self._runner.latest_finished.connect(self._on_runner_latest_finished)
        self._runner.latest_failed.connect(self._on_runner_latest_failed)

    @property
    def busy(self) -> bool:
        """Whether a scan (or outline) is queued or running."""
        return self._runner.is_busy()

    def scan(self, request: ScanRequest, present: Presenter | None = None) -> int:
        """Start a scan, superseding any scan still queued or running; returns its job id."""
        job = _ScanJob(request, present or self._present, outline=False)
        return self._runner.submit_latest(SCAN_KEY, job)

    def outline(self, request: ScanRequest, present: Presenter | None = None) -> int:
        """Start an outline (jobs run in order: submit it before the scan it precedes)."""
        job = _ScanJob(request, present or self._present, outline=True)
        return self._runner.submit_latest(OUTLINE_KEY, job)

    def shutdown(self, timeout_ms: int = 3000) -> None:
        """Cancel scans and stop the worker thread (on window close)."""
        self._runner.shutdown(timeout_ms)

    @Slot(str, object)
    def _on_runner_latest_finished(self, key: str, outcome: object) -> None:
        if outcome is None:  # an outline of a small home
            self.outline_skipped.emit()
            return
        assert isinstance(outcome, ScanOutcome)
        if key == OUTLINE_KEY:
            self.outline_finished.emit(outcome)
        else:
            self.scan_finished.emit(outcome)

    @Slot(str, str)
    def _on_runner_latest_failed(self, key: str, message: str) -> None:
        if key == OUTLINE_KEY:
            logger.warning("The outline of the home failed: %s", message)
            self.outline_skipped.emit()  # the scan after it reports what is wrong
            return
        self.scan_failed.emit(f"Could not read the memory home: {message}")
