"""The Inbox's "Accept into:" chooser: each item proposes the memory it belongs in (a preference
in global memory, a project fact in the project's, the environment in the workspace's
notes), and the user may accept it into another file — a project or a global one."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from gui.memory_tree_support import WAIT_MS, WindowFactory, choose_target
from memtab.gui.writer.inbox_body import NOTHING_SELECTED
from memtab.gui.writer.inbox_panel import InboxPanel
from memtab.store.home import Home
from memtab.store.proposals.queue import ProposalQueue, ToolCall
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.registry import load_registry
from memtab.writer.inbox.targets import GLOBAL_NOTES, PROJECT_NOTES
from support.memory_home import MAIN
from support.memory_paths import vpath

pytestmark = pytest.mark.no_background_runs  # no writer, no check at start: none is tested here

home = support.home
make_window = support.make_window

FIXTURES = Path(__file__).parents[2] / "fixtures" / "harvest"
HARVEST_NAME = "summary-9f2c1e.md"
CONVENTIONS = "/memories/project/conventions.md"


def select_rows(panel: InboxPanel, *rows: int) -> None:
    panel.list.clearSelection()
    for row in rows:
        panel.list.item(row).setSelected(True)  # type: ignore[union-attr]


def entries(panel: InboxPanel) -> list[str]:
    combo = panel.target.combo
    return [combo.itemText(index) for index in range(combo.count())]


def test_each_item_proposes_its_memory_and_the_user_may_choose_another(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    workspace = load_registry(home).require_workspace(MAIN)
    store = MemoryStore(home, workspace)
    store.save(vpath(CONVENTIONS), "# Conventions\n", None)
    folder = home.workspace_root(MAIN) / "harvest"
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(FIXTURES / HARVEST_NAME, folder / HARVEST_NAME)
    window = make_window(home, start_writer=False)
    panel = window.memory_tab.controller.inbox
    qtbot.waitUntil(lambda: len(panel.items) == 3, timeout=WAIT_MS)
    assert not panel.target.combo.isEnabled()  # nothing selected
    assert panel.target.combo.placeholderText() == NOTHING_SELECTED
    assert panel.target.combo.currentIndex() == -1  # so the placeholder is what shows
    select_rows(panel, 0)
    assert panel.target.combo.currentText() == "global/notes.md (proposed)"
    assert "preference" in panel.target.combo.toolTip()
    assert "Why there:" in panel.details.toPlainText()
    qtbot.waitUntil(  # listed off the GUI thread from the tab's scan
        lambda: CONVENTIONS.removeprefix("/memories/") in entries(panel), timeout=WAIT_MS
    )
    assert not any("harvest/" in entry for entry in entries(panel))
    select_rows(panel, 0, 1, 2)
    assert panel.target.combo.currentText() == "Where each belongs (proposed)"
    with qtbot.waitSignal(panel.status_message, timeout=WAIT_MS) as said:
        panel.accept_button.click()
    assert said.args[0] == (  # where each went, in the order of the list
        f"Accepted 3 memories: 1 into {GLOBAL_NOTES}, 1 into {PROJECT_NOTES}, "
        "1 into /memories/workspace/notes.md"
    )
    assert "plain asserts" in store.read_text(vpath(GLOBAL_NOTES))
    assert "make migrate" in store.read_text(vpath(PROJECT_NOTES))
    assert "8081" in store.read_text(vpath("/memories/workspace/notes.md"))

    ProposalQueue(home, workspace).propose(
        ToolCall("create", {"path": "/memories/workspace/a.md", "file_text": "A fact.\n"}),
        client="codex-cli",
    )
    shutil.copyfile(FIXTURES / HARVEST_NAME, folder / HARVEST_NAME)
    qtbot.waitUntil(lambda: len(panel.items) == 4, timeout=WAIT_MS)
    select_rows(panel, 3)  # an agent's change writes the file it names
    assert not panel.target.combo.isEnabled()
    assert panel.target.combo.currentText() == "workspace/a.md"
    select_rows(panel, 1)
    choose_target(qtbot, panel, CONVENTIONS)
    panel.list.setFocus()
    panel.reload()  # read again (the watcher does): the user's choice stays
    qtbot.waitUntil(lambda: not panel.busy, timeout=WAIT_MS)
    assert panel.target.chosen == CONVENTIONS
    assert panel.selected_ids() == [panel.items[1].id]
    with qtbot.waitSignal(panel.status_message, timeout=WAIT_MS) as said:
        panel.accept_button.click()
    assert said.args[0] == f"Accepted 1 memory into {CONVENTIONS}"
    assert "make migrate" in store.read_text(vpath(CONVENTIONS))
