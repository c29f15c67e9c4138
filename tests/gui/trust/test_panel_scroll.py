"""The row the keys are on stays in sight in the Trust panel: picking a candidate (End, at
683 px) adds a second line under the list ("The words only suspect it…") and the Ask
button, the list shrinks after it scrolled, and the row was half hidden below its edge."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from pytestqt.qtbot import QtBot

from memtab.components.jobs import JobContext
from memtab.components.trust.jobs import WindowTrust
from memtab.gui.trust.panel import TrustPanel
from memtab.trust.report import TrustReport
from support.demo_homes import copied_demo_home


def test_the_last_candidate_picked_by_end_is_wholly_in_sight(qtbot: QtBot, tmp_path: Path) -> None:
    report = WindowTrust(copied_demo_home(tmp_path / "demo")).find(JobContext.standalone())
    assert isinstance(report, TrustReport) and report.duplicate_candidates
    panel = TrustPanel()
    qtbot.addWidget(panel)
    panel.resize(683, 200)
    panel.set_report(report)
    panel.show()
    qtbot.waitExposed(panel)
    tree = panel.tree
    tree.setFocus()
    tree.setCurrentItem(tree.topLevelItem(0))  # a finding: one line under the list
    QTest.keyClick(tree, Qt.Key.Key_End)  # the last candidate: two lines and Ask
    qtbot.waitUntil(lambda: panel.ask_button.isVisible())
    current = tree.currentItem()
    assert panel.selected_is_candidate() and current is not None
    qtbot.wait(50)  # the layout the longer text asked for
    row = tree.visualItemRect(current)
    assert tree.viewport().rect().contains(row), (row, tree.viewport().rect())
