"""The Memory tab's search box, without Qt (`gui/search/box.py` wires it): what a keystroke asks,
when an outcome is stale, what the tree expands once results show, when the index is warmed,
where Down or Enter in the field goes."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import NamedTuple

from memtab.components.search.search import SearchQuery
from memtab.components.tree.nodes import NodeKind, TreeNode
from memtab.components.tree.scan import HomeScan


class AfterShown(NamedTuple):
    """Once a search's tree shows: expand every row, or bring back `restore` (None: leave it)."""

    expand_all: bool
    restore: set[str] | None


class SearchBoxState:
    """The query typed, the browsing expansion kept while searching, the index warmed."""

    def __init__(self) -> None:
        self.query = SearchQuery.parse("")
        self._browse_expanded: set[str] | None = None
        self._warmed = False
        self._problem_told: str | None = None

    def typed(self, text: str, expanded_keys: Callable[[], set[str]]) -> bool:
        """The field now holds `text`; True if its terms changed (the rows are marked
        again and a search runs). `expanded_keys` is asked as a search begins."""
        query = SearchQuery.parse(text)
        if query.terms == self.query.terms:
            self.query = query
            return False
        if query.active and not self.query.active:
            self._browse_expanded = expanded_keys()
        self.query = query
        return True

    def after_tree_shown(self) -> AfterShown:
        """Expand every match, or (once cleared) bring back the browsing expansion."""
        if self.query.active:
            return AfterShown(True, None)
        restore, self._browse_expanded = self._browse_expanded, None
        return AfterShown(False, restore)

    def warm_now(self, scan: HomeScan | None) -> bool:
        """Whether the field taking the focus warms the index now (once, with a scan)."""
        if scan is None or self._warmed:
            return False
        self._warmed = True
        return True

    def told(self, problem: str | None) -> bool:
        """Whether the status bar says `problem` now (why the index on disk is not used):
        once, not at every keystroke."""
        if problem is None or problem == self._problem_told:
            return False
        self._problem_told = problem
        return True

    def is_current(self, scan: HomeScan, query: SearchQuery, shown: HomeScan | None) -> bool:
        """Whether a search's outcome (over `scan`, for `query`) is still to be shown: the
        home shown and the terms typed have not changed since."""
        return scan is shown and query.terms == self.query.terms


def first_match(current: TreeNode | None, rows: Iterable[TreeNode]) -> str | None:
    """The key Down or Enter selects: the first file row, or None when a file row is
    current already (or no row is a file)."""
    if current is not None and current.kind is NodeKind.FILE:
        return None
    return next((node.key for node in rows if node.kind is NodeKind.FILE), None)
