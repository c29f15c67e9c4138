"""Boilerplate: a line many memories hold word for word (a project's header, a template's),
or a template's field at the same place of several (`a_field`, `same_place`), which says
nothing of the notes that hold it (docs/formats.md §19.5): two notes alike in words are
`reworded` only if still alike without the boilerplate lines they share.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence, Set
from itertools import repeat
from typing import NamedTuple

from memtab.check.documents import Document
from memtab.trust.polarity import rule_of
from memtab.trust.words import ContentLine, content_lines, sentence_stems, statements

LINE_DIGEST = 8
BOILERPLATE_NOTES = 3
"""A line held word for word by this many memories or more is boilerplate."""
_LABEL = re.compile(r"\s*+[^\s:`]++(?:\s++[^\s:`]++){0,2}:\s")
"""A field's label, three words at most ("Owner:", "Applies to:", "Point of contact:")."""
_CLAIMS = re.compile(
    r"\b(?:am|is|are|was|were|be|been|being|has|have|had|do|does|did|can|could|must|shall|"
    r"should|will|would|not|no|nor|never|always|only|if|unless|when|whenever|because|then|"
    r"while|although|though|i|we|you|he|she|they)\b|\b(?-i:may|it|It)\b|n['’]t\b"
    r"|\b[a-z]{3,}[^\We]ed\s++(?:by|in|on|at|with|from|to|for|via|through|into|as)\b",
    re.IGNORECASE,
)
"""What makes what follows a label a claim: a finite verb or a modal, a negator or an
always/only, a condition or a next step, a personal pronoun, a passive ("shared by CI",
"checked in a hook"; "Status: accepted" is a value) — closed classes, whatever the words
around."""


def a_field(sentence: str) -> bool:
    """Whether a sentence is written as a template's field: a label and the names or values
    it holds, no stop at its end ("Stack: Rails 7.2 · Sidekiq", "Owner: Ruth · Slack
    #dev", "Applies to: every DAG"), no claim or rule in them (`_CLAIMS`, `rule_of`)."""
    plain = sentence.replace("**", "").replace("__", "").strip()
    label = _LABEL.match(plain)
    if label is None or plain.endswith((".", "!", "?", ";", ":")):
        return False
    value = plain[label.end() :]
    return bool(value.strip()) and _CLAIMS.search(value) is None and rule_of(value) is None


def a_field_line(line: ContentLine) -> bool:
    """Whether a content line is a template's fields (`a_field`), not a list's item (a
    list's items are its content, written without stops)."""
    return not (line.item or line.code) and all(map(a_field, statements(line.text)))


def same_place(held: Iterable[tuple[Sequence[ContentLine], int]]) -> bool:
    """Whether the lines (each its memory's content lines and its line's number) stand at
    the same place of each: as many content lines before each, or after each, or the same
    line of each file (a template's, frontmatter and all)."""
    before, after, at_line = set(), set(), set()
    for lines, number in held:
        numbers = [line.number for line in lines if not line.code]
        at = numbers.index(number)
        before.add(at)
        after.add(len(numbers) - 1 - at)
        at_line.add(number)
    return len(before) == 1 or len(after) == 1 or len(at_line) == 1


def line_digest(text: str) -> bytes:
    """A content line as 8 bytes, whitespace runs aside."""
    normal = " ".join(text.split()).encode("utf-8", "surrogatepass")
    return hashlib.blake2b(normal, digest_size=LINE_DIGEST).digest()


def boilerplate_of(lines: Iterable[bytes]) -> frozenset[bytes]:
    """The lines `BOILERPLATE_NOTES` memories or more hold word for word (a project's
    header, a template's): what notes share of them says nothing of the notes."""
    held = Counter(line for each in lines for line in lines_of(each))
    return frozenset(line for line, count in held.items() if count >= BOILERPLATE_NOTES)


class _Read(NamedTuple):
    """A memory's content lines and each one's digest (`line_digest`)."""

    lines: list[ContentLine]
    digests: list[bytes]


class AlikePast:
    """Whether two memories alike in words are still alike without the boilerplate lines
    they share ("Project: acme-api (Django 5)…" atop unrelated notes is no rewording):
    `boilerplate`'s, and a template's fields both hold at the same place (`a_field_line`,
    `same_place`). One for the pairs of a run: each memory's content lines, their digests
    and which are a template's fields read once (a run asks it of thousands of pairs of
    the same memories)."""

    def __init__(self) -> None:
        self._read: dict[str, _Read] = {}
        self._fields: dict[tuple[str, int], bool] = {}

    def __call__(
        self,
        one: tuple[Document, bytes],
        other: tuple[Document, bytes],
        boilerplate: frozenset[bytes],
        weight: Mapping[str, float],
        threshold: float,
    ) -> bool:
        shared = lines_of(one[1]) & lines_of(other[1])
        if not shared:
            return True
        boilerplate = boilerplate | self._fields_shared(one[0], other[0], shared)
        if not shared & boilerplate:
            return True
        mine, theirs = (
            self._stems_past(one[0], boilerplate),
            self._stems_past(other[0], boilerplate),
        )
        return similarity(mine, theirs, weight) >= threshold

    def _of(self, document: Document) -> _Read:
        read = self._read.get(document.key)
        if read is None:
            lines = content_lines(document.text)
            read = self._read[document.key] = _Read(lines, [line_digest(x.text) for x in lines])
        return read

    def _field(self, document: Document, at: int, line: ContentLine) -> bool:
        field = self._fields.get((document.key, at))
        if field is None:
            field = self._fields[(document.key, at)] = a_field_line(line)
        return field

    def _fields_shared(self, one: Document, other: Document, shared: Set[bytes]) -> set[bytes]:
        """The lines (their digests) two memories hold word for word (`shared`) that are a
        template's fields (`a_field_line`) at the same place of both (`same_place`)."""
        mine, theirs = self._of(one), self._of(other)
        their_fields = {
            digest: line.number
            for at, (line, digest) in enumerate(zip(*theirs, strict=True))
            if self._field(other, at, line)
        }
        return {
            digest
            for at, (line, digest) in enumerate(zip(*mine, strict=True))
            if digest in shared
            and digest in their_fields
            and self._field(one, at, line)
            and same_place(((mine.lines, line.number), (theirs.lines, their_fields[digest])))
        }

    def _stems_past(self, document: Document, boilerplate: Set[bytes]) -> frozenset[str]:
        """A memory's stems, its boilerplate lines left out."""
        stems: set[str] = set()
        for line, digest in zip(*self._of(document), strict=True):
            if line.code or digest not in boilerplate:
                stems |= sentence_stems(line.text)
        return frozenset(stems)


def lines_of(digests: bytes) -> set[bytes]:
    """The lines of a memory, each as its digest (`line_digest`)."""
    return {digests[i : i + LINE_DIGEST] for i in range(0, len(digests), LINE_DIGEST)}


def similarity(one: frozenset[str], other: frozenset[str], weight: Mapping[str, float]) -> float:
    """The weighted Jaccard similarity of two sets (`near_duplicate_pairs`' own)."""
    get = weight.get
    shared = sum(map(get, one & other, repeat(0.0)))
    every = sum(map(get, one | other, repeat(0.0)))
    return shared / every if every > 0.0 else 0.0
