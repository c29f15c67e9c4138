"""The files the window's search looks at, and their texts from the home's search index on disk
(`memtab.search_index`, §22.11), rows named as the MCP catalog names them, brought to the scan
shown before it answers; the window keeps no file's text; one thread at a time (its lane)."""

from __future__ import annotations

import bisect
import itertools
import os
import threading
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from memtab.components.tree.nodes import file_key, orphan_entry_key, ref_key
from memtab.components.tree.scan import HomeScan
from memtab.fs import memo
from memtab.fs.memo import Stamp
from memtab.search_index.documents import IndexedFile, readable_text, trusted_stamp
from memtab.search_index.index import Key, SearchIndex, index_file_for
from memtab.search_index.substrings import SubstringReader
from memtab.store.files import MAX_FILE_BYTES, ScopeListing

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
        """For each term, the rows of `scan`'s files whose text may hold it (None: any may); and,
        unless the index is as the last refresh left it, every row under `scan`'s roots (None:
        every file), read at one moment: a row taken out and put back is in both or neither."""
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

    def refresh(self, scan: HomeScan, stop: threading.Event | None = None) -> bool:
        """Bring the index to `scan` unless it is there (reopened if rebuilt, refreshed when the
        scan changed or a process committed); False when `stop` was set first. The version kept is
        read before a refresh that wrote nothing: only then does it row every file of the scan."""
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


@dataclass(frozen=True, slots=True)
class Searchable:
    """A file as the search sees it: tree key, `label` (name and description), its index row
    (`root`, `row`), whether `view` shows its text (`readable`) or through a link (`linked`), and
    what the listing holds of it (`listed`) or its `stamp` (other agents' files: size, mtime)."""

    key: str
    label: str
    root: str
    row: str
    path: str
    readable: bool
    listed: object
    stamp: tuple[int, int, int, int] | None = None
    linked: bool = False
    folded: str = ""
    """`named` casefolded: what a keystroke compares its terms with (once a scan), the words
    the ranked search counts as its name (its id: scope or source and path)."""

    @property
    def where(self) -> tuple[str, str]:
        """Its row in the index: (root, row)."""
        return self.root, self.row

    @property
    def named(self) -> str:
        """The row's label: its id and the description."""
        return self.row + self.label[self.label.index("\n") :]


def searchables(scan: HomeScan) -> Iterator[Searchable]:
    """Every file of `scan`, in tree order (paths joined as strings: at 20,000 files
    `Path.joinpath` costs more than a narrowing query)."""
    listings: list[tuple[str, ScopeListing, str | None]] = [
        (os.fspath(item.root), item.listing, None) for item in scan.scopes if item.root is not None
    ]
    listings += [(os.fspath(item.root), item.listing, item.dir_name) for item in scan.orphans]
    for root, listing, orphan_dir in listings:
        prefix = listing.scope.virtual_root + "/"
        for entry in listing.files:
            if orphan_dir is None:
                key = file_key(entry.path)
            else:
                key = orphan_entry_key(orphan_dir, entry.path, is_dir=False)
            relative = "/".join(entry.path.segments)
            label = f"{relative}\n{entry.description}"
            yield Searchable(
                key,
                label,
                root,
                prefix + relative,
                f"{root}/{relative}",
                entry.editable,
                entry,
                folded=f"{prefix}{label}".casefold(),
            )
    for source in scan.sources.listings if scan.sources is not None else ():
        for file in source.files:
            label = f"{file.relative}\n{file.description}"
            yield Searchable(
                ref_key(file.ref),
                label,
                file.source_id,
                file.id,
                os.fspath(file.physical),
                file.size_bytes <= MAX_FILE_BYTES,
                file,
                (file.size_bytes, file.modified_at_ms, 0, 0),
                file.linked,
                f"{file.id}\n{file.description}".casefold(),
            )


def roots_of(scan: HomeScan) -> tuple[str, ...]:
    """The roots `scan` lists in full (the index keeps exactly their files' rows): its
    scopes' and orphaned dirs' roots, and the sources' ids once sources are listed."""
    roots = [os.fspath(item.root) for item in scan.scopes if item.root is not None]
    roots += [os.fspath(item.root) for item in scan.orphans]
    if scan.sources is not None:
        roots += [listing.source.id for listing in scan.sources.listings]
    return tuple(dict.fromkeys(roots))


class ScanFiles:
    """A scan's files in tree order (`searchables`) and what a keystroke looks up with no walk in
    Python: each one's place by index row and tree key, and the files whose label holds a term
    (the labels casefolded in one text, searched by `str.find`)."""

    __slots__ = ("_labels", "_starts", "by_key", "by_row", "items")

    def __init__(self, items: list[Searchable]) -> None:
        self.items = items
        self.by_row = {item.where: at for at, item in enumerate(items)}
        self.by_key = {item.key: at for at, item in enumerate(items)}
        # Made with the rest (a refresh's, on the lane before the first keystroke).
        self._starts = list(
            itertools.accumulate((len(item.folded) + 1 for item in items), initial=0)
        )
        self._labels = "\0".join(item.folded for item in items)

    def labelled(self, term: str, most: int) -> set[int] | None:
        """The places of the files whose label (casefolded) holds `term`; None when more
        than `most` do (so many narrow nothing)."""
        labels, starts, found = self._labels, self._starts, set()
        at = labels.find(term)
        while at >= 0:
            place = bisect.bisect_right(starts, at) - 1
            found.add(place)
            if len(found) > most:
                return None
            at = labels.find(term, starts[place + 1])
        return found
