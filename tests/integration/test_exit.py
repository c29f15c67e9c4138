"""The window's process ends cleanly: quitting after the Traces tab was opened crashed in
the interpreter's last garbage collection (SIGSEGV) when the collector had not been frozen
(a window closed before its first load was done), until the window was destroyed first."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

QUIT_AFTER_THE_TRACES_TAB = """
import sys
from pathlib import Path
from PySide6.QtCore import QTimer
from memtab.gui.first_paint import app
from memtab.store.home import HomeLocation

create = app.create_main_window

def create_and_quit(*args, **kwargs):
    window = create(*args, **kwargs)
    QTimer.singleShot(300, window.show_traces_tab)
    QTimer.singleShot(1500, window.close)
    return window

app.create_main_window = create_and_quit
# As when the window closes before its first load is done: the collector is not frozen
# yet (`tune_garbage_collection`), so the last collection sees every wrapper.
app.tune_garbage_collection = lambda: None
sys.exit(app.run_app(HomeLocation(Path(sys.argv[1]), "demo"), None))
"""


def test_quitting_after_the_traces_tab_was_opened_exits_cleanly(tmp_path: Path) -> None:
    from memtab.demo import create_demo_home

    home = create_demo_home(tmp_path / "demo")
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "MEMTAB_CONFIG_DIR": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-c", QUIT_AFTER_THE_TRACES_TAB, str(home.root)],
        env=env,
        capture_output=True,
        check=False,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
