"""Showing a tree in the Memory tab: `SlicedReconcile` reconciles a new tree into the model in
slices on a zero-interval timer (`components.tree.reconcile_slices`), a newer tree replacing
one in progress, then fills open containers and emits `reconciled`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager

from PySide6.QtCore import QObject, Signal

from memtab.components.activity.badges import Badge
from memtab.components.tree.nodes import TreeNode
from memtab.components.tree.reconcile_slices import RECONCILE_SLICE_MS
from memtab.components.tree.scan import HomeScan
from memtab.components.tree.tree import default_open_containers, fill_rows
from memtab.gui.toolkit.clock import QT_CLOCK, GuiClock
from memtab.gui.tree.model import MemoryTreeModel

logger = logging.getLogger(__name__)


class TreeFill:
    """The open containers of `model`'s tree, and the rows of those being opened."""

    def __init__(
        self,
        model: MemoryTreeModel,
        shown_scan: Callable[[], HomeScan | None],
        searching: Callable[[], bool],
    ) -> None:
        """Fill `model` from `shown_scan()`; never while `searching()` (a search tree's
        containers hold its matches only)."""
        self._model = model
        self._shown_scan = shown_scan
        self._searching = searching
        self.open_containers: set[str] = set(default_open_containers())
        model.filler = self._rows

    def _rows(self, container_key: str) -> list[TreeNode] | None:
        self.open_containers.add(container_key)
        scan = self._shown_scan()
        if scan is None or self._searching():
            return None  # the scan that follows builds them
        return fill_rows(scan, container_key)

    def refill(self) -> None:
        """Fill the open containers a reconciled tree left unfilled (a big home's tree has the
        file rows of its open containers only)."""
        if self._shown_scan() is None or self._searching():
            return
        for key in list(self.open_containers):
            node = self._model.node_for_key(key)
            if node is not None and node.unfilled_files:
                self._model.fill(node)


Quietly = Callable[[], AbstractContextManager[None]]
"""A block in which the tree's selection changes open nothing (`TreeEditorSync.quietly`)."""


class SlicedReconcile(QObject):
    """Reconciles trees into `model` in slices (see the module docstring)."""

    reconciled = Signal()  # a reconcile finished, its follow-up run

    def __init__(
        self,
        model: MemoryTreeModel,
        fill: TreeFill,
        quietly: Quietly,
        parent: QObject,
        *,
        clock: GuiClock = QT_CLOCK,
    ) -> None:
        """Reconcile into `model`; `fill` refills open containers after each reconcile; each slice
        runs inside `quietly()`, for `RECONCILE_SLICE_MS` on `clock` (tests pass a fake one)."""
        super().__init__(parent)
        self._model = model
        self._fill = fill
        self._quietly = quietly
        self._clock = clock
        self._after: Callable[[], None] | None = None
        self._timer = clock.timer(self, self._continue, single_shot=True)

    @property
    def busy(self) -> bool:
        """Whether a reconcile is in progress or a slice is waiting."""
        return self._model.reconciling or self._timer.isActive()

    def show(
        self,
        tree: TreeNode,
        badges: Mapping[str, Badge] | None,
        then: Callable[[], None] | None = None,
    ) -> None:
        """Reconcile `tree` (with the "agent edited" `badges`, None: unchanged), then run
        `then` and emit `reconciled`."""
        self._model.start_reconcile(tree, badges)
        self._after = then
        self._continue()

    def stop(self) -> None:
        """Stop slicing (on window close)."""
        self._timer.stop()

    def _continue(self) -> None:
        with self._quietly():
            done = self._model.continue_reconcile(RECONCILE_SLICE_MS, self._clock.monotonic_ms)
        if not done:
            self._timer.start(0)  # the GUI paints, then the next slice
            return
        self._fill.refill()
        after, self._after = self._after, None
        if after is not None:
            after()
        self.reconciled.emit()
