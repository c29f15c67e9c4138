"""The History panel is made the first time it shows (`gui.history.hub`): most windows
start with it hidden, and it costs their start nothing until then."""

from __future__ import annotations

import pytest
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from gui.editor_support import open_loaded
from gui.memory_tree_support import WindowFactory, wait_for
from memtab.gui.history.panel import HistoryPanel
from memtab.gui.window import keys
from memtab.store.home import Home
from memtab.store.paths import parse_file_path

pytestmark = pytest.mark.no_background_runs  # no writer, no check at start: none is tested here

home = support.home
make_window = support.make_window

ZETA = parse_file_path("/memories/global/Zeta.md")


def test_the_panel_is_built_when_it_first_shows_with_the_open_files_history(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window = make_window(home)
    window.show()  # the History panel reads only while it is shown
    support.wait_watching(qtbot, window)
    history, editor = window.part(keys.HISTORY), window.memory_tab.controller.editor
    open_loaded(qtbot, editor, ZETA)
    assert history.dock.widget() is None
    history.panel_action.trigger()
    panel = history.dock.widget()
    assert isinstance(panel, HistoryPanel) and panel is history.panel and panel.isVisible()
    wait_for(qtbot, lambda: panel.history is not None)
    assert panel.subject is not None and panel.subject.ref.key == str(ZETA)
