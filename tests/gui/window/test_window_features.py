"""The window's features: built phase by phase from one list (the Memory tab's parts
too, however early the tab is assembled), closed in reverse, and following the watcher's
batches through the context, classified once."""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from gui.memory_tree_support import WAIT_MS, WindowFactory
from memtab.components.activity.change_batch import ChangeBatch
from memtab.components.editor.session import BarKind
from memtab.components.window.phases import Feature, Phase
from memtab.components.window.ui_state import UiState
from memtab.gui.activity.watch import HomeWatcher
from memtab.gui.first_paint import app
from memtab.gui.first_paint.app import create_main_window
from memtab.gui.first_paint.main_window import MainWindow
from memtab.gui.first_paint.memory_tab import MemoryTab
from memtab.gui.window import features as window_features
from memtab.gui.window import keys
from memtab.gui.window.features import WINDOW_FEATURES
from memtab.store.home import Home, PathKind, PathPlace
from support.memory_home import MAIN

home = support.home
make_window = support.make_window


def test_every_feature_follows_one_classification_of_each_batch(
    qtbot: QtBot, make_window: WindowFactory, home: Home, monkeypatch: pytest.MonkeyPatch
) -> None:
    window = make_window(home)
    support.wait_watching(qtbot, window)
    assert window.traces_tab is not None  # built on demand: it follows the batches too
    assert window.part(keys.HISTORY) is not None and window.part(keys.CHECK) is not None
    assert window.part(keys.SYNC) is not None and window.built_part(keys.WRITER) is not None
    classified: list[str] = []
    classify = Home.classify

    def counting(self: Home, path: str | Path) -> PathPlace:
        classified.append(str(path))
        return classify(self, path)

    monkeypatch.setattr(Home, "classify", counting)
    published: list[ChangeBatch] = []
    window.context.changes.published.connect(published.append)
    paths = [
        str(home.global_root / "notes.md"),
        str(home.transcript_path(MAIN)),
        str(home.runs_log_path),
        str(home.journal_path),
    ]
    window.watcher.paths_changed.emit(paths)
    # (a batch the real watcher brings meanwhile names other paths: not counted)
    assert [path for path in classified if path in paths] == paths, "each classified once"
    [batch] = published
    assert batch.paths == tuple(paths)
    assert [place.kind for place in batch.places] == [
        PathKind.GLOBAL_SCOPE,
        PathKind.CHAT_TRANSCRIPT,
        PathKind.RUNS_LOG,
        PathKind.CONSOLIDATION_JOURNAL,
    ]


def test_the_window_builds_its_features_phase_by_phase_in_the_lists_order(
    qtbot: QtBot, make_window: WindowFactory, home: Home, monkeypatch: pytest.MonkeyPatch
) -> None:
    window = make_window(home)
    support.wait_watching(qtbot, window)
    features = window.features
    assert features is not None and features.reached is Phase.WATCHING
    expected = [f.name for f in WINDOW_FEATURES if f.phase is not Phase.ON_DEMAND]
    assert list(features.built) == expected
    assert expected.index("menus") > expected.index("sync"), "made from what they registered"
    assert window.part(keys.MENUS) is not None and window.built_part(keys.WRITER) is not None
    assert features.part("traces") is None, "on demand: not shown yet"
    window.show_traces_tab()
    assert features.built[-1] == "traces" and features.part("traces") is window.traces_tab
    stopped: list[str] = []
    for name in ("memory tab", "history", "writer", "traces"):
        shutdown = getattr(features.part(name), "shutdown")  # noqa: B009
        stopping = functools.partial(stop, stopped, name, shutdown)
        monkeypatch.setattr(features.part(name), "shutdown", stopping)
    window.close_without_asking()
    assert stopped == ["traces", "writer", "history", "memory tab"], "the last built first"


def stop(stopped: list[str], name: str, shutdown: Callable[[], None]) -> None:
    stopped.append(name)
    shutdown()


TAB_PARTS = {
    "consolidation": window_features.CONSOLIDATION,
    "editor": window_features.EDITOR,
    "footer": window_features.FOOTER,
    "host": window_features.TAB_HOST,
    "marks": window_features.MARKS,
    "inbox": window_features.INBOX,
    "mux": window_features.MUX,
    "sources": window_features.SOURCES,
    "editor_link": window_features.EDITOR_LINK,
    "search_box": window_features.SEARCH_BOX,
    "file_actions": window_features.FILE_ACTIONS,
    "files": window_features.FILES,
    "message_bar": window_features.MESSAGE_BAR,
    "news_bar": window_features.NEWS_BAR,
}
"""The Memory tab controller's parts, each the part of the feature its key names."""


class Recorded:
    """How many times each feature of the window's list was built."""

    def __init__(self) -> None:
        self.builds: dict[str, int] = {}

    def wrap(self, feature: Feature[MainWindow]) -> Feature[MainWindow]:
        def build(window: MainWindow) -> object:
            part = feature.build(window)
            self.builds[feature.name] = self.builds.get(feature.name, 0) + 1
            return part

        return Feature(feature.name, feature.phase, build)


