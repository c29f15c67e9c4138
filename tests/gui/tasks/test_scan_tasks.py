"""ScanTasks: home scans run off the GUI thread, and only the newest one lands."""

from __future__ import annotations

import threading

from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from memtab.components.tree.scan import HomeScan, ScanOutcome, ScanRequest
from memtab.gui.tasks.scan import ScanTasks
from memtab.store.home import Home
from support.memory_home import MAIN, MULTI

home = support.home


class Finished:
    def __init__(self, tasks: ScanTasks) -> None:
        self.outcomes: list[ScanOutcome] = []
        tasks.scan_finished.connect(self.on_finished)

    def on_finished(self, outcome: ScanOutcome) -> None:
        self.outcomes.append(outcome)


def test_scan_tasks_run_off_the_gui_thread_and_only_the_newest_lands(
    qtbot: QtBot, home: Home
) -> None:
    threads: list[threading.Thread] = []

    def present(scan: HomeScan) -> str:
        threads.append(threading.current_thread())
        return f"presented {scan.workspace.id if scan.workspace else None}"

    tasks = ScanTasks(present)
    finished = Finished(tasks)
    try:
        tasks.scan(ScanRequest(home, MAIN))
        tasks.scan(ScanRequest(home, MULTI))
        # Results arrive in submission order: once the newest has landed (the runner is
        # idle), a superseded scan can no longer show up.
        qtbot.waitUntil(lambda: not tasks.busy, timeout=5000)
    finally:
        tasks.shutdown()
    assert [outcome.presented for outcome in finished.outcomes] == [f"presented {MULTI}"]
    assert threads and all(t is not threading.main_thread() for t in threads)
