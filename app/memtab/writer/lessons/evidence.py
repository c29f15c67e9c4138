"""The line of the conversation a lesson restates, found by code whatever the model quoted, and
what the lesson says beyond it (docs/formats.md §10.2).

A lesson is read as its words (`trust.words.stems_of`: Snowball stems, numbers kept) and its
*things* — what must be said exactly: numbers and versions, code spans, paths and file names,
identifiers, flags, addresses, and names in capitals. The line a lesson restates is the digest's
line holding most of its words and all of its things, the user's own words first; a line the
model's quote matches is preferred among equals. Memtab's own words in the digest ("worked",
"failed with", "fixed by") are no one's evidence.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher

from memtab.trust.rails import CODE_SPAN
from memtab.trust.words import STOP_WORDS, stems_of
from memtab.writer.lessons.digest import Said

# A number or version as said: digits, with their dotted parts ("3.11.4", the 3000 of ":3000"),
# not part of a word ("v2", "E0599", "1Password" are things of their own).
_NUMBER = re.compile(r"(?<![A-Za-z0-9.])\d+(?:\.\d+)*(?![A-Za-z0-9])")
_EDGES = ".,;:!?()[]{}\"'“”‘’<>*"
# A clause of a lesson: what a semicolon, a dash or a sentence's end leaves on each side.
_CLAUSE_BREAK = re.compile(r";\s*|(?<!\s)\s++[—–-]\s+|(?<=[.!?])\s+")
_CAMEL = re.compile(r"[a-z][A-Z]|[A-Z]{2}[a-z]")
_FILE_NAME = re.compile(r"^[\w.-]*\w\.[A-Za-z][A-Za-z0-9]{0,7}$")
# Capitalised words a lesson may add without naming anything: a sentence's opening word is
# read apart, these are the common nouns of a project written in capitals.
_GENERIC_CAPITALS = frozenset(
    {
        *("api", "apis", "url", "urls", "cli", "ui", "ux", "db", "id", "ids", "ci", "cd", "pr"),
        *("prs", "http", "https", "json", "yaml", "toml", "sql", "css", "html", "os", "env"),
        *("readme", "changelog", "todo", "note", "tip", "rest", "dev", "prod", "io"),
    }
)
# Memtab's own words in the digest's lines of commands and fixes: no one said them.
_SCAFFOLDING = frozenset(stems_of("worked failed with fixed by then instead no error shown"))
QUOTE_MATCH = 0.85
"""How alike the model's quote and a line must be (difflib's ratio over the line's best window)
for the quote to point at the line."""


@dataclass(frozen=True)
class Reading:
    """What a text says, as a lesson is compared with a line."""

    stems: frozenset[str]
    things: frozenset[str]


def read(text: str) -> Reading:
    """`text`'s stems and things."""
    return Reading(frozenset(stems_of(text)), things_in(text))


def things_in(text: str) -> frozenset[str]:
    """What `text` says that must be said exactly (see the module doc), each lower-cased."""
    things = {" ".join(span.split()).lower() for span in CODE_SPAN.findall(text)}
    things |= set(_NUMBER.findall(text))
    opening = True
    for raw in text.replace("`", " ").split():
        token = raw.strip(_EDGES)
        if token and _is_a_thing(token, opening=opening):
            things.add(token.lower().rstrip("/"))
        opening = raw.endswith((".", "!", "?", ":"))
    return frozenset(thing for thing in things if thing)


def _is_a_thing(token: str, *, opening: bool) -> bool:
    """Whether a word names something exactly: a path, a file name, an identifier, a flag, an
    address, or (not a sentence's first word) a name in capitals."""
    if any(mark in token for mark in "/\\@_=") or (token.startswith("-") and len(token) > 1):
        return True
    if _FILE_NAME.match(token) or _CAMEL.search(token):
        return True
    if any(char.isdigit() for char in token) and any(char.isalpha() for char in token):
        return True  # "v2", "E0599", "k8s"
    capital = token[:1].isupper() and token.replace("-", "").isalnum()
    return capital and not opening and token.lower() not in _GENERIC_CAPITALS


def unsaid(lesson: Reading, line: Reading, line_text: str) -> frozenset[str]:
    """The things of `lesson` its line does not say: each must be one of the line's things, or
    stand in its text as a whole (a span inside a longer command, a name inside a path)."""
    text = " ".join(line_text.replace("`", " ").split()).lower()
    missing = set()
    for thing in lesson.things - line.things:
        if _NUMBER.fullmatch(thing) or not stands_in(thing, text):
            missing.add(thing)  # a number is said exactly, never inside another
    return frozenset(missing)


def stands_in(part: str, text: str) -> bool:
    """Whether `part` stands in `text` as a whole: not inside a longer word, path or flag."""
    start = text.find(part)
    while start >= 0:
        before = text[start - 1] if start else " "
        end = start + len(part)
        after = text[end] if end < len(text) else " "
        if not (before.isalnum() or before in "_./-") and not (after.isalnum() or after in "_/-"):
            return True
        start = text.find(part, start + 1)
    return False


def covered(lesson: Reading, line: Reading) -> float:
    """The share of the lesson's words its line says (1.0 for a lesson of no words)."""
    if not lesson.stems:
        return 1.0
    return len(lesson.stems & line.stems) / len(lesson.stems)


