"""Boilerplate: a line many memories hold word for word (a project's header, a template's),
which says nothing of the notes that hold it (docs/formats.md §19.5): two notes alike in
words are `reworded` only if still alike without the boilerplate lines they share.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable, Mapping
from itertools import repeat

from memtab.check.documents import Document
from memtab.trust.words import content_lines, sentence_stems

LINE_DIGEST = 8
BOILERPLATE_NOTES = 3
"""A line held word for word by this many memories or more is boilerplate."""


def line_digest(text: str) -> bytes:
    """A content line as 8 bytes, whitespace runs aside."""
    normal = " ".join(text.split()).encode("utf-8", "surrogatepass")
    return hashlib.blake2b(normal, digest_size=LINE_DIGEST).digest()


def boilerplate_of(lines: Iterable[bytes]) -> frozenset[bytes]:
    """The lines `BOILERPLATE_NOTES` memories or more hold word for word (a project's
    header, a template's): what notes share of them says nothing of the notes."""
    held = Counter(line for each in lines for line in lines_of(each))
    return frozenset(line for line, count in held.items() if count >= BOILERPLATE_NOTES)


def alike_past(
    one: tuple[Document, bytes],
    other: tuple[Document, bytes],
    boilerplate: frozenset[bytes],
    weight: Mapping[str, float],
    threshold: float,
) -> bool:
    """Whether two memories alike in words are still alike without the boilerplate lines
    they share ("Project: acme-api (Django 5)…" atop unrelated notes is no rewording)."""
    if not boilerplate or not lines_of(one[1]) & lines_of(other[1]) & boilerplate:
        return True
    mine, theirs = _stems_past(one[0], boilerplate), _stems_past(other[0], boilerplate)
    return similarity(mine, theirs, weight) >= threshold


def lines_of(digests: bytes) -> set[bytes]:
    """The lines of a memory, each as its digest (`line_digest`)."""
    return {digests[i : i + LINE_DIGEST] for i in range(0, len(digests), LINE_DIGEST)}


def _stems_past(document: Document, boilerplate: frozenset[bytes]) -> frozenset[str]:
    """A memory's stems, its boilerplate lines left out."""
    stems: set[str] = set()
    for line in content_lines(document.text):
        if line.code or line_digest(line.text) not in boilerplate:
            stems |= sentence_stems(line.text)
    return frozenset(stems)


def similarity(one: frozenset[str], other: frozenset[str], weight: Mapping[str, float]) -> float:
    """The weighted Jaccard similarity of two sets (`near_duplicate_pairs`' own)."""
    get = weight.get
    shared = sum(map(get, one & other, repeat(0.0)))
    every = sum(map(get, one | other, repeat(0.0)))
    return shared / every if every > 0.0 else 0.0
