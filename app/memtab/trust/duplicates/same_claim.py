"""Whether two memories alike in words make the same claim, not only name the same
subject (docs/formats.md §19.5): a profile and a note of what the person asked, a link
and a page under it, one service's port and another's, a rule and the same rule narrowed
share most of their words and say different things.

The two sentences that carry most of what two notes share are compared: what they say
besides their subject (the names, addresses and labels they hold) is mostly one
(`subject_only`), and they name the same specific values (`trust.specifics`) and neither
narrows nor limits the other's rule (`meaning.narrowed`) nor denies what it says
(`meaning.denied`: "Do not print secrets…" of "Print secrets…"). Opposite rules and claims that
contradict are the engine's own check (`meaning.at_odds`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from itertools import repeat
from typing import NamedTuple

from memtab.check.documents import Document
from memtab.trust.duplicates.about import about_other, left_open, told_of_a_day
from memtab.trust.duplicates.boilerplate import line_digest
from memtab.trust.duplicates.clauses import LABEL
from memtab.trust.duplicates.meaning import POLARITIES, compared, denied, narrowed, own_name
from memtab.trust.located import WEB_ADDRESS
from memtab.trust.specifics import different_specifics
from memtab.trust.words import content_lines, sentence_stems, statements, stems_of

CLAIM_SHARED = 0.6
"""What two notes share besides their subject, at least, as a part of what the note that
says less says besides it."""
_NAME = re.compile(
    r"(?<=[a-z0-9,;)] )[A-Z][a-z][\w'-]*|\b[A-Z][a-z][\w'-]*(?:\s+[A-Z][a-z][\w'-]*)+"
)
"""A name: a capitalised word inside a sentence ("… go to Lena"), or capitalised words
in a row, a person's full name ("Priyanka Rao") wherever it is; not a short form in
capitals ("CLI", "UTC": a term, said of many things)."""


class _Sentence(NamedTuple):
    text: str
    stems: frozenset[str]
    line: str


def same_claims(
    one: Document,
    other: Document,
    boilerplate: frozenset[bytes],
    weight: Mapping[str, float],
    apart: Callable[[str, str], bool] = lambda one, other: False,
    rare: float = 0.0,
) -> bool:
    """Whether two memories alike in words make the same claims (see the module doc); the
    lines of `boilerplate` (`boilerplate.boilerplate_of`) say nothing of either; `apart`:
    whether two sentences say other things besides."""
    mine, theirs = _sentences(one, boilerplate), _sentences(other, boilerplate)
    if not mine or not theirs:
        return True
    carried, a, b = max(
        ((_weighed((s.stems & t.stems) - POLARITIES, weight), s, t) for s in mine for t in theirs),
        key=lambda found: found[0],
    )
    if carried <= 0.0:
        return True
    said = frozenset().union(*(s.stems for s in mine))
    their_said = frozenset().union(*(t.stems for t in theirs))
    return not (
        subject_only(a.text, b.text, weight)
        or apart(a.text, b.text)
        or different_specifics(a.text, b.text)
        or narrowed(a.text, b.text, their_said)
        or narrowed(b.text, a.text, said)
        or denied(a.text, b.text)
        or denied(b.text, a.text)
        or left_open(a.line, b.line)
        or told_of_a_day(a.text, b.text)
        or _about_other((a.text, one), (b.text, other), weight, rare)
    )


def _about_other(
    one: tuple[str, Document],
    other: tuple[str, Document],
    weight: Mapping[str, float],
    rare: float,
) -> bool:
    """Whether two sentences of two memories say their claims of other things
    (`about.about_other`), each read without its memory's own project's name."""
    (sentence, document), (their_sentence, their_document) = one, other
    mine = compared(sentence, own_name(document))
    theirs = compared(their_sentence, own_name(their_document))
    return about_other(mine, theirs, lambda: _said(their_document), weight, rare) or about_other(
        theirs, mine, lambda: _said(document), weight, rare
    )


def _said(document: Document) -> frozenset[str]:
    """A memory's stems, its title and frontmatter with them (what it is about)."""
    return frozenset(stems_of(document.text))


def _sentences(document: Document, boilerplate: frozenset[bytes]) -> list[_Sentence]:
    """A memory's sentences, but code and its boilerplate lines."""
    return [
        _Sentence(sentence, sentence_stems(sentence), line.text)
        for line in content_lines(document.text)
        if not line.code and line_digest(line.text) not in boilerplate
        for sentence in statements(line.text)
    ]


def subject_only(one: str, other: str, weight: Mapping[str, float]) -> bool:
    """Whether two sentences share a subject and not what they say of it (see the module
    doc): one names only what the other says something of, or what they say besides it
    is mostly not one (`CLAIM_SHARED`)."""
    subject = _subject((one, other))
    said = sentence_stems(one) - POLARITIES - subject
    their_said = sentence_stems(other) - POLARITIES - subject
    least, most = sorted((_weighed(said, weight), _weighed(their_said, weight)))
    if least <= 0.0:
        return most > 0.0
    return _weighed(said & their_said, weight) < CLAIM_SHARED * least


def _weighed(stems: frozenset[str], weight: Mapping[str, float]) -> float:
    return sum(map(weight.get, stems, repeat(0.0)))


def _subject(sentences: Iterable[str]) -> frozenset[str]:
    """The stems of what the sentences name: names, addresses and lines' labels."""
    found: set[str] = set()
    for sentence in sentences:
        for pattern in (_NAME, WEB_ADDRESS):
            for match in pattern.finditer(sentence):
                found.update(stems_of(match.group(0)))
        label = LABEL.match(sentence)
        if label is not None:
            found.update(stems_of(label.group(1)))
    return frozenset(found)
