"""Whether two statements give one thing two values (docs/formats.md §19.6), for the
engines that must not call them one statement (the duplicates: "wiped every Sunday" and
"wiped every Wednesday" are no rewording of each other)."""

from __future__ import annotations

from memtab.trust.claims import contradict, sentence_claims

VALUED = frozenset({"port", "version", "setting", "value"})
"""The kinds of claim that give a thing a value (a tool, a command, a path and a rule are
the other engines' questions)."""


def values_disagree(one: str, other: str) -> bool:
    """Whether statements `one` and `other` give one thing different values — a port, a
    version, a setting, an amount, a day, a time, a branch or host of a role — the same
    value in other words ("30s" / "half a minute", "Node 20" / "node@20") not."""
    mine = [claim for claim in sentence_claims(one) if claim.kind in VALUED]
    if not mine:
        return False
    theirs = [claim for claim in sentence_claims(other) if claim.kind in VALUED]
    return any(contradict(a, b) for a in mine for b in theirs)
