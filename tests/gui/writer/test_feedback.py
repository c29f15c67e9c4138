"""A window that tells you what happened: the writer's news, actor-named badges (also on the
open file, and after a restart), a folder that cannot be opened, the jargon explained,
the pin warning only while mux may run, and nothing left selected after a switch."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QUrl
from PySide6.QtWidgets import QApplication, QLabel, QToolButton
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from gui.editor_support import settle
from gui.memory_tree_support import WAIT_MS, WindowFactory, wait_idle, wait_watching
from memtab.components import glossary
from memtab.components.activity.badges import Actor
from memtab.components.activity.mux_activity import MuxActivity
from memtab.components.tree.nodes import NodeKind, file_key
from memtab.components.window.ui_state import UiState
from memtab.gui.activity import mux_presence as activity_ops
from memtab.gui.first_paint.main_window import MainWindow
from memtab.gui.tree.model import AGENT_EDITED_ROLE, KEY_ROLE
from memtab.gui.window import keys
from memtab.gui.writer.feedback import NEWS_LINK, WriterStatusWidget
from memtab.store.home import Home
from memtab.store.paths import parse_file_path
from memtab.writer.job.result import WriterRunResult
from support.memory_home import ARCHIVED, CHILD, MAIN, memory, touch_later

home = support.home
make_window = support.make_window

NOTES = parse_file_path("/memories/workspace/notes.md")
BEFORE = memory("Notes of this branch")
AFTER = BEFORE + "\n## Directives\n- Always use pnpm.\n- Never push to main.\n"


def run_result(
    outcome: str = "wrote", *, suggested: int = 0, after: str = AFTER
) -> WriterRunResult:
    return WriterRunResult(
        workspace_id=MAIN,
        workspace_name="main",
        outcome=outcome,  # type: ignore[arg-type]
        memory_path=str(NOTES),
        trigger_message_id="m1",
        run_started_at=int(time.time() * 1000),
        model_string="offline:offline-writer",
        before=BEFORE,
        after=after,
        suggested_count=suggested,
    )


def writer_label(widget: WriterStatusWidget) -> QLabel:
    label = widget.findChild(QLabel, "writerStatusText")
    assert label is not None
    return label


def shows(window: MainWindow, workspace_id: str) -> bool:
    workspace = window.memory_tab.workspace
    return workspace is not None and workspace.id == workspace_id


def watching_window(qtbot: QtBot, make_window: WindowFactory, home: Home) -> MainWindow:
    window = make_window(home)
    wait_watching(qtbot, window)
    qtbot.waitUntil(lambda: window.built_part(keys.WRITER_STATUS) is not None, timeout=WAIT_MS)
    return window


# -- the writer's news ------------------------------------------------------------------------


def test_the_writer_says_what_it_recorded_and_opens_it_with_the_new_lines_highlighted(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window = watching_window(qtbot, make_window, home)
    status = window.built_part(keys.WRITER_STATUS)
    assert status is not None and status.text() == "Memory writer idle"
    notes = home.workspace_root(MAIN) / "notes.md"
    notes.write_text(AFTER)  # what the run wrote
    status.show_run(run_result())
    assert status.text() == "Recorded 2 notes in notes.md · just now"
    assert f'href="{NEWS_LINK}"' in writer_label(status).text()
    assert "of workspace main" in writer_label(status).toolTip()
    tab = window.memory_tab
    writer_label(status).linkActivated.emit(NEWS_LINK)
    qtbot.waitUntil(lambda: tab.controller.editor.current_path == NOTES, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: bool(tab.controller.editor_link.highlighted_lines), timeout=WAIT_MS)
    highlighted = tab.controller.editor.text_edit.extraSelections()
    lines = AFTER.splitlines()
    shown = [lines[s.cursor.blockNumber()] for s in highlighted]
    assert shown == ["## Directives", "- Always use pnpm.", "- Never push to main."]
    assert tab.controller.editor.text_edit.textCursor().blockNumber() == lines.index(
        "## Directives"
    )


def test_news_of_another_workspace_switches_to_it_first(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window = watching_window(qtbot, make_window, home)
    other = home.workspace_root(ARCHIVED) / "notes.md"
    other.parent.mkdir(parents=True)
    other.write_text(AFTER)
    result = run_result()
    status = window.built_part(keys.WRITER_STATUS)
    assert status is not None
    status.show_run(result.replaced(workspace_id=ARCHIVED, workspace_name="old"))
    writer_label(status).linkActivated.emit(NEWS_LINK)
    tab = window.memory_tab
    qtbot.waitUntil(
        lambda: tab.workspace is not None and tab.workspace.id == ARCHIVED, timeout=WAIT_MS
    )
    qtbot.waitUntil(lambda: tab.controller.editor.current_path == NOTES, timeout=WAIT_MS)
    settle(qtbot, tab.controller.editor)
    assert "Never push to main." in tab.controller.editor.buffer_text()


def test_a_suggest_only_run_says_review_and_shows_the_suggestions(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window = watching_window(qtbot, make_window, home)
    status = window.built_part(keys.WRITER_STATUS)
    assert status is not None
    status.show_run(run_result("suggested", suggested=3, after=BEFORE))
    assert status.text() == "Suggested 3 notes — review"
    revealed: list[bool] = []
    window.memory_tab.controller.inbox.reveal = lambda: revealed.append(True)  # type: ignore[method-assign]
    writer_label(status).linkActivated.emit(NEWS_LINK)
    assert revealed == [True]
    # A run that found nothing keeps the last news.
    status.show_run(run_result("no_new_memories", after=BEFORE))
    assert status.text() == "Suggested 3 notes — review"
    # Once the workspace has nothing left to review, the news goes.
    window.memory_tab.controller.inbox.count_changed.emit(0)
    assert status.text() == "Memory writer idle"


class FakeNotifier:
    def __init__(self) -> None:
        self.shown: list[tuple[str, str]] = []

    def notify(self, title: str, body: str) -> bool:
        self.shown.append((title, body))
        return True


def test_a_desktop_notification_only_when_asked_for_and_the_window_is_not_in_front(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window = watching_window(qtbot, make_window, home)
    feedback = window.built_part(keys.WRITER_FEEDBACK)
    status = window.built_part(keys.WRITER_STATUS)
    assert feedback is not None and status is not None
    assert feedback.notify is False  # off by default
    notifier = FakeNotifier()
    feedback.notifier = notifier  # type: ignore[assignment]
    status.show_run(run_result())
    assert notifier.shown == []
    feedback.notify = True
    status.show_run(run_result())
    assert notifier.shown == [("Memtab recorded 2 notes", "In notes.md of main")]
    window.show()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=WAIT_MS)
    status.show_run(run_result())
    assert len(notifier.shown) == 1  # the user is looking at the window


def test_the_notify_setting_is_read_from_the_writer_settings(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    from memtab.writer.config import WriterSettings, save_writer_settings

    save_writer_settings(WriterSettings(notify=True))
    window = watching_window(qtbot, make_window, home)
    assert (
        window.built_part(keys.WRITER_FEEDBACK) is not None
        and window.built_part(keys.WRITER_FEEDBACK).notify is True
    )


def test_pause_and_resume_look_the_same_way(qtbot: QtBot) -> None:
    widget = WriterStatusWidget()
    qtbot.addWidget(widget)
    button = widget.findChild(QToolButton, "writerPauseToggle")
    assert button is not None and not button.isCheckable()
    button.click()
    assert widget.isPaused() and button.text() == "Resume" and not button.isDown()
    button.click()
    assert not widget.isPaused() and button.text() == "Pause"


# -- badges that name who changed a file -------------------------------------------------


def test_badges_name_the_actor_in_the_tree_and_on_the_open_file(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window = watching_window(qtbot, make_window, home)
    tab = window.memory_tab
    notes = home.workspace_root(MAIN) / "notes.md"
    tab.controller.editor_link.select_key(file_key(NOTES), open_it=True)
    settle(qtbot, tab.controller.editor)
    assert tab.controller.editor.badge_text == ""
    # The writer of this window writes the open file: claimed as it finishes.
    tab.controller.marks.claim_writer_run(MAIN, str(NOTES))
    touch_later(notes, AFTER)
    qtbot.waitUntil(lambda: str(notes) in tab.agent_edited, timeout=WAIT_MS)
    badge = tab.controller.marks.edits.badge(str(notes))
    assert badge is not None and badge.actor is Actor.WRITER
    row = tab.model.index_for_key(file_key(NOTES))
    assert "Memory writer changed it just now" in row.data(Qt.ItemDataRole.ToolTipRole)
    assert tab.controller.editor.badge_text == "memory writer"  # the editor's header says it too
    # Reloaded (read on the file channel), still badged.
    qtbot.waitUntil(
        lambda: "Never push to main." in tab.controller.editor.buffer_text(), timeout=WAIT_MS
    )
    assert tab.controller.editor.badge_text == "memory writer"
    # Someone else changes another file.
    git = home.global_root / "tools" / "git.md"
    touch_later(git, memory("Git conventions", "Squash merges only.\n"))
    qtbot.waitUntil(lambda: str(git) in tab.agent_edited, timeout=WAIT_MS)
    git_row = tab.model.index_for_key(file_key(parse_file_path("/memories/global/tools/git.md")))
    assert "Another program changed it" in git_row.data(Qt.ItemDataRole.ToolTipRole)
    # The user opens it: its badge goes; the header shows none.
    tab.controller.editor_link.select_key(git_row.data(KEY_ROLE), open_it=True)
    settle(qtbot, tab.controller.editor)
    assert str(git) not in tab.agent_edited and tab.controller.editor.badge_text == ""


def test_a_sub_agents_writer_run_is_claimed_in_its_task_trees_notebook(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    """CHILD is MAIN's sub-agent: its workspace scope is MAIN's notebook (formats §2.5), so
    what its writer run wrote there is the writer's, not 'changed outside'."""
    window = watching_window(qtbot, make_window, home)
    tab = window.memory_tab
    notes = home.workspace_root(MAIN) / "notes.md"
    tab.controller.marks.claim_writer_run(CHILD, str(NOTES))
    touch_later(notes, AFTER)
    qtbot.waitUntil(lambda: str(notes) in tab.agent_edited, timeout=WAIT_MS)
    badge = tab.controller.marks.edits.badge(str(notes))
    assert badge is not None and badge.actor is Actor.WRITER


