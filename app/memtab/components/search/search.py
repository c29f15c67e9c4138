"""Searching memories by name, description and content off the GUI thread, from the home's search
index (shared with the MCP servers and `memtab search`, ranked as they rank): incremental,
cancellable per keystroke; `Searcher`'s jobs run one at a time on the scans lane (no lock)."""

from __future__ import annotations

from collections.abc import Collection, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from memtab.components.jobs import CancelToken, JobContext
from memtab.components.search.highlight import highlight_spans
from memtab.components.tree.nodes import FileMatch, LineMatch, TreeNode
from memtab.components.tree.scan import HomeScan
from memtab.components.tree.tree import build_tree, prepare_search

if TYPE_CHECKING:  # lazy: the index's reader and tantivy load with the first search
    from memtab.components.search.indexed import IndexedTexts

MAX_LINES_PER_FILE = 20
# The files a keystroke shows at most, each with its lines (the best ranked: more words
# narrow them).
MAX_MATCHED_FILES = 100
# How much of a matching line a result row shows, and of it before the first match.
LINE_SNIPPET_CHARS = 160
LINE_LEAD_CHARS = 30
CANCEL_CHECK_EVERY = 256
# The best ranked files a search reads first; the rest of the ranking only when fewer match.
RANKED_FIRST = 4 * MAX_MATCHED_FILES


@dataclass(frozen=True)
class SearchQuery:
    """A parsed search: the text as typed and its casefolded terms."""

    text: str
    terms: tuple[str, ...]

    @classmethod
    def parse(cls, text: str) -> SearchQuery:
        """Split on whitespace; duplicate terms count once."""
        terms = tuple(dict.fromkeys(term.casefold() for term in text.split()))
        return cls(text, terms)

    @property
    def active(self) -> bool:
        return bool(self.terms)

    def narrows(self, earlier: SearchQuery) -> bool:
        """Whether every file matching this query also matches `earlier` (each earlier
        term is part of one of these terms), so only its matches need looking at."""
        return earlier.active and all(
            any(old in new for new in self.terms) for old in earlier.terms
        )


class Matches(dict[str, FileMatch]):
    """The files a search matched, by tree key, best first; `more`: it stopped at its limit."""

    more: bool = False


def find_matches(
    scan: HomeScan,
    query: SearchQuery,
    texts: IndexedTexts,
    *,
    candidates: Collection[str] | None = None,
    cancel: CancelToken | None = None,
) -> Matches:
    """The best `MAX_MATCHED_FILES` files of `scan` holding every term of `query` (ranked, then
    part-word matches in tree order; `candidates`: only those keys), with hit counts and first
    lines; `more`: others may match. Each term's files come from the index or a label, no walk."""
    matches = Matches()
    if not query.active:
        return matches
    files = texts.files(scan)
    holding, rows = texts.candidates(scan, query.terms)
    if cancel is not None:
        cancel.raise_if_cancelled()
    most = len(files.items) // 2
    places: set[int] | None = None  # None: any file
    for term, held in holding:
        if held is None:
            continue
        labelled = files.labelled(term, most)
        if labelled is None:
            continue
        by_row = files.by_row
        found = labelled.union(by_row[where] for where in held if where in by_row)
        places = found if places is None else places & found
    if places is not None and rows is not None:
        # A file whose row another process took out to index it again: read from disk.
        places |= {at for at, item in enumerate(files.items) if item.where not in rows}
    if candidates is not None:
        earlier = {files.by_key[key] for key in candidates if key in files.by_key}
        places = earlier if places is None else places & earlier
    order = (files.items[at] for at in _best_first(texts, scan, query.text, places))
    for count, (item, text) in enumerate(texts.texts(order)):
        if cancel is not None and count % CANCEL_CHECK_EVERY == 0:
            cancel.raise_if_cancelled()
        label = item.folded
        content = text.casefold()
        if not all(term in label or term in content for term in query.terms):
            continue
        if len(matches) == MAX_MATCHED_FILES:
            matches.more = True
            break
        if cancel is not None:  # finding a file's lines is the costly part
            cancel.raise_if_cancelled()
        matches[item.key] = FileMatch(*line_matches(text, content, query))
    return matches


