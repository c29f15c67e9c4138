"""The Memory tab at scale: the outline painted first, the rest built after it, and
directories filled as they are opened — correct under watcher updates, search, selection,
badges and drag and drop.

The standard test home is small; the thresholds are lowered so it is treated like a big
one (`LAZY_FILL_MIN_FILES`, `OUTLINE_MIN_FILES`, and `EXPAND_ALL_MAX_FILES` so nothing but
the scopes opens by itself). The tree tests of `test_memory_tree_ops` and `test_search`
also run here, under those thresholds.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, Qt
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from gui.files import test_memory_tree_ops as ops
from gui.memory_tree_support import (
    WAIT_MS,
    FakeDialogs,
    WindowFactory,
    wait_idle,
    wait_watching,
)
from gui.search import test_search as search
from memtab.components.tree import scan as views_scan
from memtab.components.tree import tree as views_tree
from memtab.components.tree.full_scan import scan_home
from memtab.components.tree.nodes import NodeKind, directory_key, file_key
from memtab.components.tree.scan import ScanRequest
from memtab.components.tree.tree import build_tree
from memtab.fs.atomic import atomic_write_text
from memtab.gui.first_paint import memory_tab as tab_module
from memtab.gui.first_paint.main_window import MainWindow
from memtab.gui.tree.model import MIME_TYPE
from memtab.store import files as store_files
from memtab.store.home import Home
from memtab.store.paths import Scope, VirtualPath, parse_file_path
from support.memory_home import MAIN, PROJECT, memory
from support.spies import calls_through

pytestmark = pytest.mark.no_background_runs  # no writer, no check at start: none is tested here

home = support.home
make_window = support.make_window

TOOLS = directory_key(VirtualPath(Scope.GLOBAL, ("tools",)))
GIT = file_key(parse_file_path("/memories/global/tools/git.md"))
DECISIONS = directory_key(VirtualPath(Scope.PROJECT, ("decisions",)))


@pytest.fixture(autouse=True)
def treated_as_big(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(views_tree, "LAZY_FILL_MIN_FILES", 0)
    monkeypatch.setattr(views_scan, "OUTLINE_MIN_FILES", 1)
    yield


@pytest.fixture
def collapsed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only the scopes open by themselves (as in a home over 150 files)."""
    monkeypatch.setattr(tab_module, "EXPAND_ALL_MAX_FILES", 0)


# The tree's behaviour tests, again with every directory filled as it is opened.
test_ops_new_file_with_description = ops.test_new_file_with_description_is_created_shown_and_opened
test_ops_drop_pinned_file = ops.test_dropping_a_pinned_file_on_another_scope_moves_it_with_its_pin
test_ops_delete = ops.test_delete_asks_then_deletes_and_closes_the_open_editor
test_ops_context_menus = ops.test_context_menus_offer_what_each_row_allows
test_ops_orphans = ops.test_orphan_files_open_read_only_and_orphan_dirs_can_be_deleted
test_ops_badge = ops.test_an_outside_change_gets_the_agent_edited_badge_until_opened
test_ops_own_saves = ops.test_memtabs_own_saves_get_no_badge
test_ops_rescan_keeps_state = ops.test_a_rescan_keeps_expansion_selection_and_scroll_position
test_search_filters = search.test_typing_filters_every_scope_off_the_gui_thread
test_search_clearing = search.test_clearing_the_search_restores_the_tree_and_its_expansion


def rows(window: MainWindow, key: str) -> list[str]:
    node = window.memory_tab.model.node_for_key(key)
    assert node is not None, key
    return [child.name for child in node.children if child.kind is NodeKind.FILE]


def test_the_outline_is_shown_before_any_file_is_read(
    qtbot: QtBot, make_window: WindowFactory, home: Home, tmp_path: Path
) -> None:
    from memtab.components.window.ui_state import UiState
    from memtab.gui.first_paint.app import create_main_window

    window = create_main_window(home, MAIN, ui_state=UiState(tmp_path / "ui.json"))
    qtbot.addWidget(window)
    tab = window.memory_tab
    outline: list[tuple[object, list[int], int]] = []

    def on_tree_ready() -> None:
        files = [node for node in tab.model.nodes() if node.kind is NodeKind.FILE]
        counts = [section.file_count for section in tab.model.root.children]
        outline.append((tab.scan, counts, len(files)))

    tab.tree_ready.connect(on_tree_ready)
    try:
        qtbot.waitUntil(lambda: tab.is_loaded, timeout=WAIT_MS)
        assert outline == [(None, [4, 2, 1, 1], 0)]  # counts, folders, no file read yet
        assert tab.is_assembled
        assert rows(window, TOOLS) == ["git.md", "python.md"]  # opened: expand-all home
    finally:
        window.close_without_asking()


