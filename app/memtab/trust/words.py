"""What a memory says in words: its content lines, their sentences, and their stems.

A memory's *content* is what it says, as the one line classifier (`memtab.markdown`)
tells it: its lines but the frontmatter (the file's own metadata), headings (titles),
blank lines, rules and fences. A content line's *statements* are its sentences (a
paragraph line may hold several). Words are compared as *stems*: lower-cased runs of
letters, digits and `_`, without the common English words that say nothing of a note's
subject (`STOP_WORDS`) nor the ones that only say how a rule is put (`PHRASING`), cut
to their stem by Snowball's English stemmer (`store.text.stems`): "runs", "running" and
"run" are one stem, so a note written again in other words shares its stems with the
first.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import NamedTuple

from memtab.markdown import LineKind, classify, text_lines
from memtab.store.text.near_duplicates import lowered_words
from memtab.store.text.stems import english_stem

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
        # what is left of a contraction ("don't": don, t) says how, not what
        "aren", "couldn", "didn", "doesn", "don", "hasn", "haven", "isn", "ll", "re",
        "shouldn", "ve", "wasn", "weren", "won", "wouldn",
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


NUMBERS = {
    "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7",
    "eight": "8", "nine": "9", "ten": "10", "eleven": "11", "twelve": "12", "fifteen": "15",
    "twenty": "20", "thirty": "30", "forty": "40", "fifty": "50", "sixty": "60",
    "ninety": "90", "hundred": "100", "twice": "2",
}  # fmt: skip
"""Numbers written as words, as digits ("five percent" says "5%"; "one" is a pronoun as
often as a number, and stays a stop word)."""
SHORT = {
    "min": "minut", "mins": "minut", "sec": "second", "secs": "second", "hr": "hour",
    "hrs": "hour", "db": "databas", "dbs": "databas", "prod": "product", "dep": "depend",
    "deps": "depend", "config": "configur", "configs": "configur", "k8s": "kubernet",
    "msg": "messag", "dir": "directori", "dirs": "directori",
}  # fmt: skip
"""Short forms, as the stem of what they are short for ("prod" is production)."""
IRREGULAR = {
    form: english_stem(verb)
    for verb, forms in (
        ("write", "wrote written"), ("run", "ran"), ("build", "built"),
        ("break", "broke broken"), ("choose", "chose chosen"), ("give", "gave given"),
        ("take", "took taken"), ("make", "made"), ("send", "sent"), ("hold", "held"),
        ("begin", "began begun"), ("catch", "caught"), ("drive", "drove driven"),
        ("get", "got gotten"), ("grow", "grew grown"), ("know", "knew known"),
        ("lose", "lost"), ("mean", "meant"), ("pay", "paid"), ("say", "said"),
        ("see", "seen"), ("sell", "sold"), ("show", "shown"), ("speak", "spoke spoken"),
        ("teach", "taught"), ("tell", "told"), ("think", "thought"),
        ("throw", "threw thrown"), ("understand", "understood"), ("forget", "forgot forgotten"),
        ("freeze", "froze frozen"), ("hide", "hid hidden"), ("buy", "bought"),
        ("bring", "brought"), ("rewrite", "rewrote rewritten"), ("rebuild", "rebuilt"),
    )
    for form in forms.split()
}  # fmt: skip
"""Irregular verbs' past forms, as the stem of the verb ("written" is write: "the failing
test written first" says "write the failing test first")."""
# What is said in symbols or a set phrase, in words: "5%" is "5 percent", "half an hour"
# "30 minutes".
_PHRASES = (
    (re.compile(r"(?<=\d)\s*%"), " percent"),
    (re.compile(r"\bhalf an hour\b", re.IGNORECASE), "30 minutes"),
    (re.compile(r"\ba quarter of an hour\b", re.IGNORECASE), "15 minutes"),
)
_HYPHENED = re.compile(r"\b([A-Za-z]{1,3})-([A-Za-z]+|\d+)\b|\b([A-Za-z]+)-(\d+)\b")
"""A prefix or a number written with a hyphen ("re-sign", "pre-commit", "SHA-1"): also one
word ("resign", "precommit", "sha1"); longer parts stay two words ("kebab-case")."""
_DOTTED_NUMBER = re.compile(r"(?<=\d)\.(?=\d)")
"""A version's dots ("1.30" is one number, not 1 and 30)."""
_ABSOLUTE_PATH = re.compile(r"(?<![\w.:/~])(?:~/|/)(?:[\w.@+-]+/)+([\w.@+-]*)")
"""An absolute path: said by its name, its folders are where a machine keeps it."""


def stems_of(text: str) -> Iterator[str]:
    """The stems of a text's words, in order, without the stop words and one-letter words
    (a digit stays: "3 retries"), numbers, short forms and verbs' past forms said one way
    (`NUMBERS`, `SHORT`, `IRREGULAR`, `_PHRASES`)."""
    if "%" in text or "half" in text or "quarter" in text:
        for phrase, said in _PHRASES:
            text = phrase.sub(said, text)
    if "/" in text:
        text = _ABSOLUTE_PATH.sub(_path_name, text)
    if "." in text:
        text = _DOTTED_NUMBER.sub("_", text)
    if "-" in text:
        text += " " + " ".join("".join(parts) for parts in _HYPHENED.findall(text))
    for word in lowered_words(text):
        if word in LEFT_OUT or (len(word) == 1 and not word.isdigit()):
            continue
        yield NUMBERS.get(word) or SHORT.get(word) or IRREGULAR.get(word) or english_stem(word)


def _path_name(path: re.Match[str]) -> str:
    return path.group(1) or path.group(0).rstrip("/").rpartition("/")[2]


@functools.lru_cache(maxsize=16384)
def sentence_stems(sentence: str) -> frozenset[str]:
    """A sentence's stems, worked out once per sentence (templates and copies repeat
    theirs)."""
    return frozenset(stems_of(sentence))
