"""The review of a plan opens in steps (`gui.consolidation.footer.ReviewOpener`): built ahead while
the plan is made, shown when it comes, never built in the slot the plan arrives in."""

from __future__ import annotations

from PySide6.QtWidgets import QTreeWidgetItem
from pytestqt.qtbot import QtBot

from gui import consolidation_support
from gui.consolidation_support import MAIN, FakeConsolidation, a_plan, opened_review, start_run
from memtab.gui.consolidation.footer import ConsolidationFooter
from memtab.gui.consolidation.review_dialog import ReviewDialog
from memtab.gui.tasks.jobs import JobService

facade = consolidation_support.facade
footer = consolidation_support.footer


def reviews_of(footer: ConsolidationFooter) -> list[ReviewDialog]:
    return footer.findChildren(ReviewDialog)


def rows(review: ReviewDialog) -> list[tuple[str, str]]:
    items: list[QTreeWidgetItem | None] = [
        review.ops.topLevelItem(row) for row in range(review.ops.topLevelItemCount())
    ]
    return [(item.text(0), item.text(1)) for item in items if item is not None]


def test_the_review_is_built_while_the_plan_is_made_and_shown_when_it_comes(
    footer: ConsolidationFooter, facade: FakeConsolidation, qtbot: QtBot
) -> None:
    start_run(footer, qtbot)  # Consolidate now: a plan may come
    qtbot.waitUntil(lambda: len(reviews_of(footer)) == 1)
    (prepared,) = reviews_of(footer)
    assert not prepared.isVisible() and footer.review_dialog is None
    facade.run_started.emit(MAIN.id)
    plan = a_plan(True, False)
    facade.plan_ready.emit(plan)
    # The plan's own slot only asks for the steps: nothing listed or shown in it.
    assert footer.review_dialog is None and not prepared.isVisible()
    assert prepared.ops.topLevelItemCount() == 0
    review = opened_review(footer, qtbot)
    assert review is prepared and review.isVisible() and review.plan is plan
    assert reviews_of(footer) == [review]


def test_a_plan_nobody_announced_opens_in_steps_too(
    footer: ConsolidationFooter, facade: FakeConsolidation, qtbot: QtBot
) -> None:
    footer.set_context(MAIN, None)
    facade.plan_ready.emit(a_plan(True))  # e.g. the check's Apply fix: no run before it
    assert reviews_of(footer) == []  # not even built in the plan's slot
    review = opened_review(footer, qtbot)
    assert review.isVisible() and review.accepted_ops == (1,)
    review.discard_button.click()
    qtbot.waitUntil(lambda: reviews_of(footer) == [])  # one-shot: deleted once closed
    assert footer.review_dialog is None


def test_a_new_plan_replaces_the_open_review(
    footer: ConsolidationFooter, facade: FakeConsolidation, qtbot: QtBot
) -> None:
    footer.set_context(MAIN, None)
    facade.plan_ready.emit(a_plan(True, summary="First."))
    first = opened_review(footer, qtbot)
    second_plan = a_plan(True, True, summary="Second.")
    facade.plan_ready.emit(second_plan)
    assert not first.isVisible() and footer.review_dialog is None  # closed as discarded
    assert footer.status_text.full_text == "Review changes to 1 file…"  # both edit a.md
    second = opened_review(footer, qtbot)
    assert second is not first and second.plan is second_plan
    assert facade.applied == []


def test_a_review_built_ahead_shows_what_one_built_for_the_plan_shows(
    qtbot: QtBot, jobs: JobService
) -> None:
    plan = a_plan(True, False, True)
    direct = ReviewDialog(jobs, plan, "fix-token-refresh")  # type: ignore[arg-type]
    ahead = ReviewDialog(jobs)
    qtbot.addWidget(direct)
    qtbot.addWidget(ahead)
    assert ahead.windowTitle() == "" and ahead.ops.topLevelItemCount() == 0
    ahead.show_plan(plan, "fix-token-refresh")  # type: ignore[arg-type]
    ahead.lay_out()
    assert (
        ahead.windowTitle() == direct.windowTitle() == ("Review consolidation — fix-token-refresh")
    )
    assert ahead.summary.text() == direct.summary.text()
    assert rows(ahead) == rows(direct) and len(rows(ahead)) == 3
    assert ahead.accepted_ops == direct.accepted_ops == (1, 3)
    assert ahead.apply_button.text() == direct.apply_button.text() == "&Apply changes to 1 file"
    assert ahead.diff.text == direct.diff.text and ahead.diff.result is not None
    assert ahead.minimumWidth() == direct.minimumWidth()
