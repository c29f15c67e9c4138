"""Substrings over the search index: what the window's search asks the index
(docs/formats.md §22.11).

The window finds a file when each term of its query occurs, casefolded, in the file's
name, description or text — substrings, so a partial word finds (`ubernet` finds
`kubernetes`). The index ranks words, so it gives candidates: a term's longest run of
letters and digits lies inside one word of the text, so only the files holding a word
that contains that run may hold the term — the engine's own regular expression over its
words (`.*run.*`, walked on its term dictionary). The texts of the candidates are then
read from the index (no memory file is read) and checked by the caller. A term without a
letter or digit, or whose words are in more than half the files (one of them alone, or all
counted by the engine before any is named), has no candidates (`None`): any text may hold
it. A term holding two or more CJK letters in a row asks for them instead: the files where
their bigrams (`ranking.tokens`) stand adjacent, as in every text holding the term.
"""

from __future__ import annotations

import contextlib
from collections.abc import Collection, Iterable, Iterator
from typing import Any

import tantivy

from memtab.search_index.documents import first, matching, term, words_query
from memtab.search_index.index import Key, SearchIndex
from memtab.search_index.ranking import is_cjk, query_terms

# Words that together are in more than this share of the files narrow nothing.
BROAD_SHARE = 0.5
# The most frequent words (the dictionary's, once a reader): a term inside one of them still
# in more than `BROAD_SHARE` of the files narrows nothing, known without counting its words.
BROAD_WORDS = 64


class SubstringReader:
    """The index as the window's search reads it: which files may hold a substring, and
    their texts. Use it from one thread at a time."""

    def __init__(self, index: SearchIndex) -> None:
        self._index = index
        self._generation = index.generation
        self._keys: dict[int, Key] = {}
        self._searcher: Any = None
        self._addresses: tuple[Any, dict[int, Any]] | None = None
        self._broad: list[str] = []  # BROAD_WORDS, once the index holds words

    def close(self) -> None:
        self._searcher = None
        self._addresses = None

    def know(self, keys: Iterable[Key]) -> None:
        """The files the caller may ask about (a scan's): the index names its documents
        by number (`SearchIndex.number`), these by key."""
        number = self._index.number
        self._keys = {number(root, key): (root, key) for root, key in keys}

    @contextlib.contextmanager
    def snapshot(self) -> Iterator[None]:
        """One snapshot: what is read inside it is of one commit."""
        self._searcher = self._index.searcher()
        try:
            yield
        finally:
            self._searcher = None

    def version(self) -> object:
        """Changes whenever any process committed to the index (or it started again)."""
        return self._index.version()

    @property
    def replaced(self) -> bool:
        """Whether the index was started again since this reader was made (rebuilt, or
        moved to memory)."""
        return self._index.generation != self._generation

    def holding(self, term: str, roots: Collection[str]) -> set[Key] | None:
        """The files under `roots` whose text may hold `term` (casefolded), None when any
        may (see the module docstring)."""
        searcher = self._current()
        schema = self._index.schema
        run = _longest("".join(char if char.isalnum() else " " for char in term).split())
        parts = query_terms(run)
        phrases = [part for part in parts if len(part) > 1 and is_cjk(part)]
        if phrases:
            query = words_query(schema, max(phrases, key=len))
        else:
            run = _longest(part for part in parts if not is_cjk(part))
            if not run:  # no letter or digit: every text is checked
                return None
            query = tantivy.Query.regex_query(schema, "words", f".*{run}.*")
            # Counted first: a term in most files narrows nothing worth naming them all.
            most = BROAD_SHARE * searcher.num_docs
            if any(run in w and searcher.doc_freq("words", w) > most for w in self._broad):
                return None  # inside a word most files hold: nothing to count
            if searcher.search(query, 1).count > most:
                return None
        return self._named(searcher, matching(searcher, query), roots)

    def rows(self, roots: Collection[str]) -> set[Key]:
        """Every file under `roots` the index holds (of those the caller knows)."""
        searcher = self._current()
        schema = self._index.schema
        query = tantivy.Query.term_set_query(schema, "root", [term(root) for root in roots])
        addresses = matching(searcher, query)
        return self._named(searcher, addresses, roots)

    def texts(self, keys: Collection[Key]) -> dict[Key, str]:
        """The text the index holds for each of `keys` it has a document of."""
        searcher = self._current()
        addresses = self._addresses_of(searcher)
        number = self._index.number
        held = [(address, key) for key in keys if (address := addresses.get(number(*key)))]
        # In the order the documents are stored: each block of the store read once.
        held.sort(key=lambda pair: (pair[0].segment_ord, pair[0].doc))
        return {key: first(searcher.doc(address), "body") for address, key in held}

    def prepare(self) -> None:
        """Read what the first `texts` of the newest snapshot reads (where each document
        is), and once the most frequent words (`BROAD_WORDS`), before a keystroke asks."""
        self._addresses_of(self._current())
        if not self._broad:
            top = self._current().terms_with_prefix("words", "", limit=BROAD_WORDS)
            self._broad = [word for word, _ in top]

    def _current(self) -> Any:
        return self._searcher if self._searcher is not None else self._index.searcher()

    def _named(self, searcher: Any, addresses: list[Any], roots: Collection[str]) -> set[Key]:
        if not addresses:
            return set()
        keys = self._keys
        wanted = set(roots)
        named = (keys.get(number) for number in searcher.fast_field_values("number", addresses))
        return {key for key in named if key is not None and key[0] in wanted}

    def _addresses_of(self, searcher: Any) -> dict[int, Any]:
        """Where each document is in `searcher`'s snapshot, by number (read once a
        snapshot: a few milliseconds for 20,000)."""
        if self._addresses is None or self._addresses[0] is not searcher:
            addresses = matching(searcher, tantivy.Query.all_query())
            numbers = searcher.fast_field_values("number", addresses)
            self._addresses = (searcher, dict(zip(numbers, addresses, strict=True)))
        return self._addresses[1]


def _longest(texts: Iterable[str]) -> str:
    """The longest of `texts` (the first of equal ones; "" for none)."""
    return max(texts, key=len, default="")
