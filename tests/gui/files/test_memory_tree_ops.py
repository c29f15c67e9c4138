"""File operations from the tree — create, rename/move, delete, pin, orphans — and the
tree's link to the editor (opening, the unsaved guard, the agent-edited badge)."""

from __future__ import annotations

import errno
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from gui.consolidation_support import a_plan
from gui.editor_support import settle
from gui.memory_tree_support import (
    WAIT_MS,
    FakeDialogs,
    WindowFactory,
    activate,
    wait_for,
    wait_idle,
    wait_watching,
)
from memtab.components.activity.badges import Actor
from memtab.components.files.ops import DeletionCount
from memtab.components.tree.nodes import (
    NodeKind,
    SectionId,
    directory_key,
    file_key,
    orphan_entry_key,
    orphan_key,
    section_key,
)
from memtab.components.window.mnemonics import without_mnemonic
from memtab.gui.first_paint.main_window import MainWindow
from memtab.gui.history import hub as history_ops
from memtab.store.catch_up.external import ExternalReport
from memtab.store.files import read_file_content
from memtab.store.history.blobs import BlobStore
from memtab.store.home import Home
from memtab.store.paths import Scope, VirtualPath, parse_file_path
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.meta import MetaStore, global_key, project_key
from support.memory_home import MAIN, MULTI, PROJECT, memory, touch_later
from support.memory_paths import vpath

pytestmark = pytest.mark.no_background_runs  # no writer, no check at start: none is tested here

home = support.home
make_window = support.make_window


def open_window(make_window: WindowFactory, home: Home) -> tuple[MainWindow, FakeDialogs]:
    window = make_window(home)
    dialogs = FakeDialogs()
    window.memory_tab.controller.dialogs = dialogs  # type: ignore[assignment]
    return window, dialogs


def select(window: MainWindow, key: str) -> None:
    assert window.memory_tab.tree.select_key(key), key


def path_key(raw: str) -> str:
    return file_key(parse_file_path(raw))


