"""The Trust panel shows findings and candidates apart (issue 94 points 2 and 3), on the demo
with its rewordings (candidates: what the engines' words only suspect) and its disagreement
made one: they are listed after the findings under their own headings, never counted in the
room, and offer only Compare — side by side, read-only — and Ask the model, which asks the
user's model and shows what it said; the keyboard reaches each, and is back on the row it
came from when a dialog closes."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from gui.memory_tree_support import WindowFactory, action, wait_for, wait_for_look
from memtab.components.jobs import JobContext
from memtab.components.trust import jobs as trust_jobs
from memtab.components.trust.compare import finding_key
from memtab.components.trust.jobs import WindowTrust
from memtab.demo import MAIN_ID
from memtab.gui.first_paint.main_window import MainWindow
from memtab.gui.trust.compare import SideBySideDialog
from memtab.gui.trust.feature import TrustFeature
from memtab.gui.trust.panel import FOUND_ROLE, NO_MODEL
from memtab.gui.window import keys
from memtab.llm.settings import ProviderSettings
from memtab.store.home import Home
from memtab.trust.judging import asking
from memtab.trust.report import TrustReport
from support.demo_homes import copied_demo_home
from support.pair_models import PairsModel

make_window = support.make_window

SETTINGS = ProviderSettings(provider="openai", model="judge-1", base_url="http://127.0.0.1:9")


@pytest.fixture
def demo(tmp_path: Path) -> Home:
    return copied_demo_home(tmp_path / "demo")


def suspected(report: TrustReport) -> TrustReport:
    """`report` with its disagreement made a candidate: the engines' words only suspect the
    demo's rewordings (`duplicate_candidates`), and the demo's one disagreement is proven
    (a port), so the panel's second section of candidates is shown with it."""
    assert report.duplicate_candidates and not report.contradiction_candidates
    return replace(report, contradictions=(), contradiction_candidates=report.contradictions)


def looked_at(
    qtbot: QtBot, make_window: WindowFactory, demo: Home, monkeypatch: pytest.MonkeyPatch
) -> tuple[MainWindow, TrustFeature, TrustReport]:
    """The demo's window, its look answering with candidates."""
    real = WindowTrust(demo).find(JobContext.standalone())
    assert isinstance(real, TrustReport)
    report = suspected(real)
    assert report.duplicate_candidates and report.contradiction_candidates
    monkeypatch.setattr(WindowTrust, "find", lambda self, ctx: report)
    window = make_window(demo, MAIN_ID)
    window.show()
    trust = window.part(keys.TRUST)
    trust.find_now()
    wait_for_look(qtbot, trust)
    return window, trust, report


def titles(trust: TrustFeature) -> list[str]:
    tree = trust.panel.tree
    return [tree.topLevelItem(i).text(0) for i in range(tree.topLevelItemCount())]  # type: ignore[union-attr]


def test_candidates_are_apart_uncounted_and_offer_only_compare_and_ask(
    qtbot: QtBot, make_window: WindowFactory, demo: Home, monkeypatch: pytest.MonkeyPatch
) -> None:
    window, trust, report = looked_at(qtbot, make_window, demo, monkeypatch)
    groups, candidates = len(report.duplicates), len(report.duplicate_candidates)
    action(window, "trust.panel").trigger()
    panel = trust.panel
    assert titles(trust) == [
        f"Said twice · {groups}",
        "Disagreeing · 0",
        f"In the wrong place · {len(report.leaks)}",
        f"Might say the same — ask your model or compare · {candidates}",
        "Might disagree — ask your model or compare · 1",
    ]
    sections = {s.key: s for s in trust.room.sections}
    assert sections["duplicates"].count == groups and sections["contradictions"].count == 0
    assert sections["duplicates"].apart == (
        f"Not counted: {candidates} groups that might say the same — in the Trust panel"
    )
    counted = sum(s.count for s in trust.room.sections)
    assert trust.room.headline.text() == f"{counted} things to look at"
    assert f"; {candidates + 1} more the words only suspect, not counted" in trust.status

    part = panel.tree.topLevelItem(3)
    assert part is not None
    panel.tree.setCurrentItem(part.child(0))
    assert panel.selected_is_candidate()
    assert panel.combine_button.isHidden() and panel.keep_button.isHidden()
    assert panel.move_button.isHidden()
    assert panel.compare_button.isVisibleTo(panel) and panel.compare_button.isEnabled()
    assert panel.ask_button.isVisibleTo(panel) and not panel.ask_button.isEnabled()
    assert panel.ask_button.toolTip() == NO_MODEL  # no model is set
    assert "The words only suspect it" in panel.why.text()
    with (
        qtbot.assertNotEmitted(panel.combine_requested),
        qtbot.assertNotEmitted(panel.keep_requested),
    ):
        panel.combine_button.click()
        panel.keep_button.click()
    assert trust.review is None


