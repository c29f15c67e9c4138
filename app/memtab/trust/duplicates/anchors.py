"""What a statement names and its value, in one normal form (docs/formats.md §19.5): a
number with its unit ("24 hours", "one day" and "86400 s" are one), a count in words or
digits ("three" is 3), a percentage, a multiple ("2×" is "double", "50% worse" 1.5×), and
a name (a code span, a path, a name with `_`, `.`, `/` or digits in it, a mixed-case one)
split into its words, so that `pg_dump` is "pg dump" and `FLAGS_URL` "the FLAGS_URL
endpoint".

Statements that share one (`anchor_candidates`) are a second source of candidates besides
their words: a fact reworded shares what it names more often than its wording. They say
one fact when they say it of the same thing in other words (`same_fact`).
"""

from __future__ import annotations

import functools
import re
from collections import defaultdict
from collections.abc import Sequence
from itertools import pairwise
from typing import NamedTuple

from memtab.trust.duplicates.clauses import CONDITION, own_clause
from memtab.trust.reading.amounts import inflected_verbs, quantities
from memtab.trust.reading.counts import counts_of
from memtab.trust.words import NUMBERS, said_in_digits, said_words, sentence_stems, stems_of

ANCHOR_HOLDERS = 12
"""Statements naming one anchor, at most, for it to pair them: one named by more is what a
project talks about (its service, its port), not a fact said again."""
MORE_SAID = 2
"""Stems one statement of a fact says besides the other's, at most (or as many as they
share): "…, locked through DynamoDB"; more is another fact beside it."""

_SPAN = re.compile(r"`([^`\n]{1,200}+)`")
_PERCENT = re.compile(
    r"(?<![\w.])(\d{1,9}+(?:\.\d{1,9}+)?+)\s*+(?:%|percent\b)"
    r"(\s++(?:more|higher|worse|larger|slower|longer|bigger|greater|above|over)\b)?+",
    re.IGNORECASE,
)
"""A percentage, or a multiple said as one more ("50% worse" is 1.5×)."""
_SPELLED = re.compile(
    r"\b(" + "|".join(word for word in NUMBERS if word != "twice") + r")(?=\s*+(?:%|percent\b))",
    re.IGNORECASE,
)
"""A number in words before "percent" ("five percent" is 5%)."""
_MULTIPLE = re.compile(
    r"(?<![\w.])(\d{1,9}+(?:\.\d{1,9}+)?+)\s*+[×x](?!\w)|\b(double|twice\s+as|triple)(?![\w-])",
    re.IGNORECASE,
)
_MULTIPLES = {"double": "2", "twice as": "2", "triple": "3"}
_NUMBER = re.compile(r"(?<![\w.:/-])\d{1,9}+(?:\.\d{1,9}+)*+(?![\w:/-]|\.\w)")
_SEPARATORS = re.compile(r"[^\w.]++")
_PART = re.compile(r"[A-Z]?[a-z]++|[A-Z]++(?![a-z])|\d++|[^\W\dA-Za-z_]++")
"""An identifier's words: "minSdk" is "min sdk", "FLAGS_URL" "flags url", "배포2" "배포 2"."""


class Reading(NamedTuple):
    """What a statement's fact names (its quantities and names), its words (names split
    into theirs), and the rest of it, what it says of them."""

    quantities: frozenset[str]
    names: frozenset[tuple[str, ...]]
    words: tuple[str, ...]
    rest: str


def _identifier(word: str) -> bool:
    """Whether a word written outside a code span names a thing: a path, a dotted or
    underscored name, a name of letters and digits ("SHA-1", "p99"), or a lower-case word
    with capitals inside ("minSdk", "BigQuery"; not an acronym, "PRs", "SSH": a term)."""
    inner = word.strip(".,;:!?\"'()[]{}")
    alpha = any(c.isalpha() for c in inner)
    if len(inner) < 2 or not alpha:
        return False
    if any(c.isdigit() for c in inner):
        return True
    if len(inner) < 3:
        return False
    if any(mark in inner[1:-1] for mark in "_/."):
        return True
    return any(a.islower() and b.isupper() for a, b in pairwise(inner))


def _parts(name: str) -> tuple[str, ...]:
    return tuple(part.lower() for part in _PART.findall(name))


