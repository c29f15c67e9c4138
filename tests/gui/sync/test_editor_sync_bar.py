"""A file in sync conflict, open in an editor tab, says so in the tab's bar — with the
choices of Resolve conflicts…, in its words — and is decided from there."""

from __future__ import annotations

import pytest
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from gui.memory_tree_support import MainWindow, WindowFactory, wait_for, wait_watching
from memtab.components.editor.session import Situation
from memtab.components.merge import KEEP_BOTH, KEEP_MINE, KEEP_THEIRS
from memtab.components.tree.nodes import file_key
from memtab.gui.editor.tab.file_tab import FileTab
from memtab.gui.sync.feature import PREFIX
from memtab.gui.window import keys
from memtab.store.paths import parse_file_path
from support.sync_machines import Machine

# slow: every test syncs two machines through a git remote (git processes, ~0.5 s of CPU)
pytestmark = pytest.mark.slow

make_window = support.make_window
NOTES = "/memories/global/notes.md"


def open_in_editor(qtbot: QtBot, window: MainWindow, path: str) -> FileTab:
    window.memory_tab.controller.editor_link.select_key(
        file_key(parse_file_path(path)), open_it=True
    )
    editor = window.memory_tab.controller.editor
    wait_for(qtbot, lambda: editor.current_tab is not None and editor.current_tab.ref)
    tab = editor.current_tab
    assert tab is not None
    wait_for(qtbot, lambda: not tab.reading)
    return tab


def conflict_window(
    qtbot: QtBot, make_window: WindowFactory, alpha: Machine, beta: Machine
) -> tuple[MainWindow, FileTab]:
    alpha.conflict_with(beta, NOTES)
    window = make_window(alpha.home, None, start_writer=False)
    wait_watching(qtbot, window)
    feature = window.part(keys.SYNC)
    assert feature is not None
    wait_for(qtbot, lambda: feature.sync.look.conflicts, 60_000)
    tab = open_in_editor(qtbot, window, NOTES)
    wait_for(qtbot, lambda: tab.doc.file.situation is Situation.SYNC_CONFLICT)
    return window, tab


def test_the_bar_offers_the_dialogs_choices_in_its_words(
    qtbot: QtBot, make_window: WindowFactory, alpha: Machine, beta: Machine
) -> None:
    window, tab = conflict_window(qtbot, make_window, alpha, beta)
    bar = tab.prompts.bar
    assert bar.isVisibleTo(window)
    assert bar.text.startswith("Sync conflict: another machine changed the same lines.")
    labels = [bar.button(action).text() for action in bar.action_ids()]
    assert labels == ["&Compare", "Keep &mine", "Keep &theirs", "Keep &both"]  # Alt+C, M, T, B
    assert bar.default_action == PREFIX + "compare"  # Enter looks, never drops a side
    feature = window.part(keys.SYNC)
    assert feature is not None
    feature.open_conflicts()
    dialog = feature.dialog
    assert dialog is not None
    for choice in (KEEP_MINE, KEEP_THEIRS, KEEP_BOTH):
        assert dialog.buttons[choice.id].text().replace("&", "") == choice.button

    dialog.close()
    bar.button(PREFIX + "compare").click()
    wait_for(qtbot, lambda: dialog.isVisible() and dialog.current() is not None)
    current = dialog.current()
    assert current is not None and current.key == NOTES


def test_keep_both_from_the_bar_shows_what_it_keeps_before_it_is_kept(
    qtbot: QtBot, make_window: WindowFactory, alpha: Machine, beta: Machine
) -> None:
    window, tab = conflict_window(qtbot, make_window, alpha, beta)
    tab.prompts.bar.button(PREFIX + KEEP_BOTH.id).click()
    feature = window.part(keys.SYNC)
    assert feature is not None
    both = "one\ntwo from alpha\ntwo from beta\nthree\n"
    wait_for(qtbot, lambda: (d := feature.dialog) is not None and d.view.merged_text() == both)
    dialog = feature.dialog
    assert dialog is not None and dialog.isVisible()
    assert "what Keep both keeps" in dialog.view.note.text()
    assert alpha.conflicts() == [NOTES]  # shown, not kept
    dialog.buttons[KEEP_BOTH.id].click()  # the second press keeps it
    wait_for(qtbot, lambda: alpha.conflicts() == [], 30_000)
    assert alpha.text(NOTES) == both


def test_keep_theirs_from_the_bar_resolves_and_the_bar_goes(
    qtbot: QtBot, make_window: WindowFactory, alpha: Machine, beta: Machine
) -> None:
    window, tab = conflict_window(qtbot, make_window, alpha, beta)
    assert tab.view.buffer_text() == "one\ntwo from alpha\nthree\n"
    tab.prompts.bar.button(PREFIX + KEEP_THEIRS.id).click()
    wait_for(qtbot, lambda: alpha.conflicts() == [], 30_000)
    wait_for(qtbot, lambda: tab.view.buffer_text() == "one\ntwo from beta\nthree\n", 30_000)
    wait_for(qtbot, lambda: tab.doc.file.situation is Situation.NONE, 30_000)
    assert not tab.prompts.bar.isVisibleTo(window)
    said = window.statusBar().currentMessage()
    assert said == "Resolved notes.md: kept theirs; the next sync sends it"  # one line


def test_keep_mine_keeps_the_unsaved_draft(
    qtbot: QtBot, make_window: WindowFactory, alpha: Machine, beta: Machine
) -> None:
    _window, tab = conflict_window(qtbot, make_window, alpha, beta)
    tab.view.replace_text("one\ntwo from alpha, edited\nthree\n")
    assert tab.is_dirty
    tab.prompts.bar.button(PREFIX + KEEP_MINE.id).click()
    wait_for(qtbot, lambda: alpha.conflicts() == [], 30_000)
    assert alpha.text(NOTES) == "one\ntwo from alpha, edited\nthree\n"
    wait_for(qtbot, lambda: tab.doc.file.situation is Situation.NONE, 30_000)
    assert not tab.is_dirty
    alpha.sync()
    beta.sync()
    assert beta.text(NOTES) == "one\ntwo from alpha, edited\nthree\n"


def test_a_conflict_decided_elsewhere_takes_the_bar_away(
    qtbot: QtBot, make_window: WindowFactory, alpha: Machine, beta: Machine
) -> None:
    window, tab = conflict_window(qtbot, make_window, alpha, beta)
    alpha.resolve(NOTES, "both")  # memtab sync resolve, in a terminal
    wait_for(qtbot, lambda: tab.doc.file.situation is Situation.NONE, 30_000)
    assert not tab.prompts.bar.isVisibleTo(window)
