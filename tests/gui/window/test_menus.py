"""The menus and the keyboard: File, Edit, View, Help; shortcuts for what the window does;
Help → Keyboard shortcuts made from the actions; Add workspace and Open home in the GUI;
a focus marker on the tree from the start."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QAction, QImage, QKeySequence, QPainter
from PySide6.QtWidgets import QDialog, QStyleOptionViewItem, QWidget
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from gui.editor_support import open_loaded
from gui.memory_tree_support import WAIT_MS, WindowFactory, activate, wait_idle
from memtab.components.editor.panel import ViewMode
from memtab.components.tree.nodes import file_key
from memtab.components.window import menus as home_operations
from memtab.components.window.menus import MENU_AT_MOST
from memtab.components.window.mnemonics import mnemonic
from memtab.gui.actions import ActionRegistry, Focus, plain_title
from memtab.gui.tasks.jobs import JobClient, JobService
from memtab.gui.window import keys as window_keys
from memtab.gui.window import window_actions
from memtab.gui.window.menus import ShortcutRow, shortcut_rows
from memtab.gui.window.window_actions import FIELD_KEYS, AddWorkspaceDialog, ShortcutsDialog
from memtab.store.home import Home
from memtab.store.paths import parse_file_path
from memtab.store.sidecars.registry import load_registry
from support.memory_home import MAIN

home = support.home
make_window = support.make_window


def titles(actions: list[QAction]) -> list[str]:
    return [plain_title(action.text()) for action in actions if not action.isSeparator()]


def test_the_menus_hold_every_command(make_window: WindowFactory, home: Home) -> None:
    window = make_window(home)
    menus = window.part(window_keys.MENUS)
    assert [menu.title() for menu in menus.menus] == ["&File", "&Edit", "&View", "&Help"]
    assert titles(menus.menu("file").actions()) == [
        "Quick open",
        "New memory file",
        "New folder",
        "Add a note to Codex memory",
        "Save",
        "Revert file",
        "Auto save",
        "Close tab",
        "Open home",
        "Add workspace",
        "Sync",
        "Sync now",
        "Resolve conflicts",
        "Settings",
        "Quit",
    ]
    edit = titles(menus.menu("edit").actions())
    for wanted in ("Undo", "Redo", "Find", "Rename or move", "Delete", "Pin"):
        assert wanted in edit
    assert titles(menus.menu("view").actions()) == [
        "Command palette",
        "What needs you",
        "Inbox",
        "Source",
        "Split",
        "Preview",
        "Blame: who wrote each line",
        "Who wrote this line",
        "File history",
        "Recently deleted",
        "Runs",
        "Check: still true of the code?",
        "What each agent loads",
        "Trust: duplicates, contradictions, leaks",
        "Switch workspace",
    ]
    assert titles(menus.menu("help").actions()) == ["Keyboard shortcuts", "About Memtab"]


def test_a_menu_can_be_scanned_and_every_entry_has_its_own_letter(
    make_window: WindowFactory, home: Home
) -> None:
    window = make_window(home)
    menus = window.part(window_keys.MENUS)
    menus.refresh()
    for menu in menus.menus:
        entries = [action for action in menu.actions() if not action.isSeparator()]
        assert len(entries) <= MENU_AT_MOST, (menu.title(), len(entries))
        letters = [mnemonic(action.text()) for action in entries]
        assert None not in letters, (menu.title(), [a.text() for a in entries])
        assert len(set(letters)) == len(letters), menu.title()
    # What the menus leave out is in Help → Keyboard shortcuts, under its feature.
    rows = {row.id: row.section for row in shortcut_rows(window.context.actions)}
    assert rows["tree.reload"] == "Tree" and rows["editor.next_tab"] == "Editor"
    assert rows["memory.show_files"] == "Window"


def test_help_shortcuts_is_made_from_the_actions(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window = make_window(home)
    actions = window.context.actions
    shown: list[QDialog] = []
    window.exec_dialog = lambda dialog: shown.append(dialog) or 0  # type: ignore[method-assign]
    actions.action("window.shortcuts").trigger()
    [dialog] = shown
    assert isinstance(dialog, ShortcutsDialog)
    rows = {(row.section, row.name): row.keys for row in dialog.rows}
    native = QKeySequence.SequenceFormat.NativeText
    # Save's keys are the editor's, all listed (the menu shows the first).
    assert rows[("File", "Save")].startswith(QKeySequence("Ctrl+S").toString(native))
    assert QKeySequence("Ctrl+Return").toString(native) in rows[("File", "Save")]
    assert rows[("Edit", "Consolidate now")] == QKeySequence("Ctrl+Shift+D").toString(native)
    assert rows[("View", "Runs")] == QKeySequence("Ctrl+Shift+R").toString(native)
    assert rows[("View", "File history")] == QKeySequence("Ctrl+Shift+H").toString(native)
    # A standard key lists the platform's bindings, its first as menus show it.
    assert rows[("Edit", "Undo")].startswith(QKeySequence("Ctrl+Z").toString(native))
    redo = (
        QKeySequence("Ctrl+Shift+Z").toString(native)
        + ", "
        + QKeySequence("Ctrl+Y").toString(native)
    )
    assert rows[("Edit", "Redo")].startswith(redo)
    # Keys only special keyboards have are bound, not listed ("Ctrl+S, Save").
    assert "Save" not in rows[("File", "Save")].replace("Ctrl+S", "")
    assert rows[("View", "Split")] == QKeySequence("Ctrl+2").toString(native)
    assert rows[("Edit", "Search memories")] == QKeySequence("Ctrl+Shift+F").toString(native)
    # One row for the keys two actions share, by where the focus is (no "F3" twice).
    assert rows[("Edit", "Find · Find in file")].startswith(QKeySequence("Ctrl+F").toString(native))
    # F3 is one action, by where the keyboard is: the file's next match or the search's.
    assert rows[("Edit", "Find next")] == "F3"
    assert rows[("Edit", "Find previous")] == QKeySequence("Shift+F3").toString(native)
    keys = [row.keys for row in dialog.rows if row not in FIELD_KEYS]
    assert len(keys) == len(set(keys))
    # Complete: Ctrl+Enter, Ctrl+Shift+E, Ctrl+M and the fields' own keys are there.
    assert QKeySequence("Ctrl+Enter").toString(native) in rows[("File", "Save")]
    assert ("Editor", "Open in external editor") in rows
    assert rows[("Editor", "Tab moves focus")] == QKeySequence("Ctrl+M").toString(native)
    assert ("In the editor's text", "Close the find bar") in rows
    # A field's own keys never repeat what an action lists (Ctrl+Tab is next tab's).
    listed = {key for row in dialog.rows if row not in FIELD_KEYS for key in row.keys.split(", ")}
    assert not [row for row in FIELD_KEYS if set(row.keys.split(", ")) & listed]
    assert "Copy path" in dialog.table.toPlainText()
    # The filter box keeps the rows that hold every word typed: a name or a key.
    qtbot.keyClicks(dialog.filter_edit, "redo")
    assert [row.name for row in dialog.shown_rows] == ["Redo"]
    assert "Ctrl+Y" in dialog.table.toPlainText() and "Copy path" not in dialog.table.toPlainText()
    dialog.filter_edit.setText("ctrl+m")
    assert [row.id for row in dialog.shown_rows] == ["editor.tab_moves_focus", "field.tab"]
    dialog.filter_edit.setText("no such key")
    assert dialog.shown_rows == [] and "No shortcut matches" in dialog.table.toPlainText()
    dialog.filter_edit.clear()
    assert dialog.shown_rows == dialog.rows
    # A new action with keys shows up, in its menu too, without anyone editing a table.
    actions.add("test.something", "Do something new", lambda: None, keys=["Ctrl+Alt+J"],
                menu="view")  # fmt: skip
    assert ShortcutRow(
        "test.something", "View", "Do something new", QKeySequence("Ctrl+Alt+J").toString(native)
    ) in shortcut_rows(actions)
    window.part(window_keys.MENUS).refresh()
    assert titles(window.part(window_keys.MENUS).menu("view").actions())[-1] == "Do something new"


def test_help_shortcuts_and_the_panels_still_work_after_a_tab_closed(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window = make_window(home)
    window.show()
    wait_idle(qtbot, window)
    editor = window.memory_tab.controller.editor
    for path in ("/memories/global/tools/git.md", "/memories/global/preferences.md"):
        open_loaded(qtbot, editor, parse_file_path(path), keep=True)
    editor.close_current_tab()
    qtbot.wait(50)  # the closed tab is deleted later
    shown: list[QDialog] = []
    window.exec_dialog = lambda dialog: shown.append(dialog) or 0  # type: ignore[method-assign]
    window.context.actions.action("window.shortcuts").trigger()
    [dialog] = shown
    assert isinstance(dialog, ShortcutsDialog)
    assert ("View", "File history") in {(row.section, row.name) for row in dialog.rows}
    window.context.actions.action("history.panel").trigger()
    assert window.part(window_keys.HISTORY).dock.isVisible()
    assert window.context.actions.action("history.panel").isChecked()


def test_every_action_is_listed_once_by_a_stable_name_and_no_keys_collide(
    make_window: WindowFactory, home: Home
) -> None:
    window = make_window(home)
    # the window's own part is built
    window.built_part(window_keys.WRITER_STATUS) is not None or window.show()
    actions = window.context.actions
    rows = shortcut_rows(actions)
    ids = [row.id for row in rows] + [also for row in rows for also in row.also]
    assert len(ids) == len(set(ids))
    assert set(ids) == {entry.id for entry in actions.entries() if entry.keys}
    names = [(row.section, row.name) for row in rows]
    assert len(names) == len(set(names))
    # The names do not follow what an action says now ("Undo delete of notes.md", "Unpin").
    window.part(window_keys.MENUS).refresh()
    assert ("Edit", "Undo") in names and ("Edit", "Pin") in names
    assert all(entry.id.count(".") == 1 for entry in actions.entries())
    inbox_list = window.memory_tab.controller.inbox.list  # made: its keys bound to it
    assert actions.entry("inbox.reject").on is inbox_list
    assert actions.conflicts() == []
    # Every action placed in a menu is in it.
    for entry in actions.entries():
        if entry.menu is not None:
            assert entry.action in window.part(window_keys.MENUS).menu(entry.menu).actions(), (
                entry.id
            )


def test_two_window_wide_actions_with_one_key_are_a_conflict(qtbot: QtBot) -> None:
    actions = ActionRegistry()  # the window's own are free of conflicts (a test above)
    actions.add("test.first", "First", lambda: None, keys=["Ctrl+Alt+K"])
    actions.add("test.second", "Second", lambda: None, keys=["Ctrl+Alt+K"])
    [conflict] = actions.conflicts()
    assert (conflict.first, conflict.second) == ("test.first", "test.second")


def test_keys_declared_before_their_widget_work_nowhere_until_bound_to_it(
    make_window: WindowFactory, home: Home
) -> None:
    window = make_window(home)
    actions, tree = window.context.actions, window.memory_tab.tree
    widget = Focus.WIDGET
    actions.add("test.later", "Later", lambda: None, keys=["F2"], focus=widget, on=None)
    assert actions.conflicts() == []  # the tree's F2 (Rename) is not live where it will be
    actions.add("test.window", "Window", lambda: None, keys=["Ctrl+Alt+K"])
    actions.add("test.declared", "Declared", lambda: None, keys=["Ctrl+Alt+K"], focus=widget)
    [conflict] = actions.conflicts()  # a window-wide key is live wherever it is bound
    assert (conflict.first, conflict.second) == ("test.window", "test.declared")
    actions.bind("test.later", tree)
    assert actions.action("test.later") in tree.actions()
    assert {(c.first, c.second) for c in actions.conflicts()} >= {("tree.rename", "test.later")}
    with pytest.raises(ValueError, match="declared"):
        actions.bind("test.later", tree)


def test_two_actions_claiming_one_key_in_one_widget_are_a_conflict(qtbot: QtBot) -> None:
    actions, tab = ActionRegistry(), QWidget()
    qtbot.addWidget(tab)
    within = Focus.WITHIN
    actions.add(
        "test.first", "First", lambda: None, keys=["Ctrl+Alt+K"], focus=within, on=tab, claim=True
    )
    actions.add(
        "test.second", "Second", lambda: None, keys=["Ctrl+Alt+K"], focus=within, on=tab, claim=True
    )
    [conflict] = actions.conflicts()
    assert (conflict.first, conflict.second) == ("test.first", "test.second")


def test_shortcuts_for_view_modes_tabs_runs_and_consolidation(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window = make_window(home)
    activate(qtbot, window)
    tab = window.memory_tab
    qtbot.keyClick(window, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)
    assert tab.controller.editor.view_mode is ViewMode.SPLIT
    qtbot.keyClick(window, Qt.Key.Key_3, Qt.KeyboardModifier.ControlModifier)
    assert tab.controller.editor.view_mode is ViewMode.PREVIEW
    qtbot.keyClick(window, Qt.Key.Key_1, Qt.KeyboardModifier.ControlModifier)
    assert tab.controller.editor.view_mode is ViewMode.SOURCE
    qtbot.keyClick(window, Qt.Key.Key_2, Qt.KeyboardModifier.AltModifier)
    assert window.tabs.currentIndex() == 1  # Traces
    qtbot.keyClick(window, Qt.Key.Key_1, Qt.KeyboardModifier.AltModifier)
    assert window.tabs.currentWidget() is tab
    ctrl_shift = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    qtbot.keyClick(window, Qt.Key.Key_R, ctrl_shift)
    runs = window.part(window_keys.HISTORY).runs_dialog
    assert runs is not None and runs.isVisible()
    runs.close()
    qtbot.keyClick(window, Qt.Key.Key_H, ctrl_shift)
    assert window.part(window_keys.HISTORY).dock.isVisible()
    started: list[tuple[str, object]] = []
    tab.controller.consolidation.start = (  # type: ignore[method-assign,union-attr]
        lambda request: started.append((request.workspace_id, request.review))
    )
    qtbot.keyClick(window, Qt.Key.Key_D, ctrl_shift)
    assert started == [(MAIN, None)]  # as the review setting says


def test_switch_workspace_opens_the_picker(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window = make_window(home)
    activate(qtbot, window)
    combo = window.memory_tab.picker.combo
    ctrl_shift = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    qtbot.keyClick(window, Qt.Key.Key_W, ctrl_shift)
    qtbot.waitUntil(lambda: combo.view().isVisible(), timeout=WAIT_MS)
    combo.hidePopup()
    assert combo.hasFocus()


def test_undo_says_what_it_takes_back_and_its_key_works_after_the_menu(
    make_window: WindowFactory, home: Home
) -> None:
    window = make_window(home)
    undo = window.context.actions.action("files.undo")
    window.part(window_keys.MENUS).menu("edit").aboutToShow.emit()
    assert not undo.isEnabled() and "Nothing to undo" in undo.toolTip()
    assert undo.text() == "&Undo"
    window.part(window_keys.MENUS).menu("edit").aboutToHide.emit()
    assert undo.isEnabled()  # Ctrl+Z in the tree says "Nothing to undo" itself
    said: list[str] = []
    window.context.status.shown.connect(lambda text, _ms: said.append(text))
    undo.trigger()
    assert said == ["Nothing to undo"]


def test_the_tree_shows_where_the_keyboard_is_from_the_start(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window = make_window(home)
    activate(qtbot, window)
    tab = window.memory_tab
    qtbot.waitUntil(tab.tree.hasFocus, timeout=WAIT_MS)
    current = tab.tree.currentIndex()
    assert current.isValid()
    assert tab.tree.selectionModel().selectedRows() == []  # nothing selected or opened

    def paint() -> bytes:
        option = QStyleOptionViewItem()
        option.initFrom(tab.tree.viewport())
        option.widget = tab.tree  # the delegate reads the row's state from its view
        option.rect = QRect(0, 0, 300, 28)
        option.font = tab.tree.font()
        image = QImage(option.rect.size(), QImage.Format.Format_ARGB32)
        image.fill(0)
        painter = QPainter(image)
        tab.tree.delegate.paint(painter, option, current)
        painter.end()
        return bytes(image.constBits())

    with_focus = paint()
    tab.picker.setFocus()
    qtbot.waitUntil(lambda: not tab.tree.hasFocus(), timeout=WAIT_MS)
    assert paint() != with_focus


# -- Add workspace, Open home ---------------------------------------------------------


def test_add_workspace_registers_it_off_the_gui_thread_and_shows_it(
    qtbot: QtBot,
    make_window: WindowFactory,
    home: Home,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    window = make_window(home)
    project = tmp_path / "projects" / "shop"
    project.mkdir(parents=True)
    threads: list[threading.Thread] = []
    real = home_operations.add_workspace

    def recording(*args: object) -> str:
        threads.append(threading.current_thread())
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(home_operations, "add_workspace", recording)

    def answer(dialog: QDialog) -> int:
        assert isinstance(dialog, AddWorkspaceDialog)
        dialog.project_edit.setCurrentText(str(project))
        assert dialog.name_edit.text() == "shop"  # the folder's name, until one is typed
        dialog.name_edit.setText("checkout")
        dialog.name_edit.textEdited.emit("checkout")
        dialog.accept()
        qtbot.waitUntil(lambda: dialog.result() == QDialog.DialogCode.Accepted, timeout=WAIT_MS)
        return int(dialog.result())

    window.exec_dialog = answer  # type: ignore[method-assign]
    window.context.actions.action("window.add_workspace").trigger()
    assert threads and threads[0] is not threading.main_thread()
    [added] = [ws for ws in load_registry(home).workspaces if ws.name == "checkout"]
    assert added.project_path == str(project)
    tab = window.memory_tab
    qtbot.waitUntil(
        lambda: tab.workspace is not None and tab.workspace.id == added.id, timeout=WAIT_MS
    )
    assert tab.picker.current_workspace_id == added.id


@pytest.fixture
def runner(qtbot: QtBot, jobs: JobService) -> JobClient:
    return jobs.client("test-home")


def test_add_workspace_keeps_the_dialog_open_with_the_reason(
    qtbot: QtBot, home: Home, tmp_path: Path, runner: JobClient
) -> None:
    dialog = AddWorkspaceDialog(home, load_registry(home), runner)
    qtbot.addWidget(dialog)
    dialog.project_edit.setCurrentText("relative/path")
    dialog.accept()
    assert dialog.error_label.isVisibleTo(dialog) and "absolute" in dialog.error_label.text()
    # Someone broke the project's entry by hand meanwhile: the registry says why.
    project = tmp_path / "acme"
    project.mkdir()
    broken = json.dumps({"projects": [[str(project), {"workspaces": 5}]]})
    home.config_path.write_text(broken)
    dialog.project_edit.setCurrentText(str(project))
    dialog.name_edit.setText("x")
    dialog.accept()
    qtbot.waitUntil(lambda: not dialog.busy, timeout=WAIT_MS)
    assert dialog.result() != QDialog.DialogCode.Accepted
    assert "is not a list" in dialog.error_label.text()
    assert home.config_path.read_text() == broken  # never overwritten


def _show(qtbot: QtBot, dialog: AddWorkspaceDialog) -> None:
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.activateWindow()
    qtbot.waitUntil(dialog.isActiveWindow, timeout=WAIT_MS)


def test_a_folder_that_does_not_exist_is_said_and_added_only_when_confirmed(
    qtbot: QtBot, home: Home, tmp_path: Path, runner: JobClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 19: Add workspace registered a project folder that does not exist."""
    monkeypatch.setattr(window_actions, "CHECK_DELAY_MS", 20)  # the pause after typing: idle
    dialog = AddWorkspaceDialog(home, load_registry(home), runner)
    _show(qtbot, dialog)
    missing = tmp_path / "src" / "app"
    qtbot.keyClicks(dialog.project_edit.lineEdit(), str(missing))
    before = home.config_path.read_text()
    dialog.accept()
    qtbot.waitUntil(lambda: not dialog.busy, timeout=WAIT_MS)
    assert dialog.result() != QDialog.DialogCode.Accepted
    assert home.config_path.read_text() == before  # nothing registered
    assert "does not exist on this machine" in dialog.error_label.text()
    assert dialog.ok_button.text() == "&Add anyway"
    line = dialog.project_edit.lineEdit()
    assert line is not None
    qtbot.keyClick(line, Qt.Key.Key_Backspace)  # typing says it too, once typing pauses
    qtbot.keyClick(line, Qt.Key.Key_P)
    assert dialog.ok_button.text() == "&Add workspace"  # another path: ask again
    qtbot.waitUntil(dialog.folder_note.isVisible, timeout=WAIT_MS)
    assert dialog.folder_note.text() == f"{missing} does not exist on this machine."
    dialog.accept()
    qtbot.waitUntil(lambda: dialog.ok_button.text() == "&Add anyway", timeout=WAIT_MS)
    assert not dialog.folder_note.isVisible()  # the error says it
    dialog.accept()  # the user says so: a mux elsewhere may use this path
    qtbot.waitUntil(lambda: dialog.result() == QDialog.DialogCode.Accepted, timeout=WAIT_MS)
    [added] = [ws for ws in load_registry(home).workspaces if ws.id == dialog.workspace_id]
    assert added.project_path == str(missing)


