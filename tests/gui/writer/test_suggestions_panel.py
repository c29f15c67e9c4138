"""Suggested memories in the Memory tab: the offline writer's proposals for the shown
workspace, accepted (as they are or edited), dismissed, and kept live by the watcher."""

from __future__ import annotations

import threading

import pytest
from PySide6.QtWidgets import QDialog
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from gui.memory_tree_support import WAIT_MS, WindowFactory, wait_watching
from memtab.components.tree.nodes import file_key
from memtab.gui.window.main_window import MainWindow
from memtab.gui.writer import suggestions_panel
from memtab.gui.writer.suggestions_panel import EditSuggestionDialog, SuggestionsPanel
from memtab.store.home import Home
from memtab.store.paths import parse_file_path
from memtab.writer.notes import Note
from memtab.writer.suggestions import SuggestionQueue
from support.memory_home import ARCHIVED, MAIN

home = support.home
make_window = support.make_window

NOTES = "/memories/workspace/notes.md"


def propose(home: Home, workspace_id: str, *texts: str) -> None:
    SuggestionQueue(home, workspace_id).propose(
        [Note("Directives", text) for text in texts], memory_path=NOTES
    )


def panel_of(window: MainWindow) -> SuggestionsPanel:
    return window.memory_tab.suggestions


def shown(window: MainWindow) -> list[str]:
    return [s.text for s in panel_of(window).suggestions]


def select(panel: SuggestionsPanel, *texts: str) -> None:
    panel.list.clearSelection()
    for row in range(panel.list.count()):
        item = panel.list.item(row)
        if item is not None and item.text() in texts:
            item.setSelected(True)


def notes_text(home: Home) -> str:
    return (home.workspace_root(MAIN) / "notes.md").read_text()


def test_the_panel_lists_the_workspaces_suggestions_read_off_the_gui_thread(
    qtbot: QtBot, make_window: WindowFactory, home: Home, monkeypatch: pytest.MonkeyPatch
) -> None:
    propose(home, MAIN, "Always use pnpm.", "Never push to main.")
    propose(home, ARCHIVED, "Only in the old workspace.")
    threads: list[threading.Thread] = []
    real = suggestions_panel.load_pending

    def recording(*args: object) -> object:
        threads.append(threading.current_thread())
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(suggestions_panel, "load_pending", recording)
    window = make_window(home)
    panel = panel_of(window)
    qtbot.waitUntil(lambda: shown(window) == ["Always use pnpm.", "Never push to main."])
    assert threads and all(t is not threading.main_thread() for t in threads)
    assert panel.isVisibleTo(window.memory_tab)
    assert panel.toggle.text() == "Suggested memories (2)"
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
    with qtbot.waitSignal(panel.status_message, timeout=WAIT_MS) as said:
        panel.accept_button.click()
    assert said.args[0] == f"Accepted 1 suggestion into {NOTES}"
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
        assert isinstance(dialog, EditSuggestionDialog)
        assert dialog.text == "Always use pnpm."
        dialog.text_edit.setPlainText("Always use pnpm 9, never npm.")
        return 1

    panel.exec_dialog = answer  # type: ignore[method-assign]
    select(panel, "Always use pnpm.")
    assert panel.edit_button.isEnabled()
    panel.edit_button.click()
    qtbot.waitUntil(lambda: shown(window) == [], timeout=WAIT_MS)
    assert "- Always use pnpm 9, never npm." in notes_text(home)
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
    panel.dismiss_button.click()
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
    SuggestionQueue(home, MAIN).dismiss([panel_of(window).suggestions[0].id])
    qtbot.waitUntil(lambda: shown(window) == [], timeout=WAIT_MS)


def test_a_failed_accept_says_why_and_keeps_the_suggestion(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    propose(home, MAIN, "Always use pnpm.")
    window = make_window(home)
    panel = panel_of(window)
    qtbot.waitUntil(lambda: len(shown(window)) == 1, timeout=WAIT_MS)
    SuggestionQueue(home, MAIN).dismiss([panel.suggestions[0].id])  # decided meanwhile
    select(panel, "Always use pnpm.")
    with qtbot.waitSignal(panel.status_message, timeout=WAIT_MS) as said:
        panel.accept_button.click()
    assert said.args[0].startswith("Could not accept: No pending suggestion")
    assert panel.error_label.isVisibleTo(panel)
    assert "pnpm" not in notes_text(home)
