"""What the window says when something is wrong: the log in About, the watcher falling back
to polling, Qt's platform plugin failing to load, and a clean `--demo --screenshot`."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QMessageLogContext, QtMsgType
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from gui import memory_tree_support as support
from gui.activity.test_watch_fallback import ProbeAtWatchLimit, ShallowInotifyObserver
from gui.memory_tree_support import WAIT_MS, WindowFactory, wait_watching
from memtab.gui.activity.watch import HomeWatcher
from memtab.gui.first_paint.app import _log_qt_message, platform_plugin_problem, system_packages
from memtab.gui.window import keys
from memtab.logs import setup_logging
from memtab.store.home import Home

home = support.home
make_window = support.make_window


def test_about_names_the_log_file(
    make_window: WindowFactory, home: Home, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMTAB_LOG_DIR", str(tmp_path / "log"))
    log = setup_logging()  # undone after the test by tests/support/logfail.py
    window = make_window(home)
    assert f"<code>{log}</code>" in window.part(keys.OWN_ACTIONS).about_text()


class LimitReachedFor(ProbeAtWatchLimit):
    """The watch limit runs out at the directory named `new-project-dir`."""

    def __init__(self) -> None:
        super().__init__(allowed=set())

    def check(self, directory: str) -> None:
        if os.path.basename(directory) == "new-project-dir":
            super().check(directory)


@pytest.mark.expect_log(
    "memtab.gui.activity.watch",
    "WARNING",
    r"^Cannot watch .*new-project-dir natively \(inotify watch limit reached\)",
)
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="inotify")
def test_the_status_bar_says_when_folders_are_polled(
    qtbot: QtBot, make_window: WindowFactory, home: Home
) -> None:
    watcher = HomeWatcher(
        debounce_ms=30,
        max_latency_ms=300,
        polling_interval_s=0.05,
        observer_factory=ShallowInotifyObserver,
        probe_factory=LimitReachedFor,
    )
    window = make_window(home, watcher=watcher)
    wait_watching(qtbot, window)
    label = window.findChild(QLabel, "watcherStatus")
    assert label is not None and label.text() == "Live · inotify"

    (home.root / "new-project-dir").mkdir()
    qtbot.waitUntil(lambda: "polling 1 folder" in label.text(), timeout=WAIT_MS)
    assert "inotify watch limit reached" in label.text()


def test_a_platform_plugin_that_cannot_load_is_named(tmp_path: Path) -> None:
    broken = tmp_path / "libqxcb.so"
    broken.write_text("not a shared object")
    problem = platform_plugin_problem(broken)
    assert problem is not None
    assert str(broken) in problem  # the loader's own words: which file, and why


@pytest.mark.skipif(
    not sys.platform.startswith("linux") or shutil.which("cc") is None, reason="needs cc"
)
def test_the_missing_library_of_the_platform_plugin_is_named(tmp_path: Path) -> None:
    # A plugin linked against a library that is gone, as libqxcb.so on a bare Debian.
    source = tmp_path / "stub.c"
    source.write_text("int memtab_stub(void) { return 1; }\n")
    missing = tmp_path / "libmemtab-gone.so.4"
    subprocess.run(
        ["cc", "-shared", "-fPIC", "-Wl,-soname,libmemtab-gone.so.4", "-o", missing, source],
        check=True,
    )
    plugin = tmp_path / "libqxcb.so"
    subprocess.run(
        ["cc", "-shared", "-fPIC", "-o", plugin, source, "-Wl,--no-as-needed", missing],
        check=True,
    )
    missing.unlink()

    problem = platform_plugin_problem(plugin)
    assert problem is not None
    assert "libmemtab-gone.so.4: cannot open shared object file" in problem
    assert "Install the package that provides it" in problem
    assert system_packages()["libxcb-icccm.so.4"] == "libxcb-icccm4"


@pytest.mark.expect_log("qt", "ERROR", r"^no platform plugin$")
@pytest.mark.expect_log(
    "qt", "WARNING", r"^Could not load the Qt platform plugin|^an ordinary warning$"
)
def test_qt_fatal_messages_and_plugin_diagnostics_reach_stderr(
    capsys: pytest.CaptureFixture[str],
) -> None:
    plugin = QMessageLogContext("qxcbintegration.cpp", 1, "load", "qt.qpa.plugin")
    _log_qt_message(QtMsgType.QtWarningMsg, plugin, "Could not load the Qt platform plugin")
    _log_qt_message(QtMsgType.QtFatalMsg, QMessageLogContext(), "no platform plugin")
    _log_qt_message(QtMsgType.QtWarningMsg, QMessageLogContext(), "an ordinary warning")
    err = capsys.readouterr().err
    assert "Qt: Could not load the Qt platform plugin" in err
    assert "Qt: no platform plugin" in err
    assert "QT_DEBUG_PLUGINS=1" in err
    assert "an ordinary warning" not in err


@pytest.mark.slow
def test_demo_screenshot_renders_the_pristine_demo_quietly(tmp_path: Path) -> None:
    shared = tmp_path / "demo"
    target = tmp_path / "shot.png"
    env = {
        **os.environ,
        "MEMTAB_DEMO_HOME": str(shared),
        "MEMTAB_LOG_DIR": str(tmp_path / "log"),
    }
    env.pop("QT_LOGGING_RULES", None)
    result = subprocess.run(
        [sys.executable, "-m", "memtab", "--demo", "--screenshot", str(target)],
        check=False,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""  # a quiet terminal
    assert not QImage(str(target)).isNull()
    assert not shared.exists()  # the shared demo home was neither made nor changed
    log = (tmp_path / "log" / "memtab.log").read_text()
    assert "opens" in log and "(demo)" in log
