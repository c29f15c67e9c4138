"""Search's operations: a query matched against a scan, and the filtered tree built, off
the GUI thread.

`Searcher` owns the search index on disk as the window uses it (`IndexedTexts`, loaded
and opened by its first job, not with the window) and the last search's matches; its
jobs run one at a time on one lane (the job service's scans lane), so neither needs a
lock (a newer search supersedes one under way: `gui/search/box`). A query that narrows the
last one over the same scan only looks at that one's matches. `warm` brings the index to
the scan in the background, so the first search is quick; a search does it too (what
changed since: a stat compare, or nothing).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from memtab.components.jobs import JobContext
from memtab.components.search.search import SearchQuery, find_matches
from memtab.components.tree.nodes import TreeNode
from memtab.components.tree.scan import HomeScan
from memtab.components.tree.tree import build_tree, prepare_search

if TYPE_CHECKING:  # lazy: loaded on the lane by the first search or warm-up (`_texts`)
    from memtab.components.search.indexed import IndexedTexts


@dataclass(frozen=True)
class SearchOutcome:
    """The tree to show for `query` over `scan` (the full tree when the query is empty)."""

    scan: HomeScan
    query: SearchQuery
    tree: TreeNode
    match_count: int
    problem: str | None = None
    """Why the index on disk could not be used (the search read the files instead)."""
    more: bool = False
    """Whether more files may match than the tree shows (`MAX_MATCHED_FILES`)."""


class Searcher:
    """The index and the last search (see the module docstring); only its lane's jobs
    touch them."""

    def __init__(self) -> None:
        self._index_texts: IndexedTexts | None = None
        self._scan: HomeScan | None = None
        self._query = SearchQuery.parse("")
        self._keys: frozenset[str] | None = frozenset()  # None: not every match is known

    def search(self, scan: HomeScan, query: SearchQuery, ctx: JobContext) -> SearchOutcome:
        """The tree of `scan`'s files matching `query` (every file for an empty one)."""
        if not query.active:
            return SearchOutcome(scan, query, build_tree(scan), 0)
        if not self._texts.refresh(scan, stop=ctx.cancel_event):
            ctx.raise_if_cancelled()
        matches = find_matches(
            scan, query, self._texts, candidates=self._candidates(scan, query), cancel=ctx
        )
        self._scan, self._query = scan, query
        self._keys = None if matches.more else frozenset(matches)
        ctx.raise_if_cancelled()
        tree = build_tree(scan, matches)
        return SearchOutcome(
            scan, query, tree, len(matches), self._texts.problem, more=matches.more
        )

    def warm(self, scan: HomeScan, ctx: JobContext) -> None:
        """Bring the index on disk to `scan` (only what changed since any Memtab indexed
        it is read), and make what a search's tree takes of each listing."""
        self._texts.refresh(scan, stop=ctx.cancel_event)
        prepare_search(scan)

    def close(self) -> None:
        """Close the index file (the window closes, no search runs)."""
        if self._index_texts is not None:
            self._index_texts.close()

    @property
    def _texts(self) -> IndexedTexts:
        """The index, opened by the lane's first job."""
        if self._index_texts is None:
            # lazy: the index's reader and tantivy (~28 ms, ~7 MiB resident) load on the
            # lane when the search field first takes the focus, not with every window
            from memtab.components.search.indexed import IndexedTexts

            self._index_texts = IndexedTexts()
        return self._index_texts

    def _candidates(self, scan: HomeScan, query: SearchQuery) -> frozenset[str] | None:
        """The files worth looking at for `query`: the last matches when it narrows the
        last query over the same scan and they were all found, else None (every file)."""
        if scan is self._scan and query.narrows(self._query):
            return self._keys  # None when the last search stopped at its limit
        return None
