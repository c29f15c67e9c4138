"""What the search box needs of the Memory tab's other parts, as small protocols the
composition (`gui/window/features.py`) fills with the tree's own: the tree, its model, the
link that opens what the tree selects, and the scan the tab shows.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from PySide6.QtCore import Qt

from memtab.components.tree.nodes import TreeNode
from memtab.components.tree.scan import HomeScan


class TermsHighlighter(Protocol):
    """The tree's row painter (`MemoryItemDelegate`): the terms it marks in the rows."""

    highlight_terms: tuple[str, ...]


class SearchedTree(Protocol):
    """The tree (`MemoryTreeView`): its current row, what is expanded, its painter."""

    @property
    def delegate(self) -> TermsHighlighter: ...

    def current_node(self) -> TreeNode | None: ...

    def expandAll(self) -> None: ...

    def expanded_keys(self) -> set[str]: ...

    def set_expanded_keys(self, keys: Iterable[str], *, collapse_others: bool = False) -> None: ...

    def setFocus(self, reason: Qt.FocusReason) -> None: ...


class SearchedRows(Protocol):
    """The tree's model (`MemoryTreeModel`): its rows, repainted when the terms change."""

    def nodes(self) -> Iterable[TreeNode]: ...

    def refresh_all(self) -> None: ...


class MatchStepper(Protocol):
    """The tree and the editor kept in step (`TreeEditorLink`): a row selected, a matching
    line gone to."""

    def select_key(self, key: str, open_it: bool) -> None: ...

    def step_match(self, forward: bool) -> bool: ...


class ShownScan(Protocol):
    """The tab (`MemoryTab`): the scan it shows, which searches run over."""

    @property
    def scan(self) -> HomeScan | None: ...
