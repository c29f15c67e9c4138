"""The consolidation facade, loaded on first use (`preload()` when a click is likely): a
window nobody consolidates from never imports the service, and the engine runs in a child
process.
"""

from __future__ import annotations

import importlib
import logging
import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal, Slot

from memtab.gui.tasks.jobs import JobService
from memtab.store.home import Home

if TYPE_CHECKING:  # lazy: the engine (~1.5 MiB, ~25 ms) loads when Consolidate now is near
    from memtab.consolidation.records import ConsolidationPlan
    from memtab.consolidation.service import ConsolidationService
    from memtab.gui.consolidation.tasks import ConsolidationTasks
    from memtab.store.sidecars.journal import RunScope, Trigger

logger = logging.getLogger(__name__)

# Pure Python only: Qt classes are defined on the GUI thread, at the first click.
_ENGINE_MODULES = ("memtab.consolidation.service", "memtab.consolidation.job")

ServiceFactory = Callable[[Home], "ConsolidationService"]


class LazyConsolidationTasks(QObject):
    """`ConsolidationTasks`' interface and signals; the real facade is built on the first
    `start()`."""

    run_started = Signal(str)
    progress = Signal(int, str)
    run_finished = Signal(object)
    run_logged = Signal(str)
    run_failed = Signal(str)
    run_cancelled = Signal(str)
    plan_ready = Signal(object)
    # Emitted by the preload thread; queued to the GUI thread, which builds the facade.
    _engine_imported = Signal()

    def __init__(
        self,
        home: Home,
        jobs: JobService,
        service_factory: ServiceFactory | None = None,
        parent: QObject | None = None,
    ) -> None:
        """Runs will consolidate `home` with the service `service_factory` builds, on
        `jobs`' runs lane."""
        super().__init__(parent)
        self._home = home
        self._jobs = jobs
        self._service_factory = service_factory
        # The default service is rebuilt the same in a child process, so its runs can leave
        # this process (and its interpreter lock) alone; an injected one runs in-process.
        self._isolated = service_factory is None
        self._tasks: ConsolidationTasks | None = None
        self._preloading = False
        self._closed = False
        self._engine_imported.connect(self._on_engine_imported)

    @property
    def loaded(self) -> bool:
        return self._tasks is not None

    @Slot()
    def preload(self) -> None:
        """Import the engine on a background thread (no Qt objects are made there), once."""
        if self._tasks is None and not self._preloading:
            self._preloading = True
            threading.Thread(
                target=self._preload_engine, name="memtab-preload", daemon=True
            ).start()

    def _preload_engine(self) -> None:
        if not _import_engine():
            return
        try:
            self._engine_imported.emit()
        except RuntimeError:  # the window closed (and deleted this) while importing
            logger.debug("The consolidation engine was preloaded after the window closed")

    @Slot()
    def _on_engine_imported(self) -> None:
        # Build the facade now, so the first click does not pay for it.
        if not self._closed:
            self.tasks()

    def tasks(self) -> ConsolidationTasks:
        """The real facade, built (and connected) on first use."""
        if self._tasks is None:
            from memtab.gui.consolidation.tasks import (  # lazy: as above
                ConsolidationTasks,
                default_service,
            )

            service = (self._service_factory or default_service)(self._home)
            tasks = ConsolidationTasks(service, self._jobs, parent=self, isolated=self._isolated)
            tasks.run_started.connect(self.run_started)
            tasks.progress.connect(self.progress)
            tasks.run_finished.connect(self.run_finished)
            tasks.run_logged.connect(self.run_logged)
            tasks.run_failed.connect(self.run_failed)
            tasks.run_cancelled.connect(self.run_cancelled)
            tasks.plan_ready.connect(self.plan_ready)
            self._tasks = tasks
        return self._tasks

    def start(
        self,
        workspace_id: str,
        trigger: Trigger = "manual",
        *,
        review: bool | None = False,
        scope: RunScope | None = None,
    ) -> bool:
        """Start a run, or a plan to review (see `ConsolidationTasks.start`)."""
        if self._closed:
            return False
        return self.tasks().start(workspace_id, trigger, review=review, scope=scope)

    def apply(self, plan: ConsolidationPlan, accepted: Sequence[int]) -> bool:
        """Apply the accepted ops of a reviewed plan (see `ConsolidationTasks.apply`)."""
        return False if self._closed else self.tasks().apply(plan, accepted)

    def review(self, plan: ConsolidationPlan) -> None:
        """Review a plan made elsewhere (the check's fixes) as a run's: `plan_ready`, so the
        footer opens the same review, and Apply goes through `apply` like any plan."""
        if not self._closed:
            self.plan_ready.emit(plan)

    def cancel(self) -> None:
        if self._tasks is not None:
            self._tasks.cancel()

    def shutdown(self, timeout_ms: int = 5000) -> bool:
        """Cancel the runs, if the facade was built (see `ConsolidationTasks.shutdown`)."""
        self._closed = True
        return self._tasks.shutdown(timeout_ms) if self._tasks is not None else True


def _import_engine() -> bool:
    for name in _ENGINE_MODULES:
        try:
            importlib.import_module(name)
        except Exception:  # the click will report it properly
            logger.warning("Preloading %s failed", name, exc_info=True)
            return False
    return True
