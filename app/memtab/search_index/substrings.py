"""Substrings over the search index, for the window's search (docs/formats.md §22.11): candidate
files from the engine's words containing each term's longest run of letters and digits (CJK by
adjacent bigrams), their texts read from the index; a term in most files has no candidates."""

from __future__ import annotations

import contextlib
from collections.abc import Collection, Iterable, Iterator
from typing import Any

import tantivy

from memtab.search_index.documents import first, matching, term, words_query
from memtab.search_index.index import Key, SearchIndex
from memtab.search_index.ranking import is_cjk, query_terms

# Words in more than this share of the files narrow nothing.
BROAD_SHARE = 0.5
# The most frequent words, to know a broad term without counting.
BROAD_WORDS = 64


class SubstringReader:
    """The index as the window's search reads it; one thread at a time."""

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
        """The files the caller may ask about, by key."""
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
        """Whether the index restarted since this reader was made."""
        return self._index.generation != self._generation

    def holding(self, term: str, roots: Collection[str]) -> set[Key] | None:
        """The files under `roots` whose text may hold `term`; None when any may."""
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
            # Counted first: a term in most files narrows nothing.
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
        return self._named(searcher, matching(searcher, query), roots)

    def ranked(
        self, query: str, roots: Collection[str], limit: int | None = None
    ) -> tuple[list[Key], bool]:
        """The best `limit` files under `roots` (None: all) the ranked search finds for `query`,
        best first, ties by id — `SearchIndex.search`'s order (docs/formats.md §22.3) — of
        those the caller knows; and whether they are all it finds."""
        searcher = self._current()
        found = self._index.scored(searcher, query, roots, limit)
        if not found:
            return [], True
        numbers = searcher.fast_field_values("number", [address for _, address in found])
        keys = self._keys
        scored = [(-score, key[1], key) for (score, _), number in zip(found, numbers, strict=True)
                  if (key := keys.get(number)) is not None]  # fmt: skip
        scored.sort()
        best = [key for _, _, key in scored[:limit]]
        return best, limit is None or len(found) <= limit

    def texts(self, keys: Collection[Key]) -> dict[Key, str]:
        """The text the index holds for each of `keys` it has a document of."""
        searcher = self._current()
        addresses = self._addresses_of(searcher)
        number = self._index.number
        held = [(address, key) for key in keys if (address := addresses.get(number(*key)))]
        # In storage order: each block read once.
        held.sort(key=lambda pair: (pair[0].segment_ord, pair[0].doc))
        return {key: first(searcher.doc(address), "body") for address, key in held}

    def prepare(self) -> None:
        """Read where each document is and the most frequent words, before a keystroke asks."""
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
        """Where each document of `searcher`'s snapshot is, by number."""
        if self._addresses is None or self._addresses[0] is not searcher:
            addresses = matching(searcher, tantivy.Query.all_query())
            numbers = searcher.fast_field_values("number", addresses)
            self._addresses = (searcher, dict(zip(numbers, addresses, strict=True)))
        return self._addresses[1]


def _longest(texts: Iterable[str]) -> str:
    """The longest of `texts` (the first of equal ones; "" for none)."""
    return max(texts, key=len, default="")