def test_another_path_must_be_confirmed_again(
    qtbot: QtBot, home: Home, tmp_path: Path, runner: JobClient
) -> None:
    dialog = AddWorkspaceDialog(home, load_registry(home), runner)
    _show(qtbot, dialog)
    dialog.project_edit.setCurrentText(str(tmp_path / "one"))
    dialog.accept()
    qtbot.waitUntil(lambda: dialog.ok_button.text() == "&Add anyway", timeout=WAIT_MS)
    dialog.project_edit.setCurrentText(str(tmp_path / "two"))
    assert dialog.ok_button.text() == "&Add workspace" and not dialog.error_label.isVisible()
    dialog.accept()
    qtbot.waitUntil(lambda: not dialog.busy, timeout=WAIT_MS)
    assert dialog.result() != QDialog.DialogCode.Accepted
    (tmp_path / "file").write_text("not a folder\n")
    dialog.project_edit.setCurrentText(str(tmp_path / "file"))
    dialog.accept()
    qtbot.waitUntil(lambda: not dialog.busy, timeout=WAIT_MS)
    assert "is not a folder" in dialog.error_label.text()
    assert dialog.ok_button.text() == "&Add workspace"  # no "anyway" for a file


def test_completion_never_changes_what_was_typed(
    qtbot: QtBot, home: Home, runner: JobClient
) -> None:
    """Issue 19: inline completion turned a typed `/src/ac` into the known `/src/acme`
    when focus left."""
    dialog = AddWorkspaceDialog(home, load_registry(home), runner)
    _show(qtbot, dialog)
    line = dialog.project_edit.lineEdit()
    assert line is not None
    dialog.project_edit.setFocus()
    qtbot.keyClicks(line, "/src/ac")
    assert line.text() == "/src/ac" and not line.hasSelectedText()
    completer = dialog.project_edit.completer()
    assert completer is not None
    popup = completer.popup()
    qtbot.waitUntil(popup.isVisible, timeout=WAIT_MS)  # offered, not filled in
    assert completer.currentCompletion() == "/src/acme"
    qtbot.keyClick(popup, Qt.Key.Key_Escape)
    dialog.name_edit.setFocus()  # focus leaves the field
    qtbot.waitUntil(dialog.name_edit.hasFocus, timeout=WAIT_MS)
    assert dialog.project_edit.currentText() == "/src/ac"
    # Accepting the offer is the user's choice: Down, Enter.
    dialog.project_edit.setFocus()
    qtbot.keyClicks(line, "m")
    qtbot.waitUntil(popup.isVisible, timeout=WAIT_MS)
    qtbot.keyClick(popup, Qt.Key.Key_Down)
    qtbot.keyClick(popup, Qt.Key.Key_Return)
    assert dialog.project_edit.currentText() == "/src/acme"


