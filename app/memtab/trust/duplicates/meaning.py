"""What the duplicates read of what statements say, not only their words (docs/formats.md
§19.5): two memories that contradict each other (`trust.claims`) or state rules of
opposite polarities (`trust.polarity`) are never the same note, and sentences alike in
words are one rule only when they say one thing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from memtab.check.documents import Document
from memtab.trust.claims import Claim, claims_of, contradict, same_thing, sentence_claims
from memtab.trust.polarity import opposed, other_subjects, rule_of
from memtab.trust.specifics import different_specifics
from memtab.trust.words import content_lines, statements

POLARITY = {"always": "\0always", "never": "\0never"}
"""What a rule's stems hold of its polarity (no word stems so)."""
POLARITIES = frozenset(POLARITY.values())

T = TypeVar("T")


def opposed_stems(one: frozenset[str], other: frozenset[str]) -> bool:
    """Whether two sentences' stems are rules of opposite polarities (`POLARITY` marks)."""
    mine, theirs = one & POLARITIES, other & POLARITIES
    if not mine or not theirs or mine == theirs:
        return False
    action, others = one - POLARITIES, other - POLARITIES
    return len(action & others) * 2 >= min(len(action), len(others))


def at_odds(one: Document, other: Document) -> bool:
    """Whether two memories contradict each other (`trust.claims`: a port, a tool,
    always or never…) or state rules of opposite polarities: never the same note, however
    many words they share — combining them would keep one side of a disagreement."""
    mine, theirs = claims_of(one.text), claims_of(other.text)
    if any(_disagree(a, b, mine, theirs) for a in mine for b in theirs):
        return True
    rules = [rule for s in _sentences(one) if (rule := rule_of(s)) is not None]
    if not rules:
        return False
    others = [rule for s in _sentences(other) if (rule := rule_of(s)) is not None]
    return any(opposed(a, b) for a in rules for b in others)


def _disagree(one: Claim, other: Claim, mine: Sequence[Claim], theirs: Sequence[Claim]) -> bool:
    """Whether two claims of two memories contradict, neither memory also saying what the
    other does (two notes that each say both commands agree)."""
    return (
        contradict(one, other)
        and not any(c.value == other.value and same_thing(c, other) for c in mine)
        and not any(c.value == one.value and same_thing(c, one) for c in theirs)
    )


def content_text(document: Document) -> str:
    """What a memory says: its content lines (`trust.words`), one a line."""
    return "\n".join(line.text for line in content_lines(document.text))


def _sentences(document: Document) -> list[str]:
    return [
        s for line in content_lines(document.text) if not line.code for s in statements(line.text)
    ]


def agreeing(
    chosen: Sequence[T],
    text: Callable[[T], tuple[str, str]],
    apart: Callable[[T, T], bool] = lambda one, other: False,
) -> list[list[T]]:
    """The statements alike in words split into those that say one thing (`text`: each
    one's sentence and the line it is on): never two of opposite polarities or values
    ("Use pnpm, not npm" / "Use npm, not pnpm": the same stems), of different subjects
    ("Branch names…" / "Test names…") or specific values (`trust.specifics`), nor two
    kept `apart`; the parts of two or more."""
    parts: list[list[T]] = []
    for statement in chosen:
        said = text(statement)
        part = next(
            (
                p
                for p in parts
                if not any(apart(statement, s) or _at_odds(said, text(s)) for s in p)
            ),
            None,
        )
        if part is None:
            parts.append([statement])
        else:
            part.append(statement)
    return [part for part in parts if len(part) > 1]


def _at_odds(one: tuple[str, str], other: tuple[str, str]) -> bool:
    """Whether two sentences say different things (see `agreeing`): their lines' claims
    or rules disagree (a line's other sentence can say the rule: "Don't rebase onto main.
    We merge main into the branch…"), or the sentences' subjects or specific values."""
    (sentence, line), (their_sentence, their_line) = one, other
    for mine, theirs in {(sentence, their_sentence), (line, their_line)}:
        claims, their_claims = sentence_claims(mine), sentence_claims(theirs)
        if any(contradict(a, b) for a in claims for b in their_claims):
            return True
        rule, their_rule = rule_of(mine), rule_of(theirs)
        if rule is not None and their_rule is not None and opposed(rule, their_rule):
            return True
    return other_subjects(sentence, their_sentence) or different_specifics(sentence, their_sentence)
