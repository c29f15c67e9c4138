"""Nothing is lost, in the window: Recently deleted, the History panel, Runs… with Revert,
Edit → Undo of the tree's operations, the cross-scope drop question, and recording what
other programs changed after each scan."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QApplication, QInputDialog, QPushButton
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from gui.editor_support import open_loaded, saved, settle
from gui.memory_tree_support import (
    WAIT_MS,
    FakeDialogs,
    WindowFactory,
    refresh_menus,
    wait_for,
    wait_idle,
)
from memtab.components.history.diff import LEFT_ALONE, RESTORED
from memtab.components.history.trash_view import SELECT_PROMPT
from memtab.components.tree.nodes import SectionId, directory_key, file_key, orphan_key, section_key
from memtab.consolidation.service import ConsolidationService
from memtab.fs.clock import now_ms
from memtab.gui.files.file_actions import ASK_CROSS_SCOPE_DROPS
from memtab.gui.first_paint.main_window import MainWindow
from memtab.gui.window import keys
from memtab.llm.types import ModelReply
from memtab.store.history.runs import RunsLog
from memtab.store.history.started import StartedRun
from memtab.store.home import Home
from memtab.store.paths import VirtualPath, parse_file_path
from memtab.store.restore.from_history import file_history
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.meta import MetaStore, global_key
from memtab.store.sidecars.registry import load_registry
from support.memory_home import MAIN, touch_later
from support.memory_paths import vpath
from support.scripted_provider import ScriptedProvider, reading_first
from unit.history.helpers import memory_call

pytestmark = pytest.mark.no_background_runs  # no writer, no check at start: none is tested here

home = support.home
make_window = support.make_window

NOTES = parse_file_path("/memories/workspace/notes.md")
ZETA = parse_file_path("/memories/global/Zeta.md")
PREFERENCES = parse_file_path("/memories/global/preferences.md")
ORPHAN = "gone-0123456789ab"  # support.memory_home's orphaned project dir
OLD = "/memories/project/old.md"  # its file


def watched_window(qtbot: QtBot, make_window: WindowFactory, home: Home) -> MainWindow:
    window = make_window(home)
    window.show()  # the History panel reads only while it is shown
    support.wait_watching(qtbot, window)
    window.memory_tab.controller.dialogs = FakeDialogs()  # type: ignore[assignment]
    return window


def shown(window: MainWindow, path: VirtualPath) -> bool:
    return window.memory_tab.model.node_for_key(file_key(path)) is not None


def store_of(home: Home) -> MemoryStore:
    return MemoryStore(home, load_registry(home).require_workspace(MAIN))


# --- Recently deleted ----------------------------------------------------------------------


def test_a_file_deleted_outside_is_restored_from_recently_deleted_through_the_watcher(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    """The issue's test: delete a file, restore it from Recently deleted, and see the tree
    and the editor follow through the watcher."""
    window = watched_window(qtbot, make_window, home)
    tab = window.memory_tab
    physical = home.workspace_root(MAIN) / "notes.md"
    content = physical.read_text()
    open_loaded(qtbot, tab.controller.editor, NOTES)
    # Memtab has seen it (the scan after the watch began is recorded) before mux deletes it.
    wait_for(qtbot, lambda: file_history(store_of(home), vpath(NOTES)))
    physical.unlink()  # mux, a shell: not Memtab
    wait_for(qtbot, lambda: not shown(window, NOTES))
    wait_for(qtbot, lambda: "was deleted on disk" in tab.controller.editor.message_bar.text)

    trash = window.part(keys.HISTORY).open_trash()
    wait_for(qtbot, lambda: trash.select_path(str(NOTES)))
    workspace_group = next(g for g in trash.groups if g.label == "Workspace")
    (item,) = workspace_group.items
    assert item.version.actor == "external"
    wait_for(qtbot, lambda: trash.preview.toPlainText() == content)
    trash.restore_button.click()

    wait_for(qtbot, lambda: shown(window, NOTES))  # the watcher's rescan
    assert physical.read_text() == content
    wait_for(qtbot, tab.controller.editor.message_bar.isHidden)  # "deleted on disk" is answered
    assert tab.controller.editor.current_path == NOTES
    assert tab.controller.editor.buffer_text() == content
    assert str(physical) not in tab.agent_edited  # Memtab's own restore
    wait_for(qtbot, lambda: trash.note.full_text == f"Restored {NOTES}")
    wait_for(qtbot, lambda: not [i for g in trash.groups for i in g.items])  # reloaded
    # The restored file is gone from the list: nothing is being read (not "Reading…").
    assert trash.preview.toPlainText() == "" and trash.preview.placeholderText() == SELECT_PROMPT
    assert MetaStore(home).load()  # pins and usage: see the unit tests


def test_restore_to_another_path_and_scopes_filter(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window = watched_window(qtbot, make_window, home)
    tab = window.memory_tab
    assert tab.tree.select_key(file_key(PREFERENCES))
    tab.controller.file_actions.delete_action.trigger()
    wait_for(qtbot, lambda: not shown(window, PREFERENCES))
    trash = window.part(keys.HISTORY).open_trash()
    wait_for(qtbot, lambda: trash.select_path(str(PREFERENCES)))
    assert trash.files.topLevelItemCount() == 3  # Global, Project, Workspace
    trash.scope_filter.setCurrentIndex(trash.scope_filter.findData("workspace"))
    assert trash.files.topLevelItemCount() == 1 and not trash.select_path(str(PREFERENCES))
    trash.scope_filter.setCurrentIndex(trash.scope_filter.findData("global"))
    assert trash.select_path(str(PREFERENCES))
    elsewhere = parse_file_path("/memories/project/preferences.md")
    buttons: list[str] = []

    def answer() -> None:  # the real question, answered (never left open: exec waits)
        ask = QApplication.activeModalWidget()
        assert isinstance(ask, QInputDialog)
        buttons.extend(sorted(button.text() for button in ask.findChildren(QPushButton)))
        ask.setTextValue(str(elsewhere))
        ask.accept()

    QTimer.singleShot(0, answer)
    trash.restore_to_button.click()
    assert buttons == ["&Cancel", "&Restore"]  # Alt+R, Alt+C
    wait_for(qtbot, lambda: shown(window, elsewhere))
    node = tab.model.node_for_key(file_key(elsewhere))
    assert node is not None and node.pinned  # the pin came back with it
    wait_for(qtbot, lambda: tab.controller.editor.current_path == elsewhere)  # opened
    # Edit → Undo takes the restore back (not the delete before it): the file goes again.
    refresh_menus(qtbot, window)
    assert window.context.actions.action("files.undo").text() == "&Undo restore of preferences.md"
    window.context.actions.action("files.undo").trigger()
    wait_for(qtbot, lambda: not shown(window, elsewhere))
    assert tab.controller.editor.current_path is None
    assert store_of(home).kind_of(elsewhere) is None
    refresh_menus(qtbot, window)
    assert window.context.actions.action("files.undo").text() == "&Undo delete of preferences.md"


def test_a_scope_sections_menu_opens_its_recently_deleted(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window = watched_window(qtbot, make_window, home)
    tab = window.memory_tab
    assert tab.tree.select_key(section_key(SectionId.PROJECT))
    tab.controller.file_actions.trash_action.trigger()
    trash = window.part(keys.HISTORY).trash_dialog
    assert trash is not None and trash.isVisible()
    assert trash.scope_filter.currentData() == "project"
    trash.close()
    assert not trash.busy  # closing stops its worker


# --- the History panel ---------------------------------------------------------------------


def test_the_history_panel_follows_the_file_diffs_and_restores(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    # The recorder of outside changes runs soon after each change (tests/gui/conftest.py):
    # it must not take the save below for another program's (it read the file before the
    # save was recorded).
    window = watched_window(qtbot, make_window, home)
    tab, panel = window.memory_tab, window.part(keys.HISTORY).panel
    physical = home.global_root / "Zeta.md"
    first = physical.read_text()
    assert tab.tree.select_key(file_key(ZETA))
    tab.controller.file_actions.history_action.trigger()
    assert window.part(keys.HISTORY).dock.isVisible()
    wait_for(qtbot, lambda: tab.controller.editor.current_path == ZETA)
    settle(
        qtbot, tab.controller.editor
    )  # its text is read on the file channel: typed after it came
    wait_for(
        qtbot,
        lambda: (
            panel.subject is not None
            and panel.subject.ref.key == str(ZETA)
            and panel.history is not None
        ),
    )
    tab.controller.editor.text_edit.moveCursor(QTextCursor.MoveOperation.End)
    tab.controller.editor.text_edit.insertPlainText("A new line.\n")
    assert saved(qtbot, tab.controller.editor)
    assert physical.read_text() == first + "A new line.\n"
    wait_for(qtbot, lambda: panel.history is not None and len(panel.history.rows) >= 2)
    rows = panel.history.rows  # type: ignore[union-attr]
    assert (rows[0].who, rows[0].change) == ("You", "Edited")
    assert rows[0].size_change == "+12 B"
    older = rows[1].version
    assert panel.select_version(older.id)
    wait_for(qtbot, lambda: panel.diff.result is not None)
    assert panel.diff.result is not None and panel.diff.result.added == 1
    assert panel.restore_button.isEnabled()
    panel.restore_button.click()
    wait_for(qtbot, lambda: physical.read_text() == first)
    wait_for(qtbot, lambda: tab.controller.editor.buffer_text() == first)  # the editor reloads
    wait_for(qtbot, lambda: panel.history is not None and panel.history.rows[0].change != "Edited")
    assert panel.history.rows[0].change == "Restored an earlier version"  # type: ignore[union-attr]
    assert panel.select_version(older.id) and not panel.restore_button.isEnabled()  # now
    # Edit → Undo takes the restore back: the saved line is there again.
    refresh_menus(qtbot, window)
    assert window.context.actions.action("files.undo").text() == "&Undo restore of Zeta.md"
    window.context.actions.action("files.undo").trigger()
    wait_for(qtbot, lambda: physical.read_text() == first + "A new line.\n")
    wait_for(qtbot, lambda: tab.controller.editor.buffer_text() == first + "A new line.\n")
    assert str(physical) not in tab.agent_edited  # Memtab's own write


def test_the_panel_is_remembered_and_hides_on_other_tabs(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window = watched_window(qtbot, make_window, home)
    window.part(keys.HISTORY).panel_action.trigger()
    assert window.part(keys.HISTORY).dock.isVisible()
    window.show_traces_tab()
    assert not window.part(keys.HISTORY).dock.isVisible()
    window.show_memory_tab()
    assert window.part(keys.HISTORY).dock.isVisible()
    state = window.ui_state
    assert state is not None
    window.close_without_asking()
    again = make_window(home, ui_state=state)
    assert not again.part(keys.HISTORY).dock.isHidden()


# --- recording what other programs changed ------------------------------------------------


@pytest.mark.slow
def test_a_change_outside_memtab_is_recorded_after_the_scan_it_causes(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window = watched_window(qtbot, make_window, home)
    physical = home.global_root / "tools" / "git.md"
    path = parse_file_path("/memories/global/tools/git.md")
    wait_for(qtbot, lambda: file_history(store_of(home), vpath(path)))
    touch_later(physical, "Rebase, always rebase.\n")
    wait_for(qtbot, lambda: len(file_history(store_of(home), vpath(path))) == 2)
    newest = file_history(store_of(home), vpath(path))[0]
    assert newest.actor == "external" and newest.op == "edit"
    wait_idle(qtbot, window)


def test_runs_mux_journals_reach_the_runs_log_while_memtab_watches(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    """mux keeps one record per workspace: each new one is logged as soon as it is seen,
    before a later run replaces it."""
    watched_window(qtbot, make_window, home)
    an_hour_ago = now_ms() - 3_600_000  # within what history keeps
    for number, summary in enumerate(("mux pruned one", "mux pruned two"), 1):
        record = {
            "lastRunAt": an_hour_ago + number,
            "trigger": "launch",
            "summary": summary,
            "ops": [],
        }
        touch_later(home.journal_path, json.dumps({"workspaces": {MAIN: record}}))
        wait_for(qtbot, lambda count=number: len(RunsLog(home).runs()) == count)
    assert [run.summary for run in RunsLog(home).runs()] == ["mux pruned two", "mux pruned one"]


def test_a_run_a_kill_left_unlogged_is_logged_when_the_window_starts(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    # What a consolidation killed after its first change leaves: its started-run file,
    # and the change recorded as the consolidator's under the run's id.
    workspace = load_registry(home).require_workspace(MAIN)
    started = StartedRun(
        home,
        run_id="run-killed",
        trigger="manual",
        workspace_id=MAIN,
        project_path=workspace.project_identity,
        started_at=1_700_000_000_000,
    )
    started.begin()
    arguments = {"command": "create", "path": "/memories/global/new.md", "file_text": "x\n"}
    started.attempt("create", "/memories/global/new.md", None, arguments, {})
    run_store = MemoryStore(home, workspace, actor="consolidator", run_id="run-killed")
    run_store.create_file(vpath("/memories/global/new.md"), "x\n")
    assert RunsLog(home).get("run-killed") is None
    watched_window(qtbot, make_window, home)
    wait_for(qtbot, lambda: RunsLog(home).get("run-killed") is not None)
    run = RunsLog(home).get("run-killed")
    assert run is not None and run.failed and run.applied_count == 1
    assert run.summary == "Interrupted after 1 change: created new.md (1 line)."


# --- Runs… and Revert this run -------------------------------------------------------------


def consolidate(home: Home) -> str:
    """A consolidation run (scripted): merge Zeta into preferences, prune git.md."""
    replies = [
        ModelReply(
            "",
            (
                memory_call("1", command="insert", path=str(PREFERENCES),
                            insert_line=4, insert_text="From Zeta."),
                memory_call("2", command="delete", path=str(ZETA)),
                memory_call("3", command="str_replace", path="/memories/global/tools/git.md",
                            old_str="Rebase, never merge.\n", new_str="Rebase.\n"),
            ),
        ),
        ModelReply("merged Zeta; trimmed git"),
    ]  # fmt: skip
    service = ConsolidationService(
        home, provider_factory=lambda _: ScriptedProvider(reading_first(replies))
    )
    service.run(MAIN)
    return RunsLog(home).runs()[0].id


def test_reverting_a_consolidation_run_from_runs(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    """The issue's test: revert a consolidation run from Runs… — a file changed after the
    run is left alone, with why and the diff."""
    window = watched_window(qtbot, make_window, home)
    preferences_before = (home.global_root / "preferences.md").read_bytes()
    zeta_before = (home.global_root / "Zeta.md").read_bytes()
    run_id = consolidate(home)
    wait_for(qtbot, lambda: not shown(window, ZETA))
    git = home.global_root / "tools" / "git.md"
    git_after_run = git.read_text()
    store_of(home).save(
        vpath("/memories/global/tools/git.md"),
        git_after_run + "Changed after the run.\n",
        store_of(home).read(vpath("/memories/global/tools/git.md")).sha256,
    )

    runs = window.part(keys.HISTORY).open_runs()
    wait_for(qtbot, lambda: runs.runs and runs.detail is not None)
    assert runs.runs[0].id == run_id
    detail = runs.detail
    assert detail is not None and detail.run.id == run_id
    words = [op.words for op in detail.ops]
    assert words == [
        "Added 1 line to preferences.md",
        "Deleted Zeta.md",
        "Edited tools/git.md (+1 −1 lines)",
    ]
    runs.select_op(0)
    assert runs.diff.result is not None and runs.diff.result.added == 1
    runs.confirm_revert = lambda run: True  # type: ignore[method-assign]
    assert runs.revert_button.isEnabled()
    with qtbot.waitSignal(runs.reverted, timeout=WAIT_MS) as reverted:
        runs.revert_button.click()
    result = reverted.args[0]
    assert sorted(result.restored) == sorted([str(PREFERENCES), str(ZETA)])
    assert [refusal.path for refusal in result.refused] == ["/memories/global/tools/git.md"]
    assert (home.global_root / "preferences.md").read_bytes() == preferences_before
    assert (home.global_root / "Zeta.md").read_bytes() == zeta_before
    assert git.read_text() == git_after_run + "Changed after the run.\n"  # left alone
    shown_result = runs.result_dialog
    assert shown_result is not None
    rows = [
        shown_result.files.topLevelItem(i).text(0)  # type: ignore[union-attr]
        for i in range(shown_result.files.topLevelItemCount())
    ]
    assert rows == [RESTORED, RESTORED, LEFT_ALONE]
    assert "changed after the run (by You" in shown_result.files.currentItem().text(2)  # type: ignore[union-attr]
    assert shown_result.diff.result is not None and shown_result.diff.result.removed >= 1
    wait_for(qtbot, lambda: shown(window, ZETA))  # the tree follows through the watcher
    # The run is said to be partly reverted (git.md was left alone), and "Revert this
    # run…" is offered again, to finish once git.md is as the run left it.
    wait_for(qtbot, lambda: runs.detail is not None and runs.detail.reverted_at is not None)
    assert runs.revert_button.isEnabled()
    assert "\nPartly reverted by You " in runs.summary.text()
    assert runs.summary.text().endswith(": 1 file left as changed since")
    # The revert is a run of its own, listed first; the reverted run's row says so.
    wait_for(qtbot, lambda: len(runs.runs) == 2)
    assert runs.runs[0].kind == "revert" and runs.runs[0].reverts == run_id
    row = runs.run_list.topLevelItem(0)
    reverted_row = runs.run_list.topLevelItem(1)
    assert row is not None and row.text(1) == "Revert · You"
    assert reverted_row is not None and reverted_row.text(2).startswith("Partly reverted · ")
    assert runs.detail is not None and runs.detail.run.id == run_id  # still selected
    runs.select_run(runs.runs[0].id)
    wait_for(qtbot, lambda: runs.detail is not None and runs.detail.run.kind == "revert")
    assert not runs.revert_button.isEnabled()  # a revert is not reverted
    assert "a revert is not reverted" in runs.revert_button.toolTip()
    shown_result.close()
    runs.close()


def test_runs_filters_open_a_file_and_follow_the_log(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window = watched_window(qtbot, make_window, home)
    tab = window.memory_tab
    runs = window.part(keys.HISTORY).open_runs()
    wait_for(qtbot, lambda: not runs.busy)
    assert runs.runs == []
    assert runs.workspace_filter.currentData() == MAIN  # the shown workspace first
    run_id = consolidate(home)  # the runs log changes: the open dialog follows
    wait_for(qtbot, lambda: [run.id for run in runs.runs] == [run_id])
    runs.failed_only.setChecked(True)
    wait_for(qtbot, lambda: runs.runs == [])
    runs.failed_only.setChecked(False)
    runs.kind_filter.setCurrentIndex(runs.kind_filter.findData("writer"))
    wait_for(qtbot, lambda: runs.runs == [])
    runs.kind_filter.setCurrentIndex(0)
    wait_for(qtbot, lambda: runs.runs and runs.detail is not None)
    runs.select_op(1)  # Zeta.md was merged away: nothing to open
    runs.ops.itemDoubleClicked.emit(runs.ops.currentItem(), 0)
    assert "no longer exists" in runs.note.full_text
    runs.select_op(0)
    assert runs.open_button.isEnabled()
    runs.ops.itemDoubleClicked.emit(runs.ops.currentItem(), 0)
    wait_for(qtbot, lambda: tab.controller.editor.current_path == PREFERENCES)
    runs.close()


# --- Edit → Undo and the drop question -----------------------------------------------------


def test_undo_a_delete_with_ctrl_z_in_the_tree_brings_the_file_and_its_pin_back(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window = watched_window(qtbot, make_window, home)
    tab = window.memory_tab
    window.activateWindow()
    wait_for(qtbot, window.isActiveWindow)
    assert tab.tree.select_key(file_key(PREFERENCES))
    tab.controller.file_actions.delete_action.trigger()
    wait_for(qtbot, lambda: not shown(window, PREFERENCES))
    refresh_menus(qtbot, window)
    assert window.context.actions.action("files.undo").isEnabled()
    assert window.context.actions.action("files.undo").text() == "&Undo delete of preferences.md"
    tab.tree.setFocus()
    qtbot.keyClick(tab.tree, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)

    def back_with_its_pin() -> bool:  # the file and memory-meta.json: maybe two rescans
        node = tab.model.node_for_key(file_key(PREFERENCES))
        return node is not None and node.pinned

    wait_for(qtbot, back_with_its_pin)
    assert not tab.agent_edited  # Memtab brought it back: no "edited outside" badge
    assert MetaStore(home).load()[global_key("preferences.md")].access_count == 4
    refresh_menus(qtbot, window)
    assert not window.context.actions.action("files.undo").isEnabled()
    window.context.actions.release()  # the menu closed: Ctrl+Z works again
    # A folder: every file comes back, none opened, none badged as changed outside.
    tools = parse_file_path("/memories/global/tools")
    git = parse_file_path("/memories/global/tools/git.md")
    assert tab.tree.select_key(directory_key(tools))
    tab.controller.file_actions.delete_action.trigger()
    wait_for(qtbot, lambda: not shown(window, git))
    tab.tree.setFocus()
    qtbot.keyClick(tab.tree, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    wait_for(qtbot, lambda: shown(window, git))
    wait_idle(qtbot, window)
    assert not tab.agent_edited


def test_ctrl_z_pressed_while_the_delete_still_runs_waits_for_it_and_takes_it_back(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    # Delete, then Ctrl+Z at once: the delete's step is not on the undo stack yet (it runs
    # on the file worker). The key is meant for it: it must not say "Nothing to undo".
    window = watched_window(qtbot, make_window, home)
    tab = window.memory_tab
    tools = parse_file_path("/memories/global/tools")
    git = parse_file_path("/memories/global/tools/git.md")
    assert tab.tree.select_key(directory_key(tools))
    tab.controller.file_actions.delete_action.trigger()
    assert window.context.file_ops.busy
    window.part(keys.MENUS).refresh()
    assert window.context.actions.action("files.undo").isEnabled()
    window.context.actions.release()
    tab.tree.setFocus()
    qtbot.keyClick(tab.tree, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert "once the file operation in progress has ended" in window.statusBar().currentMessage()
    wait_for(qtbot, lambda: not window.context.file_ops.busy and shown(window, git))
    wait_idle(qtbot, window)
    assert shown(window, git)
    assert window.context.undo_stack.peek() is None  # the delete was taken back, not kept
    assert window.context.undo_stack.peek_redo() is not None


def test_edit_undo_takes_back_a_rename_and_reopens_the_file(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window = watched_window(qtbot, make_window, home)
    tab = window.memory_tab
    dialogs = tab.controller.dialogs
    assert isinstance(dialogs, FakeDialogs)
    renamed = parse_file_path("/memories/global/Omega.md")
    open_loaded(qtbot, tab.controller.editor, ZETA)
    assert tab.tree.select_key(file_key(ZETA))
    dialogs.move_target = renamed
    tab.controller.file_actions.rename_action.trigger()
    wait_for(qtbot, lambda: tab.controller.editor.current_path == renamed)
    refresh_menus(qtbot, window)
    assert window.context.actions.action("files.undo").text() == "&Undo rename of Zeta.md"
    window.context.actions.action("files.undo").trigger()
    wait_for(qtbot, lambda: shown(window, ZETA) and not shown(window, renamed))
    wait_for(qtbot, lambda: tab.controller.editor.current_path == ZETA)


def test_a_drop_into_another_scope_asks_first_unless_told_not_to(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window = watched_window(qtbot, make_window, home)
    tab, model = window.memory_tab, window.memory_tab.model
    dialogs = tab.controller.dialogs
    assert isinstance(dialogs, FakeDialogs)

    def drop(path: VirtualPath, section: SectionId) -> None:
        source = model.index_for_key(file_key(path))
        target = model.index_for_key(section_key(section))
        model.dropMimeData(model.mimeData([source]), Qt.DropAction.MoveAction, -1, -1, target)

    dialogs.confirm = False
    drop(ZETA, SectionId.PROJECT)
    assert dialogs.asked == [("cross-scope", ("Zeta.md",), "project memory (/memories/project)")]
    wait_idle(qtbot, window)
    assert (home.global_root / "Zeta.md").exists() and shown(window, ZETA)
    dialogs.confirm, dialogs.dont_ask_again = True, True
    drop(ZETA, SectionId.PROJECT)
    moved = parse_file_path("/memories/project/Zeta.md")
    wait_for(qtbot, lambda: shown(window, moved))
    state = window.ui_state
    assert state is not None and state.flag(ASK_CROSS_SCOPE_DROPS, default=True) is False
    drop(moved, SectionId.GLOBAL)  # not asked again
    wait_for(qtbot, lambda: shown(window, ZETA))
    assert len(dialogs.asked) == 2


# --- an orphaned project dir deleted from the tree ------------------------------------------


def test_a_deleted_orphan_dir_comes_back_with_undo_and_from_recently_deleted(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window = watched_window(qtbot, make_window, home)
    tab = window.memory_tab
    orphan = home.projects_root / ORPHAN / "old.md"
    content = orphan.read_bytes()

    def delete_orphan() -> None:
        assert tab.tree.select_key(orphan_key(ORPHAN))
        tab.controller.file_actions.delete_orphan_action.trigger()
        wait_for(qtbot, lambda: tab.model.node_for_key(orphan_key(ORPHAN)) is None)
        assert not orphan.exists()

    def undo_text() -> str:
        window.part(keys.MENUS).refresh()
        return window.context.actions.action("files.undo").text()

    delete_orphan()
    # The watcher's rescan may show the dir gone before the operation's result arrives.
    wait_for(qtbot, lambda: undo_text() == f"&Undo delete of {ORPHAN}")
    window.context.actions.action("files.undo").trigger()
    # The dir may be back (and shown) a moment before its file is.
    wait_for(qtbot, lambda: orphan.exists() and orphan.read_bytes() == content)
    wait_for(qtbot, lambda: tab.model.node_for_key(orphan_key(ORPHAN)) is not None)

    delete_orphan()  # …and later, from Recently deleted, under the dir's own group
    trash = window.part(keys.HISTORY).open_trash()
    wait_for(qtbot, lambda: trash.select_path(OLD, ORPHAN))
    (group,) = [g for g in trash.groups if g.orphan_dir == ORPHAN]
    assert group.label == f"Orphaned project memory {ORPHAN}"
    assert not trash.select_path(OLD)  # not a file of the workspace's project
    assert trash.select_path(OLD, ORPHAN)
    assert not trash.restore_to_button.isEnabled()  # it goes back into its dir
    wait_for(qtbot, lambda: trash.preview.toPlainText() == content.decode())
    trash.restore_button.click()
    wait_for(qtbot, lambda: orphan.exists() and orphan.read_bytes() == content)
    wait_for(qtbot, lambda: tab.model.node_for_key(orphan_key(ORPHAN)) is not None)
    assert store_of(home).kind_of(parse_file_path(OLD)) is None  # not the workspace's
    wait_for(qtbot, lambda: trash.note.full_text == f"Restored memory/project/{ORPHAN}/old.md")
    refresh_menus(qtbot, window)
    assert window.context.actions.action("files.undo").text() == "&Undo restore of old.md"
    window.context.actions.action("files.undo").trigger()
    wait_for(qtbot, lambda: not orphan.exists())
    wait_for(qtbot, lambda: trash.select_path(OLD, ORPHAN))  # in Recently deleted again