def test_compare_opens_every_place_read_only_and_the_keyboard_comes_back_to_its_row(
    qtbot: QtBot, make_window: WindowFactory, demo: Home, monkeypatch: pytest.MonkeyPatch
) -> None:
    window, trust, _report = looked_at(qtbot, make_window, demo, monkeypatch)
    action(window, "trust.panel").trigger()
    panel = trust.panel
    part = panel.tree.topLevelItem(3)
    assert part is not None
    row = part.child(0)
    panel.tree.setCurrentItem(row)
    wait_for(qtbot, panel.tree.hasFocus)
    candidate = row.data(0, FOUND_ROLE)
    qtbot.keyClick(panel.tree, Qt.Key.Key_C, Qt.KeyboardModifier.AltModifier)  # &Compare
    wait_for(qtbot, lambda: isinstance(QApplication.activeModalWidget(), SideBySideDialog))
    compared = trust.side_by_side
    assert compared is not None
    assert len(compared.texts) == len(candidate.members)
    assert all(text.isReadOnly() for text in compared.texts)
    assert all(t.toPlainText() != "(cannot be read)" for t in compared.texts)
    qtbot.keyClick(compared, Qt.Key.Key_Escape)
    wait_for(qtbot, lambda: QApplication.activeModalWidget() is None)
    wait_for(qtbot, lambda: window.focusWidget() is panel.tree)
    current = panel.tree.currentItem()
    assert current is not None and finding_key(current.data(0, FOUND_ROLE)) == finding_key(
        candidate
    )


def test_ask_the_model_makes_a_candidate_it_confirms_a_finding_it_judged(
    qtbot: QtBot, make_window: WindowFactory, demo: Home, monkeypatch: pytest.MonkeyPatch
) -> None:
    provider = PairsModel(lambda one, other: "same", reason="both: small diffs, no reformatting")
    monkeypatch.setattr(asking, "make_provider", lambda settings, limit: provider)
    monkeypatch.setattr(trust_jobs, "resolve_provider_settings", lambda: SETTINGS)
    window, trust, report = looked_at(qtbot, make_window, demo, monkeypatch)
    wait_for(qtbot, lambda: trust.model == "judge-1")
    action(window, "trust.panel").trigger()
    panel = trust.panel
    [diffs] = [
        g
        for g in report.duplicate_candidates
        if any("Keep diffs small" in m.text for m in g.members)
    ]
    assert panel.select_found(finding_key(diffs))
    assert panel.ask_button.isEnabled() and "judge-1" in panel.ask_button.toolTip()
    qtbot.keyClick(panel.tree, Qt.Key.Key_A, Qt.KeyboardModifier.AltModifier)  # &Ask the model
    wait_for(qtbot, lambda: diffs.key in {g.key for g in trust.report.duplicates})  # type: ignore[union-attr]
    assert trust.report is not None
    [judged] = [g for g in trust.report.duplicates if g.key == diffs.key]
    assert (judged.judged_by, judged.reason) == (
        "judge-1.q4",
        "both: small diffs, no reformatting",
    )
    assert diffs.key not in {g.key for g in trust.report.duplicate_candidates}
    assert provider.calls == 1  # the candidate's pairs, with the controls every judge answers
    assert titles(trust)[0] == f"Said twice · {len(report.duplicates) + 1}"
    assert panel.select_found(finding_key(diffs))
    assert "judge-1.q4: both: small diffs" in panel.why.text()
    assert panel.combine_button.isEnabled()  # a finding now: its actions, each reviewed first
