"""Nothing is acted on unseen (issue 94 point 1), in the window on the demo: Combine of a rule
said in other words opens a review that takes nothing out (the member left as it is, Combine
off); Take the line out shows the secret's file as it will be — its line redacted — before
anything is written, and Edit → Undo brings the line back."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from gui.memory_tree_support import (
    WindowFactory,
    action,
    model_confirmed,
    trust_looked,
    trust_review,
    wait_for,
)
from memtab.components.trust.compare import finding_key
from memtab.demo import MAIN_ID
from memtab.gui.first_paint.main_window import MainWindow
from memtab.gui.trust.feature import TrustFeature
from memtab.store.home import Home
from memtab.trust.duplicates.records import DuplicateGroup
from support.demo_homes import copied_demo_home

make_window = support.make_window

PASSWORD_AT = "acme:"
FLAKY = "`test_refresh_rotation`"  # what precedes the password in the demo's database URL


@pytest.fixture
def demo(tmp_path: Path) -> Home:
    return copied_demo_home(tmp_path / "demo")


def looked_at(
    qtbot: QtBot, make_window: WindowFactory, demo: Home
) -> tuple[MainWindow, TrustFeature]:
    window, trust = trust_looked(qtbot, make_window, demo, MAIN_ID)
    trust.open_panel()
    return window, trust


def flaky(group: DuplicateGroup) -> bool:
    return group.kind == "rule" and any(FLAKY in m.text for m in group.members)


def test_combine_of_a_rule_said_in_other_words_takes_nothing_out(
    qtbot: QtBot, make_window: WindowFactory, demo: Home, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two lines about one flaky test, said in other words in mux's and Claude Code's memory
    of the project — a candidate the user's model confirmed: Combine takes neither out
    unseen (the issue's "Keep commits small…", taken out of Claude Code's memory)."""
    model_confirmed(monkeypatch, flaky)
    window, trust = looked_at(qtbot, make_window, demo)
    assert trust.report is not None
    [group] = [g for g in trust.report.duplicates if flaky(g)]
    before = [Path(p).read_bytes() for p in sorted(str(f) for f in demo.root.rglob("*.md"))]
    panel = trust.panel
    assert panel.select_found(finding_key(group))
    qtbot.keyClick(panel.tree, Qt.Key.Key_B, Qt.KeyboardModifier.AltModifier)  # Com&bine into…
    review = trust_review(qtbot, trust)
    assert "takes nothing out" in review.summary.text()
    assert not review.accept_button.isEnabled()
    assert any(
        re.search(r"keeps line \d+: says it in other words$", row) for row in review.file_rows()
    )
    qtbot.keyClick(review, Qt.Key.Key_O, Qt.KeyboardModifier.AltModifier)  # off: nothing
    qtbot.keyClick(review, Qt.Key.Key_Escape)
    wait_for(qtbot, lambda: trust.review is None)
    assert not trust.busy
    after = [Path(p).read_bytes() for p in sorted(str(f) for f in demo.root.rglob("*.md"))]
    assert after == before
    wait_for(qtbot, lambda: window.focusWidget() is panel.tree)


def test_take_the_line_out_shows_the_secret_s_line_redacted_before_it_goes(
    qtbot: QtBot, make_window: WindowFactory, demo: Home
) -> None:
    window, trust = looked_at(qtbot, make_window, demo)
    assert trust.report is not None
    [leak] = [x for x in trust.report.leaks if x.kind == "secret"]
    [memory] = [p for p in demo.root.rglob("reference_local-services.md")]
    text = memory.read_text()
    assert PASSWORD_AT in text
    panel = trust.panel
    assert panel.select_found(finding_key(leak))
    qtbot.keyClick(panel.tree, Qt.Key.Key_T, Qt.KeyboardModifier.AltModifier)  # &Take the line out
    review = trust_review(qtbot, trust)
    assert review.file_rows() == [
        f"reference_local-services.md — Claude Code, project {leak.place.project} — loses line "
        f"{leak.place.line} (the secret's)"
    ]
    shown = review.diff.text
    assert "[REDACTED_SECRET]" in shown and text.split(PASSWORD_AT)[1][:8] not in shown
    assert memory.read_text() == text  # nothing yet
    qtbot.keyClick(review, Qt.Key.Key_T, Qt.KeyboardModifier.AltModifier)
    wait_for(qtbot, lambda: PASSWORD_AT not in memory.read_text())
    lines = text.splitlines(keepends=True)
    assert memory.read_text() == "".join(lines[: leak.place.line - 1] + lines[leak.place.line :])  # type: ignore[operator]
    wait_for(qtbot, lambda: not trust.busy)
    action(window, "files.undo").trigger()
    wait_for(qtbot, lambda: memory.read_text() == text)
