"""Trust → Combine on the demo's two testing notes, which share half their lines (issue 81
point 2): a review opens with the better-described, more-used file kept and every line of
both in the text to keep; nothing changes until it is accepted; Ctrl+Z brings the other
file back exactly, usage and pins included, and the kept file's text."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from gui.memory_tree_support import (
    WindowFactory,
    action,
    model_confirmed,
    wait_for,
    wait_for_look,
)
from memtab.components.trust.compare import finding_key
from memtab.demo import MAIN_ID, acme_api
from memtab.gui.first_paint.main_window import MainWindow
from memtab.gui.trust.feature import TrustFeature
from memtab.gui.trust.panel import FOUND_ROLE
from memtab.gui.trust.review import ChangesReview
from memtab.gui.window import keys
from memtab.store.home import Home
from memtab.store.sidecars.meta import MetaStore, project_key
from memtab.trust.duplicates.records import DuplicateGroup
from support.demo_homes import copied_demo_home

make_window = support.make_window

RERUN = "- Use `pytest --lf` to rerun only the last failures."
FLAKY = "- Flaky test `test_refresh_rotation` fails when the clock crosses a second boundary"


@pytest.fixture
def demo(tmp_path: Path) -> Home:
    return copied_demo_home(tmp_path / "demo")


def looked_at(
    qtbot: QtBot, make_window: WindowFactory, demo: Home, monkeypatch: pytest.MonkeyPatch
) -> tuple[MainWindow, TrustFeature, DuplicateGroup]:
    """The demo's window once Trust looked, and its two testing notes, said twice: a
    rewording, a candidate the user's model confirmed (issue 94)."""
    model_confirmed(monkeypatch, lambda g: any(m.path.endswith("test-tips.md") for m in g.members))
    window = make_window(demo, MAIN_ID)
    window.show()
    trust = window.part(keys.TRUST)
    trust.find_now()
    wait_for_look(qtbot, trust)
    assert trust.report is not None
    [group] = [
        g
        for g in trust.report.duplicates
        if g.kind == "reworded" and any(m.path.endswith("test-tips.md") for m in g.members)
    ]
    return window, trust, group


def test_combine_reviews_the_combined_text_and_ctrl_z_brings_the_other_file_back(
    qtbot: QtBot, make_window: WindowFactory, demo: Home, monkeypatch: pytest.MonkeyPatch
) -> None:
    testing = demo.project_root(acme_api(demo)) / "testing.md"
    tips = demo.project_root(acme_api(demo)) / "test-tips.md"
    before = testing.read_text(), tips.read_text()
    meta = MetaStore(demo)
    usage_before = [
        meta.load().get(project_key(acme_api(demo), n)) for n in ("testing.md", "test-tips.md")
    ]
    window, trust, group = looked_at(qtbot, make_window, demo, monkeypatch)
    trust.open_panel()
    panel = trust.panel
    said_twice = panel.tree.topLevelItem(0)
    assert said_twice is not None
    row = next(
        said_twice.child(i)
        for i in range(said_twice.childCount())
        if said_twice.child(i).data(0, FOUND_ROLE) == group
    )
    panel.tree.setCurrentItem(row)
    qtbot.mouseClick(panel.combine_button, Qt.MouseButton.LeftButton)
    wait_for(qtbot, lambda: trust.review is not None and trust.review.isVisible())
    review = trust.review
    assert isinstance(review, ChangesReview)
    assert review.keep.currentText().startswith("testing.md")  # described, used 12×
    assert "used 12×" in review.keep.currentText()
    text = review.text()
    assert text is not None
    assert RERUN in text and FLAKY in text and text.startswith(before[0])
    assert (testing.read_text(), tips.read_text()) == before  # nothing changed yet

    qtbot.keyClick(review, Qt.Key.Key_O, Qt.KeyboardModifier.AltModifier)  # C&ombine
    wait_for(qtbot, lambda: trust.review is None)
    wait_for(qtbot, lambda: not tips.exists() and RERUN in testing.read_text())
    wait_for(qtbot, lambda: not trust.busy)
    action(window, "files.undo").trigger()
    wait_for(qtbot, lambda: tips.exists() and testing.read_text() == before[0])
    assert tips.read_text() == before[1]
    assert [
        meta.load().get(project_key(acme_api(demo), n)) for n in ("testing.md", "test-tips.md")
    ] == (usage_before)  # the kept file's uses as they were; the other had none, and has none
    assert usage_before[0] is not None and usage_before[1] is None


def test_cancel_changes_nothing_and_the_keyboard_is_back_on_the_group_s_row(
    qtbot: QtBot, make_window: WindowFactory, demo: Home, monkeypatch: pytest.MonkeyPatch
) -> None:
    testing = demo.project_root(acme_api(demo)) / "testing.md"
    before = testing.read_text()
    window, trust, group = looked_at(qtbot, make_window, demo, monkeypatch)
    trust.open_panel()
    panel = trust.panel
    assert panel.select_found(finding_key(group))
    qtbot.mouseClick(panel.combine_button, Qt.MouseButton.LeftButton)  # the keyboard on it
    wait_for(qtbot, lambda: trust.review is not None and trust.review.isVisible())
    review = trust.review
    assert review is not None
    review.view.merged.setPlainText("everything else gone")
    qtbot.keyClick(review, Qt.Key.Key_Escape)
    wait_for(qtbot, lambda: trust.review is None)
    assert not trust.busy and testing.read_text() == before
    assert (demo.project_root(acme_api(demo)) / "test-tips.md").exists()
    wait_for(qtbot, lambda: window.focusWidget() is panel.tree)
    assert panel.selected() == group
