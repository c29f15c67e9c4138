"""The same text, whatever its layout (docs/formats.md §19.5): what the duplicates engine
shows as a finding, because the text itself proves it.

A sentence's *normal form* is its words as written, lower-cased, without markup
(emphasis, code spans, a link's brackets) and without the punctuation at a word's edges
("Use `pnpm`, not npm." and "use pnpm not npm" are one; `src/app` is not `src-app`,
"-1" is not "1"). A memory's *text* is its sections' headings (not its title) and its
sentences in order, each in normal form, a paragraph wrapped over lines read as one:
a list of bullets and the same sentences as prose are the same text; the same bullets
under "## Do" and under "## Don't" are not.

A line is a *template's* when the memories that say it were made from one template: it
stands at the same place of each (as many content lines before it, or after it, or on the
same line), and they share their sections' headings — a generator's line ("Session
handoff generated automatically.") or a skill's boilerplate is said again by every file
it writes, which no one combines.
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Iterable, Sequence

from memtab.markdown import Line, LineKind, classify, text_lines
from memtab.trust.words import statements

_LINK = re.compile(r"!?\[([^\[\]\n]*)\]\(([^()\n]*)\)")
_WIKI_LINK = re.compile(r"\[\[([^\[\]\n]*)\]\]")
_TASK = re.compile(r"^\[[ xX]\]\s")
_EDGES = ".,;:!?()[]{}<>\"'“”‘’«»*_~"
_MARKS = ("**", "__", "~~", "`")
_TYPOGRAPHIC = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "—": "-", "–": "-"})
_ITEM_MARKER = re.compile(r"^\s*+(?:[-*+]|\d{1,9}+[.)])\s++")
DIGEST = 8


@functools.lru_cache(maxsize=16384)
def normal_text(sentence: str) -> str:
    """A sentence's normal form (see the module doc), worked out once per sentence (copies
    and templates repeat theirs)."""
    said = sentence
    if "[" in said:
        said = _WIKI_LINK.sub(r"\1", _LINK.sub(r"\1 \2", said))
    for mark in _MARKS:  # emphasis and code spans; a single `*` or `_` is a word's edge
        said = said.replace(mark, "")
    said = said.translate(_TYPOGRAPHIC).lower()
    return " ".join(word for word in (w.strip(_EDGES) for w in said.split()) if word)


def digest(text: str) -> bytes:
    """A normal form as `DIGEST` bytes."""
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=DIGEST).digest()


def a_task(line: str) -> bool:
    """Whether a list item's text is a task's (`[ ]` or `[x]` after its marker): what is
    to be done, never a rule or a fact to keep once."""
    return _TASK.match(_ITEM_MARKER.sub("", line, count=1)) is not None


def text_digest(text: str) -> bytes:
    """A memory's text (see the module doc) as 16 bytes: memories of one digest are the
    same text."""
    found = hashlib.blake2b(digest_size=16)
    for part in _text_parts(text):
        found.update(part.encode("utf-8", "surrogatepass") + b"\n")
    return found.digest()


def _text_parts(text: str) -> Iterable[str]:
    """A memory's section headings and sentences in normal form, code lines as written
    (whitespace runs aside), in order."""
    lines = text_lines(text)
    kinds = classify(lines)
    title = _title(kinds)
    paragraph: list[str] = []
    for number, (line, kind) in enumerate(zip(lines, kinds, strict=True)):
        if kind.kind in (LineKind.TEXT, LineKind.LIST_ITEM) and line.strip():
            if kind.kind is LineKind.LIST_ITEM:
                yield from _sentences(paragraph)
                paragraph = []
            paragraph.append(_ITEM_MARKER.sub("", line, count=1).strip())
            continue
        yield from _sentences(paragraph)
        paragraph = []
        if kind.kind is LineKind.CODE:
            yield "`" + " ".join(line.split())
        elif kind.kind is LineKind.HEADING and number != title:
            yield "#" + normal_text(kind.text)
    yield from _sentences(paragraph)


def _title(kinds: Sequence[Line]) -> int | None:
    """The index of a memory's title: its first heading, when no content comes before it."""
    for number, kind in enumerate(kinds):
        if kind.kind is LineKind.HEADING:
            return number
        if kind.kind in (LineKind.TEXT, LineKind.LIST_ITEM, LineKind.CODE):
            return None
    return None


def _sentences(paragraph: Sequence[str]) -> Iterable[str]:
    if paragraph:
        for sentence in statements(" ".join(paragraph)):
            if normal := normal_text(sentence):
                yield normal


def outline(text: str) -> tuple[str, ...]:
    """A memory's headings past its title, in normal form: what a template gives every
    file it makes."""
    kinds = classify(text_lines(text))
    title = _title(kinds)
    return tuple(
        normal_text(kind.text)
        for number, kind in enumerate(kinds)
        if kind.kind is LineKind.HEADING and number != title
    )
