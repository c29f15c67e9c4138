"""Consolidate now in the footer with the real facade and the offline provider: a run, a
review that applies exactly the accepted changes, a second run refused while one is in
flight (test_footer.py: the footer against a fake)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from gui.consolidation_support import tick
from memtab.consolidation.records import ConsolidationRequest
from memtab.consolidation.review.review_setting import save_review_mode
from memtab.consolidation.service import ConsolidationService
from memtab.demo import MAIN_ID
from memtab.gui.consolidation.footer import ConsolidationFooter
from memtab.gui.consolidation.tasks import ConsolidationTasks
from memtab.gui.tasks.jobs import JobService
from memtab.store.home import Home
from memtab.store.sidecars.journal import Journal
from memtab.store.sidecars.registry import Workspace, load_registry
from memtab.store.sidecars.scope_runs import load_scope_runs
from support.demo_homes import copied_demo_home


@dataclass
class Demo:
    """A demo home, the real facade on it, and a footer showing its main workspace."""

    home: Home
    tasks: ConsolidationTasks
    workspace: Workspace
    footer: ConsolidationFooter


@pytest.fixture
def demo(qtbot: QtBot, tmp_path: Path, jobs: JobService) -> Iterator[Demo]:
    home = copied_demo_home(tmp_path / "demo")
    tasks = ConsolidationTasks(home, jobs, ConsolidationService)  # in this process
    footer = ConsolidationFooter(tasks, jobs)
    qtbot.addWidget(footer)
    yield Demo(home, tasks, load_registry(home).require_workspace(MAIN_ID), footer)
    tasks.shutdown()


def test_consolidate_now_with_the_real_facade_and_the_offline_provider(
    qtbot: QtBot, demo: Demo
) -> None:
    home, tasks, workspace, footer = demo.home, demo.tasks, demo.workspace, demo.footer
    journal = Journal(home)
    footer.set_context(workspace, journal.status(workspace.id, workspace.project_identity))
    before = footer.line_text("Workspace")
    assert before == "3 h ago · manual · 2 files changed"
    save_review_mode("apply-directly")
    with qtbot.waitSignal(tasks.run_finished, timeout=30_000):
        qtbot.mouseClick(footer.consolidate_button, Qt.MouseButton.LeftButton)
        assert footer.consolidate_button.text() == "Consolidating…"
    assert not footer.is_running
    assert footer.status_text.full_text.startswith("Done")
    # What the tab does after the watcher reports the journal write:
    footer.set_context(workspace, journal.status(workspace.id, workspace.project_identity))
    after = footer.line_text("Workspace")
    assert after != before
    assert after.startswith("just now · manual")


def test_review_first_with_the_real_facade_applies_exactly_the_accepted_ops(
    qtbot: QtBot, demo: Demo
) -> None:
    home, tasks, workspace, footer = demo.home, demo.tasks, demo.workspace, demo.footer
    footer.set_context(workspace, None)
    journal_before = home.journal_path.read_bytes()
    with qtbot.waitSignal(tasks.plan_ready, timeout=30_000):
        qtbot.mouseClick(footer.consolidate_button, Qt.MouseButton.LeftButton)
    assert home.journal_path.read_bytes() == journal_before  # a plan changes nothing
    qtbot.waitUntil(lambda: footer.review_dialog is not None)  # it opens in steps
    review = footer.review_dialog
    assert review is not None
    proposed = [op.index for op in review.plan.proposed]
    assert proposed
    merge = review.plan.unit_of(proposed[-1])  # the demo's merge: an insert and a delete
    assert merge is not None and len(merge.indexes) == 2
    review.ops.setCurrentItem(review.ops.topLevelItem(0))  # the merge: why, and its diff
    assert review.reason.isVisibleTo(review)
    assert review.reason.text().startswith("Why: Took 1 item it lacked from project/test-tips.md")
    tick(qtbot, review, proposed[-1], False)  # unticks the merge's edit with its delete
    kept = [index for index in proposed if index not in merge.indexes]
    assert list(review.accepted_ops) == kept
    with qtbot.waitSignal(tasks.run_finished, timeout=30_000) as finished:
        review.apply_button.click()
    record = finished.args[0]
    applied = [number for number, op in enumerate(record.ops, 1) if op.applied]
    assert applied == kept
    assert Journal(home).load().workspaces[MAIN_ID] == record


def test_real_facade_refuses_a_second_run_in_flight(qtbot: QtBot, demo: Demo) -> None:
    tasks, workspace, footer = demo.tasks, demo.workspace, demo.footer
    footer.set_context(workspace, None)
    with qtbot.waitSignal(tasks.run_finished, timeout=30_000):
        assert tasks.start(ConsolidationRequest(MAIN_ID))  # e.g. started elsewhere in the window
        footer.consolidate_button.click()  # the footer did not start it: not busy here
        assert "already in flight" in footer.status_text.full_text


def test_a_scope_alone_with_nothing_to_change_is_its_lines_run_just_now(
    qtbot: QtBot, demo: Demo
) -> None:
    # Consolidate Global only, reviewing first: the demo's global memory needs no change,
    # so there is nothing to review — and the run is done: the Global line says so.
    home, tasks, workspace, footer = demo.home, demo.tasks, demo.workspace, demo.footer
    journal = Journal(home)
    footer.set_context(workspace, journal.status(workspace.id, workspace.project_identity))
    assert footer.line_text("Global") == "3 h ago · manual · no file changed"
    with qtbot.waitSignal(tasks.plan_ready, timeout=30_000):
        assert tasks.start(ConsolidationRequest(workspace.id, review=True, scope="global"))
    qtbot.waitUntil(lambda: not footer.is_running)
    assert footer.status_text.full_text == "Nothing to change (Global only): no changes needed"
    assert footer.review_dialog is None
    # What the tab does after the watcher reports the write of scope-runs.json:
    runs = load_scope_runs(home)
    footer.set_context(
        workspace, journal.status(workspace.id, workspace.project_identity, scope_runs=runs)
    )
    assert footer.line_text("Global") == "just now · manual · no file changed"
    assert footer.line_text("Workspace") == "3 h ago · manual · 2 files changed"  # untouched
