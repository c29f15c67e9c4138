"""When the Memory tab rescans, and what: one scan at a time on the scans lane, the changes
met meanwhile folded into the next, the first scan after its outline is shown (the decisions
are `components.tree.scan_policy.ScanPolicy`'s; this keeps the job client).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Collection, Iterable
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QObject, Signal, Slot

from memtab.components.tree import scan_policy
from memtab.components.tree.scan import HomeScan, ScanOutcome, ScanRequest
from memtab.components.tree.scan_policy import ScanPolicy
from memtab.components.tree.tree import build_tree
from memtab.gui.tasks.jobs import JobService, Lane
from memtab.store.home import Home, PathKind, PathPlace

if TYPE_CHECKING:  # lazy: what sources are (~45 ms) loads with the first scan of them
    from memtab.sources.config import SourceContext

logger = logging.getLogger(__name__)

# Changes that can alter what the tab shows (the scopes, pins/usage, the journal and the
# runs of one scope alone, the registry); others (transcripts, writer state and traces,
# Memtab's locks) are ignored.
RESCAN_KINDS = frozenset(
    {
        PathKind.HOME,
        PathKind.MEMORY_DIR,
        PathKind.GLOBAL_SCOPE,
        PathKind.PROJECT_SCOPE,
        PathKind.WORKSPACE_DIR,
        PathKind.WORKSPACE_SCOPE,
        PathKind.SESSION_SCOPE,
        PathKind.MEMORY_META,
        PathKind.CONSOLIDATION_JOURNAL,
        PathKind.SCOPE_RUNS,
        PathKind.CONFIG,
    }
)


class ScanTarget(Protocol):
    """What a scan is for, asked when it is submitted (the tab)."""

    @property
    def workspace_id(self) -> str | None: ...  # The workspace to scan (None: the default one).

    @property
    def scan(self) -> HomeScan | None:
        """The scan shown now, which the next one updates incrementally."""
        ...

    @property
    def open_containers(self) -> Collection[str]:
        """The containers whose file rows the tree builds (a big home builds no others)."""
        ...


SCAN_KEY = "scan"
OUTLINE_KEY = "outline"

ContextLoader = Callable[[Home], "SourceContext"]
"""How discovery reads its settings (tests inject an agent machine's)."""


class ScanScheduler(QObject):
    """Collects changed paths and runs one rescan at a time (see the module docstring)."""

    # (ScanOutcome) a scan landed (its `presented` is the built tree)
    scan_finished = Signal(object)
    # (ScanOutcome) the outline before the first scan of a big home
    outline_finished = Signal(object)
    scan_failed = Signal(str)  # a message for the user

    def __init__(
        self,
        home: Home,
        target: ScanTarget,
        jobs: JobService,
        parent: QObject | None = None,
        *,
        source_context: ContextLoader | None = None,
    ) -> None:
        """Scan `home` for `target` on `jobs`' scans lane; nothing runs until `request`.
        `source_context` reads the sources' settings (default: `SourceContext.load`)."""
        super().__init__(parent)
        self._home = home
        self._target = target
        self.source_context = source_context
        self.with_sources = False
        self._outline: HomeScan | None = None
        """A big home's outline until a scan lands: the first scan lists its walks."""
        self._policy = ScanPolicy()
        self._jobs = jobs.client("scan", Lane.SCANS, parent=self)
        self._jobs.latest_finished.connect(self._on_jobs_latest_finished)
        self._jobs.latest_failed.connect(self._on_jobs_latest_failed)

    @property
    def busy(self) -> bool:
        """Whether a scan is queued or running, or another one is due after it."""
        policy = self._policy
        return self._jobs.is_busy() or policy.due or policy.waiting_for_outline

    def concerns(self, path: str, place: PathPlace) -> bool:
        """Whether a change of `path` (at `place` in the home) can alter what the tab shows."""
        if place.kind in RESCAN_KINDS:
            return True
        scan = self._target.scan
        sources = scan.sources if scan is not None else None
        return sources is not None and (
            sources.affected_by(path) is not None or sources.opens_a_source(path)
        )

    def enable_sources(self) -> None:
        """Scan other agents' memory from now on, starting now (once)."""
        if not self.with_sources:
            self.with_sources = True
            self.request(())

    def start(self) -> None:
        """The first scan of the home, after an outline of it (see the module docstring)."""
        job = functools.partial(scan_policy.outline, self._request(None), build_tree)
        self._jobs.submit_latest(OUTLINE_KEY, job)
        self._policy.begin_with_outline()

    @Slot()
    def outline_shown(self) -> None:
        """The outline is on screen, or there is none to show: the first scan, now."""
        if self._policy.outline_shown():
            self._submit()

    def request(self, paths: Iterable[str] | None, *, supersede: bool = False) -> None:
        """Rescan `paths` (None: everything) — now, or right after the scan in flight;
        `supersede` cancels the scan in flight instead (a workspace switch)."""
        if self._policy.request(paths, supersede=supersede, running=self._jobs.is_busy()):
            self._submit()

    def shutdown(self) -> None:
        """Cancel scans (on window close)."""
        self._jobs.shutdown()

    def _submit(self) -> None:
        covered = self._policy.take()
        opened = frozenset(self._target.open_containers)
        present = functools.partial(build_tree, open_containers=opened)
        job = functools.partial(scan_policy.scan, self._request(covered), present)
        self._jobs.submit_latest(SCAN_KEY, job)

    def _request(self, changed_paths: frozenset[str] | None) -> ScanRequest:
        shown = self._target.scan
        return ScanRequest(
            home=self._home,
            workspace_id=self._target.workspace_id,
            choose_default=True,
            previous=shown if shown is not None else self._outline,
            changed_paths=changed_paths,
            with_sources=self.with_sources,
            source_context=self.source_context,
            remember_descriptions=True,
        )

    @Slot(str, object)
    def _on_jobs_latest_finished(self, key: str, outcome: object) -> None:
        if outcome is None:  # an outline of a small home: nothing to show before the scan
            self.outline_shown()
            return
        assert isinstance(outcome, ScanOutcome)
        if key == OUTLINE_KEY:
            self._outline = outcome.scan
            self.outline_finished.emit(outcome)
            return
        self._outline = None
        self._policy.landed()
        self.scan_finished.emit(outcome)
        if self._policy.due:  # asked before it landed, or by a slot of the signal just sent
            self._submit()

    @Slot(str, str)
    def _on_jobs_latest_failed(self, key: str, message: str) -> None:
        if key == OUTLINE_KEY:
            logger.warning("The outline of the home failed: %s", message)
            self.outline_shown()  # the scan after it reports what is wrong
            return
        self._policy.failed()
        self.scan_failed.emit(f"Could not read the memory home: {message}")
        if self._policy.due:
            self._submit()
