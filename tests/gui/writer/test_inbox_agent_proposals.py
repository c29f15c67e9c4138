"""Agents' proposals (`memtab mcp --writes inbox`) in the window's Inbox: they arrive live
(the workspace's, and the global ones of a server with no workspace), show who proposed
what — and what each would write, diffed against its file now — and accepting one writes
it through the memory tool as the client's change, badged as its agent's."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from gui.memory_tree_support import WAIT_MS, WindowFactory, activate, wait_watching
from memtab.components.writer.inbox_view import details_html, row_tag
from memtab.gui.first_paint.main_window import MainWindow
from memtab.gui.writer.inbox_panel import InboxPanel
from memtab.store.home import Home
from memtab.store.proposals.queue import ProposalQueue, ToolCall
from memtab.store.restore.from_history import file_history
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.registry import load_registry
from support.memory_home import MAIN
from support.memory_paths import vpath

pytestmark = pytest.mark.no_background_runs  # no writer, no check at start: none is tested here

home = support.home
make_window = support.make_window

GLOBAL_NOTE = "/memories/global/from-codex.md"
NOTES = "/memories/workspace/notes.md"


def panel_of(window: MainWindow) -> InboxPanel:
    return window.memory_tab.controller.inbox


def test_proposals_arrive_live_and_accepting_one_writes_it_as_the_clients(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window = make_window(home)
    wait_watching(qtbot, window)
    panel = panel_of(window)
    workspace = load_registry(home).require_workspace(MAIN)
    ProposalQueue(home, None).propose(
        ToolCall("create", {"path": GLOBAL_NOTE, "file_text": "Use pnpm, never npm.\n"}),
        client="codex-cli",
    )
    ProposalQueue(home, workspace).propose(
        ToolCall("insert", {"path": NOTES, "insert_line": 0, "insert_text": "- one more"}),
        client="claude-code",
    )
    qtbot.waitUntil(lambda: len(panel.items) == 2, timeout=WAIT_MS)
    by_source = {item.source: item for item in panel.items}
    codex = by_source["mcp:codex-cli"]
    assert row_tag(codex) == "codex-cli create"  # a client Memtab does not know: its name
    assert row_tag(by_source["mcp:claude-code"]) == "Claude Code insert"
    assert f"Changes {GLOBAL_NOTE}" in details_html(codex)

    panel.list.clearSelection()
    for row in range(panel.list.count()):
        item = panel.list.item(row)
        if item is not None and codex.text.strip() in item.text():
            item.setSelected(True)
    assert panel.selected_ids() == [codex.id]
    with qtbot.waitSignal(panel.status_message, timeout=WAIT_MS):
        panel.accept_button.click()
    qtbot.waitUntil(lambda: len(panel.items) == 1, timeout=WAIT_MS)
    assert (home.global_root / "from-codex.md").read_text() == "Use pnpm, never npm.\n"
    versions = file_history(MemoryStore(home, workspace), vpath(GLOBAL_NOTE))
    assert [v.actor for v in versions] == ["mcp:codex-cli"]


def test_a_home_without_workspaces_shows_the_global_inbox(
    qtbot: QtBot, make_window: WindowFactory, tmp_path: Path
) -> None:
    bare = Home(tmp_path / "bare")
    bare.global_root.mkdir(parents=True)
    ProposalQueue(bare, None).propose(
        ToolCall("create", {"path": GLOBAL_NOTE, "file_text": "Use pnpm.\n"}), client="codex"
    )
    window = make_window(bare, None)
    panel = panel_of(window)
    qtbot.waitUntil(lambda: len(panel.items) == 1, timeout=WAIT_MS)
    panel.list.setCurrentRow(0)
    with qtbot.waitSignal(panel.status_message, timeout=WAIT_MS):
        panel.accept_button.click()
    qtbot.waitUntil(lambda: panel.items == (), timeout=WAIT_MS)
    assert (bare.global_root / "from-codex.md").read_text() == "Use pnpm.\n"


GIT = "/memories/global/tools/git.md"


def review_says(panel: InboxPanel, item_id: str) -> str:
    """The review's heading once the selected proposal's review came (off the GUI thread)."""
    review = panel.review
    ready = lambda: review.shown_id == item_id and review.diff.result is not None  # noqa: E731
    return review.heading.text() if ready() else ""


def test_the_review_is_built_with_the_first_proposal_selected_in_its_place(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    # No part of a window until an agent's proposal is selected; then under the list,
    # over the buttons, and next after the list for the keyboard.
    workspace = load_registry(home).require_workspace(MAIN)
    proposal = ProposalQueue(home, workspace).propose(
        ToolCall("create", {"path": GLOBAL_NOTE, "file_text": "Use pnpm.\n"}), client="codex"
    )
    window = make_window(home)
    activate(qtbot, window)
    panel = panel_of(window)
    qtbot.waitUntil(lambda: len(panel.items) == 1, timeout=WAIT_MS)
    assert panel.findChild(QWidget, "proposalReview") is None
    panel.list.setCurrentRow(0)
    qtbot.waitUntil(lambda: bool(review_says(panel, proposal.id)), timeout=WAIT_MS)
    review = panel.review
    assert panel.findChildren(QWidget, "proposalReview") == [review]
    qtbot.waitUntil(lambda: review.geometry().height() > 0, timeout=WAIT_MS)
    assert panel.list.geometry().bottom() < review.geometry().top()
    assert review.geometry().bottom() < panel.accept_button.geometry().top()
    chain, widget = [], panel.list.nextInFocusChain()
    while widget is not panel.accept_button and len(chain) < 10:
        chain.append(widget)
        widget = widget.nextInFocusChain()
    assert review.diff in chain


def test_a_proposal_is_reviewed_as_what_it_would_write(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    """Not the call flattened into one line: a replacement is the diff against the file
    now, a create the file whole, one the tool would refuse now says why; accepted by
    Enter, the file's badge names the agent (Codex's client is codex-mcp-client)."""
    workspace = load_registry(home).require_workspace(MAIN)
    queue = ProposalQueue(home, workspace)
    client = "codex-mcp-client"
    replace = queue.propose(
        ToolCall("str_replace", {"path": GIT, "old_str": "never merge", "new_str": "then merge"}),
        client=client,
    )
    create = queue.propose(
        ToolCall("create", {"path": GLOBAL_NOTE, "file_text": "# pnpm\n\nUse pnpm.\n"}),
        client=client,
    )
    gone = queue.propose(
        ToolCall("str_replace", {"path": GIT, "old_str": "Squash", "new_str": "x"}), client=client
    )
    window = make_window(home)
    activate(qtbot, window)
    wait_watching(qtbot, window)
    panel = panel_of(window)
    qtbot.waitUntil(lambda: len(panel.items) == 3, timeout=WAIT_MS)
    rows = {item.id: row for row, item in enumerate(panel.items)}
    said = {}
    for proposal in (replace, create, gone):
        panel.list.setCurrentRow(rows[proposal.id])
        qtbot.waitUntil(lambda p=proposal: bool(review_says(panel, p.id)), timeout=WAIT_MS)
        said[proposal.id] = (review_says(panel, proposal.id), panel.review.diff.toPlainText())
    heading, diff = said[replace.id]
    assert "Codex via Memtab MCP · str_replace" in heading
    assert f"Changes {GIT}: 1 line added, 1 removed" in heading
    assert "- Rebase, never merge." in diff and "+ Rebase, then merge." in diff
    heading, diff = said[create.id]
    assert f"Creates {GLOBAL_NOTE} (3 lines)" in heading and "+ Use pnpm." in diff
    heading, _diff = said[gone.id]
    assert (
        f"Cannot be applied now: No replacement was performed: old_str was not found in {GIT}"
        in (heading)
    )
    assert not panel.details.isVisible()  # who proposed it is the review's first line

    panel.list.setCurrentRow(rows[replace.id])
    panel.list.setFocus()
    with qtbot.waitSignal(panel.status_message, timeout=WAIT_MS):
        qtbot.keyClick(panel.list, Qt.Key.Key_Return)
    physical = str(home.global_root / "tools" / "git.md")
    marks = window.memory_tab.controller.marks
    qtbot.waitUntil(lambda: physical in marks.badges, timeout=WAIT_MS)
    assert marks.badges[physical].label == "codex"
    versions = file_history(MemoryStore(home, workspace), vpath(GIT))
    assert versions[0].actor == "mcp:codex-mcp-client"
