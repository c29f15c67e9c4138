"""The postings a warm server ranks by, in memory: the same BM25 as the index on disk
(`search_index.ranking`, docs/formats.md §22.3), without its per-file cost.

FTS5's `bm25()` costs ~2 µs a matching file, so a word in every one of 20,000 files takes
~40 ms on a quiet machine; these postings (term → {file: count}) take a dict walk. A
server fills them in the background from the texts the index on disk holds (no file is
read) once its first answer is given, and keeps them fresh by the same stamps; until then
it answers from the index (`catalog`). The postings keep no text; of a file holding CJK
they keep where each bigram stands, for a query's phrases (`ranking.query_terms`).
"""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from memtab.search_index.index import Hit
from memtab.search_index.ranking import (
    K1,
    LABEL_WEIGHT,
    B,
    has_cjk,
    idf,
    is_cjk,
    query_terms,
    tokens,
)


@dataclass(frozen=True, slots=True)
class Document:
    """A file as the postings see it: its id (virtual path or source file id), the words
    that name it (path, description), and its stamp (None: read again every time)."""

    id: str
    label: str
    stamp: tuple[int, ...] | None


class Postings:
    """BM25 postings over a changing set of files (use from one thread at a time)."""

    def __init__(self) -> None:
        self._postings: dict[str, dict[str, int]] = {}
        self._lengths: dict[str, int] = {}
        self._stamps: dict[str, tuple[int, ...] | None] = {}
        self._terms: dict[str, tuple[str, ...]] = {}
        # Of a file holding CJK: where each of its CJK words stands among its words.
        self._places: dict[str, dict[str, frozenset[int]]] = {}
        self._total_length = 0
        # Each file's BM25 length norm, kept until a file comes or goes (it depends on
        # the average length): a search's loop then does one lookup a posting.
        self._norms: dict[str, float] | None = None

    def __len__(self) -> int:
        return len(self._lengths)

    def update(self, documents: Iterable[Document], read_text: Callable[[str], str]) -> int:
        """Make the index hold exactly `documents`: re-index those whose stamp changed
        (their text from `read_text(id)`), drop the others. How many were (re)read."""
        seen: set[str] = set()
        read = 0
        for document in documents:
            seen.add(document.id)
            if document.stamp is not None and self._stamps.get(document.id) == document.stamp:
                continue
            self._remove(document.id)
            self._add(document, read_text(document.id))
            read += 1
        for gone in [doc_id for doc_id in self._lengths if doc_id not in seen]:
            self._remove(gone)
        return read

    def change(
        self, documents: Iterable[Document], gone: Iterable[str], read_text: Callable[[str], str]
    ) -> int:
        """Re-index `documents` whose stamp changed and drop `gone`, leaving every other
        document as it is (what a watch reported, without a walk of all of them). How many
        were (re)read."""
        for doc_id in gone:
            self._remove(doc_id)
        read = 0
        for document in documents:
            if document.stamp is not None and self._stamps.get(document.id) == document.stamp:
                continue
            self._remove(document.id)
            self._add(document, read_text(document.id))
            read += 1
        return read

    def search(self, query: str, *, limit: int, among: set[str] | None = None) -> list[Hit]:
        """The best `limit` documents for `query` (only `among` when given), best first;
        ties by id, so the order is stable."""
        terms = query_terms(query)
        count = len(self._lengths)
        if not terms or not count:
            return []
        norms = self._length_norms()
        saturation = K1 + 1
        scores: dict[str, float] = {}
        for term in terms:
            postings = self._phrase(term) if " " in term else self._postings.get(term)
            if not postings:
                continue
            weight = idf(count, len(postings))
            for doc_id, frequency in postings.items():
                if among is not None and doc_id not in among:
                    continue
                gain = weight * frequency * saturation / (frequency + norms[doc_id])
                scores[doc_id] = scores.get(doc_id, 0.0) + gain
        return [Hit(doc_id, score) for doc_id, score in _best(scores, limit)]

    def _phrase(self, term: str) -> dict[str, int]:
        """How often the bigrams of `term` stand in a row in each file holding them so."""
        parts = term.split(" ")
        holding = [self._postings.get(part, {}) for part in parts]
        found: dict[str, int] = {}
        for doc_id in min(holding, key=len):
            if not all(doc_id in postings for postings in holding):
                continue
            places = self._places[doc_id]
            first, rest = places[parts[0]], [places[part] for part in parts[1:]]
            frequency = sum(
                all(start + at in part for at, part in enumerate(rest, 1)) for start in first
            )
            if frequency:
                found[doc_id] = frequency
        return found

    def _length_norms(self) -> dict[str, float]:
        if self._norms is None:
            average = self._total_length / len(self._lengths) or 1.0
            self._norms = {
                doc_id: K1 * (1 - B + B * length / average)
                for doc_id, length in self._lengths.items()
            }
        return self._norms

    def _add(self, document: Document, text: str) -> None:
        words = tokens(text) + tokens(document.label) * LABEL_WEIGHT
        counts = Counter(words)
        if has_cjk(text) or has_cjk(document.label):
            places: dict[str, set[int]] = {}
            for at, word in enumerate(words):
                if is_cjk(word):
                    places.setdefault(word, set()).add(at)
            self._places[document.id] = {word: frozenset(at) for word, at in places.items()}
        for term, frequency in counts.items():
            self._postings.setdefault(term, {})[document.id] = frequency
        self._terms[document.id] = tuple(counts)
        self._lengths[document.id] = len(words)
        self._stamps[document.id] = document.stamp
        self._total_length += len(words)
        self._norms = None

    def _remove(self, doc_id: str) -> None:
        length = self._lengths.pop(doc_id, None)
        if length is None:
            return
        self._total_length -= length
        self._norms = None
        del self._stamps[doc_id]
        self._places.pop(doc_id, None)
        for term in self._terms.pop(doc_id):
            postings = self._postings[term]
            del postings[doc_id]
            if not postings:
                del self._postings[term]


def _best(scores: dict[str, float], limit: int) -> list[tuple[str, float]]:
    """The `limit` best scores, best first, ties by id: the limit-th best score found
    among the floats alone (no key function called per file), then only the files at or
    above it ordered."""
    if limit <= 0:
        return []
    if len(scores) <= limit:
        return sorted(scores.items(), key=lambda item: (-item[1], item[0]))
    least = heapq.nlargest(limit, scores.values())[-1]
    kept = [(doc_id, score) for doc_id, score in scores.items() if score >= least]
    kept.sort(key=lambda item: (-item[1], item[0]))
    return kept[:limit]
