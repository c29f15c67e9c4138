"""The consolidation facade built on first use, and its background preload."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import shiboken6
from pytestqt.qtbot import QtBot

from memtab.gui.consolidation.tasks import ConsolidationTasks
from memtab.gui.tasks.jobs import JobService
from memtab.store.home import Home


def test_preload_builds_the_facade_off_the_first_click(
    qtbot: QtBot, tmp_path: Path, jobs: JobService
) -> None:
    tasks = ConsolidationTasks(Home(tmp_path / "home"), jobs)
    assert not tasks.loaded
    tasks.preload()
    qtbot.waitUntil(lambda: tasks.loaded, timeout=30_000)
    assert tasks.shutdown()


def test_a_preload_that_ends_after_the_window_closed_stays_quiet(
    tmp_path: Path, jobs: JobService
) -> None:
    tasks = ConsolidationTasks(Home(tmp_path / "home"), jobs)
    shiboken6.delete(tasks)  # the window closed while the engine was still importing
    tasks._preload_engine()  # what the preload thread runs then: no RuntimeError


@pytest.mark.slow
def test_the_window_never_loads_the_engine_or_the_http_client(tmp_path: Path) -> None:
    """Runs happen in a child process: the window, loaded and preloaded, has neither the
    runner nor httpx2 (~15 MB of resident memory)."""
    probe = f"""
import json, sys
from pathlib import Path
from PySide6.QtCore import QEventLoop
from memtab.demo import create_demo_home
from memtab.gui.first_paint.app import application, create_main_window
from memtab.components.window.ui_state import UiState

app = application()
home = create_demo_home(Path({str(tmp_path / "demo")!r}))
window = create_main_window(home, None, ui_state=UiState(Path({str(tmp_path / "ui.json")!r})))
window.show()
while not window.memory_tab.is_loaded:
    app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 50)
window.memory_tab.assemble()
consolidation = window.memory_tab.controller.consolidation
# the pointer reached Consolidate now
window.memory_tab.controller.footer.about_to_consolidate.emit()
while not consolidation.loaded:
    app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 50)
window.close_without_asking()
heavy = ("httpx2", "memtab.consolidation.engine.runner", "memtab.consolidation.offline.provider")
print(json.dumps([name for name in heavy if name in sys.modules]))
"""
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=120
    )
    assert json.loads(result.stdout.strip().splitlines()[-1]) == []
