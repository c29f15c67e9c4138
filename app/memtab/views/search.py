"""Searching memories by name, description and content — plain Python, run off the GUI thread.

A query is split into terms; a file matches when every term (case-insensitively) occurs in
its path inside the scope, its description or its text. Contents come from a
`ContentIndex`: casefolded file texts, re-read only when a file's size or time changes.
The index is not thread-safe on purpose: only the search worker's jobs ever touch it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from memtab.store.files import MAX_FILE_BYTES, FileEntry
from memtab.views.scan import HomeScan
from memtab.views.tree import FileMatch, file_key, orphan_entry_key

# Files larger than this are matched by name and description only: reading megabytes on
# every keystroke is not worth a hit in a file Memtab cannot even edit.
MAX_INDEXED_BYTES = 4 * MAX_FILE_BYTES


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


@dataclass(frozen=True)
class _Searchable:
    key: str
    entry: FileEntry
    physical: Path


def _searchables(scan: HomeScan) -> Iterator[_Searchable]:
    for scope_scan in scan.scopes:
        if scope_scan.root is None:
            continue
        for entry in scope_scan.listing.files:
            yield _Searchable(
                file_key(entry.path), entry, scope_scan.root.joinpath(*entry.path.segments)
            )
    for orphan in scan.orphans:
        for entry in orphan.listing.files:
            yield _Searchable(
                orphan_entry_key(orphan.dir_name, entry.path, is_dir=False),
                entry,
                orphan.root.joinpath(*entry.path.segments),
            )


class ContentIndex:
    """Casefolded file contents by physical path, refreshed when a file changes.

    Use it from one thread only (the search worker).
    """

    def __init__(self) -> None:
        self._texts: dict[str, tuple[tuple[int, int], str]] = {}

    def __len__(self) -> int:
        return len(self._texts)

    def text(self, entry: FileEntry, physical: Path) -> str:
        """The casefolded content of a listed file ("" if binary, huge or unreadable)."""
        if entry.binary or entry.size_bytes > MAX_INDEXED_BYTES:
            return ""
        key = os.fspath(physical)
        version = (entry.size_bytes, entry.modified_at_ms)
        cached = self._texts.get(key)
        if cached is not None and cached[0] == version:
            return cached[1]
        try:
            folded = physical.read_bytes().decode("utf-8", "replace").casefold()
        except OSError:
            folded = ""
        self._texts[key] = (version, folded)
        return folded

    def refresh(self, scan: HomeScan) -> None:
        """Index every file of `scan` and forget files it no longer lists."""
        keep: set[str] = set()
        for item in _searchables(scan):
            self.text(item.entry, item.physical)
            keep.add(os.fspath(item.physical))
        for key in [key for key in self._texts if key not in keep]:
            del self._texts[key]


def find_matches(scan: HomeScan, query: SearchQuery, index: ContentIndex) -> dict[str, FileMatch]:
    """Every file of `scan` matching `query`, by tree key, with its content hit count."""
    matches: dict[str, FileMatch] = {}
    if not query.active:
        return matches
    for item in _searchables(scan):
        label = f"{item.entry.path.relative}\n{item.entry.description}".casefold()
        content = index.text(item.entry, item.physical)
        if all(term in label or term in content for term in query.terms):
            hits = sum(content.count(term) for term in query.terms) if content else 0
            matches[item.key] = FileMatch(hits)
    return matches


def highlight_spans(text: str, terms: tuple[str, ...]) -> list[tuple[int, int]]:
    """Merged (start, end) spans of `text` where any term occurs, case-insensitively.

    Terms are casefolded; spans are found in `text.casefold()`, which has the same length
    for the texts shown (names and descriptions) except for rare characters such as `ß`
    — then highlighting is skipped rather than misplaced.
    """
    folded = text.casefold()
    if len(folded) != len(text) or not terms:
        return []
    spans: list[tuple[int, int]] = []
    for term in terms:
        start = folded.find(term)
        while start != -1 and term:
            spans.append((start, start + len(term)))
            start = folded.find(term, start + len(term))
    spans.sort()
    merged: list[tuple[int, int]] = []
    for start, end in spans:
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged
