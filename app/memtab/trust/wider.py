"""The wider net a model judges (issue 83; docs/formats.md §19.5, §19.6): pairs of statements
in two memories alike in words below what the offline engines confirm, most alike first,
each with what the offline readers know disagree in it — opposite rules (`trust.polarity`),
claims of different values (`trust.claims`), different specific values (`trust.specifics`).
A pair they know disagree is never a duplicate; one they know nothing against is never a
contradiction. Worked out only when a model is asked: the offline answers never change."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from memtab.check.documents import Document
from memtab.sources.codex.summary import restates
from memtab.store.text.near_duplicates import idf_weights, near_duplicate_pairs
from memtab.trust.claims import Claim, contradict, sentence_claims
from memtab.trust.duplicates.meaning import POLARITIES, required_by
from memtab.trust.duplicates.statements import Statement, is_statement
from memtab.trust.memories import place_of
from memtab.trust.polarity import Rule, rule_of
from memtab.trust.records import MemoryPlace
from memtab.trust.specifics import different_specifics
from memtab.trust.words import content_lines, sentence_stems, statements

WIDER_SIMILARITY = 0.2
"""Statements alike in words at this (IDF-weighted Jaccard of their stems) are put to the
model when the offline engines did not confirm them."""
OPPOSED_SHARED = 2
"""Opposite rules are asked whether they contradict when their actions share this many
words (one shared word joins rules about other things: "maintain" and "maintainers")."""
_GATE = re.compile(r"\b(?:without|unless|until|before)\b", re.IGNORECASE)
MAX_QUESTIONS = 24
"""At most this many new questions a run (answers kept from an earlier run are free); the
candidates past it are left unasked, and the report says how many."""


@dataclass(frozen=True)
class Side:
    """One statement of a candidate: its memory, line and sentence, and the rules and claims
    the offline readers read in its line."""

    document: Document
    line: int
    text: str
    rules: tuple[Rule, ...]
    claims: tuple[Claim, ...]


@dataclass(frozen=True)
class Candidate:
    """Two statements alike in words, and what the offline readers know disagree in them
    ("": nothing), in words the model is given as a fact."""

    similarity: float
    one: Side
    other: Side
    disagree: str
    how: Literal["", "value", "polarity", "specifics"] = ""
    """What disagrees: claims' values, rules' polarities, specific values; "": nothing."""


def sentences_of(document: Document) -> tuple[Statement, ...]:
    """A memory's statements as the duplicates engine reads them (`statements.is_statement`)."""
    found = []
    for line in content_lines(document.text):
        if line.code:
            continue
        for sentence in statements(line.text):
            stems = sentence_stems(sentence)
            if is_statement(sentence, stems):
                found.append(Statement(line.number, sentence, stems))
    return tuple(found)


def candidates(
    said: Iterable[tuple[Document, Sequence[Statement]]],
    *,
    apart: Callable[[Side, Side], bool],
    threshold: float = WIDER_SIMILARITY,
) -> list[Candidate]:
    """The pairs of statements of two memories alike at `threshold`, most alike first,
    but those `apart` says are not compared (already found together, never seen together);
    one pair for each two sentences however many copies say them."""
    sides: list[tuple[Document, Statement]] = []
    for document, found in said:
        if document.record or document.imported is not None:
            continue
        sides += [(document, statement) for statement in found]
    sets = [statement.stems - POLARITIES for _, statement in sides]
    weight = idf_weights(sets)
    listed: list[Candidate] = []
    seen: set[frozenset[str]] = set()
    for similarity, a, b in near_duplicate_pairs(sets, threshold, weight=weight):
        (first, mine), (second, theirs) = sides[a], sides[b]
        texts = frozenset((" ".join(mine.text.split()), " ".join(theirs.text.split())))
        if (
            first.key == second.key
            or len(texts) < 2
            or texts in seen
            or restates(first.key, second.key)
        ):
            continue
        one, other = _side(first, mine), _side(second, theirs)
        if apart(one, other):
            continue
        seen.add(texts)
        how, disagree = disagreement(one, other)
        listed.append(Candidate(round(similarity, 3), one, other, disagree, how))
    return listed


def _side(document: Document, statement: Statement) -> Side:
    """A statement with what its line says (a line's other sentence can say its rule: "Don't
    rebase onto main. We merge main into the branch")."""
    line = next(
        (c.text for c in content_lines(document.text) if c.number == statement.line),
        statement.text,
    )
    said = [*statements(line)] or [statement.text]
    return Side(
        document,
        statement.line,
        statement.text,
        tuple(rule for s in said if (rule := rule_of(s)) is not None),
        tuple(claim for s in said for claim in sentence_claims(s)),
    )


def contradicting(one: Side, other: Side) -> tuple[Claim, Claim] | None:
    """Two claims of the sides' lines that contradict (`claims.contradict`), or None."""
    return next(
        (
            (mine, theirs)
            for mine in one.claims
            for theirs in other.claims
            if contradict(mine, theirs)
        ),
        None,
    )


def opposed_rules(one: Side, other: Side, shared: int = 1) -> tuple[Rule, Rule] | None:
    """Two rules of the sides' lines of opposite polarities about actions that share
    `shared` words or more, or None; a `never` gated by what it requires ("never X without
    Y", "don't say done before the linters pass") is no opposite of "always Y"."""
    for mine in one.rules:
        for theirs in other.rules:
            never = mine if mine.polarity != "always" else theirs
            if (
                mine.polarity != theirs.polarity
                and len((mine.action - POLARITIES) & theirs.action) >= shared
                and required_by(never.said) is None
                and _GATE.search(never.said) is None
            ):
                return mine, theirs
    return None


