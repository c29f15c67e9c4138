"""ConsolidationFooter: coverage lines, harvest line, tooltip, Consolidate now (reviewed
first, or applied directly), the runs button."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QApplication, QLabel, QTreeView, QVBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from gui import consolidation_support
from gui.consolidation_support import (
    HOUR,
    MAIN,
    WORKSPACE_RUN,
    FakeConsolidation,
    a_plan,
    make_status,
    opened_review,
    record,
    start_run,
    tick,
)
from memtab import humanize
from memtab.fs.clock import now_ms
from memtab.gui.consolidation.footer import CONSOLIDATE_NOW, ConsolidationFooter
from memtab.gui.tasks.jobs import JobService
from memtab.store.paths import Scope
from memtab.store.sidecars.journal import (
    ConsolidationRecord,
    HarvestRecord,
    JournalOp,
)
from memtab.store.sidecars.registry import Workspace

facade = consolidation_support.facade
footer = consolidation_support.footer
OTHER = Workspace(
    id="d4e5f6a7b8",
    name="dark-mode",
    path="/src/web/dm",
    project_path="/src/web",
    project_name="web",
)
MULTI = Workspace(
    id="5a6b7c8d9e",
    name="both",
    path="/src/both",
    project_path="/src/acme",
    project_name="acme",
    projects=("/src/acme", "/src/web"),
)


def harvest(status: str, error: str | None = None) -> HarvestRecord:
    now = now_ms()
    return HarvestRecord(
        summary_message_id="msg-1",
        status=status,
        started_at=now - 3 * HOUR,
        completed_at=now - 2 * HOUR - 60_000,
        attempt_count=1,
        error=error,
    )


# --- lines -------------------------------------------------------------------------------------


def test_no_workspace_disables_the_button_with_a_hint(footer: ConsolidationFooter) -> None:
    footer.set_context(None, None)
    assert footer.consolidate_button.accessibleName() == CONSOLIDATE_NOW == "Consolidate now"
    assert not footer.consolidate_button.isEnabled()
    assert footer.hint.isVisibleTo(footer)
    assert "Select a workspace" in footer.hint.full_text
    assert not footer.is_line_visible("Workspace")
    assert not footer.runs_button.isEnabled()


def test_no_records_reads_never(footer: ConsolidationFooter) -> None:
    footer.set_context(MAIN, make_status(workspace=None, project=None, global_record=None))
    for key in ("Workspace", "Project", "Global"):
        assert footer.line_text(key) == "never"
        assert footer.is_line_visible(key)
    assert not footer.is_line_visible("Harvest")
    assert footer.consolidate_button.isEnabled()
    assert not footer.hint.isVisibleTo(footer)
    assert footer.toolTip() == "No consolidation runs yet."


def test_all_records_show_their_coverage_text(footer: ConsolidationFooter) -> None:
    footer.set_context(MAIN, make_status())
    assert footer.line_text("Workspace") == humanize.coverage_text(WORKSPACE_RUN, Scope.WORKSPACE)
    assert footer.line_text("Workspace") == "3 h ago · manual · 2 files changed"
    # The same run: its two changes were to workspace files, none to the project's.
    assert footer.line_text("Project") == "3 h ago · manual · no file changed"
    assert footer.line_text("Global") == "1 h ago · launch · no file changed"


def test_each_line_counts_its_own_scopes_changes(footer: ConsolidationFooter) -> None:
    """Issue 19: every line showed the run's total change count."""
    ops = (
        JournalOp(command="str_replace", path="/memories/workspace/notes.md", applied=True),
        JournalOp(command="insert", path="/memories/workspace/todo.md", applied=True),
        JournalOp(command="delete", path="/memories/project/old.md", applied=True),
        JournalOp(
            command="rename",
            path="/memories/workspace/git.md",
            applied=True,
            new_path="/memories/global/git.md",
        ),
        JournalOp(command="delete", path="/memories/global/prefs.md", applied=False, note="pinned"),
        JournalOp(command="create", path="not a path", applied=True),
    )
    run = ConsolidationRecord(
        last_run_at=int(now_ms() - 2 * HOUR), trigger="manual", summary="Merged.", ops=ops
    )
    footer.set_context(MAIN, make_status(workspace=run, project=run, global_record=run))
    # Files, each once, a rename by its new name: git.md moved to global (formats §9.6).
    assert footer.line_text("Workspace") == "2 h ago · manual · 2 files changed"
    assert footer.line_text("Project") == "2 h ago · manual · 1 file changed"
    assert footer.line_text("Global") == "2 h ago · manual · 1 file changed"


