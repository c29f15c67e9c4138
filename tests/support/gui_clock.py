"""A `memtab.gui.toolkit.clock.GuiClock` that only moves when the test says: time for debounces.

    clock = FakeGuiClock()
    watcher = HomeWatcher(clock=clock, debounce_ms=150)
    ...                    # an event arrives
    clock.advance(149)     # nothing yet
    clock.advance(1)       # the debounce timer fires, now, on the test's thread

`advance` moves the time forward and fires every timer that falls due on the way, in
the order of their deadlines, each with the clock reading its deadline — as a real event
loop would, minus the waiting. Nothing else runs meanwhile: queued signals are delivered
when the test processes events (`drain`).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

import shiboken6
from PySide6.QtCore import QCoreApplication, QObject


class FakeTimer:
    """A single-shot or repeating timer on a `FakeGuiClock`."""

    def __init__(
        self,
        clock: FakeGuiClock,
        parent: QObject,
        on_timeout: Callable[[], None],
        single_shot: bool,
    ) -> None:
        self._clock = clock
        self._parent = parent
        self._on_timeout = on_timeout
        self.single_shot = single_shot
        self.interval_ms = 0
        self.deadline_ms: float | None = None
        self.order = 0  # timers due at the same instant fire in the order they were started

    def start(self, msec: int, /) -> None:
        self.interval_ms = msec
        self.deadline_ms = self._clock.now_ms + msec
        self.order = next(self._clock.starts)

    def stop(self) -> None:
        self.deadline_ms = None

    def isActive(self) -> bool:
        return self.deadline_ms is not None

    @property
    def alive(self) -> bool:
        """Whether its parent still exists (Qt deletes a timer with its parent)."""
        return shiboken6.isValid(self._parent)

    def fire(self) -> None:
        if self.single_shot:
            self.deadline_ms = None
        else:
            assert self.deadline_ms is not None
            self.deadline_ms += max(self.interval_ms, 1)
            self.order = next(self._clock.starts)
        self._on_timeout()


class FakeGuiClock:
    """Monotonic time in ms that stands still until `advance` (see the module docstring)."""

    def __init__(self, start_ms: float = 1_000_000.0) -> None:
        self.now_ms = start_ms
        self.starts = itertools.count()
        self._timers: list[FakeTimer] = []

    def monotonic_ms(self) -> float:
        return self.now_ms

    def timer(
        self, parent: QObject, on_timeout: Callable[[], None], *, single_shot: bool
    ) -> FakeTimer:
        timer = FakeTimer(self, parent, on_timeout, single_shot)
        self._timers.append(timer)
        return timer

    def advance(self, ms: float) -> None:
        """Let `ms` milliseconds pass, firing the timers that fall due (at their deadline)."""
        assert ms >= 0, "time does not go back"
        end = self.now_ms + ms
        while (timer := self._next_due(end)) is not None:
            assert timer.deadline_ms is not None
            self.now_ms = max(self.now_ms, timer.deadline_ms)
            timer.fire()
        self.now_ms = end

    def next_deadline_ms(self) -> float | None:
        """In how many ms the next timer fires (None: no timer is running)."""
        running = [t.deadline_ms for t in self._live() if t.deadline_ms is not None]
        return min(running) - self.now_ms if running else None

    def _next_due(self, end: float) -> FakeTimer | None:
        due = [t for t in self._live() if t.deadline_ms is not None and t.deadline_ms <= end]
        return min(due, key=lambda t: (t.deadline_ms, t.order)) if due else None

    def _live(self) -> list[FakeTimer]:
        self._timers = [timer for timer in self._timers if timer.alive]
        return self._timers


def drain() -> None:
    """Deliver what other threads (or the test) posted to the GUI thread: queued signals."""
    QCoreApplication.processEvents()
