"""One rule's key: what a rule (`trust.polarity`) says is done and to what, as the
contradictions and the duplicates both compare it (docs/formats.md §19.6).

A rule's action is the stems of its clause; its key leaves out what says only how it is
put — a preposition the stop words keep ("against production" is "on production"), an
order's "first", a focus's "even" — and a verb of putting ("put", "add", "insert",
"store", "include" a thing somewhere: what is put where is the rule). A rule that asks
leave first ("Ask before X", "Check with me before X", "Never X without asking") is a
`GATE` on X: never X unasked, whose opposite is leave to X ("Feel free to X", "You may
X").

Two rules of one polarity whose keys are one (`same_rule`) are one rule said twice; two of
opposite polarities whose keys are one are opposites (`polarity.opposite` on the keys).
"""

from __future__ import annotations

import functools
import re
from typing import NamedTuple

from memtab.trust.polarity import MAY, THEN, WHEN, Polarity, Rule, opposite, rule_of

GATE = "~gate"
"""The marker of a rule to ask before its action (see the module doc)."""
_ASK, _WITHOUT = "ask", "without"
_FUNCTION = frozenset(
    {"against", "across", "toward", "within", "insid", "via", "besid", "around", "throughout",
     "onto", "into", "upon", "first", "ever", "even", "whatsoev", "beforehand"}
)  # fmt: skip
"""Stems of prepositions, order and focus words the stop words keep: where or when in
general, how much ("even")."""
_PUTTING = frozenset({"put", "add", "insert", "store", "place", "includ", "stick", "save", "go"})
"""Verbs of putting a thing somewhere (or of its going there), no part of a key: what is
put where is ("put API keys in X" is "store API keys in X", "No new dependencies" "Don't
add new dependencies", "Secrets never go in X" "Don't put secrets in X")."""


class RuleKey(NamedTuple):
    """A rule's polarity (`never` for a `GATE`) and its key's stems (with its markers)."""

    polarity: Polarity
    stems: frozenset[str]


@functools.lru_cache(maxsize=16384)
def key_of(polarity: Polarity, action: frozenset[str]) -> RuleKey:
    """The key of a rule of `polarity` whose action is `action` (see the module doc)."""
    plain = frozenset(s for s in action if not s.startswith(WHEN))
    markers = action - plain
    if _ASK in plain and (_WITHOUT in plain or _asked_first(polarity, markers)):
        then = frozenset(m.removeprefix(THEN) for m in markers if m.startswith(THEN))
        done = (plain | then) - {_ASK, _WITHOUT}
        kept = frozenset(m for m in markers if not m.startswith(THEN) and m != "~before")
        return RuleKey("never", _core(done) | kept | {GATE})
    return RuleKey(polarity, _core(plain) | markers)


def gated(rule: Rule, shown: str) -> tuple[str, str, str] | None:
    """The `never` an `always` rule to ask first says ("Ask before dropping X": never drop
    X unasked) — its key, polarity and what it is about in words (`shown`: the rule's) — or
    None for another rule."""
    key = key_of(rule.polarity, rule.action)
    if rule.polarity != "always" or GATE not in key.stems:
        return None
    done = _GATED.split(shown, maxsplit=1)[-1].strip()[:44]
    if done.split(" ", 1)[0].endswith("ing"):  # "Ask before dropping X"
        return " ".join(sorted(key.stems)), "never", f"whether {done} is fine without asking"
    return " ".join(sorted(key.stems)), "never", f"whether to {done} without asking"


_GATED = re.compile(r"\b(?:before|until|till|prior\s+to)\s+(?:(?:you|we|i|they)\s+)?")
"""Where what a rule to ask first is about starts ("Ask before you drop X": drop X)."""


def _asked_first(polarity: Polarity, markers: frozenset[str]) -> bool:
    """Whether an `always` rule is to ask before something ("Ask before dropping…"), not
    to do something before asking ("Rebase before asking for review")."""
    return (
        polarity == "always"
        and "~before" in markers
        and THEN + _ASK not in markers
        and any(m.startswith(THEN) for m in markers)
    )


def _core(stems: frozenset[str]) -> frozenset[str]:
    return stems - _FUNCTION - _PUTTING


def rule_key(sentence: str) -> RuleKey | None:
    """The key of the rule a sentence states (`polarity.rule_of`), or None."""
    rule = rule_of(sentence)
    return None if rule is None else key_of(rule.polarity, rule.action)


def opposite_keys(one: RuleKey, other: RuleKey) -> bool:
    """Whether two rules' keys are opposites: a `GATE` only of leave to do its action (a
    rule to do it is no leave to do it unasked), else as `polarity.opposite` says."""
    for gate, leave in ((one, other), (other, one)):
        if GATE in gate.stems and (leave.polarity != "always" or MAY not in leave.stems):
            return False
    return opposite(_as_rule(one), _as_rule(other))


def _as_rule(key: RuleKey) -> Rule:
    return Rule(key.polarity, key.stems - {GATE}, "")


MIN_SAME = 2
"""Stems a rule's key says at least to be compared as one rule said twice."""


def same_rule(one: RuleKey, other: RuleKey) -> bool:
    """Whether two rules are one rule said twice: one polarity, the same markers of when
    they hold, and one key the other's or the other's with one stem more (a modifier: "No
    new npm dependencies" / "Don't add new dependencies"), `MIN_SAME` stems at least."""
    if one.polarity != other.polarity:
        return False
    mine, theirs = _split(one.stems), _split(other.stems)
    if mine[1] != theirs[1]:
        return False
    small, large = sorted((mine[0], theirs[0]), key=len)
    return len(small) >= MIN_SAME and small <= large and len(large) - len(small) <= 1


def _split(stems: frozenset[str]) -> tuple[frozenset[str], frozenset[str]]:
    """A key's stems and its markers (what is said after a time word counts as said)."""
    markers = frozenset(s for s in stems if s.startswith(WHEN) and not s.startswith(THEN))
    return frozenset(s.removeprefix(THEN) for s in stems - markers), markers
