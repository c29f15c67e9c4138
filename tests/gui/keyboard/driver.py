"""The program side of the keyboard walks: a window on a real X display, keys typed on it
with xdotool, what each walk saw printed as JSON.

A walk is a generator over a fresh window (`Walk`): it yields what to wait for — keys
typed (`Keys`: until Qt has handled each of them), a click (`Click`), or a condition
(`Until`) — and notes
what it saw in `walk.seen`. It is driven by a timer of the application's event loop, so
it goes on while a key opened a modal dialog (whose own loop runs the timer too), and
never sleeps: each step waits for what it needs, with a deadline.

Run by `run_walks(walks)` from a program the tests start on `fresh_x_desktop`
(`walk_program.py`); the tests read the JSON (`test_*.py` here).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Generator, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QKeyEvent, QWindow
from PySide6.QtWidgets import QApplication, QWidget

from memtab.components.window.ui_state import UiState
from memtab.gui.activity.watch import HomeWatcher
from memtab.gui.first_paint.app import create_main_window
from memtab.gui.first_paint.main_window import MainWindow
from memtab.store.home import Home

DEADLINE_S = 30.0
"""How long one step may wait (a loaded 2-core machine: seconds, not minutes)."""
TICK_MS = 10


@dataclass(frozen=True)
class Keys:
    """Type `chords` on the display, each as xdotool names it ("ctrl+shift+k", "Down"),
    and wait until Qt has handled the last of them — or, for a key that opens or closes
    a modal dialog (whose window gets the key's release, or no window does), until
    `until()` holds."""

    chords: tuple[str, ...]
    until: Callable[[], object] | None

    def __init__(self, *chords: str, until: Callable[[], object] | None = None) -> None:
        object.__setattr__(self, "chords", chords)
        object.__setattr__(self, "until", until)


@dataclass(frozen=True)
class Text:
    """Type `text` on the display, and wait until Qt has handled its last key."""

    text: str


@dataclass(frozen=True)
class Click:
    """Click the middle of the widget `target()` names with the pointer, on the display, and
    wait until `until()` holds (a click has no key release to wait for)."""

    target: Callable[[], QWidget | None]
    until: Callable[[], object]


@dataclass(frozen=True)
class Until:
    """Wait until `condition()` holds; `what` names it when it never does."""

    condition: Callable[[], object]
    what: str


Step = Keys | Text | Click | Until
WalkSteps = Generator[Step, None, None]


@dataclass(frozen=True)
class WalkSpec:
    """A walk to run: its name, its steps, the home it walks (made in a folder) and the
    window's width (None: maximized by the window manager, 1366 px)."""

    name: str
    steps: Callable[[Walk], WalkSteps]
    home: Callable[[Path], Home]
    width: int | None = None
    workspace_id: str | None = None


@dataclass
class Walk:
    """One walk's window and what it saw."""

    name: str
    window: MainWindow
    home: Home
    seen: dict[str, Any] = field(default_factory=dict)

    def note(self, key: str, value: object) -> None:
        self.seen[key] = value


def focus_name() -> str:
    """The widget with the keyboard, as a test names it: its accessible name, object name
    or class, and those of the panel it is in ("Check panel > QTreeView")."""
    widget = QApplication.focusWidget()
    if widget is None:
        return "(nothing)"
    return describe(widget)


def describe(widget: QWidget) -> str:
    name = widget.accessibleName() or widget.objectName() or type(widget).__name__
    owner = widget.parentWidget()
    while owner is not None and not (owner.objectName() or owner.accessibleName()):
        owner = owner.parentWidget()
    where = (owner.objectName() or owner.accessibleName()) if owner is not None else ""
    return f"{where} > {name}" if where else name


def focus_in(widget: QWidget) -> bool:
    """Whether the keyboard is in `widget` or inside it."""
    focused = QApplication.focusWidget()
    return focused is not None and (focused is widget or widget.isAncestorOf(focused))


class _Releases(QObject):
    """Counts the non-modifier keys released in the application's windows (typed on the
    display: a shortcut's press never reaches a widget, its release reaches its window)."""

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (
            event.type() == QEvent.Type.KeyRelease
            and isinstance(watched, QWindow)
            and isinstance(event, QKeyEvent)
            and not event.isAutoRepeat()
            and event.key() not in _MODIFIER_KEYS
        ):
            self.count += 1
        return False


_MODIFIER_KEYS = {
    Qt.Key.Key_Shift,
    Qt.Key.Key_Control,
    Qt.Key.Key_Alt,
    Qt.Key.Key_Meta,
    Qt.Key.Key_AltGr,
    Qt.Key.Key_Super_L,
    Qt.Key.Key_Super_R,
}


def _keys_of(step: Keys | Text) -> tuple[list[str], int]:
    """The xdotool command for a step, and how many non-modifier releases it makes."""
    if isinstance(step, Text):
        return ["xdotool", "type", "--delay", "20", step.text], len(step.text)
    return ["xdotool", "key", "--clearmodifiers", "--delay", "40", *step.chords], len(step.chords)


class _Driver(QObject):
    """Runs the walks one after the other on the event loop's timer."""

    def __init__(self, walks: Iterable[WalkSpec], root: Path) -> None:
        super().__init__()
        self._pending = list(walks)
        self._root = root
        self.results: dict[str, Any] = {}
        self._releases = _Releases()
        app = QApplication.instance()
        assert app is not None
        app.installEventFilter(self._releases)
        self._walk: Walk | None = None
        self._steps: WalkSteps | None = None
        self._waiting: Callable[[], object] | None = None
        self._what = ""
        self._deadline = self._since = 0.0
        self._timer = QTimer(self)
        self._timer.setInterval(TICK_MS)
        self._timer.timeout.connect(self._tick)

    def start(self) -> None:
        self._timer.start()

    def _open(self, spec: WalkSpec) -> None:
        folder = self._root / spec.name
        home = spec.home(folder / "home")
        window = create_main_window(
            home,
            spec.workspace_id,
            ui_state=UiState(folder / "ui.json"),
            watcher=HomeWatcher(debounce_ms=30, max_latency_ms=300),
            start_writer=False,
        )
        if spec.width is None:
            window.showMaximized()
        else:
            window.showNormal()
            screen = window.screen().availableGeometry()
            window.setGeometry(screen.x(), screen.y(), spec.width, screen.height() - 40)
        window.activateWindow()
        self._walk = Walk(spec.name, window, home)
        self._steps = spec.steps(self._walk)
        width = spec.width

        def ready() -> bool:
            sized = width is None or window.width() <= width
            return window.memory_tab.is_idle and window.isActiveWindow() and sized

        self._wait(ready, "the window")

    def _wait(self, condition: Callable[[], object], what: str) -> None:
        self._waiting, self._what = condition, what
        self._deadline = time.monotonic() + DEADLINE_S
        self._since = time.monotonic()

    def _tick(self) -> None:
        self._timer.stop()  # a step may open a modal dialog: its loop ticks this again
        try:
            self._advance()
        finally:
            if self._pending or self._walk is not None:
                self._timer.start()
            else:
                QApplication.quit()

    def _advance(self) -> None:
        if self._walk is None:
            self._open(self._pending.pop(0))
            return
        if self._waiting is not None:
            try:
                held = self._waiting()
            except Exception:  # the walk's own error: say it, go on with the next walk
                self._end(traceback.format_exc())
                return
            if not held:
                if time.monotonic() > self._deadline:
                    self._end(f"waited in vain for {self._what}")
                return
            self._waiting = None
            if os.environ.get("MEMTAB_WALK_TIMES"):
                print(f"{time.monotonic() - self._since:6.2f} s  {self._what}", file=sys.stderr)
        assert self._steps is not None
        try:
            step = next(self._steps)
        except StopIteration:
            self._end(None)
            return
        except Exception:  # the walk's own error: say it, go on with the next walk
            self._end(traceback.format_exc())
            return
        if isinstance(step, Until):
            self._wait(step.condition, step.what)
            return
        if isinstance(step, Click):
            widget = step.target()
            assert widget is not None and widget.isVisible(), "nothing shows there to click"
            where = widget.mapToGlobal(widget.rect().center())
            point = [str(where.x()), str(where.y())]
            subprocess.run(
                ["xdotool", "mousemove", "--sync", *point, "click", "1"],
                check=True,
                timeout=DEADLINE_S,
            )
            self._wait(step.until, "the click to be handled")
            return
        command, count = _keys_of(step)
        target = self._releases.count + count
        subprocess.run(command, check=True, timeout=DEADLINE_S)
        until = step.until if isinstance(step, Keys) else None
        handled = until or (lambda: self._releases.count >= target)
        self._wait(handled, f"Qt to handle {command[-1]!r}")

    def _end(self, error: str | None) -> None:
        walk = self._walk
        assert walk is not None
        if error is not None:
            walk.seen["error"] = error
        self.results[walk.name] = walk.seen
        for widget in QApplication.topLevelWidgets():
            if widget is not walk.window and widget.isVisible() and widget.isModal():
                widget.close()
        walk.window.close_without_asking()
        self._walk = self._steps = None
        self._waiting = None


def run_walks(walks: Iterable[WalkSpec]) -> None:
    """Run each walk on a fresh window; print what they saw as one JSON line, by name."""
    app = QApplication.instance() or QApplication(sys.argv)
    app.setQuitOnLastWindowClosed(False)  # the walks' windows close one after the other
    with tempfile.TemporaryDirectory() as folder:
        driver = _Driver(walks, Path(folder))
        driver.start()
        app.exec()
        print(json.dumps(driver.results))