def _values(text: str) -> tuple[set[str], str]:
    """The quantities `text` says, each in its normal form, and `text` without them."""
    found: set[str] = set()
    spans: list[tuple[int, int]] = []
    for start, end, value in quantities(text):
        found.add(value)
        spans.append((start, end))
    for match in _PERCENT.finditer(text):
        number = float(match.group(1))
        found.add(f"{1 + number / 100:g}x" if match.group(2) else f"{number:g}%")
        spans.append(match.span())
    for match in _MULTIPLE.finditer(text):
        said = match.group(1) or _MULTIPLES[" ".join(match.group(2).lower().split())]
        found.add(f"{float(said):g}x")
        spans.append(match.span())
    rest = text
    for start, end in sorted(spans, reverse=True):
        rest = rest[:start] + " " + rest[end:]
    found.update(_NUMBER.findall(rest))
    rest = _NUMBER.sub(" ", rest)
    found.update(count for count in counts_of(rest) if count != "1")
    kept = []
    for word in rest.split():
        digits = NUMBERS.get(word.strip(".,;:").lower())
        if digits is None:
            kept.append(word)
        else:
            found.add(digits)
    return found, " ".join(kept)


_RECURRING = re.compile(r"\b(?:every|each|per|once|twice)\s++$", re.IGNORECASE)
"""What says a quantity after it is a recurrence ("every 2 weeks"), read as said."""
_UNIT_WORDS = {"ms": "milliseconds", "s": "seconds", "min": "minutes", "h": "hours", "d": "days"}


@functools.lru_cache(maxsize=16384)
def normal_form(sentence: str) -> str:
    """`sentence` with each number and its unit said one way (`quantities`: "two weeks",
    "14d" and "14 days" are "14 days"; "a week" and "every 2 weeks" as said, a recurrence's
    readers read them): what the filters read of two statements that may say one value in
    two ways."""
    said = said_in_digits(sentence)
    found = quantities(said)
    for start, end, value in reversed(found):
        counted = said[start].isdigit() or said[start:end].split()[0].lower() in NUMBERS
        if not counted or _RECURRING.search(said, 0, start) is not None:
            continue
        number, _, unit = value.partition(" ")
        said = f"{said[:start]}{number} {_UNIT_WORDS.get(unit, unit or 'times')}{said[end:]}"
    return said


def _spaced(span: re.Match[str]) -> str:
    """A code span's text, its names' separators but `_` and `.` as spaces: a number
    assigned in it is said ("`WORKERS=8`"), one in a name is not ("`hashlib.sha1`")."""
    return " " + _SEPARATORS.sub(" ", span.group(1)) + " "


def _digits(number: re.Match[str]) -> str:
    return NUMBERS[number.group(1).lower()]


@functools.lru_cache(maxsize=16384)
def reading(clause: str) -> Reading:
    """What a statement or its own clause names, in its normal form (see the module doc)."""
    clause = _SPELLED.sub(_digits, said_in_digits(clause))
    names = {parts for span in _SPAN.findall(clause) if (parts := _parts(span))}
    plain = _SPAN.sub(lambda span: " " + " ".join(_parts(span.group(1))) + " ", clause)
    values, rest = _values(_SPAN.sub(_spaced, clause))
    names |= {parts for word in rest.split() if _identifier(word) and (parts := _parts(word))}
    said = " ".join(" ".join(_parts(word)) if _identifier(word) else word for word in rest.split())
    words = tuple(part for word in plain.split() for part in _parts(word))
    return Reading(frozenset(values), frozenset(names), words, said)


def _names_in(names: frozenset[tuple[str, ...]], words: Sequence[str]) -> set[tuple[str, ...]]:
    """The names (each its words) said, word after word, in `words`."""
    return {name for name in names if _said_in(name, words)}


def _said_in(name: tuple[str, ...], words: Sequence[str]) -> bool:
    size = len(name)
    first = name[0]
    return any(
        words[i] == first and tuple(words[i : i + size]) == name
        for i in range(len(words) - size + 1)
    )


def shared_anchors(one: Reading, other: Reading) -> tuple[set[str], set[tuple[str, ...]]]:
    """The quantities both say, and the names one says that the other says too (in a code
    span or in words)."""
    names = _names_in(one.names, other.words) | _names_in(other.names, one.words)
    return set(one.quantities & other.quantities), names