def assert_parts_are_the_features(window: MainWindow) -> None:
    """The controller's parts are those the composition keeps by their keys, built after
    the paint and before the controller."""
    controller = window.memory_tab.controller
    assert controller is not None and controller is window.part(window_features.MEMORY_TAB)
    assert {name: getattr(controller, name) for name in TAB_PARTS} == {
        name: window.part(key) for name, key in TAB_PARTS.items()
    }
    assert controller.dialogs is window.part(window_features.DIALOGS)
    names = [feature.name for feature in WINDOW_FEATURES]
    for key in TAB_PARTS.values():
        [feature] = [feature for feature in WINDOW_FEATURES if feature.name == key.name]
        assert feature.phase is Phase.AFTER_PAINT
        assert names.index(key.name) < names.index(window_features.MEMORY_TAB.name)
    assert names.index(window_features.MEMORY_TAB.name) < names.index("history")


@pytest.fixture
def recorded(monkeypatch: pytest.MonkeyPatch) -> Recorded:
    """The window's list, each feature's building recorded."""
    record = Recorded()
    wrapped = tuple(record.wrap(feature) for feature in WINDOW_FEATURES)
    monkeypatch.setattr(window_features, "WINDOW_FEATURES", wrapped)
    return record


def test_the_memory_tab_controller_is_built_with_the_parts_the_composition_keeps(
    qtbot: QtBot, make_window: WindowFactory, home: Home, recorded: Recorded
) -> None:
    window = make_window(home)
    support.wait_watching(qtbot, window)
    assert_parts_are_the_features(window)
    assert set(recorded.builds.values()) == {1}, "each feature built once"


def early_window(qtbot: QtBot, home: Home, tmp_path: Path) -> MainWindow:
    """A window just made: its scan started, nothing shown or painted yet."""
    window = create_main_window(
        home,
        MAIN,
        ui_state=UiState(tmp_path / "ui.json"),
        watcher=HomeWatcher(debounce_ms=30, max_latency_ms=300),
    )
    qtbot.addWidget(window)
    assert window.memory_tab.scan is None and window.features is None
    return window


def test_the_first_scan_is_on_its_way_while_the_window_is_built(
    qtbot: QtBot, home: Home, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The worker reads the outline while Qt builds the window and loads its fonts (C++ that
    lets go of the interpreter), not after."""
    scanning: list[bool] = []
    build_window = MainWindow

    def watched_window(context: object, tab: MemoryTab, *args: object, **kwargs: object) -> object:
        scanning.append(tab.scans.busy)
        return build_window(context, tab, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(app, "MainWindow", watched_window)
    window = early_window(qtbot, home, tmp_path)
    window.close_without_asking()
    assert scanning == [True]


@pytest.mark.parametrize("early", ["assemble", "show_error"])
def test_the_memory_tab_assembled_before_its_paint_builds_its_parts_through_the_list(
    qtbot: QtBot, home: Home, tmp_path: Path, recorded: Recorded, early: str
) -> None:
    window = early_window(qtbot, home, tmp_path)
    tab = window.memory_tab
    try:
        if early == "assemble":
            tab.assemble()  # e.g. a search asked for before the paint
        else:
            tab.show_error("The home could not be read")
            assert tab.controller.message_bar.kind is BarKind.ERROR
            assert tab.controller.message_bar.text == "The home could not be read"
        features = window.features
        assert features is not None and features.reached is Phase.AFTER_PAINT
        up_to_after_paint = [f.name for f in WINDOW_FEATURES if f.phase <= Phase.AFTER_PAINT]
        assert list(features.built) == up_to_after_paint
        assert_parts_are_the_features(window)
        assert tab.is_assembled and not tab.is_loaded
        tab.assemble()
        qtbot.waitUntil(lambda: tab.is_loaded, timeout=WAIT_MS)  # the scan caught up
        support.wait_watching(qtbot, window)
        assert list(features.built) == [
            f.name for f in WINDOW_FEATURES if f.phase is not Phase.ON_DEMAND
        ]
        assert set(recorded.builds.values()) == {1}, "nothing built twice"
    finally:
        window.close_without_asking()


def test_a_window_closed_before_its_memory_tab_is_assembled_builds_nothing_after(
    qtbot: QtBot, home: Home, tmp_path: Path, recorded: Recorded
) -> None:
    window = early_window(qtbot, home, tmp_path)
    tab = window.memory_tab
    window.close_without_asking()
    tab.assemble()  # e.g. the first scan's paint, come after the window closed
    assert window.features is None and not tab.is_assembled
    assert recorded.builds == {} and tab.controller is None


def test_closing_stops_the_tabs_scans_then_its_parts_once_and_saves_its_badges(
    qtbot: QtBot, home: Home, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    window = early_window(qtbot, home, tmp_path)
    tab = window.memory_tab
    tab.assemble()
    calls: list[str] = []
    for name, part, method in (
        ("scans", tab.scans, "shutdown"),
        ("search box", tab.controller.search_box, "shutdown"),
        ("mux", tab.controller.mux, "shutdown"),
        ("editor", tab.controller.editor, "shutdown"),
        ("consolidation", tab.controller.consolidation, "shutdown"),
        ("badges saved", tab.controller.marks, "save"),
    ):
        done = functools.partial(stop, calls, name, getattr(part, method))
        monkeypatch.setattr(part, method, done)
    window.close_without_asking()
    assert calls == ["badges saved", "scans", "search box", "mux", "editor", "consolidation"]
