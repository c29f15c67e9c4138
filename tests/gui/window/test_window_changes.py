"""The watcher's batches reach the window's features through the context, classified once."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from gui.memory_tree_support import WindowFactory
from memtab.components.activity.change_batch import ChangeBatch
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
    assert classified == paths, "each path classified once, whatever follows the batch"
    [batch] = published
    assert batch.paths == tuple(paths)
    assert [place.kind for place in batch.places] == [
        PathKind.GLOBAL_SCOPE,
        PathKind.CHAT_TRANSCRIPT,
        PathKind.RUNS_LOG,
        PathKind.CONSOLIDATION_JOURNAL,
    ]
