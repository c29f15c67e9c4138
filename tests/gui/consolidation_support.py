"""Shared fixtures and helpers of the consolidation footer's GUI tests: a test double of
the consolidation facade, the footer on it, a plan to review.

Import the fixtures into a test module (`facade = consolidation_support.facade`, …) to use them.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import QObject, Qt, Signal
from pytestqt.qtbot import QtBot

from memtab.components.consolidation.consolidation import review_rows
from memtab.consolidation.records import ConsolidationRequest
from memtab.fs.clock import now_ms
from memtab.gui.consolidation.footer import ConsolidationFooter
from memtab.gui.consolidation.review_dialog import ReviewDialog
from memtab.gui.tasks.jobs import JobService
from memtab.store.sidecars.journal import (
    ConsolidationRecord,
    ConsolidationStatus,
    HarvestRecord,
    JournalOp,
    RunUsage,
)
from memtab.store.sidecars.registry import Workspace

HOUR = 3_600_000
MAIN = Workspace(
    id="a1b2c3d4e5",
    name="fix-token-refresh",
    path="/src/acme/.worktrees/fix",
    project_path="/src/acme",
    project_name="acme",
)


def record(hours_ago: float, trigger: str, summary: str, applied: int = 1) -> ConsolidationRecord:
    edits = [
        JournalOp(command="str_replace", path=f"/memories/workspace/n{i}.md", applied=True)
        for i in range(applied)
    ]
    ops = (
        *edits,
        JournalOp(command="delete", path="/memories/project/a.md", applied=False, note="pinned"),
    )
    # Stamped when made: a run made "0 h ago" in a test reads "just now" however long
    # after this module was imported the test runs.
    return ConsolidationRecord(
        last_run_at=int(now_ms() - hours_ago * HOUR),
        trigger=trigger,
        summary=summary,
        ops=ops,
        usage=RunUsage(input_tokens=100, output_tokens=20),
    )


WORKSPACE_RUN = record(3, "manual", "Merged the testing notes.", applied=2)
GLOBAL_RUN = record(1, "launch", "Promoted the git habits to global.")


def make_status(
    *,
    workspace: ConsolidationRecord | None = WORKSPACE_RUN,
    project: ConsolidationRecord | None = WORKSPACE_RUN,
    global_record: ConsolidationRecord | None = GLOBAL_RUN,
    project_available: bool = True,
    latest_harvest: HarvestRecord | None = None,
) -> ConsolidationStatus:
    return ConsolidationStatus(
        workspace_record=workspace,
        project_record=project,
        global_record=global_record,
        project_available=project_available,
        latest_harvest=latest_harvest,
    )


class FakeConsolidation(QObject):
    """A test double with the facade's signals and its synchronous in-flight refusal."""

    run_started = Signal(str)
    progress = Signal(int, str)
    run_finished = Signal(object)
    run_failed = Signal(str)
    run_cancelled = Signal(str)
    plan_ready = Signal(object)

    def __init__(self) -> None:
        super().__init__()
        self.starts: list[tuple[str, str]] = []
        self.reviews: list[bool | None] = []
        self.scopes: list[str | None] = []
        self.applied: list[tuple[object, tuple[int, ...]]] = []
        self.cancels = 0
        self.busy: set[str] = set()

    def start(self, request: ConsolidationRequest) -> bool:
        if request.choice is not None:
            self.applied.append((request.choice.plan, request.choice.accepted))
            return True
        workspace_id = request.workspace_id
        self.starts.append((workspace_id, request.trigger))
        self.reviews.append(request.review)
        self.scopes.append(request.scope)
        if workspace_id in self.busy:
            self.run_failed.emit(
                f"a consolidation run is already in flight for workspace {workspace_id}"
            )
            return False
        self.busy.add(workspace_id)
        return True

    def cancel(self) -> None:
        self.cancels += 1


@pytest.fixture
def facade() -> FakeConsolidation:
    return FakeConsolidation()


@pytest.fixture
def footer(qtbot: QtBot, facade: FakeConsolidation, jobs: JobService) -> ConsolidationFooter:
    widget = ConsolidationFooter(facade, jobs)
    qtbot.addWidget(widget)
    widget.resize(360, 260)
    return widget


def start_run(footer: ConsolidationFooter, qtbot: QtBot) -> None:
    footer.set_context(MAIN, make_status())
    qtbot.mouseClick(footer.consolidate_button, Qt.MouseButton.LeftButton)


def a_plan(*proposed: bool, summary: str = "Merged the test tips.") -> object:
    from memtab.consolidation.records import ConsolidationPlan, PlannedFile, PlannedOp

    diff = "--- /memories/workspace/a.md\n+++ /memories/workspace/a.md\n@@ -1,1 +1,1 @@\n-a\n+b"
    ops = tuple(
        PlannedOp(
            index=number,
            command="str_replace",
            path="/memories/workspace/a.md",
            arguments={},
            proposed=ok,
            note=None if ok else "pinned",
            description=f"Edited a.md ({number})",
            files=(
                PlannedFile(
                    path="/memories/workspace/a.md",
                    base_sha256="0" * 64,
                    result_sha256="1" * 64,
                    diff=diff,
                ),
            ),
        )
        for number, ok in enumerate(proposed, 1)
    )
    return ConsolidationPlan(
        id="plan-x",
        created_at=1,
        home="/home",
        workspace_id=MAIN.id,
        trigger="manual",
        summary=summary,
        ops=ops,
    )


def opened_review(footer: ConsolidationFooter, qtbot: QtBot) -> ReviewDialog:
    """The review of the plan just emitted, once it is open (it opens in steps)."""
    qtbot.waitUntil(lambda: footer.review_dialog is not None)
    review = footer.review_dialog
    assert review is not None
    return review


def tick(qtbot: QtBot, review: ReviewDialog, index: int, accepted: bool) -> None:
    """Tick or untick the change op number `index` belongs to (with its other parts), as
    the user does with the keyboard: its row made current, then Space."""
    rows = review_rows(review.plan)
    item = review.ops.topLevelItem(next(n for n, row in enumerate(rows) if index in row.indexes))
    assert item is not None
    review.ops.setCurrentItem(item)
    if (item.checkState(0) == Qt.CheckState.Checked) != accepted:
        qtbot.keyClick(review.ops, Qt.Key.Key_Space)
    assert (item.checkState(0) == Qt.CheckState.Checked) == accepted
