"""The texts the window's search checks, from the home's search index on disk — the one
the MCP servers and `memtab search` share (`memtab.search_index`, docs/formats.md §22.11).

Before it answers, the index is brought to the scan shown (`SearchIndex.refresh`), again
whenever the scan changes (the watcher's news, the window's own writes) or any
process committed to the index since (`SubstringReader.version`), so nothing it answers
is older than the tree. A file's stamp is taken once per listing entry
(`Searchable.listed`; none to trust: `trusted_stamp`). The window keeps no file's text: a
search reads the texts of its candidates from the index, a chunk at a time.

Use it from one thread at a time: the search's jobs run one at a time on one lane.
"""

from __future__ import annotations

import itertools
import logging
import os
import threading
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

from memtab.components.search.searchables import ScanFiles, Searchable, roots_of, searchables
from memtab.components.tree.scan import HomeScan
from memtab.fs import memo
from memtab.fs.memo import Stamp
from memtab.search_index.documents import IndexedFile, readable_text, trusted_stamp
from memtab.search_index.index import Key, SearchIndex, index_file_for
from memtab.search_index.substrings import SubstringReader

logger = logging.getLogger(__name__)

# Texts read from the index per query while a search checks them.
TEXTS_PER_READ = 64
# Refreshes in a row until one finds nothing to write (files modified within the racy
# margin are read by every refresh).
REFRESHES_TO_SETTLE = 2


