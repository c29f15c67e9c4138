"""Time for the window's debounces and retries: `QT_CLOCK` (monotonic time and QTimer) in the
app, `tests/support/gui_clock.FakeGuiClock` advanced by hand in tests."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Protocol

from PySide6.QtCore import QObject, QTimer


class GuiTimer(Protocol):
    """The part of QTimer a debounce uses."""

    def start(self, msec: int, /) -> None:
        """(Re)start: time out `msec` ms from now (and every `msec` ms unless single-shot)."""

    def stop(self) -> None:
        """Do not time out (again)."""

    def isActive(self) -> bool: ...


class GuiClock(Protocol):
    """Where the time and the timers come from (see the module docstring)."""

    def monotonic_ms(self) -> float:
        """Milliseconds on a clock that never goes back (`time.monotonic`)."""
        ...

    def timer(
        self, parent: QObject, on_timeout: Callable[[], None], *, single_shot: bool
    ) -> GuiTimer: ...  # A stopped timer owned by `parent` calling `on_timeout` on the GUI thread.


class QtClock:
    """The real clock: `time.monotonic` and `QTimer`."""

    def monotonic_ms(self) -> float:
        return time.monotonic() * 1000.0

    def timer(
        self, parent: QObject, on_timeout: Callable[[], None], *, single_shot: bool
    ) -> QTimer:
        return qtimer(parent, on_timeout, single_shot=single_shot)


def qtimer(
    parent: QObject, on_timeout: Callable[[], object], ms: int = 0, *, single_shot: bool = True
) -> QTimer:
    """A stopped QTimer owned by `parent` that calls `on_timeout` `ms` ms after each start
    (and every `ms` ms unless `single_shot`)."""
    timer = QTimer(parent)
    timer.setSingleShot(single_shot)
    timer.setInterval(ms)
    timer.timeout.connect(on_timeout)
    return timer


QT_CLOCK = QtClock()
"""The clock every window object uses unless a test passes its own."""


def call_soon(owner: QObject, callback: Callable[[], object], ms: int = 0) -> None:
    """Call `callback` on the GUI thread `ms` ms from now, unless `owner` is deleted first:
    `QTimer.singleShot(ms, owner, callback)` keeps the callback alive for good when `owner`
    goes first; a child timer lets go of it."""
    timer = QTimer(owner)
    timer.setSingleShot(True)
    timer.timeout.connect(callback)
    timer.timeout.connect(timer.deleteLater)
    timer.start(ms)