@pytest.mark.parametrize("workspace", [MAIN, MULTI])
def test_every_value_has_room_without_a_harvest_record(
    qtbot: QtBot, facade: FakeConsolidation, workspace: Workspace, jobs: JobService
) -> None:
    """Issue 19: a workspace mux never harvested (and the demo's multi-project one) showed
    blank values: the empty Harvest row left them no width."""
    footer = ConsolidationFooter(facade, jobs)
    qtbot.addWidget(footer)
    footer.resize(420, 160)
    footer.show()
    qtbot.waitExposed(footer)
    for latest_harvest in (None, harvest("completed"), None):
        footer.set_context(
            workspace,
            make_status(project_available=workspace is MAIN, latest_harvest=latest_harvest),
        )
        footer.layout().activate()
        QApplication.processEvents()
        for key in ("Workspace", "Project", "Global"):
            value = footer._lines.value(key)
            assert value.width() >= value.fontMetrics().horizontalAdvance(value.full_text)
            assert value.text() == value.full_text  # shown whole, not elided to "…"


def test_tooltip_lists_each_summary_once(footer: ConsolidationFooter) -> None:
    footer.set_context(MAIN, make_status())
    assert footer.toolTip() == (
        "Workspace, Project: Merged the testing notes.\nGlobal: Promoted the git habits to global."
    )
    footer.set_context(MAIN, make_status(global_record=WORKSPACE_RUN))
    assert footer.toolTip() == "Workspace, Project, Global: Merged the testing notes."


def test_multi_project_workspace_reads_unavailable(footer: ConsolidationFooter) -> None:
    footer.set_context(MULTI, make_status(project=None, project_available=False))
    assert footer.line_text("Project") == "unavailable"
    assert footer.line_text("Workspace") == "3 h ago · manual · 2 files changed"


def test_a_workspace_that_keeps_a_session_scope_says_it_is_never_consolidated(
    footer: ConsolidationFooter,
) -> None:
    """xum's session scope (docs/formats.md §3.1): the footer says no run touches it."""
    footer.set_context(MAIN, make_status(), session=True)
    assert footer.is_line_visible("Session")
    assert footer.line_text("Session") == "never consolidated (an agent's own checkpoint)"
    assert "never reads or changes it" in footer.line_tooltip("Session")
    footer.set_context(MAIN, make_status())  # a workspace that keeps none
    assert not footer.is_line_visible("Session")
    assert footer.line_text("Workspace") != ""


def test_harvest_line_when_the_last_harvest_completed(footer: ConsolidationFooter) -> None:
    footer.set_context(MAIN, make_status(latest_harvest=harvest("completed")))
    assert footer.is_line_visible("Harvest")
    assert footer.line_text("Harvest") == "completed 2 h ago"
    assert not footer.harvest_error.isVisibleTo(footer)


def test_harvest_line_with_the_error_when_the_last_harvest_failed(
    footer: ConsolidationFooter,
) -> None:
    footer.set_context(MAIN, make_status(latest_harvest=harvest("failed", "Provider 529")))
    assert footer.line_text("Harvest") == "failed 2 h ago"
    assert footer.harvest_error.isVisibleTo(footer)
    assert footer.harvest_error.full_text == "Provider 529"
    footer.set_context(MAIN, make_status())  # no harvest records any more
    assert not footer.is_line_visible("Harvest")
    assert not footer.harvest_error.isVisibleTo(footer)


def test_a_scan_that_changes_no_line_restyles_none(
    footer: ConsolidationFooter, qtbot: QtBot
) -> None:
    # The tab hands the footer its status after every scan: Qt polishes a label again
    # whenever its style sheet is set, to the same one too.
    status = make_status(latest_harvest=harvest("failed", "Provider 529"))
    footer.set_context(MAIN, status)
    footer.show()
    qtbot.waitExposed(footer)
    restyled: list[QWidget] = []

    class Watch(QObject):
        def eventFilter(self, watched: QObject, event: QEvent) -> bool:
            if event.type() == QEvent.Type.StyleChange and isinstance(watched, QWidget):
                restyled.append(watched)
            return False

    watch = Watch(footer)
    for label in footer.findChildren(QLabel):
        label.installEventFilter(watch)
    footer.set_context(MAIN, status)
    QApplication.processEvents()
    assert restyled == []


def test_unknown_status_shows_placeholders(footer: ConsolidationFooter) -> None:
    footer.set_context(MAIN, None)
    assert footer.line_text("Workspace") == "…"


