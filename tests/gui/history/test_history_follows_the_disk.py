"""The History panel, Runs… and Recently deleted follow the watcher's batches by place
(`gui.history.hub`): each reads again when its own files changed, or anything may have."""

from __future__ import annotations

import pytest
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from gui.memory_tree_support import WindowFactory, wait_for
from memtab.components.tree.nodes import file_key
from memtab.gui.window import keys
from memtab.store.home import Home
from memtab.store.paths import parse_file_path

pytestmark = pytest.mark.no_background_runs  # no writer, no check at start: none is tested here

home = support.home
make_window = support.make_window

ZETA = parse_file_path("/memories/global/Zeta.md")


def test_a_storm_reported_as_the_home_reads_the_panel_and_the_dialogs_again(
    qtbot: QtBot, make_window: WindowFactory, home: Home, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Over 500 paths at once, the watcher reports the home itself: any history may have
    # changed (a sync, a checkout), as when one of their own files is in the batch.
    window = make_window(home)
    window.show()  # the History panel reads only while it is shown
    support.wait_watching(qtbot, window)
    window.watcher.stop()  # only the batches published here
    tab, history = window.memory_tab, window.part(keys.HISTORY)
    assert tab.tree.select_key(file_key(ZETA))
    tab.controller.file_actions.history_action.trigger()
    wait_for(qtbot, lambda: history.panel.subject is not None)
    runs, trash = history.open_runs(), history.open_trash()
    read: list[str] = []
    monkeypatch.setattr(history.panel, "reload", lambda: read.append("panel"))
    monkeypatch.setattr(runs, "reload", lambda: read.append("runs"))
    monkeypatch.setattr(trash, "reload", lambda record_first: read.append("trash"))
    window.context.changes.publish([str(home.root / "memory" / "global" / "other.md")])
    assert read == []
    window.context.changes.publish([str(home.root)])
    assert sorted(read) == ["panel", "runs", "trash"]
