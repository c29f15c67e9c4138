"""The specific values a statement names — numbers, code, paths, addresses — and whether two
statements name the same ones (docs/formats.md §19.5).

Two sentences alike in words are one statement only if what they name specifically agrees:
of each kind both name, at least one value of one is a value of the other. A name is a
capitalised word inside a sentence ("… go to Lena", "In our Go code"); a number is the
same number ("5%" and "five percent": `trust.words` says both `5`; a version whole, "1.30"),
and one said outside parentheses the same as one of the other's ("listens on 5433 (the
system Postgres has 5432)" states 5433);
a code span the same or a part of the other ("`pnpm typecheck`" in "`pnpm run lint && pnpm
typecheck`"), a path the same or its tail ("src/ws/messages.ts"), an address the same host.
"The exports queue retries 3 times" is not "the geocode queue retries 5 times", "Sign every
commit (`git commit -S`)" not "Sign the release tags (`git tag -s`)", nor "Sentry:
https://sentry.example.io" "Unleash: https://unleash.example.io".
"""

from __future__ import annotations

import functools
import re
from typing import NamedTuple

from memtab.store.text.near_duplicates import lowered_words
from memtab.store.text.stems import english_stem
from memtab.trust.reading.counts import counts_of, different_recurrence
from memtab.trust.words import NUMBERS, said_in_digits

_SPAN = re.compile(r"`([^`\n]+)`")
_URL = re.compile(
    r"(?<![\w+.-])[a-z][a-z0-9+.-]*+://(?:[^\s/@`]++@)?([^\s/:`)>\]]+)", re.IGNORECASE
)
_PATH = re.compile(
    r"(?<![\w/.:-])(?:(?:~|\.{1,2})?/[\w.@-]++(?:/[\w.@-]*+)*+|[\w.@-]++/(?:[\w.@-]++/?)*+)"
)
_NUMBER = re.compile(r"(?<![\w.])\d++(?:[.,]\d++)*+(?!\.*+\w)|\b[a-z]++\b", re.IGNORECASE)


_ASIDE = re.compile(r"\([^()\n]*\)")
"""A parenthesis: an aside."""
_NAME = re.compile(r"(?<=[a-z0-9,)] )[A-Z][A-Za-z0-9]*(?:[.+#][A-Za-z0-9]+)*")
"""A name written inside a sentence ("… go to Lena", "In our Go code"), not its first
word nor a clause's: a capitalised word by its stem ("on Fridays" names what "Friday
deploys" does), an acronym as written ("OOMs")."""


class Specifics(NamedTuple):
    """What a statement names specifically, each kind a set."""

    names: frozenset[str]
    numbers: frozenset[str]
    code: tuple[frozenset[str], ...]
    """Each code span's words (a span of another's words, or of more: the same code)."""
    paths: frozenset[str]
    hosts: frozenset[str]
    stated: frozenset[str] = frozenset()
    """The numbers said outside parentheses: the value stated, not an aside on another
    ("listens on 5433 (the system Postgres has 5432)")."""


@functools.lru_cache(maxsize=16384)
def specifics_of(sentence: str) -> Specifics:
    """What `sentence` names specifically (see the module doc)."""
    hosts = frozenset(
        host.lower().rstrip(".").removeprefix("www.") for host in _URL.findall(sentence)
    )
    bare = _URL.sub(" ", sentence)
    spans = _SPAN.findall(bare)
    paths = frozenset(
        path.rstrip(".").strip("/").lower()
        for path in _PATH.findall(bare)
        if path.strip("/.~") and not path.startswith("//")
    )
    code = tuple(words for span in spans if (words := frozenset(lowered_words(span))))
    prose = _SPAN.sub(" ", bare)
    names = frozenset(
        english_stem(name.lower()) if name.istitle() else name.lower()
        for name in _NAME.findall(prose)
    )
    stated = _numbers(_ASIDE.sub(" ", prose)) if "(" in prose else None
    numbers = _numbers(prose)
    return Specifics(names, numbers, code, paths, hosts, numbers if stated is None else stated)


def _numbers(text: str) -> frozenset[str]:
    found = set(counts_of(text))
    for match in _NUMBER.finditer(said_in_digits(text)):
        word = match.group(0).lower()
        if word[0].isdigit():
            found.add(word.replace(",", ""))
        elif word in NUMBERS:
            found.add(NUMBERS[word])
    return frozenset(found)


def different_specifics(one: str, other: str) -> bool:
    """Whether two sentences name different specific values of a kind both name (see the
    module doc): then they are not one statement, however alike their words."""
    mine, theirs = specifics_of(one), specifics_of(other)
    if different_recurrence(one, other):
        return True
    if mine.numbers and theirs.numbers and not mine.numbers & theirs.numbers:
        return True
    if mine.stated and theirs.stated and not mine.stated & theirs.stated:
        return True
    if mine.names and theirs.names and not mine.names & theirs.names:
        return True
    if mine.hosts and theirs.hosts and not mine.hosts & theirs.hosts:
        return True
    if (
        mine.paths
        and theirs.paths
        and not any(_same_path(a, b) for a in mine.paths for b in theirs.paths)
    ):
        return True
    return bool(
        mine.code
        and theirs.code
        and not any(a <= b or b <= a for a in mine.code for b in theirs.code)
    )


def _same_path(one: str, other: str) -> bool:
    """The same path, or one the other's tail (`src/x.ts`, `/home/me/app/src/x.ts`)."""
    short, long = sorted((one, other), key=len)
    return long == short or long.endswith("/" + short)
