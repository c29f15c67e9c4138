"""Ranked search over memory files: a BM25 index kept fresh by each file's (size, mtime).

The MCP server's `search` answers "which memories are about this?", so it ranks (Okapi
BM25, docs/formats.md §22.3) rather than filtering by substring as the window's search
does (`components.search`). A file's tokens are its text's words, casefolded (`\\w` runs,
so `kubectl`, `pnpm` and `v2` are words), with its path and description counted
`LABEL_WEIGHT` times: a file named for the query outranks one that mentions it once.

The index holds postings (term → {document: term count}) and each document's length and
stamp; `update` re-reads only the files whose stamp changed and drops the ones gone, so a
warm index answers from memory. It keeps no file's text: a result's line and snippet are
read from the file when it is returned (`best_line`).
"""

from __future__ import annotations

import heapq
import math
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass

# Okapi BM25's usual constants: term-frequency saturation and length normalisation.
K1 = 1.2
B = 0.75
LABEL_WEIGHT = 3
SNIPPET_CHARS = 160
_WORD = re.compile(r"[^\W_]+")


def tokens(text: str) -> list[str]:
    """The words of `text`, casefolded (letters and digits; `_` and punctuation split)."""
    return _WORD.findall(text.casefold())


@dataclass(frozen=True, slots=True)
class Document:
    """A file as the index sees it: its id (virtual path or source file id), the words
    that name it (path, description), and its stamp (size, mtime ms)."""

    id: str
    label: str
    stamp: tuple[int, int]


@dataclass(frozen=True, slots=True)
class Hit:
    """A ranked match: the document's id and its BM25 score."""

    id: str
    score: float


class RankedIndex:
    """BM25 postings over a changing set of documents (use from one thread)."""

    def __init__(self) -> None:
        self._postings: dict[str, dict[str, int]] = {}
        self._lengths: dict[str, int] = {}
        self._stamps: dict[str, tuple[int, int]] = {}
        self._terms: dict[str, tuple[str, ...]] = {}
        self._total_length = 0

    def __len__(self) -> int:
        return len(self._lengths)

    def update(self, documents: Iterable[Document], read_text: Callable[[str], str]) -> int:
        """Make the index hold exactly `documents`: re-index those whose stamp changed
        (their text from `read_text(id)`), drop the others. How many were (re)read."""
        seen: set[str] = set()
        read = 0
        for document in documents:
            seen.add(document.id)
            if self._stamps.get(document.id) == document.stamp:
                continue
            self._remove(document.id)
            self._add(document, read_text(document.id))
            read += 1
        for gone in [doc_id for doc_id in self._lengths if doc_id not in seen]:
            self._remove(gone)
        return read

    def search(self, query: str, *, limit: int, among: set[str] | None = None) -> list[Hit]:
        """The best `limit` documents for `query` (only `among` when given), best first;
        ties by id, so the order is stable."""
        terms = list(dict.fromkeys(tokens(query)))
        count = len(self._lengths)
        if not terms or not count:
            return []
        average = self._total_length / count or 1.0
        scores: dict[str, float] = {}
        for term in terms:
            postings = self._postings.get(term)
            if not postings:
                continue
            idf = math.log(1 + (count - len(postings) + 0.5) / (len(postings) + 0.5))
            for doc_id, frequency in postings.items():
                if among is not None and doc_id not in among:
                    continue
                norm = K1 * (1 - B + B * self._lengths[doc_id] / average)
                gain = idf * frequency * (K1 + 1) / (frequency + norm)
                scores[doc_id] = scores.get(doc_id, 0.0) + gain
        best = heapq.nsmallest(limit, scores.items(), key=lambda item: (-item[1], item[0]))
        return [Hit(doc_id, score) for doc_id, score in best]

    def _add(self, document: Document, text: str) -> None:
        words = tokens(text) + tokens(document.label) * LABEL_WEIGHT
        counts = Counter(words)
        for term, frequency in counts.items():
            self._postings.setdefault(term, {})[document.id] = frequency
        self._terms[document.id] = tuple(counts)
        self._lengths[document.id] = len(words)
        self._stamps[document.id] = document.stamp
        self._total_length += len(words)

    def _remove(self, doc_id: str) -> None:
        length = self._lengths.pop(doc_id, None)
        if length is None:
            return
        self._total_length -= length
        del self._stamps[doc_id]
        for term in self._terms.pop(doc_id):
            postings = self._postings[term]
            del postings[doc_id]
            if not postings:
                del self._postings[term]


def best_line(text: str, query: str) -> tuple[int, str] | None:
    """The 1-based line of `text` holding the most of `query`'s words (the first such),
    and a snippet of it at most SNIPPET_CHARS long around the first; None if none does."""
    wanted = set(tokens(query))
    best: tuple[int, int, str] | None = None
    for number, line in enumerate(text.splitlines(), 1):
        found = len(wanted.intersection(tokens(line)))
        if found and (best is None or found > best[0]):
            best = (found, number, line)
            if found == len(wanted):
                break
    if best is None:
        return None
    _, number, line = best
    return number, _snippet(line.strip(), wanted)


def _snippet(line: str, wanted: set[str]) -> str:
    if len(line) <= SNIPPET_CHARS:
        return line
    folded = line.casefold()
    starts = [folded.find(word) for word in wanted if word in folded]
    start = max(0, min(starts, default=0) - 40)
    piece = line[start : start + SNIPPET_CHARS - 2]
    return ("…" if start else "") + piece + "…"
