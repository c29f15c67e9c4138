"""What the duplicates read of what statements say, not only their words (docs/formats.md
§19.5): two memories that contradict each other (`trust.claims`) or state rules of
opposite polarities (`trust.polarity`) are never the same note — not even a candidate.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memtab.check.documents import Document
from memtab.trust.claims import Claim, claims_of, contradict, same_thing
from memtab.trust.polarity import Rule, opposed, rule_of
from memtab.trust.words import content_lines, statements, stems_of

POLARITY = {"always": "\0always", "never": "\0never", "optional": "\0optional"}
"""What a rule's stems hold of its polarity (no word stems so)."""
POLARITIES = frozenset(POLARITY.values())


def opposed_stems(one: frozenset[str], other: frozenset[str]) -> bool:
    """Whether two sentences' stems are rules of opposite polarities (`POLARITY` marks)."""
    mine, theirs = one & POLARITIES, other & POLARITIES
    if not mine or not theirs or mine == theirs:
        return False
    action, others = one - POLARITIES, other - POLARITIES
    return len(action & others) * 2 >= min(len(action), len(others))


class AtOdds:
    """Whether two memories contradict each other (`trust.claims`: a port, a tool,
    always or never…) or state rules of opposite polarities: never the same note, however
    many words they share — combining them would keep one side of a disagreement. One
    for the pairs of a run: each memory's claims and rules read once (a run asks it of
    thousands of pairs of the same memories)."""

    def __init__(self) -> None:
        self._claims: dict[str, tuple[Claim, ...]] = {}
        self._by_kind: dict[str, dict[str, list[Claim]]] = {}
        self._rules: dict[str, list[Rule]] = {}
        self._contradicting: dict[tuple[tuple[str, ...], tuple[str, ...]], bool] = {}

    def __call__(self, one: Document, other: Document) -> bool:
        mine, theirs = self._claims_of(one), self._claims_of(other)
        of_kind = self._by_kind[other.key]  # claims of two kinds never contradict
        if any(
            self._contradict(a, b) and _disagree(a, b, mine, theirs)
            for a in mine
            for b in of_kind.get(a.kind, ())
        ):
            return True
        rules = self._rules_of(one)
        if not rules:
            return False
        return any(opposed(a, b) for a in rules for b in self._rules_of(other))

    def _claims_of(self, document: Document) -> tuple[Claim, ...]:
        claims = self._claims.get(document.key)
        if claims is None:
            claims = self._claims[document.key] = claims_of(document.text)
            by_kind = self._by_kind[document.key] = {}
            for claim in claims:
                by_kind.setdefault(claim.kind, []).append(claim)
        return claims

    def _contradict(self, one: Claim, other: Claim) -> bool:
        """`contradict`, once for each two claims' kinds, keys and values (copies of a
        memory say the same)."""
        said = (one[1:4], other[1:4])
        found = self._contradicting.get(said)
        if found is None:
            found = self._contradicting[said] = contradict(one, other)
        return found

    def _rules_of(self, document: Document) -> list[Rule]:
        rules = self._rules.get(document.key)
        if rules is None:
            said = _sentences(document)
            rules = self._rules[document.key] = [r for s in said if (r := rule_of(s)) is not None]
        return rules


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


_NEGATION = re.compile(
    r"\b(?:not|never|no|nor|nobody|nothing|none|neither|cannot|without|except|unless|"
    r"instead\s+of|rather\s+than|"
    r"avoid(?:s|ed|ing)?|refrain\s+from|steer\s+clear\s+of)\b"
    r"|n't\b|n’t\b",
    re.IGNORECASE,
)
"""A word denying what follows it ("is not shared", "never retries", "pnpm, not npm")."""
_GATE = re.compile(r"[^,;:.!?—]{0,200}?\b(?:without|unless)\b", re.IGNORECASE)
"""A negation whose clause goes on with "without" or "unless" ("No X without Y", "Never
X unless Y"): two negations, one requirement (X only with Y)."""
_GATES = frozenset({"without", "unless", "except"})
_CLAUSE = 200
"""A clause's length at most, as a negation's reach is read (a line of thousands of "no"s
is not read to its end from each)."""


def required_by(sentence: str) -> str | None:
    """What a rule forbidding something without it requires ("Never merge a migration
    without a down step": down), as its first stem, or None for no such rule."""
    for negation in _NEGATION.finditer(sentence):
        gate = _GATE.match(sentence, negation.end())
        if gate is not None and negation.group(0).lower() not in _GATES:
            return next(stems_of(sentence[gate.end() : gate.end() + _CLAUSE]), None)
    return None