# --- Consolidate now ---------------------------------------------------------------------------


def test_pointing_at_or_focusing_consolidate_now_says_a_click_may_follow_once(
    footer: ConsolidationFooter, qtbot: QtBot
) -> None:
    footer.set_context(MAIN, make_status())
    footer.show()
    said: list[bool] = []
    footer.about_to_consolidate.connect(lambda: said.append(True))
    QApplication.sendEvent(footer.runs_button, QEvent(QEvent.Type.Enter))
    assert said == []  # another button: nothing to load
    QApplication.sendEvent(footer.consolidate_button, QEvent(QEvent.Type.Enter))
    assert said == [True]
    QApplication.sendEvent(footer.consolidate_button, QEvent(QEvent.Type.Enter))
    footer.consolidate_button.setFocus()
    assert said == [True]  # once: the window loads the engine then


def test_focus_reaching_consolidate_now_says_it_too(
    footer: ConsolidationFooter, qtbot: QtBot
) -> None:
    footer.set_context(MAIN, make_status())
    said: list[bool] = []
    footer.about_to_consolidate.connect(lambda: said.append(True))
    QApplication.sendEvent(footer.consolidate_button, QEvent(QEvent.Type.FocusIn))
    assert said == [True]


def test_consolidate_now_starts_a_manual_run_and_shows_progress(
    footer: ConsolidationFooter, facade: FakeConsolidation, qtbot: QtBot
) -> None:
    footer.show()
    start_run(footer, qtbot)
    assert facade.starts == [(MAIN.id, "manual")]
    assert facade.reviews == [None]  # as the review setting says
    assert footer.is_running
    assert footer.consolidate_button.text() == "Consolidating…"
    assert footer.consolidate_button.accessibleName() == "Consolidate now"
    assert not footer.consolidate_button.isEnabled()
    assert footer.cancel_button.isVisible()
    assert footer.progress_bar.isVisible()
    facade.run_started.emit(MAIN.id)
    facade.progress.emit(3, "reading /memories/project/testing.md")
    assert footer.progress_text.full_text == "Step 3 · reading /memories/project/testing.md"
    facade.progress.emit(0, "waiting for another Memtab to finish")
    assert footer.progress_text.full_text == "waiting for another Memtab to finish"
    facade.progress.emit(1, "step 1: waiting for openai qwen")  # what the tool loop says
    assert footer.progress_text.full_text == "Step 1 · waiting for openai qwen"


def test_finished_run_shows_done_but_lines_wait_for_the_rescan(
    footer: ConsolidationFooter, facade: FakeConsolidation, qtbot: QtBot
) -> None:
    start_run(footer, qtbot)
    facade.run_started.emit(MAIN.id)
    new_run = record(0, "manual", "Pruned two stale notes.")
    facade.run_finished.emit(new_run)
    assert not footer.is_running
    assert footer.consolidate_button.text() == "Consolidate now"
    assert footer.consolidate_button.isEnabled()
    assert not footer.cancel_button.isVisibleTo(footer)
    assert footer.status_text.full_text == "Done: Pruned two stale notes."
    # not from the signal:
    assert footer.line_text("Workspace") == "3 h ago · manual · 2 files changed"
    footer.set_context(MAIN, make_status(workspace=new_run))  # the tab's rescan
    assert footer.line_text("Workspace") == "just now · manual · 1 file changed"


def test_failed_run_shows_the_error_inline(
    footer: ConsolidationFooter, facade: FakeConsolidation, qtbot: QtBot
) -> None:
    start_run(footer, qtbot)
    facade.run_started.emit(MAIN.id)
    facade.run_failed.emit("anthropic: 529 overloaded")
    assert not footer.is_running
    assert footer.status_text.isVisibleTo(footer)
    assert footer.status_text.full_text == "Consolidation failed: anthropic: 529 overloaded"
    assert footer.consolidate_button.isEnabled()
    footer.set_context(OTHER, make_status())  # another workspace: the error is not its
    assert footer.status_text.full_text == ""


def test_run_refused_as_in_flight_shows_the_message(
    footer: ConsolidationFooter, facade: FakeConsolidation, qtbot: QtBot
) -> None:
    facade.busy.add(MAIN.id)  # e.g. started from the CLI in this process
    start_run(footer, qtbot)
    assert not footer.is_running
    assert "already in flight" in footer.status_text.full_text


