"""Showing a tree in the Memory tab: reconciled into the model in slices, painting between.

A scan or search result is a whole new node tree; `MemoryTreeModel` reconciles it into the
shown one step by step (`start_merge`/`continue_merge`). `SlicedReconcile` runs those steps a
few milliseconds at a time on a zero-interval timer, so the GUI stays responsive even
when thousands of rows change, and a newer tree simply replaces a reconcile in progress.
When a reconcile is done it builds the file rows of open containers (`TreeFill`), runs the
caller's follow-up, then emits `reconciled`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager

from PySide6.QtCore import QObject, QTimer, Signal, Slot

from memtab.components.activity.badges import Badge
from memtab.components.tree.nodes import TreeNode
from memtab.gui.tree.fill import TreeFill
from memtab.gui.tree.model import MemoryTreeModel

logger = logging.getLogger(__name__)

# The tree reconciles a scan in slices this long, painting in between.
RECONCILE_SLICE_MS = 12.0

Quietly = Callable[[], AbstractContextManager[None]]
"""A block in which the tree's selection changes open nothing (`TreeEditorSync.quietly`)."""


class SlicedReconcile(QObject):
    """Reconciles trees into `model` in slices (see the module docstring).

    Signals:
        reconciled(): a reconcile finished, its follow-up run.
    """

    reconciled = Signal()

    def __init__(
        self, model: MemoryTreeModel, fill: TreeFill, quietly: Quietly, parent: QObject
    ) -> None:
        """Reconcile into `model`; `fill` refills open containers after each reconcile; each slice
        runs inside `quietly()`."""
        super().__init__(parent)
        self._model = model
        self._fill = fill
        self._quietly = quietly
        self._after: Callable[[], None] | None = None
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._on_timer_timeout)

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

    @Slot()
    def _on_timer_timeout(self) -> None:
        self._continue()

    def _continue(self) -> None:
        with self._quietly():
            done = self._model.continue_reconcile(RECONCILE_SLICE_MS)
        if not done:
            self._timer.start()
            return
        self._fill.refill()
        after, self._after = self._after, None
        if after is not None:
            after()
        self.reconciled.emit()
