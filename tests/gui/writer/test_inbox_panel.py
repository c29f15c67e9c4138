"""The Inbox in the Memory tab: mux's harvest candidates and the offline writer's
suggestions for the shown workspace, accepted (as they are or edited), rejected, and kept
live by the watcher."""

from __future__ import annotations

import shutil
import threading
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QDialog, QLabel
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from gui.memory_tree_support import WAIT_MS, WindowFactory, choose_target, wait_watching
from memtab.components.tree.nodes import file_key
from memtab.gui.first_paint.main_window import MainWindow
from memtab.gui.writer import inbox_panel
from memtab.gui.writer.inbox_body import EditProposalDialog
from memtab.gui.writer.inbox_panel import InboxPanel
from memtab.store.home import Home
from memtab.store.paths import parse_file_path
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.registry import load_registry
from memtab.writer.inbox.suggestions import SuggestionQueue
from memtab.writer.inbox.targets import PROJECT_NOTES
from memtab.writer.offline.notes import Note
from support.memory_home import ARCHIVED, MAIN
from support.memory_paths import vpath

pytestmark = pytest.mark.no_background_runs  # no writer, no check at start: none is tested here

home = support.home
make_window = support.make_window

NOTES = "/memories/workspace/notes.md"


def propose(home: Home, workspace_id: str, *texts: str) -> None:
    SuggestionQueue(home, workspace_id).propose(
        [Note("Directives", text) for text in texts], memory_path=NOTES
    )


def panel_of(window: MainWindow) -> InboxPanel:
    return window.memory_tab.controller.inbox


def shown(window: MainWindow) -> list[str]:
    return [i.text for i in panel_of(window).items]


def select(panel: InboxPanel, *texts: str) -> None:
    ids = {i.id for i in panel.items if i.text in texts}
    panel.list.clearSelection()
    for row in range(panel.list.count()):
        item = panel.list.item(row)
        if item is not None and item.data(Qt.ItemDataRole.UserRole + 1) in ids:
            item.setSelected(True)


def notes_text(home: Home, path: str = NOTES) -> str:
    return MemoryStore(home, load_registry(home).require_workspace(MAIN)).read_text(vpath(path))


def test_the_panel_lists_the_workspaces_suggestions_read_off_the_gui_thread(
    qtbot: QtBot, make_window: WindowFactory, home: Home, monkeypatch: pytest.MonkeyPatch
) -> None:
    propose(home, MAIN, "Always use pnpm.", "Never push to main.")
    propose(home, ARCHIVED, "Only in the old workspace.")
    threads: list[threading.Thread] = []
    real = inbox_panel.load_pending

    def recording(*args: object) -> object:
        threads.append(threading.current_thread())
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(inbox_panel, "load_pending", recording)
    window = make_window(home)
    panel = panel_of(window)
    qtbot.waitUntil(lambda: shown(window) == ["Always use pnpm.", "Never push to main."])
    assert threads and all(t is not threading.main_thread() for t in threads)
    assert panel.isVisibleTo(window.memory_tab)
    assert panel.toggle.text() == "Inbox (2)"
    window.memory_tab.switch_workspace(ARCHIVED)
    qtbot.waitUntil(lambda: shown(window) == ["Only in the old workspace."], timeout=WAIT_MS)


