"""What a memory says in words: its content lines, their sentences, and their stems.

A memory's *content* is what it says, as the one line classifier (`memtab.markdown`)
tells it: its lines but the frontmatter (the file's own metadata), headings (titles),
blank lines, rules and fences. A content line's *statements* are its sentences (a
paragraph line may hold several). Words are compared as *stems*: lower-cased runs of
letters, digits and `_`, without the common English words that say nothing of a note's
subject (`STOP_WORDS`) nor the ones that only say how a rule is put (`PHRASING`), cut
to their stem by Snowball's English stemmer
(`snowballstemmer`, which hands out PyStemmer's C code, a dependency): "runs",
"running" and "run" are one stem, so a note written again in other words shares its
stems with the first. Each word's stem is worked out once per process.
"""

from __future__ import annotations

import functools
import re
import threading
from collections.abc import Iterator
from typing import NamedTuple

import snowballstemmer

from memtab.markdown import LineKind, classify, text_lines
from memtab.store.text.near_duplicates import lowered_words

STOP_WORDS = frozenset(
    {
        "a", "about", "after", "again", "all", "also", "always", "an", "and", "any", "are",
        "as", "at", "be", "because", "been", "before", "being", "but", "by", "can", "could",
        "did", "do", "does", "doing", "done", "each", "else", "every", "for", "from", "had",
        "has", "have", "here", "how", "however", "i", "if", "in", "into", "is", "it", "its",
        "just", "keep", "let", "like", "may", "me", "might", "more", "most", "must", "my",
        "need", "needs", "never", "no", "nor", "not", "now", "of", "off", "often", "on",
        "once", "one", "only", "or", "other", "our", "out", "over", "own", "per", "please",
        "same", "should", "so", "some", "such", "than", "that", "the", "their", "them", "then",
        "there", "these", "they", "this", "those", "through", "to", "too", "under", "until",
        "up", "us", "use", "used", "uses", "using", "very", "was", "we", "were", "what",
        "when", "where", "which", "while", "who", "why", "will", "with", "would", "yes", "yet",
        "you", "your",
    }
)  # fmt: skip
"""Words said of every subject (`always` and `never` included: they say how, not what)."""
PHRASING = frozenset(
    {
        "avoid", "back", "best", "better", "bring", "codebase", "convention", "conventions",
        "ensure", "etc", "good", "house", "important", "instead", "note", "okay",
        "prefer", "preferred", "rather", "remember", "repo", "repository", "rule", "rules",
        "switch", "switched", "tip", "way", "whenever",
    }
)  # fmt: skip
"""Words that say how a rule is put, not what it is about (`Prefer pnpm over npm in this
repo` says what `Use pnpm, not npm` says): left out with the stop words."""
LEFT_OUT = STOP_WORDS | PHRASING
_CONTENT = frozenset({LineKind.TEXT, LineKind.LIST_ITEM, LineKind.CODE})
# A sentence ends at `.`, `!` or `?` followed by a space and what starts one.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`*\"'(\[])")
_MARKER = re.compile(r"^\s*(?:[-*+]|\d{1,9}[.)])\s+(?:\[[ xX]\]\s+)?")

_stemmer = snowballstemmer.stemmer("english")
_stems: dict[str, str] = {}
_stem_lock = threading.Lock()  # the stemmer keeps state between calls


class ContentLine(NamedTuple):
    """A content line: its number (from 1), its text without a list marker, and whether
    it is code (in a fenced block)."""

    number: int
    text: str
    code: bool


def content_lines(text: str) -> list[ContentLine]:
    """The content lines of a memory's text (see the module doc)."""
    lines = text_lines(text)
    found = []
    for index, (line, kind) in enumerate(zip(lines, classify(lines), strict=True)):
        if kind.kind in _CONTENT and line.strip():
            code = kind.kind is LineKind.CODE
            shown = line.strip() if code else _MARKER.sub("", line).strip()
            found.append(ContentLine(index + 1, shown, code))
    return found


@functools.lru_cache(maxsize=16384)
def statements(line: str) -> tuple[str, ...]:
    """The sentences of a content line (worked out once per line text)."""
    return tuple(part.strip() for part in _SENTENCE_END.split(line) if part.strip())


def stem(word: str) -> str:
    """A lower-cased word's stem (worked out once per process)."""
    found = _stems.get(word)
    if found is None:
        with _stem_lock:
            found = _stems[word] = _stemmer.stemWord(word)
    return found


def stems_of(text: str) -> Iterator[str]:
    """The stems of a text's words, in order, without the stop words and one-letter words."""
    for word in lowered_words(text):
        if len(word) > 1 and word not in LEFT_OUT:
            yield stem(word)


@functools.lru_cache(maxsize=16384)
def sentence_stems(sentence: str) -> frozenset[str]:
    """A sentence's stems, worked out once per sentence (templates and copies repeat
    theirs)."""
    return frozenset(stems_of(sentence))
