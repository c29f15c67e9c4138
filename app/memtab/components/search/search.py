"""Searching memories by name, description and content — plain Python, run off the GUI thread.

A query is split into terms; a file matches when every term (case-insensitively) occurs in
its path inside the scope (or the source), its description or its text. Other agents'
files are searched with mux's (their keys are their refs' tree keys, `tree.ref_key`); a
file's text is what the editor would show of it (`store.files.read_file_content`, by the
one readability rule: at most the cap, nothing of a file with other hard links, NUL bytes
or that is no longer a regular file, which is matched by name and description only), and
loki-mode's JSON is searched as written, not as rendered. Contents come from a
`ContentIndex`: casefolded file texts, re-read only when a file's size or time changes.
The index is not thread-safe on purpose: only the search worker's jobs ever touch it.
It keeps each folded text as UTF-8 (terms are matched as UTF-8 too, which finds exactly
what matching the text finds): a text with one character beyond Latin-1 would take 2 or 4
bytes per character as a Python string, and half of real memory files have one (`—`, `→`,
an emoji). The window fills it when the search field first takes the focus, not at
start-up: a window nobody searches in holds no file's text.

Each match carries its first matching lines (`LineMatch`, shown under the file's row),
for the first `MAX_FILES_WITH_LINES` files: lines are found in the folded text (casefold
never adds or removes a line break) and shown from the file's own text, which the index
keeps for the files recently shown only.

Searching is incremental: a query that narrows the previous one (every old term is part
of a new term) only looks at the files the previous one matched (`find_matches`'s
`candidates`), and a long search checks its cancel token as it goes, so the next
keystroke never waits for it.
"""

from __future__ import annotations

import os
from collections import OrderedDict
from collections.abc import Collection, Iterator
from dataclasses import dataclass

from memtab.components.cancel import CancelToken
from memtab.components.search.highlight import highlight_spans
from memtab.components.tree.nodes import FileMatch, LineMatch, file_key, orphan_entry_key, ref_key
from memtab.components.tree.scan import HomeScan
from memtab.components.tree.sources_scan import SourcesScan
from memtab.sources.layouts import classify
from memtab.store.files import ScopeListing, read_file_content

MAX_LINES_PER_FILE = 20
MAX_FILES_WITH_LINES = 200
# How much of a matching line a result row shows, and of it before the first match.
LINE_SNIPPET_CHARS = 160
LINE_LEAD_CHARS = 30
# Original texts kept for showing lines (the folded ones are kept for every file).
ORIGINAL_CACHE_FILES = 400
CANCEL_CHECK_EVERY = 256


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


@dataclass(frozen=True, slots=True)
class _Searchable:
    """A file as the search sees it: its tree key, what its name and description say,
    where it is and its version (size, mtime); `readable` False: never read; `linked`: a
    link another agent's layout lets Memtab read through."""

    key: str
    label: str
    physical: str
    version: tuple[int, int]
    readable: bool = True
    linked: bool = False


def _searchables(
    scan: HomeScan, candidates: Collection[str] | None = None
) -> Iterator[_Searchable]:
    """Every file of `scan` (only `candidates`, by tree key, when given) with where it is.

    Paths are joined as strings: at 20,000 files `Path.joinpath` alone costs more than
    looking at the candidates of a narrowing query.
    """
    listings: list[tuple[str, ScopeListing, str | None]] = [
        (os.fspath(item.root), item.listing, None) for item in scan.scopes if item.root is not None
    ]
    listings += [(os.fspath(item.root), item.listing, item.dir_name) for item in scan.orphans]
    for root, listing, orphan_dir in listings:
        for entry in listing.files:
            if orphan_dir is None:
                key = file_key(entry.path)
            else:
                key = orphan_entry_key(orphan_dir, entry.path, is_dir=False)
            if candidates is None or key in candidates:
                yield _Searchable(
                    key,
                    f"{entry.path.relative}\n{entry.description}",
                    os.path.join(root, *entry.path.segments),
                    (entry.size_bytes, entry.modified_at_ms),
                    not entry.binary,
                )
    if scan.sources is not None:
        yield from _source_searchables(scan.sources, candidates)


def _source_searchables(
    sources: SourcesScan, candidates: Collection[str] | None
) -> Iterator[_Searchable]:
    for listing in sources.listings:
        for file in listing.files:
            key = ref_key(file.ref)
            if candidates is not None and key not in candidates:
                continue
            # Read only what the listing read: a reason other than the layout's or the
            # source's own (a file with other hard links, NUL bytes, over the cap) means
            # it was not.
            segments = tuple(file.relative.split("/"))
            rule = classify(listing.source.layout, segments)
            layout_reason = rule.read_only_reason if rule is not None else None
            readable = file.linked or file.read_only_reason in (
                None,
                layout_reason,
                listing.source.folder_read_only_reason(segments),
                listing.source.read_only_reason,
            )
            yield _Searchable(
                key,
                f"{file.relative}\n{file.description}",
                os.fspath(file.physical),
                (file.size_bytes, file.modified_at_ms),
                readable,
                file.linked,
            )


