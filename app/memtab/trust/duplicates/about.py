"""What two statements alike in words are about, read from their structure (docs/formats.md
§19.5): the same rule said of another thing ("Vacuum the events table…" / "Vacuum the
sessions table…"), in another scope or condition ("During a release freeze, merges…" /
"Merges…"; "in CI" / "locally"), at another time ("before v3" / "after v3"), or left open
("TODO: decide whether…" beside the decision) is another statement, however many words it
shares. Read by closed grammatical classes — determiners, prepositions, subordinating
conjunctions — never by the words of a subject.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping
from difflib import SequenceMatcher
from typing import NamedTuple

from memtab.store.text.near_duplicates import lowered_words
from memtab.trust.duplicates.clauses import own_clause
from memtab.trust.words import said_words, stems_of

_DETERMINERS = frozenset(
    {"the", "a", "an", "this", "that", "these", "those", "its", "their", "our", "my", "your",
     "his", "her", "every", "each", "all", "any", "some", "no", "both", "either", "neither",
     "which", "whose"}
)  # fmt: skip
"""Determiners: what follows them is a noun phrase, the thing a statement is about."""
_PREPOSITIONS = frozenset(
    {"in", "on", "at", "to", "for", "from", "into", "onto", "of", "via", "through", "under",
     "over", "across", "between", "within", "during", "until", "till", "since", "after",
     "before", "per", "inside", "outside", "behind", "beyond", "towards", "toward",
     "throughout", "upon", "among"}
)  # fmt: skip
"""Prepositions of place, purpose and time: what follows them says where, for what, when a
statement holds (not of manner — "with", "by", "without" say how: "without asking" is
"without confirmation")."""
_TIMES = frozenset({"before", "after", "until", "till", "since", "during", "once"})
"""Prepositions and conjunctions of time: one for another is another time (what follows
one is an event, told in many words: "before you request a review", "before asking for
review")."""
_PLACES = _PREPOSITIONS - _TIMES
_SUBORDINATORS = (
    r"if|when|whenever|while|until|till|since|once|after|before|unless|whereas|as\s+long\s+as"
    r"|as\s+soon\s+as|as\s+of|up\s+to|prior\s+to|in\s+case"
)
_FRONTED = re.compile(
    rf"^\s*+(?:[-*+]\s++)?(?:(?:{_SUBORDINATORS}|{'|'.join(sorted(_PREPOSITIONS))})\s)"
    r"([^,;:.!?\n]{1,120}),\s",
    re.IGNORECASE,
)
"""A statement's fronted adverbial: the condition, scope or time said before its comma
("During a release freeze, …", "On macOS, …", "Until the upgrade is done, …")."""
_OPEN = re.compile(
    r"\b(?:todo|fixme|tbd|tbc|whether|unsure|undecided|uncertain|unclear|not\s+(?:yet\s+)?sure"
    r"|open\s+(?:question|item|point|issue)|to\s+be\s+(?:decided|confirmed|checked)"
    r"|still\s+to\s+(?:decide|check|confirm)|leaning\s+towards?)\b|\?\s*+$"
    r"|^\s*+(?:[-*+]|\d{1,9}[.)])\s++\[ \]",
    re.IGNORECASE,
)
"""A statement left open: a question (its answer not beside it: "Q: … ? A: …" is
answered), a TODO, a task not ticked ("- [ ] replay on reconnect"), an uncertainty — not
the decision it is beside."""
_SEQUENCE = re.compile(
    r"\b(?:first|then|next|last|afterwards|afterward|beforehand|later|earlier)\b", re.IGNORECASE
)
"""An adverb of sequence: a statement doing a thing "first" says a time, as one doing it
"Before a push, …" does."""
_UNITS = r"(?:minute|hour|day|night|week|month|quarter|year|sprint|weekend)"
_PAST = re.compile(
    rf"\b(?:yesterday|last\s+(?:{_UNITS}|monday|tuesday|wednesday|thursday|friday|saturday"
    rf"|sunday)|(?:\d+|an?|two|three|few|several|couple\s+of)\s+{_UNITS}s?\s+ago"
    r"|earlier\s+today|this\s+morning)\b|^\s*+(?:[-*+]\s++)?\d{4}-\d{2}-\d{2}\b",
    re.IGNORECASE,
)
"""A day gone, told by deixis ("yesterday", "last week", "three days ago") or a date
opening the line: a record of what happened."""
_MOST_REPLACED = 3
"""Words one statement says in place of the other's, at most, for a substitution (more is
a rewording of the whole)."""


class _Word(NamedTuple):
    word: str
    stem: str | None
    """Its stem (`trust.words`), None for a stop word or a phrasing word."""

    @property
    def key(self) -> str:
        return self.word if self.stem is None else self.stem


def about_other(
    one: str,
    other: str,
    their_note: Callable[[], frozenset[str]],
    weight: Mapping[str, float],
    rare: float,
) -> bool:
    """Whether statement `one` says its claim of something `other` does not (see the module
    doc): `one`'s fronted condition, scope or time names a thing few memories name (of
    `weight` `rare`: "During a release freeze", not "When writing Rust") that neither `other`
    nor its note (`their_note`: its stems, title and frontmatter with them, read only when
    needed) names; or the two put other words in a noun phrase's or a preposition's place
    ("the events table" / "the sessions table", "to staging" / "to production"), an
    adverbial for an adverbial ("in CI" / "locally"), or another time ("before" / "after")."""
    if one == other:
        return False
    fronted = _FRONTED.match(one)
    if fronted is not None and not (_timed(fronted.group(0)) and _SEQUENCE.search(other)):
        said = {
            s for s in stems_of(fronted.group(1).replace("-", " ")) if weight.get(s, 0.0) >= rare
        }
        if said and not _short_forms(said, _said(other)) and not _short_forms(said, their_note()):
            return True
    return _substituted(one, other, their_note)


def _timed(fronted: str) -> bool:
    """Whether a fronted adverbial is one of time ("Before a push, …")."""
    first = lowered_words(fronted)[:1]
    return bool(first) and first[0] in _TIMES


def told_of_a_day(one: str, other: str) -> bool:
    """Whether one of two statements tells of a day gone (`_PAST`, in its own clause: not a
    reason beside a rule, "…; sockets piled up last month") and the other does not: an
    incident's entry is not the rule it led to."""
    return (_PAST.search(own_clause(one)) is None) != (_PAST.search(own_clause(other)) is None)


def left_open(one: str, other: str) -> bool:
    """Whether one of two statements (or their lines) is left open (`_OPEN`: a question, a
    TODO, an uncertainty) and the other is not: a decision is not its open question."""
    return (_OPEN.search(one) is None) != (_OPEN.search(other) is None)


def _substituted(one: str, other: str, their_note: Callable[[], frozenset[str]]) -> bool:
    said, their_said = _said(one), _said(other)
    if not (said - their_said and their_said - said) and not _times(one) ^ _times(other):
        return False  # no word of either is not the other's: nothing put in another's place
    mine, theirs = _words(one), _words(other)
    matcher = SequenceMatcher(None, [w.key for w in mine], [w.key for w in theirs], False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "replace" or max(i2 - i1, j2 - j1) > _MOST_REPLACED:
            continue
        put, their_put = mine[i1:i2], theirs[j1:j2]
        if len(put) == len(their_put) == 1 and {put[0].word, their_put[0].word} <= _TIMES:
            return True
        their_new = {w.stem for w in their_put if w.stem is not None} - said
        new = {w.stem for w in put if w.stem is not None} - their_said
        if not new or not their_new or _short_forms(new, their_new):
            continue
        new -= their_note()
        if not new or _short_forms(new, their_new):
            continue
        before = mine[i1 - 1].word if i1 > 0 else ""
        if before in _DETERMINERS or before in _PLACES or before == "s":
            return True
        if _adverbial(put) and _adverbial(their_put):  # "in CI" / "locally"
            return True
        if i1 == j1 == 0 and i2 < len(mine) and _doer(put, their_put, mine[i2]):
            return True  # "The bot merges…" / "Humans merge…"
        if len(put) == len(their_put) == 1 and i1 >= 2 and _object(mine, theirs, i1, j1):
            return True  # "Validate the webhook signature" / "… the webhook timestamp"
    return False


def _doer(put: tuple[_Word, ...], their_put: tuple[_Word, ...], verb: _Word) -> bool:
    """Whether words put in another's place at two statements' start are who does what
    follows (their subject, not an imperative's verb): a noun phrase opening on a
    determiner ("The platform team opens…" / "Renovate opens…"), or plural nouns before a
    verb in its plain form ("Reviewers resolve…" / "Authors resolve…")."""
    if put[0].word in _DETERMINERS or their_put[0].word in _DETERMINERS:
        return True
    plural = all(_plural(w[-1].word) for w in (put, their_put))
    return plural and not _plural(verb.word)


def _plural(word: str) -> bool:
    return len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is"))


def _object(mine: tuple[_Word, ...], theirs: tuple[_Word, ...], i1: int, j1: int) -> bool:
    """Whether the one word put in another's place at `i1` (`j1`) heads a noun phrase: a
    determiner or a preposition opens it two words before ("the webhook signature"), or
    the verb both statements open on ("Compress uploaded images" / "… uploaded videos")."""
    opener = mine[i1 - 2].word
    if opener in _DETERMINERS or opener in _PLACES:
        return True
    return i1 == j1 == 2 and mine[0].key == theirs[0].key


def _adverbial(words: tuple[_Word, ...]) -> bool:
    """Whether words put in another's place say where, when or how: a prepositional
    phrase, or an adverb of one word ("locally")."""
    return words[0].word in _PLACES or (len(words) == 1 and words[0].word.endswith("ly"))


def _short_forms(one: set[str], other: frozenset[str] | set[str]) -> bool:
    """Whether each stem of `one` is, starts or is started by one of `other`'s ("repo" /
    "repositori", "pr" / "prs"): a short form, not another thing."""
    return all(any(a.startswith(b) or b.startswith(a) for b in other) for a in one)


@functools.lru_cache(maxsize=16384)
def _words(sentence: str) -> tuple[_Word, ...]:
    return tuple(_Word(word, _stem(word)) for word in said_words(sentence))


@functools.lru_cache(maxsize=16384)
def _said(sentence: str) -> frozenset[str]:
    return frozenset(stems_of(sentence))


def _times(sentence: str) -> frozenset[str]:
    return _TIMES.intersection(w.word for w in _words(sentence))


@functools.lru_cache(maxsize=16384)
def _stem(word: str) -> str | None:
    return next(stems_of(word), None)
