"""The review says what an earlier review declined, and forgets it when asked
(docs/formats.md §9.7): the refused row names the decline, and "Forget declined changes"
releases it (off the GUI thread) so the next run may propose it again."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from memtab.consolidation.declined import load_declined
from memtab.consolidation.service import ConsolidationService
from memtab.gui.consolidation.review_dialog import ReviewDialog
from memtab.gui.tasks.jobs import JobService
from memtab.llm.settings import ProviderSettings
from unit.consolidation.helpers import WS, new_home, store_for
from unit.consolidation.test_declined import DUPLICATE, install_real_stores

OFFLINE = ProviderSettings("offline", "offline", "")


def test_forget_declined_changes_releases_them_for_the_next_run(
    qtbot: QtBot, tmp_path: Path, jobs: JobService
) -> None:
    home = new_home(tmp_path / "home")
    install_real_stores(store_for(home, WS))
    service = ConsolidationService(home, settings=OFFLINE)
    plan = service.plan(WS)
    service.apply_plan(plan, [op.index for op in plan.proposed if op.path != DUPLICATE])
    again = service.plan(WS)
    assert again.held_back_count == 1

    review = ReviewDialog(jobs, again, "main")
    qtbot.addWidget(review)
    review.show()
    assert review.forget_button.isVisible()
    rows = [review.ops.topLevelItem(i) for i in range(review.ops.topLevelItemCount())]
    assert any("declined in review" in row.text(1) for row in rows if row is not None)
    review.forget_button.click()
    qtbot.waitUntil(lambda: not review.forget_button.isVisible(), timeout=10_000)
    assert "Forgot 1 declined change: the next Consolidate now" in review.summary.text()
    assert load_declined(home) == ()
    assert DUPLICATE in [op.path for op in service.plan(WS).proposed]
    review.reject()


def test_a_plan_without_declines_shows_no_forget_button(
    qtbot: QtBot, tmp_path: Path, jobs: JobService
) -> None:
    home = new_home(tmp_path / "home")
    install_real_stores(store_for(home, WS))
    review = ReviewDialog(jobs, ConsolidationService(home, settings=OFFLINE).plan(WS), "main")
    qtbot.addWidget(review)
    review.show()
    assert not review.forget_button.isVisible()
    review.reject()
