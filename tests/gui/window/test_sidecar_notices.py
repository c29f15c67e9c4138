"""Broken sidecars in the GUI: deeply nested JSON never stops the Memory tab from loading,
and a sidecar kept aside is reported in the status bar."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot
from shiboken6 import isValid

from gui import memory_tree_support as support
from gui.memory_tree_support import WAIT_MS, WindowFactory, file_names
from memtab.fs.sidecar import keep_aside
from memtab.gui.first_paint.main_window import KeptAsideNotices
from memtab.store.home import Home
from memtab.store.sidecars.meta import MetaStore, global_key
from support.logfail import ExpectLog
from support.memory_home import MAIN

home = support.home
make_window = support.make_window

DEEP = "[" * 100_000 + "]" * 100_000


@pytest.mark.parametrize(
    "name",
    ["memory-meta.json", "memory-consolidation.json", "extensionMetadata.json", "config.json"],
)
def test_a_home_with_a_deeply_nested_sidecar_still_loads(
    qtbot: QtBot,
    make_window: WindowFactory,
    home: Home,
    name: str,
    expect_log: ExpectLog,
    caplog: pytest.LogCaptureFixture,
) -> None:
    (home.root / name).write_text('{"entries": ' + DEEP + ', "workspaces": {}, "version": 1}')
    if name == "config.json":  # the memory writer, started with the watch, says so
        expect_log("memtab.writer.job.service", "WARNING", "cannot read the registry")
    window = make_window(home)  # waits for the first scan to be shown
    files = file_names(window)
    assert any(name.endswith("preferences.md") for name in files)
    if name == "config.json":  # no registry: global scope only, and a one-line error
        message = window.statusBar().currentMessage()
        assert "nested too deeply" in message and "\n" not in message
        # Waited for, or the writer would say it during the next test.
        qtbot.waitUntil(
            lambda: any("cannot read the registry" in r.getMessage() for r in caplog.records),
            timeout=WAIT_MS,
        )
    else:
        assert window.memory_tab.workspace is not None
        assert window.memory_tab.workspace.id == MAIN


@pytest.mark.expect_log(
    "memtab.fs.sidecar", "WARNING", r"^memory-meta.json could not be used \(not valid JSON"
)
def test_a_sidecar_kept_aside_is_reported_in_the_status_bar(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    window = make_window(home)
    home.meta_path.write_text('{"entries": {"global:a.md": {"pinned": tr')
    # Kept aside by a write on a worker thread, as the GUI's own jobs do.
    worker = threading.Thread(target=MetaStore(home).set_pinned, args=(global_key("b.md"), True))
    worker.start()
    worker.join()
    (kept,) = home.root.glob("memory-meta.json.corrupt-*")
    qtbot.waitUntil(lambda: kept.name in window.statusBar().currentMessage(), timeout=WAIT_MS)
    assert "memory-meta.json could not be used" in window.statusBar().currentMessage()


# A listener that fails logs an ERROR, which fails the test (tests/support/logfail.py).
@pytest.mark.expect_log("memtab.fs.sidecar", "WARNING", r"^memory-meta.json could not be used")
def test_notices_stop_listening_when_deleted(qtbot: QtBot, tmp_path: Path) -> None:
    notices = KeptAsideNotices()
    received: list[object] = []
    notices.kept_aside.connect(received.append)
    keep_aside(tmp_path / "memory-meta.json", b"{", "not valid JSON")
    qtbot.waitUntil(lambda: len(received) == 1, timeout=WAIT_MS)
    notices.deleteLater()
    qtbot.waitUntil(lambda: not isValid(notices), timeout=WAIT_MS)
    keep_aside(tmp_path / "memory-meta.json", b"{{", "not valid JSON")