def same_fact(one: tuple[str, frozenset[str]], other: tuple[str, frozenset[str]]) -> bool:
    """Whether two statements (each its sentence and stems: a project's own name is none)
    say one fact in other words: each read as its own clause (`fact_of`: a reason or an
    example beside it is no part of the fact), they name the same
    quantities and a thing both name (`shared_anchors`), and say it of the same thing —
    what else one says (its stems but the names', the inflected verbs and the words giving
    a value: "expire after" / "lifetime is", `amounts.inflected_verbs`) the other says too,
    and the other says `MORE_SAID` stems besides at most, or as many as they share. One
    said in the other's words is `statements.said_whole`'s to read."""
    (sentence, stems), (their_sentence, their_stems) = one, other
    mine, theirs = fact_of(sentence), fact_of(their_sentence)
    if CONDITION.match(mine) is not None or CONDITION.match(theirs) is not None:
        return False  # "When X: do Y" says what to do, not that X is so
    said, their_said = reading(mine), reading(theirs)
    values, names = shared_anchors(said, their_said)
    if said.quantities != their_said.quantities or not (values or names):
        return False
    if _in_words_of(mine, theirs):
        return False  # one said in the other's words: `statements.said_whole`'s to read
    named = {stem for name in names for part in name for stem in stems_of(part)}
    either = named | inflected_verbs(mine) | inflected_verbs(theirs)
    thing = _own_stems(sentence_stems(said.rest), sentence, stems) - either
    their_thing = _own_stems(sentence_stems(their_said.rest), their_sentence, their_stems) - either
    if thing == their_thing:
        return bool(thing)
    common = thing & their_thing
    fewer, more = sorted((len(thing - their_thing), len(their_thing - thing)))
    return bool(common) and fewer == 0 and more <= max(MORE_SAID, len(common))


def _in_words_of(one: str, other: str) -> bool:
    """Whether one of two texts says its words in the other, in their order."""
    mine, theirs = sorted((said_words(one), said_words(other)), key=len)
    rest = iter(theirs)
    return all(word in rest for word in mine)


def fact_of(sentence: str) -> str:
    """A statement's own clause (`clauses.own_clause`), what it says in parentheses with
    it (an aside naming the thing or its value again, "from Vault (`secret/x`)", "(TTL
    900 s)", says the fact), without a rule said after a comma (`_RULE_AFTER`)."""
    clause = own_clause(sentence.translate(_BRACKETED)).translate(_PARENTHESISED)
    rule = _RULE_AFTER.search(clause)
    return clause if rule is None or rule.start() == 0 else clause[: rule.start()]


_RULE_AFTER = re.compile(r",\s++(?=(?:never|always|don['’]t|do\s++not)\b)", re.IGNORECASE)
"""A rule said after a comma ("…, never hard-code it"): beside the fact, not of it."""
_BRACKETED = str.maketrans("()", "[]")
_PARENTHESISED = str.maketrans("[]", "()")


def _own_stems(read: frozenset[str], sentence: str, stems: frozenset[str]) -> frozenset[str]:
    """The stems `read` of a sentence but those its statement's `stems` leave out (its
    project's own name)."""
    said = sentence_stems(sentence)
    return frozenset(stem for stem in read if stem in stems or stem not in said)


def anchor_candidates(texts: Sequence[str]) -> set[tuple[int, int]]:
    """The pairs of statements (`texts`) whose facts (`fact_of`) share an anchor: a
    quantity in its normal form, or a name one says in a code span or in words and the
    other says too, held by `ANCHOR_HOLDERS` statements at most."""
    said = [reading(fact_of(text)) for text in texts]
    lengths: dict[str, set[int]] = defaultdict(set)  # a name's first word → its lengths
    for read in said:
        for name in read.names:
            lengths[name[0]].add(len(name))
    holders: dict[object, set[int]] = defaultdict(set)
    for index, read in enumerate(said):
        for value in read.quantities:
            holders["=", value].add(index)
        words = read.words
        for start, word in enumerate(words):
            for size in lengths.get(word, ()):
                holders[words[start : start + size]].add(index)
    pairs: set[tuple[int, int]] = set()
    for held in holders.values():
        if 1 < len(held) <= ANCHOR_HOLDERS:
            ordered = sorted(held)
            pairs.update(
                (one, other) for at, one in enumerate(ordered) for other in ordered[at + 1 :]
            )
    return pairs
