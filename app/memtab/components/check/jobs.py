"""The check's jobs in the window: is the memory still true of the code?"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING

from memtab.check.engine import CheckEngine
from memtab.check.records import CheckReport, Finding
from memtab.components.jobs import JobContext
from memtab.fs.heap import release_free_heap
from memtab.store.home import Home, HomeError
from memtab.store.sidecars.registry import Workspace

if TYPE_CHECKING:  # lazy: the consolidation engine (~1.4 MiB, ~100 ms) with the first fix
    from memtab.consolidation.review.check_fixes import FixPlan


@dataclass(frozen=True)
class NotChecked:
    """Why the home could not be checked (the registry cannot be read)."""

    message: str


class WindowCheck:
    """The window's one check engine, built on the lane by the first check."""

    def __init__(self, home: Home) -> None:
        self._home = home
        self._engine: CheckEngine | None = None
        self._lock = threading.Lock()
        self._checked_once = False

    def check(self, workspace_id: str | None, ctx: JobContext) -> CheckReport | NotChecked:
        """Check the memory of `workspace_id` (None: the home, as `memtab check` does)."""
        try:
            return self._check(workspace_id, ctx)
        except HomeError as error:  # an unreadable registry: said in the panel, not a defect
            return NotChecked(str(error))

    def _check(self, workspace_id: str | None, ctx: JobContext) -> CheckReport:
        with self._lock:
            if self._engine is None:
                self._engine = CheckEngine(self._home)
            engine = self._engine
        report = engine.check(workspace_id, cancel=ctx.cancel_event)
        if not self._checked_once:
            # The first check read every memory file on this thread, as the start's other
            # big jobs did before it: give back the heap they freed (`fs.heap`) now, and
            # again once the start is over (the window asks: `release_heap`).
            self._checked_once = True
            release_free_heap()
        return report


def plan_check_fixes(
    home: Home, workspace: Workspace, findings: tuple[Finding, ...], _ctx: JobContext
) -> FixPlan:
    """A plan of the fixes of `findings` in `workspace`'s memory, to review."""
    # lazy: the consolidation engine (~1.4 MiB, ~100 ms) with the first fix
    from memtab.consolidation.review.check_fixes import plan_fixes

    return plan_fixes(home, workspace, findings)