def test_cancel_stops_the_run(
    footer: ConsolidationFooter, facade: FakeConsolidation, qtbot: QtBot
) -> None:
    footer.show()
    start_run(footer, qtbot)
    facade.run_started.emit(MAIN.id)
    assert footer.cancel_button.accessibleName() == "Cancel consolidation"
    qtbot.mouseClick(footer.cancel_button, Qt.MouseButton.LeftButton)
    assert facade.cancels == 1
    assert footer.cancel_button.text() == "Cancelling…"
    assert not footer.cancel_button.isEnabled()
    facade.progress.emit(4, "late step")  # the worker may report once more
    assert footer.progress_text.full_text == "Cancelling…"
    facade.run_cancelled.emit(MAIN.id)
    assert not footer.is_running
    assert footer.status_text.full_text == (
        "Cancelled. Changes it made before stopping, if any, are kept: see Runs…"
    )
    assert footer.consolidate_button.isEnabled()


def test_cancel_while_queued(
    footer: ConsolidationFooter, facade: FakeConsolidation, qtbot: QtBot
) -> None:
    facade.run_started.emit(OTHER.id)  # another workspace's run is going
    start_run(footer, qtbot)
    assert footer.progress_text.full_text == "Waiting for another workspace's run to finish…"
    footer.cancel_button.click()
    facade.run_cancelled.emit(OTHER.id)
    assert footer.is_running  # ours is still queued until it reports
    facade.run_cancelled.emit(MAIN.id)
    assert not footer.is_running
    assert "Cancelled" in footer.status_text.full_text


def test_another_workspaces_run_does_not_end_up_in_this_footer(
    footer: ConsolidationFooter, facade: FakeConsolidation
) -> None:
    footer.show()
    footer.set_context(MAIN, make_status())
    facade.run_started.emit(OTHER.id)
    assert not footer.is_running
    assert footer.consolidate_button.isEnabled()  # the facade queues a second run
    assert footer.progress_text.full_text == "Another workspace is being consolidated."
    facade.progress.emit(2, "their step")
    assert footer.progress_text.full_text == "Another workspace is being consolidated."
    facade.run_failed.emit("their failure")
    assert footer.status_text.full_text == ""
    assert not footer.progress_text.isVisible()


def test_a_queued_run_starts_after_the_other_finishes(
    footer: ConsolidationFooter, facade: FakeConsolidation, qtbot: QtBot
) -> None:
    facade.run_started.emit(OTHER.id)
    start_run(footer, qtbot)
    facade.run_finished.emit(record(0, "launch", "their run"))
    assert footer.is_running
    assert footer.status_text.full_text == ""
    facade.run_started.emit(MAIN.id)
    facade.run_finished.emit(record(0, "manual", "our run"))
    assert not footer.is_running
    assert footer.status_text.full_text == "Done: our run"


# --- layout ------------------------------------------------------------------------------------


def settle() -> None:
    """Let layout requests climb to the top (one level per pass)."""
    for _ in range(8):
        QApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
        QApplication.processEvents()


def test_a_run_starting_and_ending_never_moves_the_tree(
    facade: FakeConsolidation, qtbot: QtBot, jobs: JobService
) -> None:
    """The tree sits above the footer as in the Memory tab: progress, Done and errors come
    and go in a status line of fixed height, so a click lands on the row it aimed at."""
    pane = QWidget()
    qtbot.addWidget(pane)
    tree = QTreeView(pane)
    footer = ConsolidationFooter(facade, jobs, pane)
    layout = QVBoxLayout(pane)
    layout.addWidget(tree, 1)
    layout.addWidget(footer)
    pane.resize(380, 600)
    footer.set_context(MAIN, make_status())
    pane.show()
    qtbot.waitExposed(pane)
    settle()
    settled = tree.geometry()
    long_text = "reading /memories/project/" + "a-very-long-folder-name/" * 12 + "notes.md"

    def unmoved() -> None:
        settle()
        assert tree.geometry() == settled

    steps = [
        lambda: qtbot.mouseClick(footer.consolidate_button, Qt.MouseButton.LeftButton),
        lambda: facade.run_started.emit(MAIN.id),
        lambda: facade.progress.emit(3, long_text),
        lambda: facade.run_finished.emit(record(0, "manual", "Done it all. " * 30)),
        lambda: qtbot.mouseClick(footer.consolidate_button, Qt.MouseButton.LeftButton),
        lambda: facade.run_started.emit(MAIN.id),
        lambda: facade.run_failed.emit("anthropic: 529 overloaded " + long_text),
    ]
    for step in steps:
        step()
        unmoved()
    assert footer.status_text.isVisible()
    assert footer.status_text.full_text.startswith("Consolidation failed: anthropic: 529")
    assert footer.status_text.toolTip() == footer.status_text.full_text


