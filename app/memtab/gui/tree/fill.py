"""Which containers of a big home's tree have their file rows built, and building them.

A home over `components.tree.tree.LAZY_FILL_MIN_FILES` files is built with the file rows of its open
containers only (the scopes, and every folder opened since). `TreeFill` is the model's
`filler`: a container the view expands is added to the open set and filled from the scan
shown. Each scan's tree is built with the open set; a tree built without a container
opened since (a search cleared, a scan started before) is filled again after its reconcile.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection

from memtab.components.tree.nodes import TreeNode
from memtab.components.tree.scan import HomeScan
from memtab.components.tree.tree import default_open_containers, fill_rows
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
        self._open: set[str] = set(default_open_containers())
        model.filler = self._rows

    @property
    def open_containers(self) -> Collection[str]:
        """The keys of the containers whose file rows the tree builds."""
        return self._open

    def _rows(self, container_key: str) -> list[TreeNode] | None:
        self._open.add(container_key)
        scan = self._shown_scan()
        if scan is None or self._searching():
            return None  # the scan that follows builds them
        return fill_rows(scan, container_key)

    def refill(self) -> None:
        """Fill the open containers a reconciled tree left unfilled (see the module docstring)."""
        if self._shown_scan() is None or self._searching():
            return
        for key in list(self._open):
            node = self._model.node_for_key(key)
            if node is not None and node.unfilled_files:
                self._model.fill(node)