def test_a_workspace_without_suggestions_shows_no_panel(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window = make_window(home)
    qtbot.waitUntil(lambda: not panel_of(window).busy, timeout=WAIT_MS)
    assert not panel_of(window).isVisibleTo(window.memory_tab)


def test_accepting_writes_the_notes_file_and_the_tree_shows_it(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    propose(home, MAIN, "Always use pnpm.", "Never push to main.")
    window = make_window(home)
    wait_watching(qtbot, window)
    panel = panel_of(window)
    qtbot.waitUntil(lambda: len(shown(window)) == 2, timeout=WAIT_MS)
    tab = window.memory_tab
    key = file_key(parse_file_path(NOTES))
    size_before = tab.model.node_for_key(key).size_bytes  # type: ignore[union-attr]
    select(panel, "Always use pnpm.")
    assert panel.target.combo.currentText() == "project/notes.md (proposed)"
    choose_target(qtbot, panel, NOTES)  # the user's choice: this workspace's notes
    with qtbot.waitSignal(panel.status_message, timeout=WAIT_MS) as said:
        panel.accept_button.click()
    assert said.args[0] == f"Accepted 1 memory into {NOTES}"
    assert "- Always use pnpm." in notes_text(home)
    assert "Never push" not in notes_text(home)
    qtbot.waitUntil(lambda: shown(window) == ["Never push to main."], timeout=WAIT_MS)
    qtbot.waitUntil(
        lambda: tab.model.node_for_key(key).size_bytes > size_before,  # type: ignore[union-attr]
        timeout=WAIT_MS,
    )
    assert str(home.workspace_root(MAIN) / "notes.md") not in tab.agent_edited  # the user's


def test_edit_then_accept_writes_the_edited_text(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    propose(home, MAIN, "Always use pnpm.")
    window = make_window(home)
    panel = panel_of(window)
    qtbot.waitUntil(lambda: len(shown(window)) == 1, timeout=WAIT_MS)

    def answer(dialog: QDialog) -> int:
        assert isinstance(dialog, EditProposalDialog)
        assert dialog.text == "Always use pnpm."
        assert "Goes to /memories/project/notes.md" in dialog.findChild(QLabel).text()  # type: ignore[union-attr]
        dialog.text_edit.setPlainText("Always use pnpm 9, never npm.")
        return 1

    panel.exec_dialog = answer  # type: ignore[method-assign]
    select(panel, "Always use pnpm.")
    assert panel.edit_button.isEnabled()
    panel.edit_button.click()
    qtbot.waitUntil(lambda: shown(window) == [], timeout=WAIT_MS)
    assert "- Always use pnpm 9, never npm." in notes_text(home, PROJECT_NOTES)
    assert not panel.isVisibleTo(window.memory_tab)


def test_dismissed_suggestions_go_and_are_not_written(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    propose(home, MAIN, "Always use pnpm.", "Never push to main.")
    window = make_window(home)
    panel = panel_of(window)
    qtbot.waitUntil(lambda: len(shown(window)) == 2, timeout=WAIT_MS)
    select(panel, "Always use pnpm.", "Never push to main.")
    assert not panel.edit_button.isEnabled()  # one at a time
    panel.reject_button.click()
    qtbot.waitUntil(lambda: shown(window) == [], timeout=WAIT_MS)
    assert "pnpm" not in notes_text(home)
    statuses = {s.status for s in SuggestionQueue(home, MAIN).all()}
    assert statuses == {"dismissed"}


def test_suggestions_made_elsewhere_show_up_live(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window = make_window(home)
    wait_watching(qtbot, window)
    assert shown(window) == []
    propose(home, MAIN, "Run `make test` before pushing.")  # the writer, the CLI…
    qtbot.waitUntil(lambda: shown(window) == ["Run `make test` before pushing."], timeout=WAIT_MS)
    SuggestionQueue(home, MAIN).dismiss([panel_of(window).items[0].id])
    qtbot.waitUntil(lambda: shown(window) == [], timeout=WAIT_MS)


def test_reload_from_disk_reads_the_inbox_again_when_the_watch_missed_a_change(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window = make_window(home)
    wait_watching(qtbot, window)
    window.watcher.stop()  # as when the watch misses a change (inotify's limit, a network drive)
    propose(home, MAIN, "Run `make test` before pushing.")
    window.context.actions.action("tree.reload").trigger()  # F5
    qtbot.waitUntil(lambda: shown(window) == ["Run `make test` before pushing."], timeout=WAIT_MS)


def test_a_failed_accept_says_why_and_keeps_the_suggestion(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    propose(home, MAIN, "Always use pnpm.")
    window = make_window(home)
    panel = panel_of(window)
    qtbot.waitUntil(lambda: len(shown(window)) == 1, timeout=WAIT_MS)
    SuggestionQueue(home, MAIN).dismiss([panel.items[0].id])  # decided meanwhile
    select(panel, "Always use pnpm.")
    with qtbot.waitSignal(panel.status_message, timeout=WAIT_MS) as said:
        panel.accept_button.click()
    assert said.args[0].startswith("Could not accept: Nothing in the inbox")
    assert panel.error_label.isVisibleTo(panel)
    assert "pnpm" not in notes_text(home)


# --- mux's harvest ---------------------------------------------------------------------

HARVEST_FIXTURES = Path(__file__).parents[2] / "fixtures" / "harvest"
HARVEST_NAME = "summary-9f2c1e.md"


def harvest(home: Home) -> Path:
    """mux's harvest file in the main workspace, and the transcript its evidence names."""
    folder = home.workspace_root(MAIN) / "harvest"
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(HARVEST_FIXTURES / HARVEST_NAME, folder / HARVEST_NAME)
    shutil.copyfile(HARVEST_FIXTURES / "chat.jsonl", home.transcript_path(MAIN))
    return folder / HARVEST_NAME


def test_harvest_candidates_show_their_evidence_and_are_accepted_or_rejected(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    inbox_file = harvest(home)
    propose(home, MAIN, "Always use pnpm.")
    window = make_window(home, start_writer=False)  # the transcript would wake the writer
    panel = panel_of(window)
    qtbot.waitUntil(lambda: len(shown(window)) == 4, timeout=WAIT_MS)
    assert [i.kind for i in panel.items] == ["harvest"] * 3 + ["suggestion"]
    assert panel.toggle.text() == "Inbox (4)"
    assert panel.list.item(0).text().startswith("mux 0.95 · The user prefers pytest")  # type: ignore[union-attr]
    assert panel.list.item(3).text() == "writer · Always use pnpm."  # type: ignore[union-attr]
    migrations = panel.items[1]
    panel.list.setCurrentRow(1)
    assert panel.details.isVisibleTo(panel)
    assert "mux harvest · project · confidence 1.00" in panel.details.toPlainText()
    qtbot.waitUntil(
        lambda: "Added 0008_fix_index.py and ran make migrate." in panel.details.toPlainText(),
        timeout=WAIT_MS,
    )
    assert "the user corrected an edit to an applied migration." in panel.details.toPlainText()
    with qtbot.waitSignal(panel.status_message, timeout=WAIT_MS) as said:
        panel.accept_button.click()
    assert said.args[0] == f"Accepted 1 memory into {PROJECT_NOTES}"  # mux's 'project'
    assert "make migrate`; never edit an applied migration" in notes_text(home, PROJECT_NOTES)
    qtbot.waitUntil(lambda: migrations.id not in {i.id for i in panel.items}, timeout=WAIT_MS)
    assert "Database migrations" not in inbox_file.read_text(encoding="utf-8")
    ids = [i.id for i in panel.items if i.kind == "harvest"]
    panel.list.clearSelection()
    for row in range(2):
        panel.list.item(row).setSelected(True)  # type: ignore[union-attr]
    assert panel.selected_ids() == ids
    panel.reject_button.click()
    qtbot.waitUntil(lambda: shown(window) == ["Always use pnpm."], timeout=WAIT_MS)
    assert not inbox_file.exists()  # mux keeps no inbox without candidates


def test_a_harvest_mux_writes_shows_up_live(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    # The harvest's transcript would wake the memory writer, whose run, cancelled when the
    # test closes the window, logs a warning: the Inbox needs no writer.
    window = make_window(home, start_writer=False)
    wait_watching(qtbot, window)
    assert shown(window) == []
    harvest(home)
    qtbot.waitUntil(lambda: len(shown(window)) == 3, timeout=WAIT_MS)


def test_the_lists_rows_show_whole_however_they_wrap(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    """Rows wrap at the list's width: the list is as tall as its rows, not as a line per
    row (a long proposal was cut mid-sentence), and fits them again when it narrows —
    over the tree of a narrow tab, and below the editor of a wide one."""
    long = (
        "The staging database is read-only for this team: fix concurrency bugs with row "
        "locks (SELECT … FOR UPDATE), never with retries against staging."
    )
    propose(home, MAIN, "Always use pnpm.", long, long.replace("staging", "test"))
    window = make_window(home)
    window.resize(683, 712)
    window.show()
    panel = panel_of(window)
    qtbot.waitUntil(lambda: len(shown(window)) == 3 and panel.isVisible(), timeout=WAIT_MS)

    def rows_whole() -> bool:
        view = panel.list.viewport().rect()
        rows = [panel.list.visualRect(panel.list.model().index(r, 0)) for r in range(3)]
        return all(view.contains(row) for row in rows) and rows[1].height() > rows[0].height()

    qtbot.waitUntil(rows_whole, timeout=WAIT_MS)
    window.resize(560, 712)  # narrower: the rows wrap more
    qtbot.waitUntil(rows_whole, timeout=WAIT_MS)
    window.resize(1280, 712)  # wide: below the editor, its rows whole there too
    qtbot.waitUntil(lambda: window.memory_tab.controller.inbox_room.below_editor, timeout=WAIT_MS)
    qtbot.waitUntil(
        lambda: all(
            panel.list.viewport()
            .rect()
            .contains(panel.list.visualRect(panel.list.model().index(r, 0)))
            for r in range(3)
        ),
        timeout=WAIT_MS,
    )


def test_the_panel_keeps_its_height_while_items_are_decided(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    propose(home, MAIN, "Always use pnpm.", "Never push to main.", "Run `make docs`.")
    window = make_window(home)
    window.show()
    panel = panel_of(window)
    qtbot.waitUntil(lambda: len(shown(window)) == 3, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: panel.isVisible(), timeout=WAIT_MS)
    # The files to accept into are listed on the scans lane, maybe behind a scan: landed.
    qtbot.waitUntil(lambda: not window.context.files.busy, timeout=WAIT_MS)
    qtbot.wait(50)  # the overlay lays the panel out
    before = (panel.list.maximumHeight(), panel.accept_button.mapTo(window, QPoint(0, 0)))
    select(panel, "Always use pnpm.")
    panel.reject_button.click()
    qtbot.waitUntil(lambda: len(shown(window)) == 2, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: not window.context.files.busy, timeout=WAIT_MS)
    qtbot.wait(50)  # the overlay lays the panel out again
    after = (panel.list.maximumHeight(), panel.accept_button.mapTo(window, QPoint(0, 0)))
    assert after == before  # the next click lands where the last did, not on a tree row


def test_the_inbox_reads_again_when_one_of_its_files_changes_and_only_then(
    qtbot: QtBot, make_window: WindowFactory, home: Home, monkeypatch: pytest.MonkeyPatch
) -> None:
    # By the places the context's batches give (`inbox_places`): the shown workspace's
    # suggestions, mux's harvest folder, what is in it and the folders holding it, its
    # proposals and the global ones — no other workspace's, no other file of Memtab's or
    # of the scope.
    window = make_window(home)
    wait_watching(qtbot, window)
    window.watcher.stop()  # only the batches published here
    panel = panel_of(window)
    qtbot.waitUntil(lambda: not panel.busy, timeout=WAIT_MS)
    reads: list[int] = []
    monkeypatch.setattr(panel, "reload", lambda: reads.append(1))
    memtab, scope = home.memtab_dir, home.workspace_root(MAIN)
    reading = [
        memtab / "suggestions" / f"{MAIN}.json",
        memtab / "proposals" / "global.json",
        memtab / "proposals" / f"{MAIN}.json",
        scope / "harvest",
        scope / "harvest" / "1700000000000.json",
        # The folders holding the harvest folder: one that goes takes its candidates along.
        scope,
        home.workspace_dir(MAIN),
        home.sessions_dir,
    ]
    not_reading = [
        memtab / "suggestions" / f"{ARCHIVED}.json",
        memtab / "suggestions" / f"{MAIN}.json.tmp",
        memtab / "proposals" / f"{ARCHIVED}.json",
        memtab / "locks" / "suggestions.lock",
        home.workspace_root(ARCHIVED) / "harvest" / "1.json",
        scope / "harvested.md",
        scope / "notes" / "harvest",
        home.transcript_path(MAIN),
        home.workspace_root(ARCHIVED),
        home.workspace_dir(ARCHIVED),
    ]
    for path in reading:
        reads.clear()
        window.context.changes.publish([str(path)])
        assert reads == [1], path
    for path in not_reading:
        window.context.changes.publish([str(path)])
    assert reads == [1]  # the last of `reading`'s, none since
    window.context.changes.publish([str(path) for path in (*not_reading, reading[1])])
    assert reads == [1, 1]  # once a batch, however many of its files it holds
    window.context.changes.publish([str(home.root)])  # a storm, reported as the home
    assert reads == [1, 1, 1]
