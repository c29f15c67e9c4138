"""The search worker: matches a query against a scan and builds the filtered tree off the
GUI thread.

One worker thread owns the `ContentIndex` and the last search's matches (its jobs run one
at a time, so neither needs a lock). Each search is the runner's latest job of one key,
so it supersedes the previous one — and a superseded search stops within a few hundred
files; the tab also drops an outcome whose scan or query is no longer current. A query
that narrows the last one over the same scan only looks at that one's matches.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from PySide6.QtCore import QObject, Signal, Slot

from memtab.components.search.search import ContentIndex, SearchQuery, find_matches
from memtab.components.tree.nodes import TreeNode
from memtab.components.tree.scan import HomeScan
from memtab.components.tree.tree import build_tree
from memtab.gui.tasks.runner import TaskContext, TaskRunner

logger = logging.getLogger(__name__)

SEARCH_KEY = "search"
WARM_KEY = "warm-index"


@dataclass(frozen=True)
class SearchOutcome:
    """The tree to show for `query` over `scan` (the full tree when the query is empty)."""

    scan: HomeScan
    query: SearchQuery
    tree: TreeNode
    match_count: int


class _LastSearch:
    """The last finished search (only the worker's jobs touch it)."""

    def __init__(self) -> None:
        self.scan: HomeScan | None = None
        self.query = SearchQuery.parse("")
        self.keys: frozenset[str] = frozenset()

    def candidates(self, scan: HomeScan, query: SearchQuery) -> frozenset[str] | None:
        """The files worth looking at for `query`: the last matches when it narrows the
        last query over the same scan, else None (every file)."""
        if scan is self.scan and query.narrows(self.query):
            return self.keys
        return None


class _SearchJob:
    def __init__(
        self, index: ContentIndex, last: _LastSearch, scan: HomeScan, query: SearchQuery
    ) -> None:
        self._index = index
        self._last = last
        self._scan = scan
        self._query = query

    def __call__(self, context: TaskContext) -> SearchOutcome:
        if not self._query.active:
            return SearchOutcome(self._scan, self._query, build_tree(self._scan), 0)
        matches = find_matches(
            self._scan,
            self._query,
            self._index,
            candidates=self._last.candidates(self._scan, self._query),
            cancel=context,
        )
        self._last.scan, self._last.query = self._scan, self._query
        self._last.keys = frozenset(matches)
        context.raise_if_cancelled()
        tree = build_tree(self._scan, matches)
        return SearchOutcome(self._scan, self._query, tree, len(matches))


class _WarmJob:
    def __init__(self, index: ContentIndex, scan: HomeScan) -> None:
        self._index = index
        self._scan = scan

    def __call__(self, context: TaskContext) -> None:
        self._index.refresh(self._scan)


class SearchTasks(QObject):
    """Runs searches on a worker thread.

    Signals:
        search_finished(SearchOutcome): on the GUI thread, for the newest search only.
        search_failed(str)
    """

    search_finished = Signal(object)
    search_failed = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        """Start the search worker thread."""
        super().__init__(parent)
        self._index = ContentIndex()
        self._last = _LastSearch()
        self._runner = TaskRunner("search", parent=self)
        self._runner.latest_finished.connect(self._on_runner_latest_finished)
        self._runner.latest_failed.connect(self._on_runner_latest_failed)

    @property
    def busy(self) -> bool:
        """Whether a search is queued or running."""
        return self._runner.is_busy(SEARCH_KEY)

    def search(self, scan: HomeScan, query: SearchQuery) -> int:
        """Start a search (or, for an empty query, the full tree); supersedes the last."""
        return self._runner.submit_latest(
            SEARCH_KEY, _SearchJob(self._index, self._last, scan, query)
        )

    def warm(self, scan: HomeScan) -> None:
        """Read the contents of `scan`'s files in the background, so the first search is
        quick (the GUI never waits for this)."""
        self._runner.submit(_WarmJob(self._index, scan), key=WARM_KEY)

    def shutdown(self, timeout_ms: int = 3000) -> None:
        """Cancel work and stop the worker thread."""
        self._runner.shutdown(timeout_ms)

    @Slot(str, object)
    def _on_runner_latest_finished(self, key: str, outcome: object) -> None:
        if key == SEARCH_KEY:
            self.search_finished.emit(outcome)

    @Slot(str, str)
    def _on_runner_latest_failed(self, key: str, message: str) -> None:
        if key == SEARCH_KEY:
            logger.warning("Search failed: %s", message)
            self.search_failed.emit(message)
