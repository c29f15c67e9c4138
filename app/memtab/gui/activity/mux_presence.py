"""Whether mux may be running on the shown home, checked off the GUI thread.

The warning "a running mux may overwrite pin changes" is only true while mux runs; this
asks `components.activity.mux_activity` now and then (on a worker: it lists processes and
looks at the home) and says when the answer changes.
"""

from __future__ import annotations

import functools
import logging

from PySide6.QtCore import QObject, QTimer, Signal, Slot

from memtab.components.activity.mux_activity import MuxActivity, mux_activity
from memtab.gui.tasks.runner import TaskContext, TaskRunner
from memtab.store.home import Home

logger = logging.getLogger(__name__)

CHECK_EVERY_MS = 60_000
CHECK_KEY = "mux"


def _check(home: Home, _context: TaskContext) -> MuxActivity:
    return mux_activity(home)


class MuxPresence(QObject):
    """Checks whether mux may run (see the module docstring).

    Signals:
        changed(bool): whether mux may be running, when that answer changes (the first
            answer is always sent).
    """

    changed = Signal(bool)

    def __init__(self, home: Home, parent: QObject | None = None) -> None:
        """Nothing is checked until `check()`; then every minute."""
        super().__init__(parent)
        self._home = home
        self._activity: MuxActivity | None = None
        self._runner: TaskRunner | None = None
        self._timer = QTimer(self)
        self._timer.setInterval(CHECK_EVERY_MS)
        self._timer.timeout.connect(self._on_timer_timeout)

    @property
    def activity(self) -> MuxActivity | None:
        """The last answer (None before the first)."""
        return self._activity

    @property
    def may_run(self) -> bool:
        """Whether mux may be running (True until known otherwise)."""
        return self._activity is None or self._activity.may_run

    def check(self) -> None:
        """Ask now (off the GUI thread), and every minute from now on."""
        if self._runner is None:
            self._runner = TaskRunner("mux-presence", parent=self)
            self._runner.latest_finished.connect(self._on_runner_latest_finished)
        self._runner.submit_latest(CHECK_KEY, functools.partial(_check, self._home))
        self._timer.start()

    def shutdown(self, timeout_ms: int = 2000) -> None:
        """Stop checking and stop the worker thread."""
        self._timer.stop()
        if self._runner is not None:
            self._runner.shutdown(timeout_ms)

    @Slot()
    def _on_timer_timeout(self) -> None:
        self.check()

    @Slot(str, object)
    def _on_runner_latest_finished(self, _key: str, result: object) -> None:
        if not isinstance(result, MuxActivity):
            return
        first = self._activity is None
        before = self.may_run
        self._activity = result
        logger.debug("mux activity: %s", result.reason)
        if first or result.may_run != before:
            self.changed.emit(result.may_run)
