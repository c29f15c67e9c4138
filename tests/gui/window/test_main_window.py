"""The main window: building it, what it shows, tabs, status bar, close guard, screenshot."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QImage, QStatusTipEvent
from PySide6.QtWidgets import QApplication, QLabel, QWidget
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from gui.consolidation_support import tick
from gui.editor_support import open_loaded, patch_choice
from gui.memory_tree_support import WAIT_MS, WindowFactory
from memtab.components.editor.leaving import DiscardChoice
from memtab.components.tree.nodes import SectionId, section_key
from memtab.components.window.ui_state import UiState
from memtab.gui.first_paint.app import _wait_until_loaded
from memtab.gui.first_paint.main_window import MENU_TITLES, display_path, source_text
from memtab.gui.toolkit.widgets import ElidedLabel
from memtab.gui.window import keys
from memtab.store.home import Home
from memtab.store.paths import parse_file_path
from support.memory_home import MAIN

# The offscreen platform cannot resize to size hints; real platforms can.
home = support.home
make_window = support.make_window


def test_window_shows_the_home_and_how_it_was_found(make_window: WindowFactory, home: Home) -> None:
    window = make_window(home, home_source="MEMTAB_HOME")
    assert display_path(home.root) in window.windowTitle()
    label = window.findChild(ElidedLabel, "homeStatus")
    assert label is not None  # elided to the room there is; whole in full_text, tooltip
    assert label.full_text == f"{display_path(home.root)} · set by $MEMTAB_HOME"
    assert str(home.root) in label.toolTip()
    assert window.tabs.tabText(0) == "Memory"
    assert source_text("--home") == "set with --home"
    assert source_text("~/.xum") == "the xum home"


def test_status_bar_reports_the_watcher_backend(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window = make_window(home)
    label = window.findChild(QLabel, "watcherStatus")
    assert label is not None
    qtbot.waitUntil(lambda: label.text().startswith("Live"), timeout=WAIT_MS)
    assert window.watcher.backend_detail in label.text() or "polling" in label.text()


def test_other_parts_can_add_tabs_and_status_widgets(
    make_window: WindowFactory, home: Home
) -> None:
    window = make_window(home)
    assert [window.tabs.tabText(i) for i in range(window.tabs.count())] == ["Memory", "Traces"]
    extra = QWidget()
    index = window.add_tab(extra, "Extra")
    assert window.tabs.widget(index) is extra and window.tabs.tabText(index) == "Extra"
    indicator = QLabel("Something: idle")
    window.add_status_widget(indicator)
    assert indicator in window.status_bar.findChildren(QLabel)


def test_three_scope_sections_in_order_with_accessible_names(
    make_window: WindowFactory, home: Home
) -> None:
    window = make_window(home)
    model = window.memory_tab.model
    sections = [model.index(row, 0) for row in range(model.rowCount())]
    accessible = [index.data(Qt.ItemDataRole.AccessibleTextRole) for index in sections]
    assert accessible[:3] == ["Global", "Project", "Workspace"]


def test_closing_with_unsaved_changes_asks_once_without_blocking(
    qtbot: QtBot, make_window: WindowFactory, home: Home, monkeypatch: pytest.MonkeyPatch
) -> None:
    window = make_window(home)
    window.show()
    editor = window.memory_tab.controller.editor
    window.memory_tab.assemble()
    for path in ("/memories/global/Zeta.md", "/memories/workspace/notes.md"):
        open_loaded(qtbot, editor, parse_file_path(path), keep=True)
        editor.text_edit.insertPlainText("draft ")
    asked = patch_choice(monkeypatch, editor, DiscardChoice.CANCEL)
    assert window.close() is False
    assert asked == [["Zeta.md", "notes.md"]]
    assert window.isVisible()
    patch_choice(monkeypatch, editor, DiscardChoice.DISCARD)
    window.close()
    qtbot.waitUntil(lambda: not window.isVisible(), timeout=WAIT_MS)


def test_closing_remembers_geometry_and_splitter(
    qtbot: QtBot, make_window: WindowFactory, home: Home, tmp_path: Path
) -> None:
    state_path = tmp_path / "state.json"
    window = make_window(home, ui_state=UiState(state_path))
    window.resize(1000, 700)
    window.show()
    qtbot.waitExposed(window)
    window.memory_tab.splitter.moveSplitter(333, 1)  # as the user's drag does
    window.close()
    state = UiState.load(state_path)
    assert state.geometry() is not None
    sizes = state.splitter_sizes("memory")
    assert sizes is not None and sizes[0] == 333


@pytest.mark.slow
def test_screenshot_command_renders_the_loaded_window(qapp: QApplication, tmp_path: Path) -> None:
    # qapp: reading the PNG back takes a Qt application (run alone, no other test made one)
    from memtab.demo import create_demo_home

    demo = tmp_path / "demo"
    create_demo_home(demo)
    target = tmp_path / "shot.png"
    # A 1366×768 laptop's screen: the first window is fitted to it.
    screen = tmp_path / "screen.json"
    screen.write_text(
        json.dumps({"screens": [{"name": "laptop", "x": 0, "y": 0, "width": 1366, "height": 768}]}),
        encoding="utf-8",
    )
    env = dict(os.environ, QT_QPA_PLATFORM=f"offscreen:configfile={screen}")
    result = subprocess.run(
        [sys.executable, "-m", "memtab", "--home", str(demo), "--screenshot", str(target)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    image = QImage(str(target))
    assert not image.isNull()
    assert (image.width(), image.height()) == (1280, 712)


def test_a_screenshot_waits_for_the_file_watcher(make_window: WindowFactory, home: Home) -> None:
    # `--screenshot` grabbed as soon as the tree had loaded, so its status bar said "Not
    # watching yet" or "Live · inotify" by luck. Here the watcher starts late on purpose.
    window = make_window(home)
    window.watcher.stop()
    QTimer.singleShot(200, window.watcher, lambda: window.watcher.start(home.root))
    assert _wait_until_loaded(window, WAIT_MS)
    status = window.findChild(QLabel, "watcherStatus")
    assert status is not None and status.text().startswith("Live")


def test_unknown_workspace_falls_back_and_says_so(make_window: WindowFactory, home: Home) -> None:
    window = make_window(home, "nope000000")
    tab = window.memory_tab
    assert tab.workspace is not None and tab.workspace.id == MAIN
    assert "not registered" in tab.controller.message_bar.text
    assert tab.model.node_for_key(section_key(SectionId.WORKSPACE)) is not None


@pytest.mark.slow
def test_consolidate_now_on_the_demo_home_reviews_then_updates_the_workspace_line(
    qtbot: QtBot, make_window: WindowFactory, tmp_path: Path
) -> None:
    """Review first (the default): the plan comes from a child process, nothing changes
    until Apply, and then exactly the accepted ops are applied and journaled."""
    from memtab.demo import MAIN_ID, create_demo_home
    from memtab.store.history.runs import RunsLog

    demo = create_demo_home(tmp_path / "demo")
    window = make_window(demo, MAIN_ID)
    support.wait_watching(qtbot, window)
    footer = window.memory_tab.controller.footer
    before = footer.line_text("Workspace")  # type: ignore[attr-defined]
    assert before.startswith("3 h ago")
    memory_before = {p: p.read_bytes() for p in (demo.root / "memory").rglob("*.md")}
    button = footer.consolidate_button  # type: ignore[attr-defined]
    assert button.accessibleName() == "Consolidate now"
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: footer.review_dialog is not None, timeout=20_000)  # type: ignore[attr-defined]
    review = footer.review_dialog  # type: ignore[attr-defined]
    assert {p: p.read_bytes() for p in (demo.root / "memory").rglob("*.md")} == memory_before
    proposed = [op.index for op in review.plan.proposed]
    assert len(proposed) >= 2, review.plan
    left_out = review.plan.unit_of(proposed[0]).indexes  # the demo's merge: with its delete
    tick(qtbot, review, proposed[0], False)
    kept = [index for index in proposed if index not in left_out]
    assert review.accepted_ops == tuple(kept)
    review.apply_button.click()
    qtbot.waitUntil(
        lambda: footer.line_text("Workspace") != before,  # type: ignore[attr-defined]
        timeout=20_000,
    )
    assert footer.line_text("Workspace").startswith("just now")  # type: ignore[attr-defined]
    # the run that applied the plan; on a loaded machine an automatic run may follow it
    runs = RunsLog(demo).runs(workspace_id=MAIN_ID)
    reviewed = next(run for run in runs if run.plan_id == review.plan.id)
    applied = [index for index, op in enumerate(reviewed.ops, 1) if op.applied]
    assert applied == kept
    assert [reviewed.ops[index - 1].note for index in left_out] == ["not accepted in review"] * 2


def test_the_open_file_is_reopened_next_time(
    qtbot: QtBot, make_window: WindowFactory, home: Home, tmp_path: Path
) -> None:
    from memtab.components.tree.nodes import file_key
    from memtab.store.paths import parse_file_path

    state_path = tmp_path / "state.json"
    window = make_window(home, ui_state=UiState(state_path))
    zeta = parse_file_path("/memories/global/Zeta.md")
    assert window.memory_tab.tree.select_key(file_key(zeta))
    assert window.memory_tab.controller.editor.current_path == zeta
    window.close()
    again = make_window(home, ui_state=UiState.load(state_path))
    qtbot.waitUntil(
        lambda: again.memory_tab.controller.editor.current_path == zeta, timeout=WAIT_MS
    )
    current = again.memory_tab.tree.current_node()
    assert current is not None and current.path == zeta


def test_the_open_tabs_are_reopened_next_time(
    qtbot: QtBot, make_window: WindowFactory, home: Home, tmp_path: Path
) -> None:
    from memtab.components.tree.nodes import file_key

    state_path = tmp_path / "state.json"
    window = make_window(home, ui_state=UiState(state_path))
    editor = window.memory_tab.controller.editor
    notes = parse_file_path("/memories/workspace/notes.md")
    zeta = parse_file_path("/memories/global/Zeta.md")
    open_loaded(qtbot, editor, notes, keep=True)
    assert window.memory_tab.tree.select_key(file_key(zeta))
    assert [ref.key for ref in editor.open_refs] == [str(notes), str(zeta)]
    window.close()
    again = make_window(home, ui_state=UiState.load(state_path))
    reopened = again.memory_tab.controller.editor
    qtbot.waitUntil(lambda: reopened.current_path == zeta, timeout=WAIT_MS)
    assert [ref.key for ref in reopened.open_refs] == [str(notes), str(zeta)]


def test_menus_are_filled_once_the_memory_tab_is_assembled(
    make_window: WindowFactory, home: Home
) -> None:
    window = make_window(home)
    assert window.memory_tab.is_assembled  # by the time it loaded
    titles = [action.text() for action in window.menuBar().actions()]
    # The titles shown from the first paint are the menus', once (no stand-ins left).
    assert titles == list(MENU_TITLES) == [menu.title() for menu in window.part(keys.MENUS).menus]
    assert (
        window.memory_tab.controller.file_actions.new_file_action
        in window.part(keys.MENUS).menu("file").actions()
    )


def test_the_traces_tab_is_built_when_first_shown(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window = make_window(home)
    support.wait_watching(qtbot, window)
    assert window._traces_tab is None  # loaded and watching: still not built
    window.tabs.setCurrentIndex(1)
    assert window._traces_tab is not None
    assert window.traces_tab is window._traces_tab


def test_the_gui_thread_waits_at_most_1_ms_for_the_interpreter(
    make_window: WindowFactory, home: Home
) -> None:
    sys.setswitchinterval(0.005)  # CPython's default (another window may have set it)
    make_window(home)
    assert sys.getswitchinterval() == pytest.approx(0.001)


def test_a_menu_entrys_status_tip_is_a_note_beside_the_writers_status(
    make_window: WindowFactory, home: Home
) -> None:
    # Qt's own note was painted over the bar: the writer's status hidden, the tip running
    # into the home's label at 683 px ("Find in the open file (no file open: searc/tmp/…").
    window = make_window(home)
    window.resize(683, 600)
    window.show()
    bar = window.status_bar
    bar.showMessage("Saved notes.md")
    quick_open = window.context.actions.action("window.quick_open")
    quick_open.showStatusText(window)
    assert bar.currentMessage() == quick_open.statusTip() != ""
    assert bar.note.full_text == quick_open.statusTip()
    QApplication.sendEvent(window, QStatusTipEvent(""))  # the pointer left the entry
    assert bar.currentMessage() == "Saved notes.md"