def test_new_file_with_description_is_created_shown_and_opened(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window, dialogs = open_window(make_window, home)
    tab = window.memory_tab
    target = parse_file_path("/memories/workspace/ideas/new.md")
    dialogs.new_item = (target, 'Ideas: "quoted" and more')
    select(window, section_key(SectionId.WORKSPACE))
    tab.controller.file_actions.new_file_action.trigger()
    assert dialogs.asked[0][1] == VirtualPath(Scope.WORKSPACE)
    wait_for(qtbot, lambda: tab.controller.editor.current_path == target)
    text = (home.workspace_root(MAIN) / "ideas" / "new.md").read_text()
    assert text.startswith("---\ndescription: 'Ideas: \"quoted\" and more'\n---")
    node = tab.model.node_for_key(file_key(target))
    assert node is not None and node.description == 'Ideas: "quoted" and more'
    assert not tab.agent_edited  # Memtab made it


def test_new_folder_in_the_selected_scope(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window, dialogs = open_window(make_window, home)
    select(window, path_key("/memories/project/architecture.md"))
    dialogs.new_item = (parse_file_path("/memories/project/runbooks"), "")
    window.memory_tab.controller.file_actions.new_folder_action.trigger()
    assert dialogs.asked[0][1] == VirtualPath(Scope.PROJECT)  # the file's folder
    key = directory_key(parse_file_path("/memories/project/runbooks"))
    wait_for(qtbot, lambda: window.memory_tab.model.node_for_key(key))
    assert (home.project_root(PROJECT) / "runbooks").is_dir()


def test_creating_over_an_existing_file_shows_the_error_and_changes_nothing(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window, dialogs = open_window(make_window, home)
    before = (home.global_root / "Zeta.md").read_text()
    dialogs.new_item = (parse_file_path("/memories/global/Zeta.md"), "")
    window.memory_tab.controller.file_actions.new_file_action.trigger()
    bar = window.memory_tab.controller.message_bar
    wait_for(qtbot, lambda: "already exists" in bar.text)
    assert (home.global_root / "Zeta.md").read_text() == before


def test_f2_renames_through_the_dialog(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window, dialogs = open_window(make_window, home)
    tab = window.memory_tab
    activate(qtbot, window)
    select(window, path_key("/memories/global/Zeta.md"))
    dialogs.move_target = parse_file_path("/memories/global/alpha.md")
    tab.tree.setFocus()
    qtbot.keyClick(tab.tree, Qt.Key.Key_F2)
    assert dialogs.asked == [("move", parse_file_path("/memories/global/Zeta.md"))]
    wait_for(qtbot, lambda: tab.model.node_for_key(path_key("/memories/global/alpha.md")))
    assert tab.model.node_for_key(path_key("/memories/global/Zeta.md")) is None
    assert (home.global_root / "alpha.md").is_file()


def test_dropping_a_pinned_file_on_another_scope_moves_it_with_its_pin(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window, _dialogs = open_window(make_window, home)
    tab = window.memory_tab
    model = tab.model
    source = model.index_for_key(path_key("/memories/global/preferences.md"))
    target = model.index_for_key(section_key(SectionId.PROJECT))
    model.dropMimeData(model.mimeData([source]), Qt.DropAction.MoveAction, -1, -1, target)
    moved = path_key("/memories/project/preferences.md")
    # A rescan may land between the move and its pin's; the pin follows in the next one.
    wait_for(qtbot, lambda: getattr(model.node_for_key(moved), "pinned", False))
    assert not (home.global_root / "preferences.md").exists()
    entries = MetaStore(home).load()
    assert entries[project_key(PROJECT, "preferences.md")].pinned
    assert global_key("preferences.md") not in entries


def test_a_move_onto_an_existing_name_is_refused_with_a_clear_message(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window, dialogs = open_window(make_window, home)
    (home.workspace_root(MAIN) / "Zeta.md").write_text("other")
    select(window, path_key("/memories/global/Zeta.md"))
    dialogs.move_target = parse_file_path("/memories/workspace/Zeta.md")
    window.memory_tab.controller.file_actions.rename_action.trigger()
    bar = window.memory_tab.controller.message_bar
    wait_for(qtbot, lambda: "already exists" in bar.text)
    assert (home.global_root / "Zeta.md").is_file()
    assert (home.workspace_root(MAIN) / "Zeta.md").read_text() == "other"


def test_delete_asks_then_deletes_and_closes_the_open_editor(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window, dialogs = open_window(make_window, home)
    tab = window.memory_tab
    activate(qtbot, window)
    notes = parse_file_path("/memories/workspace/notes.md")
    select(window, file_key(notes))
    wait_for(qtbot, lambda: tab.controller.editor.current_path == notes)
    tab.tree.setFocus()
    qtbot.keyClick(tab.tree, Qt.Key.Key_Delete)
    assert dialogs.asked == [("delete", ("notes.md",), 1, False)]
    assert tab.controller.editor.current_path is None
    wait_for(qtbot, lambda: tab.model.node_for_key(file_key(notes)) is None)
    assert not (home.workspace_root(MAIN) / "notes.md").exists()


def test_cancelled_delete_keeps_everything(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window, dialogs = open_window(make_window, home)
    dialogs.confirm = False
    select(window, directory_key(parse_file_path("/memories/global/tools")))
    window.memory_tab.controller.file_actions.delete_action.trigger()
    assert dialogs.asked == [("delete", ("tools",), 2, False)]
    wait_idle(qtbot, window)
    assert (home.global_root / "tools" / "git.md").is_file()


def test_delete_confirmation_counts_everything_that_goes() -> None:
    from memtab.components.files.questions import delete_confirmation_text

    def text(names: list[str], files: int, hidden: int = 0, only_files: bool = False) -> str:
        return delete_confirmation_text(names, DeletionCount(len(names), files, hidden), only_files)

    assert text(["notes.md"], 1, only_files=True) == "Delete notes.md?"
    assert text(["a.md", "b.md"], 2, only_files=True) == "Delete 2 files?"
    assert text(["tools"], 2) == "Delete tools — 2 files?"
    assert text(["tools"], 2, 1) == "Delete tools — 2 files, 1 of them hidden by the search filter?"
    assert text(["tools", "a.md", "b"], 5, 2) == (
        "Delete 3 items — 5 files, 2 of them hidden by the search filter?"
    )
    assert text(["empty-dir"], 0) == "Delete empty-dir — no files inside?"


def test_a_bulk_delete_under_a_search_counts_the_files_the_filter_hides(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    """Issue 19: search on, Ctrl+A, Delete asked "tools will be deleted." — no count, and
    nothing about git.md inside, hidden by the filter."""
    window, dialogs = open_window(make_window, home)
    tab = window.memory_tab
    activate(qtbot, window)
    tab.controller.search_box.edit.setText("python")
    wait_for(
        qtbot,
        lambda: (
            tab.model.node_for_key(path_key("/memories/global/tools/git.md")) is None
            and tab.model.node_for_key(path_key("/memories/global/tools/python.md")) is not None
        ),
    )
    wait_idle(qtbot, window)
    tab.tree.setFocus()
    qtbot.keyClick(tab.tree, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    selected = tab.tree.selected_nodes()
    assert selected and {node.kind for node in selected} <= {NodeKind.FILE, NodeKind.DIRECTORY}
    assert section_key(SectionId.GLOBAL) not in {node.key for node in selected}
    dialogs.confirm = False
    qtbot.keyClick(tab.tree, Qt.Key.Key_Delete)
    assert dialogs.asked == [("delete", ("tools",), 2, False)]
    assert dialogs.deletions == [DeletionCount(items=1, files=2, hidden=1)]
    wait_idle(qtbot, window)
    assert (home.global_root / "tools" / "git.md").is_file()


def test_select_all_never_selects_a_section_header(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window, _dialogs = open_window(make_window, home)
    tab = window.memory_tab
    activate(qtbot, window)
    tab.tree.setFocus()
    qtbot.keyClick(tab.tree, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    kinds = {node.kind for node in tab.tree.selected_nodes()}
    assert kinds == {NodeKind.FILE, NodeKind.DIRECTORY}


def test_ctrl_d_toggles_the_pin_and_mentions_mux(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window, _dialogs = open_window(make_window, home)
    tab = window.memory_tab
    activate(qtbot, window)
    key = path_key("/memories/global/Zeta.md")
    select(window, key)
    messages: list[str] = []
    tab.context.status.shown.connect(lambda text, _ms: messages.append(text))
    tab.tree.setFocus()
    qtbot.keyClick(tab.tree, Qt.Key.Key_D, Qt.KeyboardModifier.ControlModifier)
    wait_for(qtbot, lambda: (node := tab.model.node_for_key(key)) is not None and node.pinned)
    assert MetaStore(home).load()[global_key("Zeta.md")].pinned
    assert any("mux may overwrite" in message for message in messages)
    assert "mux may overwrite" in tab.controller.file_actions.pin_action.toolTip()
    tab.controller.file_actions.toggle_pin()
    wait_for(qtbot, lambda: (node := tab.model.node_for_key(key)) is not None and not node.pinned)


def test_context_menus_offer_what_each_row_allows(make_window: WindowFactory, home: Home) -> None:
    window, _dialogs = open_window(make_window, home)
    tab = window.memory_tab

    def texts(key: str) -> list[str]:
        node = tab.model.node_for_key(key)
        assert node is not None
        return [
            without_mnemonic(a.text())  # the menu gives each entry its letter as it opens
            for a in tab.controller.file_actions.context_menu(node).actions()
            if not a.isSeparator()
        ]

    assert texts(path_key("/memories/global/preferences.md")) == [
        "Unpin",
        "History",
        "Copy to…",
        "Rename or move…",
        "Copy path",
        "Open containing folder",
        "Delete…",
    ]
    assert texts(section_key(SectionId.GLOBAL)) == [
        "New memory file…",
        "New folder…",
        "Recently deleted in Global…",
        "Consolidate Global only",  # the window's action (docs/formats.md §9.8)
    ]
    assert "New folder…" in texts(directory_key(parse_file_path("/memories/global/tools")))
    assert texts(orphan_key("gone-0123456789ab")) == [
        "Delete orphaned project memory…",
        "Open containing folder",
    ]


def test_orphan_files_open_read_only_and_orphan_dirs_can_be_deleted(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window, dialogs = open_window(make_window, home)
    tab = window.memory_tab
    old = orphan_entry_key(
        "gone-0123456789ab", parse_file_path("/memories/project/old.md"), is_dir=False
    )
    select(window, old)
    settle(qtbot, window.memory_tab.controller.editor)
    assert tab.controller.editor.is_read_only
    assert "Orphaned note" in tab.controller.editor.buffer_text()
    select(window, orphan_key("gone-0123456789ab"))
    tab.controller.file_actions.delete_orphan_action.trigger()
    assert dialogs.asked == [("delete-orphan", "gone-0123456789ab", 1)]
    wait_for(qtbot, lambda: tab.model.node_for_key(section_key(SectionId.ORPHANS)) is None)
    assert not (home.projects_root / "gone-0123456789ab").exists()


def test_a_draft_stays_in_its_tab_when_another_file_opens(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window, _dialogs = open_window(make_window, home)
    tab = window.memory_tab
    notes = parse_file_path("/memories/workspace/notes.md")
    select(window, file_key(notes))
    settle(qtbot, window.memory_tab.controller.editor)
    assert tab.controller.editor.current_path == notes
    tab.controller.editor.text_edit.insertPlainText("draft ")
    assert tab.controller.editor.is_dirty
    select(window, path_key("/memories/global/Zeta.md"))  # no question: a tab each
    assert str(tab.controller.editor.current_path) == "/memories/global/Zeta.md"
    assert [str(ref.key) for ref in tab.controller.editor.open_refs] == [
        str(notes),
        "/memories/global/Zeta.md",
    ]
    select(window, file_key(notes))
    settle(qtbot, window.memory_tab.controller.editor)
    assert tab.controller.editor.current_path == notes
    assert "\ndraft \n" in tab.controller.editor.buffer_text()  # typed in its body
    current = tab.tree.current_node()
    assert current is not None and current.path == notes


def test_enter_opens_the_file_and_moves_focus_to_the_editor(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window, _dialogs = open_window(make_window, home)
    activate(qtbot, window)
    tab = window.memory_tab
    tab.tree.setFocus()
    select(window, path_key("/memories/global/Zeta.md"))
    qtbot.keyClick(tab.tree, Qt.Key.Key_Return)
    assert tab.controller.editor.current_path == parse_file_path("/memories/global/Zeta.md")
    assert tab.controller.editor.text_edit.hasFocus()


def test_tab_order_runs_picker_search_tree_editor_footer(
    make_window: WindowFactory, home: Home
) -> None:
    window, _dialogs = open_window(make_window, home)
    tab = window.memory_tab
    select(window, path_key("/memories/global/Zeta.md"))  # the editor page is shown
    chain: list[QWidget] = []
    widget: QWidget = tab.picker.combo
    for _ in range(200):
        if widget.focusPolicy() & Qt.FocusPolicy.TabFocus and widget.isVisibleTo(window):
            chain.append(widget)
        widget = widget.nextInFocusChain()
        if widget is tab.picker.combo:
            break
    consolidate = tab.controller.footer.consolidate_button  # type: ignore[attr-defined]
    order = [chain.index(w) for w in (tab.picker.combo, tab.controller.search_box.edit, tab.tree)]
    order += [chain.index(tab.controller.editor.text_edit), chain.index(consolidate)]
    assert order == sorted(order)


def test_an_outside_change_gets_the_agent_edited_badge_until_opened(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window, _dialogs = open_window(make_window, home)
    wait_watching(qtbot, window)
    tab = window.memory_tab
    git = home.global_root / "tools" / "git.md"
    touch_later(git, memory("Git conventions", "Squash merges only.\n"))
    wait_for(qtbot, lambda: str(git) in tab.agent_edited)
    index = tab.model.index_for_key(path_key("/memories/global/tools/git.md"))
    assert "agent edited" in index.data(Qt.ItemDataRole.AccessibleDescriptionRole)
    select(window, path_key("/memories/global/tools/git.md"))
    settle(qtbot, window.memory_tab.controller.editor)
    assert str(git) not in tab.agent_edited


def test_after_a_reviewed_run_an_outside_change_is_badged_as_outside(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window, _dialogs = open_window(make_window, home)
    wait_watching(qtbot, window)
    tab = window.memory_tab
    consolidation = tab.controller.consolidation
    # Consolidate now with review: the run makes a plan (and changes nothing); the user
    # discards it.
    consolidation.run_started.emit(tab.view().workspace.id)
    consolidation.plan_ready.emit(a_plan(True))
    review = tab.controller.footer.review_dialog  # type: ignore[attr-defined]
    if review is not None:
        review.reject()
    git = home.global_root / "tools" / "git.md"
    touch_later(git, memory("Git conventions", "Squash merges only.\n"))
    wait_for(qtbot, lambda: str(git) in tab.agent_edited)
    badge = tab.controller.marks.edits.badge(str(git))
    assert badge is not None and badge.actor is Actor.OUTSIDE, badge


def test_memtabs_own_saves_get_no_badge(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window, _dialogs = open_window(make_window, home)
    wait_watching(qtbot, window)
    tab = window.memory_tab
    zeta = parse_file_path("/memories/global/Zeta.md")
    select(window, file_key(zeta))
    select(window, path_key("/memories/global/preferences.md"))  # Zeta is no longer open
    scans: list[object] = []
    tab.context.shown.scan_applied.connect(scans.append)
    physical = home.global_root / "Zeta.md"
    sha = read_file_content(physical).sha256
    result = MemoryStore.of(tab.view()).save(vpath(zeta), memory("Saved by Memtab"), sha)
    tab.context.own_writes.note(zeta, result.sha256)
    wait_for(
        qtbot,
        lambda: (
            (node := tab.model.node_for_key(file_key(zeta)))
            and node.description == "Saved by Memtab"
        ),
    )
    assert str(physical) not in tab.agent_edited


def test_create_relative_and_absolute_names_in_the_dialog(tmp_path: Path, home: Home) -> None:
    from memtab.components.files.questions import NewKind, resolve_move_target, resolve_new_path
    from memtab.store.paths import VirtualPath
    from memtab.store.scopes.memory import MemoryStore

    store = MemoryStore.open(home, MULTI)
    tools = parse_file_path("/memories/global/tools")
    assert resolve_new_path(store, tools, "docker", NewKind.FILE) == (
        parse_file_path("/memories/global/tools/docker.md"),
        None,
    )
    path, error = resolve_new_path(store, tools, "/memories/project/x.md", NewKind.FILE)
    assert path is None and error is not None and "multi-project" in error
    path, error = resolve_new_path(store, tools, "../escape.md", NewKind.FILE)
    assert path is None and error is not None and ".." in error
    assert resolve_new_path(store, tools, "sub", NewKind.FOLDER)[0] == tools.child("sub")
    target, error = resolve_move_target(store, tools, "/memories/global/tools/inner")
    assert target is None and error is not None and "into itself" in error
    assert resolve_move_target(store, tools, "/memories/workspace/tools") == (
        VirtualPath(parse_file_path("/memories/workspace/tools").scope, ("tools",)),
        None,
    )


def test_the_menu_key_opens_the_current_rows_context_menu(
    make_window: WindowFactory, home: Home, monkeypatch: pytest.MonkeyPatch
) -> None:
    from PySide6.QtCore import QPoint
    from PySide6.QtGui import QContextMenuEvent
    from PySide6.QtWidgets import QApplication, QMenu

    window, _dialogs = open_window(make_window, home)
    tab = window.memory_tab
    shown: list[list[str]] = []

    def fake_show(menu: QMenu, where: QPoint) -> None:
        shown.append([without_mnemonic(a.text()) for a in menu.actions() if not a.isSeparator()])

    monkeypatch.setattr(tab, "show_menu", fake_show)
    select(window, path_key("/memories/global/Zeta.md"))
    viewport = tab.tree.viewport()
    event = QContextMenuEvent(
        QContextMenuEvent.Reason.Keyboard, QPoint(0, 0), viewport.mapToGlobal(QPoint(0, 0))
    )
    QApplication.sendEvent(viewport, event)
    assert shown and shown[0][0] == "Pin"


def test_a_rescan_keeps_expansion_selection_and_scroll_position(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window, _dialogs = open_window(make_window, home)
    wait_watching(qtbot, window)
    tab = window.memory_tab
    window.resize(700, 320)
    window.show()
    tools = directory_key(parse_file_path("/memories/global/tools"))
    tab.tree.setExpanded(tab.model.index_for_key(tools), False)
    select(window, path_key("/memories/project/architecture.md"))
    bar = tab.tree.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 0, timeout=WAIT_MS)
    bar.setValue(bar.maximum() // 2)
    scroll = bar.value()
    updates: list[bool] = []
    tab.tree_updated.connect(lambda: updates.append(True))
    touch_later(home.global_root / "Zeta.md", memory("Changed outside"))
    wait_for(
        qtbot,
        lambda: (
            updates
            and (n := tab.model.node_for_key(path_key("/memories/global/Zeta.md")))
            and n.description == "Changed outside"
        ),
    )
    assert not tab.tree.isExpanded(tab.model.index_for_key(tools))
    current = tab.tree.current_node()
    assert current is not None and current.path == parse_file_path(
        "/memories/project/architecture.md"
    )
    assert bar.value() == scroll


def test_transcript_and_lock_writes_do_not_cause_rescans(
    qtbot: QtBot, make_window: WindowFactory, home: Home, monkeypatch: pytest.MonkeyPatch
) -> None:
    window, _dialogs = open_window(make_window, home)
    wait_watching(qtbot, window)
    tab = window.memory_tab
    requested: list[list[str] | None] = []
    request = tab.scans.request
    monkeypatch.setattr(
        tab.scans, "request", lambda paths, **kw: (requested.append(paths), request(paths, **kw))
    )
    transcript = home.workspace_dir(MAIN) / "chat.jsonl"
    transcript.write_text("{}\n")
    (home.memtab_dir / "locks").mkdir(parents=True, exist_ok=True)
    (home.memtab_dir / "locks" / "x.lock").write_text("")
    # Written last, so seen last: by the time its scan lands the others were seen too.
    zeta = home.global_root / "Zeta.md"
    with qtbot.waitSignal(tab.context.shown.scan_applied, timeout=WAIT_MS):
        touch_later(zeta, memory("Changed"))
    # Rescans of the memory file alone: the transcript and the lock were left out.
    assert requested and all(paths == [str(zeta)] for paths in requested), requested


def _disk_full(*_args: object, **_kwargs: object) -> None:
    raise OSError(errno.ENOSPC, "No space left on device")


@pytest.mark.parametrize("go_on", [False, True])
def test_a_delete_history_cannot_keep_asks_before_deleting_without_a_copy(
    qtbot: QtBot,
    make_window: WindowFactory,
    home: Home,
    monkeypatch: pytest.MonkeyPatch,
    expect_log: Any,
    go_on: bool,
) -> None:
    monkeypatch.setattr(history_ops, "record_external_changes", lambda *_args: ExternalReport())
    window, dialogs = open_window(make_window, home)  # history has no copy of notes.md
    notes = parse_file_path("/memories/workspace/notes.md")
    physical = home.workspace_root(MAIN) / "notes.md"
    monkeypatch.setattr(BlobStore, "put", _disk_full)
    dialogs.without_copy = go_on
    if go_on:
        expect_log("memtab.store.history.recorder", "WARNING", r"deleted without a copy")
        expect_log("memtab.store.history.recorder", "WARNING", r"Could not record")
    select(window, file_key(notes))
    window.memory_tab.controller.file_actions.delete_action.trigger()
    wait_for(qtbot, lambda: len(dialogs.asked) == 2)
    (_, refusal, done) = dialogs.asked[1]
    assert dialogs.asked[1][0] == "without-copy" and done == "deleted"
    assert refusal == (
        f"{notes} was not deleted: history cannot keep a copy of what it holds "
        f"(the disk holding {home.history_dir} is full)"
    )
    if go_on:
        wait_for(qtbot, lambda: not physical.exists())
    wait_idle(qtbot, window)
    assert physical.exists() is not go_on
    assert window.memory_tab.model.node_for_key(file_key(notes)) is None or not go_on