class ContentIndex:
    """Casefolded file contents by physical path, refreshed when a file changes.

    Use it from one thread only (the search worker).
    """

    def __init__(self) -> None:
        self._texts: dict[str, tuple[tuple[int, int], bytes]] = {}
        self._originals: OrderedDict[str, tuple[tuple[int, int], str]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._texts)

    def folded(self, item: _Searchable) -> bytes:
        """The casefolded content of a listed file, as UTF-8 (b"" if binary, huge or
        unreadable)."""
        if not item.readable:
            return b""
        key, version = item.physical, item.version
        cached = self._texts.get(key)
        if cached is not None and cached[0] == version:
            return cached[1]
        folded = self._read(item).casefold().encode("utf-8", "surrogatepass")
        self._texts[key] = (version, folded)
        return folded

    def original(self, item: _Searchable) -> str:
        """The content of a listed file as written (for showing its matching lines)."""
        if not item.readable:
            return ""
        key, version = item.physical, item.version
        cached = self._originals.get(key)
        if cached is not None and cached[0] == version:
            self._originals.move_to_end(key)
            return cached[1]
        return self._read(item)

    def _read(self, item: _Searchable) -> str:
        key, version = item.physical, item.version
        try:
            content = read_file_content(key, follow_link=item.linked)
        except OSError:
            text = ""
        else:
            text = "" if content.binary else content.content
        self._originals[key] = (version, text)
        self._originals.move_to_end(key)
        while len(self._originals) > ORIGINAL_CACHE_FILES:
            self._originals.popitem(last=False)
        return text

    def refresh(self, scan: HomeScan) -> None:
        """Index every file of `scan` and forget files it no longer lists."""
        keep: set[str] = set()
        for item in _searchables(scan):
            self.folded(item)
            keep.add(item.physical)
        for key in [key for key in self._texts if key not in keep]:
            del self._texts[key]
        for key in [key for key in self._originals if key not in keep]:
            del self._originals[key]


def find_matches(
    scan: HomeScan,
    query: SearchQuery,
    index: ContentIndex,
    *,
    candidates: Collection[str] | None = None,
    cancel: CancelToken | None = None,
) -> dict[str, FileMatch]:
    """Every file of `scan` matching `query`, by tree key, with its content hit count and
    (for the first `MAX_FILES_WITH_LINES` in tree order) its first matching lines.

    With `candidates` (tree keys), only those files are looked at: the matches of an
    earlier query this one narrows. `cancel` is checked every few hundred files, and
    before each file's lines are found.
    """
    matches: dict[str, FileMatch] = {}
    if not query.active:
        return matches
    with_lines = 0
    encoded = [(term, term.encode("utf-8", "surrogatepass")) for term in query.terms]
    for count, item in enumerate(_searchables(scan, candidates)):
        if cancel is not None and count % CANCEL_CHECK_EVERY == 0:
            cancel.raise_if_cancelled()
        label = item.label.casefold()
        content = index.folded(item)
        if not all(term in label or data in content for term, data in encoded):
            continue
        hits = sum(content.count(data) for _, data in encoded) if content else 0
        lines: tuple[LineMatch, ...] = ()
        if hits and with_lines < MAX_FILES_WITH_LINES:
            if cancel is not None:  # each file's lines may read its text from disk
                cancel.raise_if_cancelled()
            with_lines += 1
            folded = content.decode("utf-8", "surrogatepass")
            lines = matching_lines(index.original(item), folded, query)
        matches[item.key] = FileMatch(hits, lines)
    return matches


def matching_lines(
    text: str, folded: str, query: SearchQuery, limit: int = MAX_LINES_PER_FILE
) -> tuple[LineMatch, ...]:
    """The first `limit` lines of `text` holding a term, with the terms' spans.

    `folded` is `text.casefold()` (as the index keeps it): terms are found there, and
    line numbers are the same in both.
    """
    if not query.active or not folded:
        return ()
    lines = text.split("\n")
    folded_lines = folded.split("\n")
    if len(lines) != len(folded_lines):
        return ()  # the file changed between the two reads: the next search shows it
    found: list[LineMatch] = []
    for number, folded_line in enumerate(folded_lines):
        if any(term in folded_line for term in query.terms):
            found.append(_line_match(number, lines[number].rstrip("\r"), query.terms))
            if len(found) >= limit:
                break
    return tuple(found)


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
    shifted = tuple(
        (start - column, min(end - column, len(shown)))
        for start, end in spans
        if column <= start < column + len(shown)
    )
    return LineMatch(number, shown, column, shifted, cut)