class IndexedTexts:
    """The index on disk as the window's search uses it (see the module docstring)."""

    def __init__(self, path: Path | None = None) -> None:
        """`path`: the index's folder (None: the scanned home's, in Memtab's cache dir)."""
        self._path = path
        self._index: SearchIndex | None = None
        self._reader: SubstringReader | None = None
        self._stamps: dict[str, tuple[object, Stamp]] = {}
        self._scan: HomeScan | None = None  # the scan the index was last brought to
        self._items: tuple[HomeScan, ScanFiles] | None = None  # its files, in order
        self._version: object = -1  # the index's version then
        self._known: HomeScan | None = None  # the scan whose files the reader knows

    @property
    def problem(self) -> str | None:
        """Why the index on disk cannot be used (None: it is, or is not opened yet): the
        search then reads the files into an index in memory."""
        return self._index.problem if self._index is not None else None

    def close(self) -> None:
        """Close the index (the window closes)."""
        self._drop_reader()
        if self._index is not None:
            self._index.close()
            self._index = None
        self._items = None

    def candidates(
        self, scan: HomeScan, terms: tuple[str, ...]
    ) -> tuple[list[tuple[str, set[Key] | None]], set[Key] | None]:
        """For each term, the rows of `scan`'s files whose text may hold it (None: any
        may); and, unless the index is as the last refresh left it, every row the index
        holds under `scan`'s roots (None: a row of every file) — all read at one moment,
        so a row another process takes out and puts back meanwhile is in both or in
        neither."""
        roots = roots_of(scan)
        self.refresh(scan)
        reader = self._opened_reader(scan)
        with reader.snapshot():
            held = [(term, reader.holding(term, roots)) for term in terms]
            rows = None if reader.version() == self._version else reader.rows(roots)
        return held, rows

    def ranked(
        self, scan: HomeScan, query: str, limit: int | None = None
    ) -> tuple[list[int], bool]:
        """The places of the best `limit` of `scan`'s files (None: all) the ranked search finds
        for `query`, best first — the order the MCP servers and `memtab search` answer in
        (`SubstringReader.ranked`) — and whether they are all it finds."""
        by_row = self.files(scan).by_row
        ranked, whole = self._opened_reader(scan).ranked(query, roots_of(scan), limit)
        return [by_row[key] for key in ranked if key in by_row], whole

    def files(self, scan: HomeScan) -> ScanFiles:
        """`scan`'s files in tree order (`ScanFiles.items`) with their places by row and
        key, and their labels (kept for the scan last asked about: every keystroke of a
        search looks at them)."""
        if self._items is None or self._items[0] is not scan:
            self._items = (scan, ScanFiles(list(searchables(scan))))
        return self._items[1]

    def texts(self, items: Iterable[Searchable]) -> Iterator[tuple[Searchable, str]]:
        """Each of `items` with its text, in order: the index's, or — for a file whose row
        another process has taken out to index it again — read now as the index reads it
        ("" for a file `view` refuses)."""
        items = iter(items)
        while part := list(itertools.islice(items, TEXTS_PER_READ)):
            keys = [(item.root, item.row) for item in part]
            found = self._opened_reader().texts(keys)
            for item, key in zip(part, keys, strict=True):
                text = found.get(key)
                yield item, text if text is not None else readable_text(_indexed(item, None))[0]

    # --- the index ----------------------------------------------------------------------

    def refresh(self, scan: HomeScan, stop: threading.Event | None = None) -> bool:
        """Bring the index to `scan` unless it is there already: opened if needed (again if
        another process rebuilt it), and refreshed when the scan changed or any process
        committed since the last refresh began; False when `stop` was set before it was
        (the rest is read by the next refresh). An outline lists no file: it is left alone.

        The version kept is the one read before a refresh that wrote nothing: the index is
        still as that refresh found it — a row of every file of the scan — only while no
        process has committed since (a refresh that wrote is followed by one that finds
        nothing to write, to settle)."""
        if scan.is_outline:
            return True
        if self._reader is not None and self._reader.replaced:
            self.close()
        reader = self._opened_reader(scan)
        before = reader.version()
        if scan is self._scan and before == self._version:
            return True
        index = self._index
        assert index is not None
        files = self._files(scan)
        roots = roots_of(scan)
        for _attempt in range(REFRESHES_TO_SETTLE):
            refreshed = index.refresh(files, roots, stop=stop)
            if reader.replaced:  # the refresh found the index damaged and built it again
                self._drop_reader()
                reader = self._opened_reader(scan)
                before = -1
            if refreshed.pending:
                self._scan = None
                return False
            if not refreshed.read:
                break
            before = reader.version()  # it wrote: the next one, writing nothing, settles
        else:
            before = -1  # still writing (files changed just now): the rows are read each time
        self._scan, self._version = scan, before
        reader.prepare()  # on the lane now, not in the first keystroke
        return True

    def _opened_reader(self, scan: HomeScan | None = None) -> SubstringReader:
        if self._index is None:
            assert scan is not None, "refreshed before it is read"
            self._index = SearchIndex(self._path or index_file_for(scan.home.root))
        if self._reader is None:
            self._reader = SubstringReader(self._index)
            self._known = None
        if scan is not None and self._known is not scan:
            self._reader.know(item.where for item in self.files(scan).items)
            self._known = scan
        return self._reader

    def _drop_reader(self) -> None:
        if self._reader is not None:
            self._reader.close()
            self._reader = None
        self._scan = None

    def _files(self, scan: HomeScan) -> list[IndexedFile]:
        """`scan`'s files as the index takes them, each stamped (see the module docstring)."""
        racy_after = time.time_ns() - memo.RACY_MARGIN_NS
        known, stamps = self._stamps, {}
        files = []
        for item in self.files(scan).items:
            stamp = item.stamp
            if stamp is None:
                cached = known.get(item.path)
                if cached is not None and cached[0] is item.listed:
                    stamp = cached[1]
                else:  # None when gone or modified too recently to trust one
                    try:
                        stamp = trusted_stamp(os.lstat(item.path), racy_after)
                    except OSError:
                        stamp = None
                if stamp is not None:
                    stamps[item.path] = (item.listed, stamp)
            files.append(_indexed(item, stamp))
        self._stamps = stamps
        return files


def _indexed(item: Searchable, stamp: Stamp | None) -> IndexedFile:
    """`item` as the index takes it: its row, labelled by its id and description."""
    physical = item.path if item.readable else None
    return IndexedFile(item.root, item.row, item.named, physical, stamp, item.linked)
