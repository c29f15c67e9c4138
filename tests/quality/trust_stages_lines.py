"""What a labelled line that gives no claim holds (`trust_scorecard --stages`, the "no
claim" stage): closed, structural features only — never a word of the line — so the counts
may be read on a half whose lines are not to be read."""

from __future__ import annotations

import re
from collections.abc import Sequence

from memtab.check.documents import Document
from memtab.markdown import LineKind, classify, text_lines
from memtab.store.text.near_duplicates import lowered_words
from memtab.trust.polarity import _ALWAYS, _MAY, _NEVER
from memtab.trust.reading.tool_kinds import GATED, TOOL_KIND
from memtab.trust.words import content_lines, statements

CODE_SPAN = "code span"
LISTED_TOOL = "listed tool"
CAPITALISED = "capitalised"
NUMBER = "number"
VERSION = "version"
NEGATOR_OR_MODAL = "negator/modal"
BULLET = "bullet"
TABLE_ROW = "table row"
HEADING_LED = "heading-led"
SHORT, MIDDLE, LONG = "≤ 8 words", "9–20 words", "> 20 words"
COLON_OR_ARROW = "colon/arrow"
FEATURES = (
    CODE_SPAN,
    LISTED_TOOL,
    CAPITALISED,
    NUMBER,
    VERSION,
    NEGATOR_OR_MODAL,
    BULLET,
    TABLE_ROW,
    HEADING_LED,
    SHORT,
    MIDDLE,
    LONG,
    COLON_OR_ARROW,
)
"""The features, in the order they are told; an item is counted once under each its lines
hold, and under one length: its longest sentence's."""

_SPAN = re.compile(r"`[^`\n]+`")
_WORD = re.compile(r"[^\W\d_][\w'.-]*")
_VERSION = re.compile(r"(?<![\w.])v?\d+(?:\.(?:\d+|x))+\b|(?<![\w.])v\d+\b", re.IGNORECASE)
_COLON_OR_ARROW = re.compile(r":(?!//)|->|=>|→|⇒")
_TOOLS = frozenset(tuple(lowered_words(tool)) for tool in TOOL_KIND if tool not in GATED)
"""Memtab's listed tools as word runs, but those whose name is also a common English word
(read only beside their job, `GATED`)."""
_LONGEST_TOOL = max(len(words) for words in _TOOLS)


def _length(words: int) -> str:
    return SHORT if words <= 8 else MIDDLE if words <= 20 else LONG


def _names_a_tool(text: str) -> bool:
    words = lowered_words(text)
    return any(
        tuple(words[i : i + n]) in _TOOLS
        for n in range(1, _LONGEST_TOOL + 1)
        for i in range(len(words) - n + 1)
    )


def _capitalised_not_first(sentence: str) -> bool:
    return any(word[0].isupper() for word in _WORD.findall(_SPAN.sub(" ", sentence))[1:])


_MODALS = frozenset(
    {"must", "should", "shall", "may", "might", "can", "could", "would", "will", "ought",
     "need", "not", "no", "nor", "never", "cannot", "mustn", "shouldn", "don", "doesn",
     "didn", "won", "isn", "aren", "wasn", "weren", "can't", "won't", "don't"}
)  # fmt: skip
"""The English modal auxiliaries and negators (a closed class: `lowered_words` splits
"don't" into "don" and "t")."""


def _ruled(sentence: str) -> bool:
    """A negator or a modal: a cue of polarity's closed classes (never, you must, X is
    fine…) or a modal auxiliary or negator of its own."""
    if not _MODALS.isdisjoint(lowered_words(sentence)):
        return True
    return any(p.search(sentence) for p in (_NEVER, _ALWAYS, _MAY))


def longest(line: str) -> int:
    """How many words a content line's longest sentence has."""
    return max(len(s.split()) for s in statements(line) or (line,))


def sentence_features(line: str) -> set[str]:
    """What a content line's text (its list marker off) holds, but its length."""
    sentences = statements(line) or (line,)
    checks = (
        (CODE_SPAN, _SPAN.search(line)),
        (LISTED_TOOL, _names_a_tool(line)),
        (CAPITALISED, any(_capitalised_not_first(s) for s in sentences)),
        (NUMBER, any(c.isdigit() for c in line)),
        (VERSION, _VERSION.search(line)),
        (NEGATOR_OR_MODAL, any(_ruled(s) for s in sentences)),
        (COLON_OR_ARROW, _COLON_OR_ARROW.search(line)),
    )
    return {feature for feature, held in checks if held}


def line_features(raw: Sequence[str], kinds: Sequence[LineKind], index: int) -> set[str]:
    """Where a line stands: a bullet, a table row, the first line under a heading."""
    found = set()
    if kinds[index] is LineKind.LIST_ITEM:
        found.add(BULLET)
    if raw[index].lstrip().startswith("|"):
        found.add(TABLE_ROW)
    above = next((k for k in reversed(kinds[:index]) if k is not LineKind.BLANK), None)
    if above is LineKind.HEADING:
        found.add(HEADING_LED)
    return found


def held(documents: Sequence[Document], lines: Sequence[int] | None) -> frozenset[str]:
    """What a side's labelled statement lines hold (`FEATURES`), over every memory read as
    its file."""
    found: set[str] = set()
    words = 0
    for document in documents:
        raw = text_lines(document.text)
        kinds = [kind.kind for kind in classify(raw)]
        for line in content_lines(document.text):
            within = lines is None or min(lines) <= line.number <= max(lines)
            if within and not line.code and statements(line.text):
                found |= sentence_features(line.text)
                found |= line_features(raw, kinds, line.number - 1)
                words = max(words, longest(line.text))
    return frozenset(found | {_length(words)}) if words else frozenset(found)


def told(holds: dict[str, int]) -> str:
    """`code span 3, listed tool 1, …` — the features held at least once, in order."""
    return ", ".join(f"{feature} {holds[feature]}" for feature in FEATURES if holds.get(feature))