def test_badges_survive_a_restart_until_the_file_is_opened(
    qtbot: QtBot, make_window: WindowFactory, home: Home, tmp_path: Path
) -> None:
    state_path = tmp_path / "ui-state.json"
    first = make_window(home, ui_state=UiState(state_path))
    wait_watching(qtbot, first)
    git = home.global_root / "tools" / "git.md"
    touch_later(git, memory("Git conventions", "Changed by a script.\n"))
    qtbot.waitUntil(lambda: str(git) in first.memory_tab.agent_edited, timeout=WAIT_MS)
    first.close_without_asking()
    second = make_window(home, ui_state=UiState.load(state_path))
    tab = second.memory_tab
    assert str(git) in tab.agent_edited
    key = file_key(parse_file_path("/memories/global/tools/git.md"))
    assert tab.model.index_for_key(key).data(AGENT_EDITED_ROLE) is True
    tab.controller.editor_link.select_key(key, open_it=True)
    settle(qtbot, tab.controller.editor)
    assert str(git) not in tab.agent_edited
    second.close_without_asking()
    assert UiState.load(state_path).badges_for(home.root) == {}  # opened: nothing to keep


def test_the_file_reopened_at_start_keeps_its_badge(
    qtbot: QtBot, make_window: WindowFactory, home: Home, tmp_path: Path
) -> None:
    state_path = tmp_path / "ui-state.json"
    first = make_window(home, ui_state=UiState(state_path))
    wait_watching(qtbot, first)
    first.memory_tab.controller.editor_link.select_key(file_key(NOTES), open_it=True)
    notes = home.workspace_root(MAIN) / "notes.md"
    touch_later(notes, AFTER)
    qtbot.waitUntil(lambda: str(notes) in first.memory_tab.agent_edited, timeout=WAIT_MS)
    first.close_without_asking()
    second = make_window(home, ui_state=UiState.load(state_path))
    tab = second.memory_tab
    qtbot.waitUntil(lambda: tab.controller.editor.current_path == NOTES, timeout=WAIT_MS)
    settle(qtbot, tab.controller.editor)  # its text shown: the user would have looked now
    assert str(notes) in tab.agent_edited  # reopened by Memtab, not by the user
    assert tab.controller.editor.badge_text == "another program"