def clauses(text: str) -> list[str]:
    """A lesson's clauses (its sentences, and what a semicolon or a dash parts)."""
    masked = CODE_SPAN.sub(lambda span: "\0" * len(span.group()), text)
    parts, start = [], 0
    for brk in _CLAUSE_BREAK.finditer(masked):
        parts.append(text[start : brk.start()])
        start = brk.end()
    parts.append(text[start:])
    return [part.strip() for part in parts if part.strip()]


@dataclass(frozen=True)
class Found:
    """The line a lesson restates, how much of the lesson's words it says, and the things of
    the lesson it does not say."""

    line: Said
    share: float
    unsaid: frozenset[str]


@functools.lru_cache(maxsize=1024)  # each line of a digest, read once for all its lessons
def line_read(line: Said) -> Reading:
    """A digest line as evidence: its words but Memtab's own."""
    reading = read(line.text)
    if line.source in ("command", "failed", "solved"):
        return Reading(reading.stems - _SCAFFOLDING, reading.things)
    return reading


def restated_line(text: str, quote: str, lines: Sequence[Said]) -> Found | None:
    """The line of `lines` a lesson `text` restates (see the module doc), or None when the
    digest has no line."""
    lesson = read(text)
    best: tuple[tuple[float, ...], Found] | None = None
    for line in lines:
        reading = line_read(line)
        missing = unsaid(lesson, reading, line.text)
        share = covered(lesson, reading)
        rank = (
            float(not missing),
            round(share, 2),
            float(line.rule is not None),
            _SOURCE_RANK.get(line.source, 0.0),
            float(bool(quote) and _quoted(quote, line.text)),
            -float(len(missing)),
        )
        if best is None or rank > best[0]:
            best = rank, Found(line, share, missing)
    return best[1] if best is not None else None


_SOURCE_RANK = {"user": 2.0, "exchange": 1.0}
"""Among lines that say a lesson as well, the user's own words first."""


def restated_by_two(
    text: str, quote: str, firsts: Sequence[Said], seconds: Sequence[Said]
) -> Found | None:
    """The pair of lines — one of `firsts` (an error met), one of `seconds` (what fixed it, said
    elsewhere) — a lesson restates, read as one line; or a line of `firsts` alone."""
    lesson = read(text)
    best: tuple[tuple[float, ...], Found] | None = None
    for first in firsts:
        one = line_read(first)
        for second in (None, *seconds):
            if second is None:
                reading, joined = one, first.text
            else:
                other = line_read(second)
                reading = Reading(one.stems | other.stems, one.things | other.things)
                joined = f"{first.text} {second.text}"
            missing = unsaid(lesson, reading, joined)
            share = covered(lesson, reading)
            rank = (
                float(not missing),
                round(share, 2),
                float(second is None),
                -float(len(missing)),
            )
            if best is None or rank > best[0]:
                best = rank, Found(Said(joined, first.source), share, missing)
    return best[1] if best is not None else None


def _quoted(quote: str, line: str) -> bool:
    """Whether the model's `quote` is (nearly) a part of `line`, cases and blanks aside."""
    quote, line = " ".join(quote.lower().split()), " ".join(line.lower().split())
    if not quote:
        return False
    if quote in line or line in quote:
        return True
    matcher = SequenceMatcher(None, quote, line, autojunk=False)
    matched = sum(block.size for block in matcher.get_matching_blocks())
    return matched >= QUOTE_MATCH * min(len(quote), len(line))


def said_by_any(things: Iterable[str], texts: Iterable[str]) -> frozenset[str]:
    """The things none of `texts` says (as `unsaid` reads one line)."""
    missing = frozenset(things)
    for text in texts:
        if not missing:
            break
        missing &= unsaid(Reading(frozenset(), missing), read(text), text)
    return missing


# A negation, and what it rules out: up to three words before the clause ends ("port 5173, not
# 3000", "never `npm`", "we don't use styled-components here").
_RULED_OUT = re.compile(
    r"(?i)(?<![\w'])(?:not|never|no|avoid|don'?t\s+use|do\s+not\s+use|instead\s+of|rather\s+than"
    r"|isn'?t|aren'?t|stop\s+using)\s+((?:[^\s,.;:!?]+\s+){0,2}[^\s,.;:!?]+)"
)
# Words a negation passes over to what it rules out ("never run npm" rules out npm, "not it"
# nothing).
_LIGHT_VERBS = STOP_WORDS | {"run", "using", "call", "put", "ever", "directly", "that's", "it's"}


def ruled_out(text: str) -> frozenset[str]:
    """What `text` rules out, each lower-cased: the things its negations name, and the first
    word each names ("npm" of "We use pnpm, not npm")."""
    found: set[str] = set()
    for match in _RULED_OUT.finditer(text):
        phrase = match.group(1)
        found |= things_in(phrase)
        words = [word.strip("`'\"").lower() for word in phrase.split()]
        first = next((word for word in words if word not in _LIGHT_VERBS), None)
        if first:
            found.add(first)
    return frozenset(found)


def named_in(text: str) -> frozenset[str]:
    """What a lesson names that a line may rule out: its things, the programs its code spans
    run (`npm` of "`npm install`"), and its words, each lower-cased."""
    spans = CODE_SPAN.findall(text)
    programs = {span.split()[0].lower() for span in spans if span.split()}
    words = {raw.strip(_EDGES).lower() for raw in CODE_SPAN.sub(" ", text).split()}
    return things_in(text) | programs | words
