"""The window never blocks on disk: every window action that reads or writes memory files,
driven as a user would, under the GUI-thread I/O guard (tests/support/gui_thread_io.py:
fsync, the cross-process lock and file reads under the home fail on the GUI thread)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence

import pytest
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from gui.memory_tree_support import WAIT_MS, FakeDialogs, WindowFactory, wait_for, wait_idle
from memtab.components.files.copy import CopyChoice, CopyTarget
from memtab.components.tree.nodes import SectionId, file_key, section_key
from memtab.gui.first_paint.main_window import MainWindow
from memtab.gui.window import keys
from memtab.store.home import Home
from memtab.store.paths import parse_file_path
from support.gui_thread_io import GuiThreadIo
from support.memory_home import ARCHIVED

pytestmark = pytest.mark.fsync  # real fsyncs, even in make test-fast

home = support.home
make_window = support.make_window

GLOBAL_FILE = "/memories/global/Zeta.md"
GIT_FILE = "/memories/global/tools/git.md"
AGENT_LINE = "- Added by an agent while the file was open.\n"

Until = Callable[[Callable[[], object]], None]
"""Waits for a condition, and stops early (failing the test at its check) at the first
call the guard refused: a refused call inside a slot means the condition never comes."""


def _window(make_window: WindowFactory, home: Home) -> tuple[MainWindow, FakeDialogs]:
    window = make_window(home)
    dialogs = FakeDialogs()
    window.memory_tab.controller.dialogs = dialogs  # type: ignore[assignment]
    return window, dialogs


def _select(window: MainWindow, raw: str) -> str:
    key = file_key(parse_file_path(raw))
    assert window.memory_tab.tree.select_key(key), key
    return key


def _open(qtbot: QtBot, window: MainWindow, raw: str) -> None:
    _select(window, raw)
    wait_for(
        qtbot, lambda: window.memory_tab.controller.editor.current_path == parse_file_path(raw)
    )
    wait_idle(qtbot, window)


def _elsewhere(window: MainWindow, raw: str, change: Callable[[str], str]) -> str:
    """Change a memory file as an agent would, from another thread (another program):
    returns its new text."""
    physical = window.memory_tab.view().physical(parse_file_path(raw))
    written: list[str] = []

    def write() -> None:
        text = change(physical.read_text(encoding="utf-8"))
        physical.write_text(text, encoding="utf-8")
        written.append(text)

    agent = threading.Thread(target=write)
    agent.start()
    agent.join()
    return written[0]


def test_building_and_loading_the_window(
    qtbot: QtBot, make_window: WindowFactory, home: Home, gui_thread_io: GuiThreadIo
) -> None:
    with gui_thread_io.watching(home.root):
        window = make_window(home)
        wait_idle(qtbot, window)
    gui_thread_io.check()


def _open_file(until: Until, window: MainWindow, dialogs: FakeDialogs) -> None:
    _select(window, GLOBAL_FILE)
    until(lambda: window.memory_tab.controller.editor.current_path == parse_file_path(GLOBAL_FILE))


def _new_file(until: Until, window: MainWindow, dialogs: FakeDialogs) -> None:
    target = parse_file_path("/memories/global/brand-new.md")
    dialogs.new_item = (target, "A file made under the guard")
    assert window.memory_tab.tree.select_key(section_key(SectionId.GLOBAL))
    window.memory_tab.controller.file_actions.new_file_action.trigger()
    until(lambda: window.memory_tab.controller.editor.current_path == target)


def _pin(until: Until, window: MainWindow, dialogs: FakeDialogs) -> None:
    key = _select(window, GLOBAL_FILE)
    window.memory_tab.controller.file_actions.toggle_pin()
    until(lambda: (node := window.memory_tab.model.node_for_key(key)) and node.pinned)


def _delete_then_undo(until: Until, window: MainWindow, dialogs: FakeDialogs) -> None:
    key = _select(window, GLOBAL_FILE)
    window.memory_tab.controller.file_actions.delete_selected()
    until(lambda: window.memory_tab.model.node_for_key(key) is None)
    window.memory_tab.controller.file_actions.turns.undo_last()
    until(lambda: window.memory_tab.model.node_for_key(key) is not None)


def _history(until: Until, window: MainWindow, dialogs: FakeDialogs) -> None:
    _select(window, GLOBAL_FILE)
    window.memory_tab.controller.file_actions.show_selected_history()
    until(lambda: window.memory_tab.is_idle)


def _follow_disk(until: Until, window: MainWindow, dialogs: FakeDialogs) -> None:
    editor = window.memory_tab.controller.editor
    text = _elsewhere(window, GLOBAL_FILE, lambda text: text + AGENT_LINE)
    until(lambda: editor.buffer_text() == text and not editor.is_dirty)


def _changed_while_editing(until: Until, window: MainWindow, dialogs: FakeDialogs) -> None:
    """A dirty buffer whose file an agent changed: Show diff, then Take theirs."""
    editor = window.memory_tab.controller.editor
    editor.text_edit.insertPlainText("My draft line.\n")
    text = _elsewhere(window, GLOBAL_FILE, lambda text: text + AGENT_LINE)
    until(lambda: "changed on disk" in editor.message_bar.text)
    editor.message_bar.button("show_diff").click()
    until(lambda: editor.diff_dialog is not None)
    assert editor.diff_dialog is not None
    editor.diff_dialog.button("take_theirs").click()
    until(lambda: editor.buffer_text() == text)


def _keep_mine_then_save(until: Until, window: MainWindow, dialogs: FakeDialogs) -> None:
    editor = window.memory_tab.controller.editor
    editor.text_edit.insertPlainText("My draft line.\n")
    _elsewhere(window, GLOBAL_FILE, lambda text: text + AGENT_LINE)
    until(lambda: "changed on disk" in editor.message_bar.text)
    editor.message_bar.button("keep_mine").click()
    until(lambda: editor.message_bar.isHidden() and editor.is_dirty)
    saved: list[bool] = []
    editor.save(saved.append)
    until(lambda: saved == [True])


def _renamed_elsewhere(until: Until, window: MainWindow, dialogs: FakeDialogs) -> None:
    physical = window.memory_tab.view().physical(parse_file_path(GLOBAL_FILE))
    agent = threading.Thread(target=physical.rename, args=[physical.with_name("Zeta-2.md")])
    agent.start()
    agent.join()
    renamed = parse_file_path("/memories/global/Zeta-2.md")
    until(lambda: window.memory_tab.controller.editor.current_path == renamed)


def _reload(until: Until, window: MainWindow, dialogs: FakeDialogs) -> None:
    window.context.actions.action("tree.reload").trigger()
    until(lambda: window.memory_tab.is_idle)


def _switch_tabs(until: Until, window: MainWindow, dialogs: FakeDialogs) -> None:
    editor = window.memory_tab.controller.editor
    assert editor.current_tab is not None
    editor.keep(editor.current_tab)  # not replaced by the next file opened
    key = _select(window, GIT_FILE)
    until(lambda: editor.current_key == key and not editor.is_reading)
    editor.previous_tab()
    until(lambda: editor.current_path == parse_file_path(GLOBAL_FILE))
    editor.next_tab()
    until(lambda: editor.current_key == key)


def _follow_a_link(until: Until, window: MainWindow, dialogs: FakeDialogs) -> None:
    editor = window.memory_tab.controller.editor
    editor.preview.link_clicked.emit("tools/git.md")  # Zeta.md's link to a neighbour
    until(lambda: editor.current_path == parse_file_path(GIT_FILE) and not editor.is_reading)


def _version_view(until: Until, window: MainWindow, dialogs: FakeDialogs) -> None:
    panel = window.part(keys.HISTORY).panel
    window.memory_tab.controller.file_actions.show_selected_history()
    until(lambda: panel.history is not None and bool(panel.history.rows))
    assert panel.history is not None
    assert panel.select_version(panel.history.rows[-1].version.id)
    until(lambda: panel.diff.result is not None)


def _recently_deleted(until: Until, window: MainWindow, dialogs: FakeDialogs) -> None:
    key = _select(window, GLOBAL_FILE)
    window.memory_tab.controller.file_actions.delete_selected()
    until(lambda: window.memory_tab.model.node_for_key(key) is None)
    trash = window.part(keys.HISTORY).open_trash()
    until(lambda: trash.select_path(GLOBAL_FILE))
    until(lambda: bool(trash.preview.toPlainText()))
    trash.restore_button.click()
    until(lambda: window.memory_tab.model.node_for_key(key) is not None)
    trash.close()


def _copy_to(until: Until, window: MainWindow, dialogs: FakeDialogs) -> None:
    def to_project(targets: Sequence[CopyTarget]) -> CopyChoice:
        return CopyChoice(next(t for t in targets if t.key == "mux:project"), "zeta-copy", None)

    dialogs.copy_to = to_project
    _select(window, GLOBAL_FILE)
    window.memory_tab.controller.file_actions.copy_to_action.trigger()
    copy = parse_file_path("/memories/project/zeta-copy.md")
    until(lambda: window.memory_tab.controller.editor.current_path == copy)


def _switch_workspace(until: Until, window: MainWindow, dialogs: FakeDialogs) -> None:
    window.memory_tab.switch_workspace(ARCHIVED)
    until(lambda: window.context.shown.workspace_id == ARCHIVED and window.memory_tab.is_idle)
    _select(window, GIT_FILE)  # a file opened in the other workspace
    until(lambda: window.memory_tab.controller.editor.current_path == parse_file_path(GIT_FILE))


PREPARED = {
    "pin",
    "delete, then undo",
    "history of a file",
    "follow a change on disk",
    "changed on disk while editing: Show diff, Take theirs",
    "changed on disk while editing: Keep mine, Save",
    "switch tabs",
    "follow a preview link",
    "follow a rename on disk",
    "view a version in History",
    "restore from Recently deleted",
    "switch workspace",
}
"""Actions on a file the user has open already: it is opened before the guard."""

SHOWN = {"view a version in History", "follow a preview link"}
"""Actions whose part reads only while shown (the History panel, the preview)."""

ACTIONS: dict[str, Callable[[Until, MainWindow, FakeDialogs], None]] = {
    "open a file": _open_file,
    "new file": _new_file,
    "pin": _pin,
    "delete, then undo": _delete_then_undo,
    "history of a file": _history,
    "follow a change on disk": _follow_disk,
    "changed on disk while editing: Show diff, Take theirs": _changed_while_editing,
    "changed on disk while editing: Keep mine, Save": _keep_mine_then_save,
    "follow a rename on disk": _renamed_elsewhere,
    "reload (F5)": _reload,
    "switch tabs": _switch_tabs,
    "follow a preview link": _follow_a_link,
    "view a version in History": _version_view,
    "restore from Recently deleted": _recently_deleted,
    "Copy to…": _copy_to,
    "switch workspace": _switch_workspace,
}


# Saving is checked under the guard by tests/gui/editor/test_editor_tabs.py; the reread
# that follows a save here depends on when the watcher rescans, so it is left to that test.


@pytest.mark.parametrize("name", list(ACTIONS))
def test_a_window_action_runs_its_disk_work_off_the_gui_thread(
    name: str,
    qtbot: QtBot,
    make_window: WindowFactory,
    home: Home,
    gui_thread_io: GuiThreadIo,
) -> None:
    if name == "follow a preview link":
        zeta = home.global_root / "Zeta.md"
        zeta.write_text(zeta.read_text(encoding="utf-8") + "See [git](tools/git.md).\n")
    window, dialogs = _window(make_window, home)
    if name in SHOWN:
        window.show()
    support.wait_watching(qtbot, window)
    if name in PREPARED:
        _open(qtbot, window, GLOBAL_FILE)

    def until(condition: Callable[[], object]) -> None:
        qtbot.waitUntil(lambda: bool(gui_thread_io.violations or condition()), timeout=WAIT_MS)
        gui_thread_io.check()

    with gui_thread_io.watching(home.root):
        ACTIONS[name](until, window, dialogs)
        until(lambda: window.memory_tab.is_idle)
    gui_thread_io.check()