def test_details_collapse_to_a_one_line_summary(footer: ConsolidationFooter, qtbot: QtBot) -> None:
    footer.set_context(MAIN, make_status(latest_harvest=harvest("failed", "Provider 529")))
    footer.show()
    assert footer.details_expanded and footer.is_line_visible("Workspace")
    assert not footer.summary.isVisible()
    expanded = footer.sizeHint().height()
    qtbot.mouseClick(footer.details_button, Qt.MouseButton.LeftButton)
    assert not footer.details_expanded
    assert not footer.is_line_visible("Workspace")
    assert footer.summary.isVisible()
    assert footer.summary.full_text == "ran 3 h ago"  # the workspace's last run
    assert "Merged the testing notes." in footer.summary.toolTip()
    assert footer.sizeHint().height() < expanded - 40
    qtbot.mouseClick(footer.details_button, Qt.MouseButton.LeftButton)
    assert footer.is_line_visible("Harvest") and footer.harvest_error.isVisible()


# --- review before apply, the runs button ---------------------------------------------------


def test_a_plan_opens_the_review_and_applies_only_the_accepted_ops(
    footer: ConsolidationFooter, facade: FakeConsolidation, qtbot: QtBot
) -> None:
    start_run(footer, qtbot)
    facade.run_started.emit(MAIN.id)
    plan = a_plan(True, False, True)
    facade.plan_ready.emit(plan)
    assert not footer.is_running
    assert footer.status_text.full_text == "Review changes to 1 file…"  # both edit a.md
    review = opened_review(footer, qtbot)
    assert review.isVisible() and review.plan is plan
    assert review.accepted_ops == (1, 3)  # the refused op cannot be ticked
    assert review.ops.topLevelItem(1).text(1) == "Edited a.md (2): pinned"  # type: ignore[union-attr]
    review.reject_all_button.click()
    assert review.accepted_ops == () and not review.apply_button.isEnabled()
    tick(qtbot, review, 3, True)
    assert review.apply_button.text() == "&Apply changes to 1 file"
    review.ops.setCurrentItem(review.ops.topLevelItem(2))
    assert review.diff.result is not None and review.diff.result.added == 1
    review.apply_button.click()
    assert facade.applied == [(plan, (3,))]
    assert footer.is_running and footer.progress_text.full_text == "Applying changes to 1 file…"
    assert footer.review_dialog is None


def test_discarding_a_plan_changes_nothing_and_says_so(
    footer: ConsolidationFooter, facade: FakeConsolidation, qtbot: QtBot
) -> None:
    start_run(footer, qtbot)
    facade.run_started.emit(MAIN.id)
    facade.plan_ready.emit(a_plan(True))
    review = opened_review(footer, qtbot)
    review.discard_button.click()
    assert facade.applied == []
    assert footer.status_text.full_text == "Plan discarded; nothing was changed."
    assert footer.consolidate_button.isEnabled()


def test_a_plan_proposing_nothing_needs_no_review(
    footer: ConsolidationFooter, facade: FakeConsolidation, qtbot: QtBot
) -> None:
    start_run(footer, qtbot)
    facade.run_started.emit(MAIN.id)
    facade.plan_ready.emit(a_plan(False, summary="Nothing worth merging."))
    qtbot.wait(100)  # the review's steps, had one been asked for
    assert footer.review_dialog is None
    assert footer.status_text.full_text == "Nothing to change: Nothing worth merging."


def test_always_apply_directly_is_stored(
    footer: ConsolidationFooter, facade: FakeConsolidation, qtbot: QtBot
) -> None:
    from memtab.consolidation.review.review_setting import load_review_mode

    start_run(footer, qtbot)
    facade.run_started.emit(MAIN.id)
    facade.plan_ready.emit(a_plan(True))
    review = opened_review(footer, qtbot)
    assert load_review_mode() == "review-first"
    review.always_direct.setChecked(True)
    review.apply_button.click()
    assert load_review_mode() == "apply-directly"


def test_runs_button_asks_for_runs(footer: ConsolidationFooter, qtbot: QtBot) -> None:
    footer.set_context(MAIN, make_status())
    assert footer.runs_button.accessibleName() == "Consolidation runs"
    with qtbot.waitSignal(footer.runs_dialog_requested):
        footer.runs_button.click()