def test_registered_projects_are_offered(home: Home, qtbot: QtBot, runner: JobClient) -> None:
    dialog = AddWorkspaceDialog(home, load_registry(home), runner)
    qtbot.addWidget(dialog)
    offered = [dialog.project_edit.itemText(i) for i in range(dialog.project_edit.count())]
    assert offered == ["/src/acme", "/src/web"]


def test_open_home_opens_the_chosen_home_in_a_new_window(
    qtbot: QtBot, make_window: WindowFactory, home: Home, tmp_path: Path
) -> None:
    window = make_window(home)
    other = tmp_path / "other-home"
    other.mkdir()
    asked: list[str] = []
    window.choose_folder = lambda title, start: other  # type: ignore[method-assign]
    window.confirm = lambda title, text: asked.append(text) or True  # type: ignore[method-assign]
    window.context.actions.action("window.open_home").trigger()
    qtbot.waitUntil(lambda: window.successor is not None, timeout=WAIT_MS)
    successor = window.successor
    assert successor is not None
    qtbot.addWidget(successor)
    try:
        assert asked and "not a memory home yet" in asked[0]
        assert successor.home.root == other
        qtbot.waitUntil(lambda: successor.memory_tab.is_loaded, timeout=WAIT_MS)
        assert not window.isVisible() and successor.isVisible()
        window.close()  # what Ctrl+C in the terminal does: it reaches the new window
        assert not successor.isVisible()
    finally:
        successor.close_without_asking()


def test_open_home_of_a_missing_folder_says_so(
    qtbot: QtBot, make_window: WindowFactory, home: Home, tmp_path: Path
) -> None:
    window = make_window(home)
    window.choose_folder = lambda title, start: tmp_path / "nowhere"  # type: ignore[method-assign]
    window.context.actions.action("window.open_home").trigger()
    qtbot.waitUntil(
        lambda: "is not a folder" in window.statusBar().currentMessage(), timeout=WAIT_MS
    )
    assert window.successor is None


def test_find_finds_in_the_open_file_else_searches_memories(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window = make_window(home)
    activate(qtbot, window)
    wait_idle(qtbot, window)
    tab = window.memory_tab
    window.context.actions.action("window.find").trigger()  # no file open
    assert tab.controller.search_box.edit.hasFocus()
    tab.controller.editor_link.select_key(
        file_key(parse_file_path("/memories/global/tools/git.md")), open_it=True
    )
    tab.tree.setFocus()
    qtbot.keyClick(tab.tree, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    assert tab.controller.editor.find_bar.isVisible()
    ctrl_shift = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    qtbot.keyClick(tab.tree, Qt.Key.Key_F, ctrl_shift)
    assert tab.controller.search_box.edit.hasFocus()
