"""Showing a tree in the Memory tab: merged into the model in slices, painting between.

A scan or search result is a whole new node tree; `MemoryTreeModel` merges it into the
shown one step by step (`start_merge`/`continue_merge`). `SlicedMerge` runs those steps a
few milliseconds at a time on a zero-interval timer, so the GUI stays responsive even
when thousands of rows change, and a newer tree simply replaces a merge in progress.
When a merge is done it builds the file rows of open containers (`TreeFill`), runs the
caller's follow-up, then emits `merged`.
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

# The tree merges a scan in slices this long, painting in between.
MERGE_SLICE_MS = 12.0

Quietly = Callable[[], AbstractContextManager[None]]
"""A block in which the tree's selection changes open nothing (`TreeEditorSync.quietly`)."""


class SlicedMerge(QObject):
    """Merges trees into `model` in slices (see the module docstring).

    Signals:
        merged(): a merge finished, its follow-up run.
    """

    merged = Signal()

    def __init__(
        self, model: MemoryTreeModel, fill: TreeFill, quietly: Quietly, parent: QObject
    ) -> None:
        """Merge into `model`; `fill` refills open containers after each merge; each slice
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
        """Whether a merge is in progress or a slice is waiting."""
        return self._model.merging or self._timer.isActive()

    def show(
        self,
        tree: TreeNode,
        badges: Mapping[str, Badge] | None,
        then: Callable[[], None] | None = None,
    ) -> None:
        """Merge `tree` (with the "agent edited" `badges`, None: unchanged), then run
        `then` and emit `merged`."""
        self._model.start_merge(tree, badges)
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
            done = self._model.continue_merge(MERGE_SLICE_MS)
        if not done:
            self._timer.start()
            return
        self._fill.refill()
        after, self._after = self._after, None
        if after is not None:
            after()
        self.merged.emit()
