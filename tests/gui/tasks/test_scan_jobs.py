"""Home scans run on the job service's scans lane, off the GUI thread, and only the newest
one lands (`components.tree.scan_policy`, as the scan scheduler submits them)."""

from __future__ import annotations

import functools
import threading

from PySide6.QtCore import QThread
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from memtab.components.tree import scan_policy as tree
from memtab.components.tree.scan import HomeScan, ScanOutcome, ScanRequest
from memtab.gui.tasks.jobs import JobService, Lane
from memtab.store.home import Home
from support.memory_home import MAIN, MULTI

home = support.home


def test_scans_run_off_the_gui_thread_and_only_the_newest_lands(
    qtbot: QtBot, home: Home, jobs: JobService
) -> None:
    threads: list[threading.Thread] = []
    lanes: list[str] = []
    outcomes: list[object] = []

    def present(scan: HomeScan) -> str:
        threads.append(threading.current_thread())
        lanes.append(QThread.currentThread().objectName())
        return f"presented {scan.workspace.id if scan.workspace else None}"

    scans = jobs.client("scan", Lane.SCANS)
    scans.latest_finished.connect(lambda _key, outcome: outcomes.append(outcome))
    for workspace in (MAIN, MULTI):
        scans.submit_latest(
            "scan", functools.partial(tree.scan, ScanRequest(home, workspace), present)
        )
    # Results arrive in submission order: once the newest has landed (the client is idle),
    # a superseded scan can no longer show up.
    qtbot.waitUntil(lambda: not scans.is_busy(), timeout=5000)
    assert [outcome.presented for outcome in outcomes if isinstance(outcome, ScanOutcome)] == [
        f"presented {MULTI}"
    ]
    assert len(outcomes) == 1
    assert threads and all(t is not threading.main_thread() for t in threads)
    assert set(lanes) == {"memtab-scans"}
