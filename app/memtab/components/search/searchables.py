"""The files a search looks at, as a scan lists them: what the window matches of each
(its tree key, name and description) and the row the search index on disk keeps for it
(`memtab.search_index`, docs/formats.md §22.11).

A row is named as the MCP server's catalog names it — the root it was listed under (a scope
root's path, a source's id), its id there (virtual path, source file id) and its label
(that id and the description) — so the window and the servers share one row a file, and a
file indexed by one is not read again by the other.
"""

from __future__ import annotations

import bisect
import itertools
import os
from collections.abc import Iterator
from dataclasses import dataclass

from memtab.components.tree.nodes import file_key, orphan_entry_key, ref_key
from memtab.components.tree.scan import HomeScan
from memtab.store.files import MAX_FILE_BYTES, ScopeListing


@dataclass(frozen=True, slots=True)
class Searchable:
    """A file as the search sees it: its tree key and what its name and description say
    (`label`); its row in the index (`root`, `row`; `named`: the row's label); where
    it is, whether `view` may show its text (`readable`; else it is found by name and
    description only), whether it is read through a link another agent's layout allows
    (`linked`); and what the listing holds of it (`listed`: a stamp taken of it holds
    while the listing keeps this entry), or its stamp when the listing gives one
    (`stamp`: other agents' files, by size and mtime)."""

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
    """A scan's files in tree order (`searchables`), and what a keystroke looks up among
    them without a walk of every file in Python: each one's place by its row in the index
    and by its tree key, and the places of the files whose label holds a term (their
    labels casefolded in one text, searched by `str.find`)."""

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
