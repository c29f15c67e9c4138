"""Whether mux may be running on the shown home ("a running mux may overwrite pin changes"),
asked of `components.activity.mux_activity` now and then on the jobs lane.
"""

from __future__ import annotations

import logging

from PySide6.QtCore import QObject, Signal, Slot

from memtab.components.activity.mux_activity import MuxActivity, mux_activity
from memtab.components.jobs import plain
from memtab.gui.tasks.jobs import JobClient, JobService, Lane
from memtab.gui.toolkit.clock import qtimer
from memtab.store.home import Home

logger = logging.getLogger(__name__)

CHECK_EVERY_MS = 60_000
CHECK_KEY = "mux"


class MuxPresence(QObject):
    """Checks whether mux may run (see the module docstring)."""

    # whether mux may be running, when that answer changes (the first answer is always sent)
    changed = Signal(bool)

    def __init__(self, home: Home, jobs: JobService, parent: QObject | None = None) -> None:
        """Nothing is checked until `check()`; then every minute, on `jobs`' jobs lane."""
        super().__init__(parent)
        self._home = home
        self.activity: MuxActivity | None = None
        self._job_service = jobs
        self._client: JobClient | None = None
        self._timer = qtimer(self, self.check, CHECK_EVERY_MS, single_shot=False)

    @property
    def may_run(self) -> bool:
        """Whether mux may be running (True until known otherwise)."""
        return self.activity is None or self.activity.may_run

    def check(self) -> None:
        """Ask now (off the GUI thread), and every minute from now on."""
        if self._client is None:
            self._client = self._job_service.client("mux-presence", Lane.JOBS, parent=self)
            self._client.latest_finished.connect(self._on_client_latest_finished)
        self._client.submit_latest(CHECK_KEY, plain(mux_activity, self._home))
        self._timer.start()

    def shutdown(self) -> None:
        self._timer.stop()
        if self._client is not None:
            self._client.shutdown()

    @Slot(str, object)
    def _on_client_latest_finished(self, _key: str, result: object) -> None:
        if not isinstance(result, MuxActivity):
            return
        first = self.activity is None
        before = self.may_run
        self.activity = result
        logger.debug("mux activity: %s", result.reason)
        if first or result.may_run != before:
            self.changed.emit(result.may_run)