def test_the_first_scan_starts_once_the_outline_has_painted(
    qtbot: QtBot, home: Home, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Queued behind the outline, the scan held the interpreter on its worker while the GUI
    # thread merged and painted the outline.
    from memtab.components.tree import scan_policy as tree
    from memtab.components.window.ui_state import UiState
    from memtab.gui.first_paint.app import create_main_window

    events: list[str] = []
    real_scan = tree.scan

    def scan(*args: object, **kwargs: object) -> object:
        events.append("scan started")  # on the scans lane, once submitted
        return real_scan(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(tree, "scan", scan)
    window = create_main_window(home, MAIN, ui_state=UiState(tmp_path / "ui.json"))
    qtbot.addWidget(window)
    tab = window.memory_tab
    tab.tree_ready.connect(lambda: events.append("outline shown"))
    tab.tree_ready.connect(lambda: tab.tree.after_next_paint(lambda: events.append("painted")))
    window.show()
    try:
        qtbot.waitUntil(lambda: tab.is_loaded, timeout=WAIT_MS)
        assert events[:3] == ["outline shown", "painted", "scan started"]
    finally:
        window.close_without_asking()


def test_the_first_scan_lists_the_outlines_walks_without_walking_again(
    qtbot: QtBot, home: Home, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from memtab.components.window.ui_state import UiState
    from memtab.gui.first_paint.app import create_main_window

    walks = calls_through(monkeypatch, store_files, "walk_scope")
    window = create_main_window(home, MAIN, ui_state=UiState(tmp_path / "ui.json"))
    qtbot.addWidget(window)
    tab = window.memory_tab
    walked_before_descriptions: list[int] = []
    tab.descriptions_shown.connect(lambda: walked_before_descriptions.append(len(walks)))
    window.show()
    try:
        qtbot.waitUntil(lambda: tab.is_loaded, timeout=WAIT_MS)
        assert walked_before_descriptions == [4]  # the outline's: 3 scopes, an orphan dir
        assert rows(window, TOOLS) == ["git.md", "python.md"]
    finally:
        window.close_without_asking()


def test_a_collapsed_directory_is_filled_when_expanded(
    qtbot: QtBot, make_window: WindowFactory, home: Home, collapsed: None
) -> None:
    window = make_window(home)
    tab = window.memory_tab
    tools = tab.model.node_for_key(TOOLS)
    assert tools is not None and tools.children == [] and tools.unfilled_files == 2
    assert tools.file_count == 2 and tab.model.hasChildren(tab.model.index_for_node(tools))
    assert tab.model.node_for_key(GIT) is None
    tab.tree.setExpanded(tab.model.index_for_key(TOOLS), True)
    assert rows(window, TOOLS) == ["git.md", "python.md"]
    full = build_tree(scan_home(ScanRequest(home, MAIN)), open_containers={TOOLS})
    expected = next(node for node in full.walk() if node.key == GIT)
    shown = tab.model.node_for_key(GIT)
    assert shown is not None and shown.signature() == expected.signature()
    assert TOOLS in tab.open_containers


def test_outside_changes_show_in_filled_and_unfilled_directories(
    qtbot: QtBot, make_window: WindowFactory, home: Home, collapsed: None
) -> None:
    window = make_window(home)
    wait_watching(qtbot, window)
    tab = window.memory_tab
    tab.tree.setExpanded(tab.model.index_for_key(TOOLS), True)
    atomic_write_text(home.global_root / "tools" / "git.md", memory("Git, as an agent wrote it"))

    def git_updated() -> bool:
        node = tab.model.node_for_key(GIT)
        return node is not None and node.description == "Git, as an agent wrote it"

    qtbot.waitUntil(git_updated, timeout=WAIT_MS)
    git = tab.model.node_for_key(GIT)
    assert git is not None and tab.model.badge_for(git) is not None
    # A new file in a directory never opened: its count, no row until it is opened.
    atomic_write_text(home.project_root(PROJECT) / "decisions" / "cache.md", memory("Why Redis"))

    def counted() -> bool:
        node = tab.model.node_for_key(DECISIONS)
        return node is not None and node.file_count == 2

    qtbot.waitUntil(counted, timeout=WAIT_MS)
    decisions = tab.model.node_for_key(DECISIONS)
    assert decisions is not None and decisions.children == [] and decisions.unfilled_files == 2
    tab.tree.setExpanded(tab.model.index_for_key(DECISIONS), True)
    assert rows(window, DECISIONS) == ["cache.md", "db.md"]
    cache_key = file_key(VirtualPath(Scope.PROJECT, ("decisions", "cache.md")))
    cache = tab.model.node_for_key(cache_key)
    assert cache is not None and tab.model.badge_for(cache) is not None  # badged while unfilled


def test_the_remembered_file_reopens_from_an_unfilled_directory(
    qtbot: QtBot, make_window: WindowFactory, home: Home, collapsed: None, tmp_path: Path
) -> None:
    from memtab.components.window.ui_state import UiState

    state = UiState(tmp_path / "state.json")
    state.set_open_file(home.root, MAIN, "/memories/global/tools/git.md")
    window = make_window(home, ui_state=state)
    tab = window.memory_tab
    qtbot.waitUntil(
        lambda: (
            tab.controller.editor.current_path == parse_file_path("/memories/global/tools/git.md")
        ),
        timeout=WAIT_MS,
    )
    assert tab.tree.current_node() is tab.model.node_for_key(GIT)


def test_search_reaches_unfilled_directories_and_clearing_keeps_what_was_opened(
    qtbot: QtBot, make_window: WindowFactory, home: Home, collapsed: None
) -> None:
    window = make_window(home)
    tab = window.memory_tab
    tab.tree.setExpanded(tab.model.index_for_key(TOOLS), True)
    tab.controller.search_box.edit.setText("postgres")
    qtbot.waitUntil(lambda: support.file_names(window) == ["project:db.md"], timeout=WAIT_MS)
    tab.controller.search_box.edit.clear()
    qtbot.waitUntil(
        lambda: not tab.controller.search_box.query.active and tab.is_idle, timeout=WAIT_MS
    )
    wait_idle(qtbot, window)
    assert rows(window, TOOLS) == ["git.md", "python.md"]
    decisions = tab.model.node_for_key(DECISIONS)
    assert decisions is not None and decisions.unfilled_files == 1


def test_a_drop_onto_an_unfilled_directory_moves_the_file_into_it(
    qtbot: QtBot, make_window: WindowFactory, home: Home, collapsed: None
) -> None:
    window = make_window(home)
    wait_watching(qtbot, window)
    tab = window.memory_tab
    dialogs = FakeDialogs()  # the move crosses scopes: it is asked about first
    tab.controller.dialogs = dialogs  # type: ignore[assignment]
    data = QMimeData()
    data.setData(MIME_TYPE, b"/memories/global/Zeta.md")
    target = tab.model.index_for_key(DECISIONS)
    assert tab.model.canDropMimeData(data, Qt.DropAction.MoveAction, -1, 0, target)
    tab.model.dropMimeData(data, Qt.DropAction.MoveAction, -1, 0, target)

    def moved() -> bool:
        node = tab.model.node_for_key(DECISIONS)
        return node is not None and node.file_count == 2

    qtbot.waitUntil(moved, timeout=WAIT_MS)
    assert (home.project_root(PROJECT) / "decisions" / "Zeta.md").is_file()
    assert [asked[0] for asked in dialogs.asked] == ["cross-scope"]


@pytest.mark.slow
def test_only_the_tree_is_built_before_the_first_paint(home: Home, tmp_path: Path) -> None:
    """The editor, footer, search, dialogs, YAML and watchdog load after the tree paints."""
    probe = f"""
import json, sys
from pathlib import Path
import memtab.components.tree.scan as views_scan
views_scan.OUTLINE_MIN_FILES = 1
from memtab.gui.first_paint.app import application, create_main_window
from memtab.components.window.ui_state import UiState
from memtab.store.home import Home

LATER = ["memtab.gui.editor.editor", "memtab.gui.consolidation.footer",
         "memtab.gui.search.box", "memtab.gui.files.dialogs",
         "memtab.gui.toolkit.text.diff_view", "memtab.gui.editor.text.view",
         "memtab.gui.settings.dialog", "memtab.gui.window.menus",
         "memtab.gui.writer.inbox_panel", "memtab.gui.activity.edit_marks",
         "yaml", "watchdog"]
seen = {{}}
app = application()
window = create_main_window(Home(Path({str(home.root)!r})), None,
                            ui_state=UiState(Path({str(tmp_path / "ui.json")!r})))
tab = window.memory_tab
def note(event):
    seen[event] = [name for name in LATER if name in sys.modules]
    seen[event + " menus"] = [action.text() for action in window.menuBar().actions()]
tab.tree_ready.connect(lambda: note("tree_ready"))
tab.assembled.connect(lambda: note("assembled"))
tab.loaded.connect(lambda: (note("loaded"), app.quit()))
window.show()
app.exec()
window.close_without_asking()
print(json.dumps(seen))
"""
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    seen = json.loads(result.stdout.strip().splitlines()[-1])
    assert seen["tree_ready"] == []
    assert seen["tree_ready menus"] == seen["loaded menus"]  # the menu bar never moves
    assert "memtab.gui.editor.editor" in seen["assembled"]
    assert "memtab.gui.consolidation.footer" in seen["assembled"]


def test_the_search_field_stand_in_says_what_the_field_says(
    make_window: WindowFactory, home: Home
) -> None:
    from memtab.gui.first_paint.memory_tab import SEARCH_PLACEHOLDER

    window = make_window(home)
    assert window.memory_tab.controller.search_box.edit.placeholderText() == SEARCH_PLACEHOLDER
