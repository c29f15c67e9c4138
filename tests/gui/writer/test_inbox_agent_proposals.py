"""Agents' proposals (`memtab mcp --writes inbox`) in the window's Inbox: they arrive live
(the workspace's, and the global ones of a server with no workspace), show who proposed
what, and accepting one writes it through the memory tool as the client's change."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from gui.memory_tree_support import WAIT_MS, WindowFactory, wait_watching
from memtab.gui.first_paint.main_window import MainWindow
from memtab.gui.writer.inbox_panel import InboxPanel, details_html, row_tag
from memtab.store.home import Home
from memtab.store.proposals.queue import ProposalQueue, ToolCall
from memtab.store.restore.from_history import file_history
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.registry import load_registry
from support.memory_home import MAIN

home = support.home
make_window = support.make_window

GLOBAL_NOTE = "/memories/global/from-codex.md"
NOTES = "/memories/workspace/notes.md"


def panel_of(window: MainWindow) -> InboxPanel:
    return window.memory_tab.inbox


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
    assert row_tag(codex) == "codex-cli create"
    assert f"Changes {GLOBAL_NOTE}" in details_html(codex)
    assert "insert_line=0" in details_html(by_source["mcp:claude-code"])

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
    versions = file_history(MemoryStore(home, workspace), GLOBAL_NOTE)
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
