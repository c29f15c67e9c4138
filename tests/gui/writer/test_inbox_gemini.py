"""Gemini CLI's memory patches in the window's Inbox (docs/formats.md §17.7): one its
extraction writes while the window is open arrives at once, its review is what it would
write to each file, Accept applies it as Gemini CLI's `/memory inbox` does and the tree
and editor follow; an invalid one offers only Reject."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from gui.memory_tree_support import WAIT_MS, WindowFactory, wait_watching
from memtab.gui.first_paint.main_window import MainWindow
from memtab.gui.writer.inbox_panel import InboxPanel
from memtab.store.home import Home
from memtab.store.sidecars.registry import add_workspace
from support.gemini_home import GeminiHome, build_gemini_home

pytestmark = pytest.mark.no_background_runs  # no writer, no check at start: none is tested here

make_window = support.make_window
WORKSPACE = "g1h2i3j4k5"


def panel_of(window: MainWindow) -> InboxPanel:
    return window.memory_tab.controller.inbox


def select(panel: InboxPanel, starts: str) -> str:
    panel.list.clearSelection()
    for row in range(panel.list.count()):
        item = panel.list.item(row)
        if item is not None and item.text().startswith(starts):
            item.setSelected(True)
    (chosen,) = panel.selected_ids()
    return chosen


def shows(panel: InboxPanel, starts: str) -> bool:
    """Whether the list shows a row starting `starts` (it follows `panel.items` a beat later)."""
    rows = (panel.list.item(row) for row in range(panel.list.count()))
    return any(item is not None and item.text().startswith(starts) for item in rows)


def window_with_a_patch(
    make_window: WindowFactory, tmp_path: Path, patch: Callable[[GeminiHome], str]
) -> tuple[MainWindow, GeminiHome]:
    """A window on a workspace whose Gemini CLI project's private inbox holds the one
    patch `patch` writes for its Gemini home."""
    project = tmp_path / "src" / "acme-api"
    home = Home(tmp_path / "home")
    gemini = build_gemini_home(Path.home(), project, patches=False)
    gemini.inbox("private").mkdir(parents=True)
    (gemini.inbox("private") / "extraction.patch").write_text(patch(gemini))
    add_workspace(home, str(project), "main", workspace_id=WORKSPACE, workspace_path=str(project))
    return make_window(home, WORKSPACE), gemini


def test_a_patch_arrives_live_is_reviewed_as_it_would_write_and_accepted(
    qtbot: QtBot, make_window: WindowFactory, tmp_path: Path
) -> None:
    project = tmp_path / "src" / "acme-api"
    home = Home(tmp_path / "home")
    gemini = build_gemini_home(Path.home(), project, patches=False)
    add_workspace(home, str(project), "main", workspace_id=WORKSPACE, workspace_path=str(project))
    window = make_window(home, WORKSPACE)
    qtbot.waitUntil(lambda: window.memory_tab.is_sources_loaded, timeout=WAIT_MS)
    wait_watching(qtbot, window)
    panel = panel_of(window)
    assert panel.items == ()

    gemini.inbox("private").mkdir(parents=True)  # Gemini CLI's extraction writes its patch
    (gemini.inbox("private") / "extraction.patch").write_text(gemini.private_patch())

    qtbot.waitUntil(lambda: shows(panel, "Gemini patch · Private memory"), timeout=WAIT_MS)
    item_id = select(panel, "Gemini patch · Private memory")
    review = panel.review
    qtbot.waitUntil(
        lambda: review.shown_id == item_id and "Changes 2 files" in review.heading.text(),
        timeout=WAIT_MS,
    )
    assert "deploy-checklist.md (new, 3 lines); MEMORY.md (1 line added)" in review.heading.text()
    assert not panel.edit_button.isEnabled() and panel.accept_button.isEnabled()
    assert panel.target.combo.currentText() == "Gemini CLI · deploy-checklist.md"  # not its id
    with qtbot.waitSignal(panel.status_message, timeout=WAIT_MS) as said:
        panel.accept_button.click()
    assert said.args == ["Applied memory patch to 2 files."]
    qtbot.waitUntil(lambda: panel.items == (), timeout=WAIT_MS)
    assert (gemini.memory / "deploy-checklist.md").is_file()
    assert not (gemini.inbox("private") / "extraction.patch").exists()
    tree = window.memory_tab.model
    qtbot.waitUntil(
        lambda: any(n.name == "deploy-checklist.md" for n in tree.nodes()), timeout=WAIT_MS
    )


def test_an_invalid_patch_says_why_and_offers_only_reject(
    qtbot: QtBot, make_window: WindowFactory, tmp_path: Path
) -> None:
    window, gemini = window_with_a_patch(
        make_window, tmp_path, lambda _gemini: "--- /dev/null\n+++ notes.md\n"
    )
    panel = panel_of(window)
    qtbot.waitUntil(lambda: len(panel.items) == 1, timeout=WAIT_MS)

    item_id = select(panel, "Gemini patch (invalid)")

    review = panel.review
    qtbot.waitUntil(
        lambda: review.shown_id == item_id and "hunks" in review.heading.text(), timeout=WAIT_MS
    )
    assert not panel.accept_button.isEnabled() and panel.reject_button.isEnabled()
    with qtbot.waitSignal(panel.status_message, timeout=WAIT_MS):
        panel.reject_button.click()
    qtbot.waitUntil(lambda: panel.items == (), timeout=WAIT_MS)
    assert not (gemini.inbox("private") / "extraction.patch").exists()


def test_a_patch_of_3000_context_lines_is_reviewed_at_once(
    qtbot: QtBot, make_window: WindowFactory, tmp_path: Path
) -> None:
    """Selecting a patch whose 3,000 context lines fit nowhere in an 80 KB `MEMORY.md`
    (issue 81 point 10: its review ran 40 s on a worker, and went on once deselected)
    says at once why it cannot be applied; deselecting it drops its review."""

    def nowhere(gemini: GeminiHome) -> str:
        index = gemini.memory / "MEMORY.md"
        index.write_text("# Project Memory\n\n" + "\n" * 80_000)
        body = "\n".join([" "] * 3000 + ["-- a line nowhere", "+- instead"])
        return f"--- {index}\n+++ {index}\n@@ -3,3001 +3,3001 @@\n{body}\n"

    window, _gemini = window_with_a_patch(make_window, tmp_path, nowhere)
    panel = panel_of(window)
    qtbot.waitUntil(lambda: len(panel.items) == 1, timeout=WAIT_MS)

    item_id = select(panel, "Gemini patch · Private memory")

    review = panel.review
    qtbot.waitUntil(
        lambda: review.shown_id == item_id and "does not apply cleanly" in review.heading.text(),
        timeout=5_000,  # well over what it takes; line by line it took 40 s
    )
    select(panel, "Gemini patch · Private memory")
    panel.list.clearSelection()
    assert review.isHidden()
    qtbot.waitUntil(lambda: not window.context.files.busy, timeout=5_000)