def _best_first(
    texts: IndexedTexts, scan: HomeScan, text: str, places: set[int] | None
) -> Iterator[int]:
    """The places to look at (`places`; None: all): best first, as the MCP servers and `memtab
    search` rank (BM25, ties by path: the best `RANKED_FIRST`, the rest once those are looked
    at), then the files only part of a word finds, in tree order."""
    looked: set[int] = set()
    for limit in (RANKED_FIRST, None):
        ranked, whole = texts.ranked(scan, text, limit)
        for at in ranked:
            if at not in looked and (places is None or at in places):
                looked.add(at)
                yield at
        if whole:
            break
    every = range(len(texts.files(scan).items)) if places is None else sorted(places)
    yield from (at for at in every if at not in looked)


def line_matches(text: str, folded: str, query: SearchQuery) -> tuple[int, tuple[LineMatch, ...]]:
    """How many lines of `text` hold a term (a result's pill) and the first `MAX_LINES_PER_FILE`
    of them with the terms' spans; `folded` is `text.casefold()`, where terms are found (same
    line numbers)."""
    if not query.active or not folded:
        return 0, ()
    lines = text.split("\n")
    folded_lines = folded.split("\n")
    if len(lines) != len(folded_lines):
        return 0, ()  # the file changed between the two reads: the next search shows it
    found = [at for at, line in enumerate(folded_lines) if any(map(line.__contains__, query.terms))]
    shown = found[:MAX_LINES_PER_FILE]
    return len(found), tuple(_line_match(at, lines[at].rstrip("\r"), query.terms) for at in shown)


def _line_match(number: int, line: str, terms: tuple[str, ...]) -> LineMatch:
    """The part of `line` a result row shows: from shortly before the first match (at a
    word's start when one is near), leading blanks left out."""
    spans = highlight_spans(line, terms)
    column = len(line) - len(line.lstrip())
    cut = False
    if spans and spans[0][0] - column > LINE_LEAD_CHARS:
        start = spans[0][0] - LINE_LEAD_CHARS
        space = line.find(" ", start, start + LINE_LEAD_CHARS // 2)  # keep some context
        column, cut = (space + 1 if space != -1 else start), True
    shown = line[column : column + LINE_SNIPPET_CHARS].rstrip()
    if column == 0 and len(shown) == len(line):  # the whole line: its spans as they are
        return LineMatch(number, line, 0, tuple(spans), cut)
    shifted = tuple(
        (start - column, min(end - column, len(shown)))
        for start, end in spans
        if column <= start < column + len(shown)
    )
    return LineMatch(number, shown, column, shifted, cut)


@dataclass(frozen=True)
class SearchOutcome:
    """The tree to show for `query` over `scan` (the full tree when the query is empty)."""

    scan: HomeScan
    query: SearchQuery
    tree: TreeNode
    match_count: int
    problem: str | None = None
    """Why the index on disk could not be used (the search read the files instead)."""
    more: bool = False  # Whether more files may match than the tree shows (`MAX_MATCHED_FILES`).


class Searcher:
    """The index and the last search (see the module docstring); only its lane's jobs touch them."""

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
            # lazy: the settled window's start — tantivy and the index load at the first search
            from memtab.components.search.indexed import IndexedTexts

            self._index_texts = IndexedTexts()
        return self._index_texts

    def _candidates(self, scan: HomeScan, query: SearchQuery) -> frozenset[str] | None:
        """The files worth looking at for `query`: the last matches when it narrows the
        last query over the same scan and they were all found, else None (every file)."""
        if scan is self._scan and query.narrows(self._query):
            return self._keys  # None when the last search stopped at its limit
        return None