def disagreement(
    one: Side, other: Side
) -> tuple[Literal["", "value", "polarity", "specifics"], str]:
    """What the offline readers know disagree in two statements, and in words ("": nothing)."""
    claims = contradicting(one, other)
    if claims is not None:
        mine, theirs = claims
        return "value", (
            f"they state different values for {mine.shown}: "
            f"{_value(mine.value)} and {_value(theirs.value)}"
        )
    rules = opposed_rules(one, other)
    if rules is not None:
        return "polarity", (
            f"the first says {rules[0].polarity} ({rules[0].said!r}), "
            f"the second {rules[1].polarity} ({rules[1].said!r})"
        )
    if different_specifics(one.text, other.text):
        return "specifics", "they name different specific values (a number, path, name, command)"
    return "", ""


def _value(value: str) -> str:
    return f"not {value.removeprefix('not:')}" if value.startswith("not:") else value


class Together:
    """The places findings hold together: two lines, or two whole memories."""

    def __init__(self, found: Iterable[Sequence[MemoryPlace]]) -> None:
        self._lines: set[tuple[str, int | None, str, int | None]] = set()
        for places in found:
            for one in places:
                for other in places:
                    if one.path != other.path:
                        self._lines.add((one.path, one.line, other.path, other.line))

    def side_by_side(self, one: Side, other: Side) -> bool:
        mine, theirs = one.document.path, other.document.path
        return any(
            (mine, a, theirs, b) in self._lines
            for a in (one.line, None)
            for b in (other.line, None)
        )


def as_shown(side: Side) -> str:
    """A statement as the model reads it: its file's scope, then what it says."""
    place = place_of(side.document)
    if place.project is None:
        return f"{GLOBAL} {side.text}"
    project = place.project.rstrip("/").rsplit("/", 1)[-1]
    return f"({place.scope} memory of project {project}) {side.text}"


def places_of(candidate: Candidate) -> tuple[MemoryPlace, MemoryPlace]:
    return (
        place_of(candidate.one.document, candidate.one.line, candidate.one.text),
        place_of(candidate.other.document, candidate.other.line, candidate.other.text),
    )


def claims_of(candidate: Candidate) -> tuple[Claim, Claim]:
    """What each side of a contradiction the model confirmed claims, its line set."""
    one, other = candidate.one, candidate.other
    claims = contradicting(one, other)
    if claims is not None:
        return claims[0]._replace(line=one.line), claims[1]._replace(line=other.line)
    rules = opposed_rules(one, other)
    if rules is not None:
        return _rule_claim(one.line, rules[0]), _rule_claim(other.line, rules[1])
    about = "what they say"
    return (
        Claim(one.line, "value", "", _cut_value(one.text), about),
        Claim(other.line, "value", "", _cut_value(other.text), about),
    )


def _rule_claim(line: int, rule: Rule) -> Claim:
    return Claim(line, "always-never", "", rule.polarity, f"whether to {rule.said[:60].lower()}")


def _cut_value(text: str) -> str:
    said = " ".join(text.split())
    return said if len(said) <= 80 else said[:79] + "…"


GLOBAL = "(global memory, read in every project)"
SHOP = "(project memory of project shop)"
Control = tuple[tuple[str, str], tuple[str, str], str, str]
"""A question's controls: a pair every judge must dismiss, a pair every judge must confirm,
and in words what a model that confirms the first, or dismisses the second, got wrong."""
_SAME_NOT = "called two statements about different things the same"
_SAME_MISSED = "did not call an obvious rewording the same"
_CONTRADICT_NOT = "called two rules about different things a contradiction"
_CONTRADICT_MISSED = "did not call an always/never opposite a contradiction"
CONTROLS: dict[str, Control] = {
    "same": (
        (
            "The API's dev server runs on port 8000.",
            "The docs site's dev server runs on port 8000.",
        ),
        (
            "Always run the unit tests before pushing.",
            "Run the unit tests every time before you push.",
        ),
        _SAME_NOT,
        _SAME_MISSED,
    ),
    "contradict": (
        ("Always run the unit tests before pushing.", "Never run the load tests on a laptop."),
        ("Always use tabs for indentation.", "Never use tabs for indentation."),
        _CONTRADICT_NOT,
        _CONTRADICT_MISSED,
    ),
    "same-statement": (
        (
            f"{SHOP} The API's dev server runs on port 8000.",
            f"{SHOP} The docs site's dev server runs on port 8000.",
        ),
        (
            f"{GLOBAL} Always run the unit tests before pushing.",
            f"{SHOP} Run the unit tests every time before you push.",
        ),
        _SAME_NOT,
        _SAME_MISSED,
    ),
    "contradict-statement": (
        (
            f"{GLOBAL} Always run the unit tests before pushing.",
            f"{SHOP} Never run the load tests on a laptop.",
        ),
        (f"{GLOBAL} Always use tabs for indentation.", f"{SHOP} Never use tabs for indentation."),
        _CONTRADICT_NOT,
        _CONTRADICT_MISSED,
    ),
}
"""The controls of each question a finding or a pair is put to (a small model confirms
nearly every pair it is shown): a model that fails either may not dismiss what the offline
engines found, nor is asked the wider net."""
