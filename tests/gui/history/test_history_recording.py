"""While history is not being recorded (a full disk under `memtab watch`, docs/formats.md
§14.5), the window's status bar says so, why and since when, and stops once history is
recorded again: it follows `memtab/history/recording.json` through the watcher's batches
(`gui.history.hub`)."""

from __future__ import annotations

import pytest
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from gui.memory_tree_support import WindowFactory, wait_for
from memtab.gui.window import keys
from memtab.store.catch_up.recording import note_recording
from memtab.store.home import Home
from memtab.watch.sources import RecorderLease

pytestmark = pytest.mark.no_background_runs  # no writer, no check at start: none is tested here

home = support.home
make_window = support.make_window

WATCH = "memtab watch (pid 4242)"


def test_the_status_bar_says_history_is_not_recorded_and_why_until_it_is_again(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    lease = RecorderLease(home)  # the recorder runs: the window leaves recording to it
    assert lease.acquire()
    try:
        window = make_window(home)
        window.show()
        support.wait_watching(qtbot, window)
        note = window.part(keys.HISTORY).recording_note
        assert window.status_bar.isAncestorOf(note)
        assert not note.isVisible()
        full = f"the disk holding {home.history_dir} is full"
        note_recording(home, full, by=WATCH, clock=lambda: 1_800_000_000_000)
        wait_for(qtbot, note.isVisible)
        assert note.text() == "History not recorded"
        assert note.toolTip().startswith(f"History is not being recorded: {full} (since 2027-")
        assert f"found by {WATCH});" in note.toolTip()
        note_recording(home, None, by=WATCH)
        wait_for(qtbot, lambda: not note.isVisible())
        assert note.toolTip() == ""
    finally:
        lease.release()
