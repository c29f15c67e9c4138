"""How a new tree is shown without freezing the window: reconciled into the shown one in
slices of `RECONCILE_SLICE_MS` on the clock given, the GUI painting between them (a newer
tree replaces a reconcile in progress: the model's rule). Qt-free; the window's
`gui/tree/reconcile.py` keeps the timer between slices, the model the steps.
"""

from __future__ import annotations

import time
from collections.abc import Callable

RECONCILE_SLICE_MS = 12.0
"""How long one slice of a reconcile runs before the GUI paints."""


def perf_ms() -> float:
    """The finest clock there is, in ms (`time.perf_counter`): a slice's default clock."""
    return time.perf_counter() * 1000.0


class Slice:
    """One slice of a reconcile: over once `budget_ms` passed on `now_ms` since it began
    (None: never — the reconcile runs to its end)."""

    def __init__(self, budget_ms: float | None, now_ms: Callable[[], float] = perf_ms) -> None:
        self._now_ms = now_ms
        self._deadline = None if budget_ms is None else now_ms() + budget_ms

    def over(self) -> bool:
        """Whether the slice has had its time (at least one step runs in each)."""
        return self._deadline is not None and self._now_ms() >= self._deadline
