"""GUI tests: Python's cycle collector runs on the GUI thread once each test is over.

A reference cycle that holds Qt wrappers (a window, its slots, a test's lambdas) is freed
by the cycle collector, on whichever thread happens to allocate when it runs — possibly
a worker thread of the next test, where deleting Qt objects crashes the process. Running
it here, on the GUI thread, frees them where Qt expects.

A window starts watching its home as soon as its first scan is shown, not
`WATCH_START_DELAY_MS` later, and records outside changes 50 ms after the disk goes quiet,
not `RECORD_QUIET_MS` (below).

The offscreen screen is 800×600, a laptop's width by `gui.first_paint.main_window`'s measure: its
first windows would open maximized, and the tests size their windows themselves. They
open unmaximized (`test_layout` checks the maximizing on its own).

A feature or dialog a test builds without a window gets its job clients from `jobs`, a job
service of the test's own (a window has its context's), shut down when the test ends.

A module marked `no_background_runs` builds its windows without the memory writer and
the check's run at start (`memory_tree_support.NO_BACKGROUND_RUNS`).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QCoreApplication, QEvent
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from gui.memory_tree_support import NO_BACKGROUND_RUNS
from memtab.gui.first_paint import main_window
from memtab.gui.history import hub
from memtab.gui.tasks.jobs import JobService

GUI_TESTS = Path(__file__).resolve().parent
HELD_WIDGETS = pytest.StashKey[list[QWidget]]()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        f"{NO_BACKGROUND_RUNS}: the module's windows (make_window) run no memory writer and "
        "no check at their start",
    )


@pytest.fixture(autouse=True)
def _widgets_live_until_the_test_is_over(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The widgets a test gives `qtbot.addWidget` are held until it is over (below):
    pytest-qt holds them weakly, so a dialog made without a parent died when the collector
    found its cycle — which could be inside one of its own events pytest-qt delivers after
    the test (a crash)."""
    held = request.node.stash.setdefault(HELD_WIDGETS, [])
    add_widget = QtBot.addWidget

    def add_and_hold(bot: QtBot, widget: QWidget, **options: Any) -> None:
        held.append(widget)
        add_widget(bot, widget, **options)

    monkeypatch.setattr(QtBot, "addWidget", add_and_hold)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """What a GUI test made is freed once pytest has let go of its fixtures' values (after
    the protocol, not in a fixture's teardown), with the Qt objects it asked to delete
    later (their wrappers' cycles are garbage only once they are deleted). What is left is
    alive past the test (modules it imported, caches) and joins the frozen objects, so the
    next test's collection scans only what that test made: unfrozen, they were scanned
    again after every test (~30 ms of CPU each, a fifth of the GUI tests' CPU). Frozen
    in a fixture's teardown instead, a test's window was frozen while pytest still held
    it, and never freed: a worker grew by ~0.4 MB a GUI test, to ~390 MB."""
    outcome = yield
    if GUI_TESTS in item.path.parents:
        item.stash.get(HELD_WIDGETS, []).clear()
        for _ in range(3):
            if QCoreApplication.instance() is not None:
                QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
            if not gc.collect():
                break
        gc.freeze()
    return outcome


@pytest.fixture(autouse=True)
def _first_windows_unmaximized(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(main_window, "LAPTOP_WIDTH", 0)


@pytest.fixture(autouse=True)
def _windows_watch_once_their_first_scan_is_shown(monkeypatch: pytest.MonkeyPatch) -> None:
    """The delay lets a user's tree paint before the watch set-up competes with it; a test
    waits for the watcher instead (`wait_watching`: 150 ms idle, in ~70 tests) or races
    its start (a catch-up scan that begins in the middle of the test)."""
    monkeypatch.setattr(main_window, "WATCH_START_DELAY_MS", 0)


@pytest.fixture(autouse=True)
def _outside_changes_recorded_soon(monkeypatch: pytest.MonkeyPatch) -> None:
    """The 1.5 s quiet spares a user's big home a recording pass per burst of changes; a
    test waited for it idle (restoring what another program deleted, a version to view),
    and the recorder now runs while a test's own saves and moves do, as it can for a user."""
    monkeypatch.setattr(hub, "RECORD_QUIET_MS", 50)


@pytest.fixture
def jobs(qtbot: QtBot) -> Iterator[JobService]:
    """A job service for what a test builds without a window (its lanes stop at the end)."""
    service = JobService()
    yield service
    service.shutdown()
