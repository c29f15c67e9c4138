"""Run as a program by `test_first_keys.py`: a window started as `memtab` starts it, and a key
typed on the display (xdotool) the moment its window first shows, before anything else of it
ran; printed as JSON: whether the key's menu opened, and what the window had built by then.

`python first_keys_program.py FOLDER KEY MENU [WIDTH|placed] [--big]`: KEY as xdotool names it
("alt+f"), MENU the title of the menu it should open ("File"), WIDTH the window's width; --big:
a home of 3 × 1,000 files (`bench.homes.HOME_3K`, shown by its outline first), else a small one.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication, QMenu

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # tests/: the support package

from bench.homes import HOME_3K, build_home
from memtab.components.window.ui_state import UiState
from memtab.gui.first_paint.app import create_main_window, show_when_ready
from memtab.gui.first_paint.main_window import MainWindow
from memtab.store.home import Home
from support.memory_home import make_home

DEADLINE_S = 60.0
"""How long the window may take to load and the menu to open (a loaded 2-core machine)."""
SETTLE_S = 2.0
"""How long after the window loaded the menu may still open (the key's event carried out)."""


class FirstShow(QObject):
    """Types `key` on the display when the window is first exposed, then watches for `menu`."""

    def __init__(self, window: MainWindow, key: str, menu: str) -> None:
        super().__init__()
        self.window, self.key, self.menu = window, key, menu
        self.typed_at: float | None = None
        self.seen: dict[str, object] = {"opened": None}
        self._loaded_at: float | None = None
        self._started = time.monotonic()
        self._timer = QTimer(self)
        self._timer.timeout.connect(self._look)
        self._timer.start(10)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if self.typed_at is None and event.type() == QEvent.Type.Expose:
            self.typed_at = time.monotonic()
            self.seen["assembled_when_typed"] = self.window.memory_tab.is_assembled
            # Synchronous: the key is on the X server's queue before Qt goes on.
            subprocess.run(["xdotool", "key", "--clearmodifiers", self.key], check=True)
        return False

    def _look(self) -> None:
        popup = QApplication.activePopupWidget()
        if isinstance(popup, QMenu) and popup.title().replace("&", "") == self.menu:
            self.seen["opened"] = self.menu
            self._end()
            return
        now = time.monotonic()
        if self._loaded_at is None and self.window.memory_tab.is_loaded:
            self._loaded_at = now
        settled = self._loaded_at is not None and now - self._loaded_at > SETTLE_S
        if settled or now - self._started > DEADLINE_S:
            self.seen["loaded"] = self._loaded_at is not None
            self._end()

    def _end(self) -> None:
        self._timer.stop()
        self.seen["typed"] = self.typed_at is not None
        QApplication.quit()


def main(folder: Path, key: str, menu: str, width: int | None, *, big: bool) -> None:
    app = QApplication.instance() or QApplication(sys.argv)
    home = build_home(folder / "home", HOME_3K) if big else make_home(folder / "home")
    window = create_main_window(
        Home(home.root), None, ui_state=UiState(folder / "ui.json"), start_writer=False
    )
    if width is not None:
        window.resize(width, window.height())
    watcher = FirstShow(window, key, menu)
    handle = window.windowHandle() if window.winId() else None
    assert handle is not None
    handle.installEventFilter(watcher)
    show_when_ready(window)  # as `memtab` shows it: once the tree holds the home
    app.exec()
    print(json.dumps(watcher.seen))
    window.close_without_asking()


if __name__ == "__main__":
    width = sys.argv[4] if sys.argv[4:] else "placed"
    main(
        Path(sys.argv[1]),
        sys.argv[2],
        sys.argv[3],
        None if width == "placed" else int(width),
        big="--big" in sys.argv,
    )
