"""The wall clock as Memtab stores time: epoch milliseconds, like mux's `Date.now()`; classes that
stamp records take a `Clock` so tests can pass a fixed one."""

from __future__ import annotations

import time
from collections.abc import Callable

Clock = Callable[[], int]
"""A source of "now" in epoch milliseconds (`now_ms`, or a test's fixed clock)."""


def now_ms() -> int:
    """The current time in epoch milliseconds."""
    return int(time.time() * 1000)
