"""The window's features: built phase by phase from one list, closed in reverse, and
following the watcher's batches through the context, classified once."""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from gui.memory_tree_support import WindowFactory
from memtab.components.activity.change_batch import ChangeBatch
from memtab.components.window.phases import Phase
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
    assert window.history is not None and window.check is not None
    assert window.sync is not None and window.writer is not None
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
    assert window.menus is not None and window.writer is not None
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