# -- saying what went wrong, explaining words ------------------------------------------------


def test_open_containing_folder_says_so_when_nothing_can_open_it(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window = make_window(home)
    tab = window.memory_tab
    tab.controller.file_actions.open_url = lambda url: False  # type: ignore[method-assign]
    tab.tree.select_key(file_key(parse_file_path("/memories/global/tools/git.md")))
    with qtbot.waitSignal(tab.context.status.shown) as said:
        tab.controller.file_actions.reveal_action.trigger()
    folder = str(home.global_root / "tools")
    assert said.args[0].startswith(f"No file manager could open {folder}")
    assert tab.controller.message_bar.isVisibleTo(tab)
    assert QApplication.clipboard().text() == folder
    opened: list[QUrl] = []
    tab.controller.file_actions.open_url = lambda url: opened.append(url) or True  # type: ignore[method-assign]
    tab.controller.file_actions.reveal_action.trigger()
    assert opened == [QUrl.fromLocalFile(folder)]


def test_the_jargon_is_explained_where_it_appears(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window = watching_window(qtbot, make_window, home)
    watch_label = window.findChild(QLabel, "watcherStatus")
    assert watch_label is not None and glossary.LIVE_WATCHING in watch_label.toolTip()
    tab = window.memory_tab
    orphans = next(node for node in tab.model.nodes() if node.kind is NodeKind.ORPHAN_DIR)
    index = tab.model.index_for_node(orphans)
    assert glossary.ORPHANED_PROJECT_MEMORY in index.data(Qt.ItemDataRole.ToolTipRole)
    [harvest_key] = [
        w for w in tab.controller.footer.findChildren(QLabel) if w.text() == "Harvest:"
    ]
    assert harvest_key.toolTip() == glossary.HARVEST
    from memtab.gui.settings.dialog import SettingsDialog

    dialog = SettingsDialog(window, jobs=window.context.jobs)
    assert "mux can run its own memory writer" in dialog.writer.controls["mode"].toolTip()
    dialog.deleteLater()
    traces = window.traces_tab
    assert traces is not None
    [policy] = [w for w in traces.detail.findChildren(QLabel) if w.text() == "Policy satisfied"]
    assert policy.toolTip() == glossary.POLICY_SATISFIED


def test_the_pin_warning_about_mux_only_while_mux_may_run_checked_off_the_gui_thread(
    qtbot: QtBot, make_window: WindowFactory, home: Home, monkeypatch: pytest.MonkeyPatch
) -> None:
    answers = [MuxActivity(False, "no mux"), MuxActivity(True, "a mux process is running")]
    threads: list[threading.Thread] = []

    def checked(home: Home) -> MuxActivity:
        threads.append(threading.current_thread())
        return answers[0]

    monkeypatch.setattr(activity_ops, "mux_activity", checked)
    window = make_window(home)
    tab = window.memory_tab
    prefs = tab.model.index_for_key(file_key(parse_file_path("/memories/global/preferences.md")))
    qtbot.waitUntil(lambda: tab.controller.mux.activity is not None, timeout=WAIT_MS)
    assert threads and threads[0] is not threading.main_thread()
    assert glossary.PINS_WITHOUT_MUX in prefs.data(Qt.ItemDataRole.ToolTipRole)
    assert tab.controller.file_actions.pin_action.toolTip() == glossary.PINS_WITHOUT_MUX
    answers.pop(0)
    with qtbot.waitSignal(tab.controller.mux.changed):
        tab.controller.mux.check()
    assert glossary.PINS_WITH_MUX in prefs.data(Qt.ItemDataRole.ToolTipRole)
    assert tab.controller.file_actions.pin_action.toolTip() == glossary.PINS_WITH_MUX


def test_after_switching_workspace_nothing_stays_selected_for_a_closed_file(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window = make_window(home)
    tab = window.memory_tab
    git = file_key(parse_file_path("/memories/global/tools/git.md"))
    tab.controller.editor_link.select_key(git, open_it=True)
    settle(qtbot, tab.controller.editor)
    assert (
        tab.controller.editor.current_path is not None and tab.tree.selectionModel().selectedRows()
    )
    tab.switch_workspace(ARCHIVED)
    qtbot.waitUntil(
        lambda: tab.workspace is not None and tab.workspace.id == ARCHIVED, timeout=WAIT_MS
    )
    wait_idle(qtbot, window)
    assert tab.controller.editor.current_path is None
    assert tab.tree.selectionModel().selectedRows() == []
