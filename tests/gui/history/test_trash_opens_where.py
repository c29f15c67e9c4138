"""One Recently deleted opens where the deletions are (issue 74 point 4): View →
Recently deleted shows everything, the newest deletion selected; the tree's own is named
by its scope ("Recently deleted in Global…"), and a scope that lost nothing says where
the deletions went — it said "Nothing was deleted here" right after six were deleted in
another."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from gui.memory_tree_support import WindowFactory, wait_for
from memtab.components.tree.nodes import SectionId, section_key
from memtab.gui.history.trash_dialog import ROW_ROLE, TrashDialog
from memtab.gui.tasks.jobs import JobService
from memtab.store.home import Home
from memtab.store.paths import Scope
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.registry import load_registry
from support.memory_home import MAIN
from support.memory_paths import vpath

home = support.home
make_window = support.make_window

DELETED = ("/memories/project/architecture.md", "/memories/project/decisions/db.md")


def store_with_deletions(home: Home) -> MemoryStore:
    store = MemoryStore(home, load_registry(home).require_workspace(MAIN))
    for path in DELETED:
        store.delete(vpath(path))
    return store


def test_everything_opens_on_the_newest_deletion(
    qtbot: QtBot, home: Home, jobs: JobService
) -> None:
    store = store_with_deletions(home)
    trash = TrashDialog(jobs)
    qtbot.addWidget(trash)
    trash.show_store(store, sources=())
    wait_for(qtbot, lambda: trash.files.currentItem() is not None)
    assert trash.scope_filter.currentText() == "Everything"
    current = trash.files.currentItem()
    assert current is not None and DELETED[1] in str(current.data(0, ROW_ROLE))
    trash.shutdown()


def test_a_scope_that_lost_nothing_says_where_the_deletions_are(
    qtbot: QtBot, home: Home, jobs: JobService
) -> None:
    store = store_with_deletions(home)
    trash = TrashDialog(jobs)
    qtbot.addWidget(trash)
    trash.show_store(store, Scope.GLOBAL, sources=())
    wait_for(qtbot, lambda: bool(trash.note.full_text))
    assert trash.note.full_text == (
        "Nothing was deleted in Global; 2 files were elsewhere — Everything shows them."
    )
    trash.shutdown()


def test_the_trees_recently_deleted_is_named_by_its_scope(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window = make_window(home)
    actions = window.context.actions
    window.memory_tab.controller.editor_link.select_key(
        section_key(SectionId.GLOBAL), open_it=False
    )
    wait_for(qtbot, lambda: window.memory_tab.tree.current_node() is not None)
    actions.refresh()
    named = {
        entry.action.text()
        for entry in actions.entries()
        if entry.action.isEnabled() and "deleted" in entry.action.text().lower()
    }
    assert named == {"Recently &deleted…", "Recently deleted in Global…"}
    window.memory_tab.controller.editor_link.select_key(
        section_key(SectionId.ORPHANS), open_it=False
    )
    actions.refresh()
    assert not actions.action("tree.trash").isEnabled()  # no scope of mux's selected
