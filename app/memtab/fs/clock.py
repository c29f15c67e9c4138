"""The wall clock as Memtab stores time: epoch milliseconds, like mux's `Date.now()`.

Every package stamps records with it (the store's sidecars, the journal, the tool loop's
tool executions, lock holders), so it lives on the floor every package may import.
Classes that stamp records take a `Clock` so tests can pass a fixed one.
"""

from __future__ import annotations

import time
from collections.abc import Callable

Clock = Callable[[], int]
"""A source of "now" in epoch milliseconds (`now_ms`, or a test's fixed clock)."""


def now_ms() -> int:
    """The current time in epoch milliseconds."""
    return int(time.time() * 1000)
