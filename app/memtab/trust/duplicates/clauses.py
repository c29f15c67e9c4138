"""What a statement itself says, without what is said beside it (docs/formats.md §19.5): a
rule's reason ("…, because reviewers read…", "…; legal flagged it"), an example ("…, e.g.
…", "… such as …"), an aside in parentheses, or the command that does it ("… — `git rebase
-i` does it"). Two memories state one rule with other reasons beside it as often as with
the same: their own clauses are compared to find them (`statements.statement_pairs`), and
what they say of their subject is read there (`same_claim.subject_only`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

from memtab.trust.polarity import rule_of

# Only a run's first blank starts a match: from each blank of a long run it would be quadratic.
ASIDE = re.compile(r"(?<!\s)\s*\([^()\n]*\)")
"""A parenthesis: an example or an aside, no part of what a rule says to do ("Commit
messages in the imperative mood ("Add parser", not "Added parser")")."""
_BESIDE = re.compile(
    r"(?<!\s)(?:\s*+[;:.](?=\s)|\s*+[—–]|\s++--?\s"
    r"|,?\s++(?:because|since|otherwise|or\s+else|e\.g\.|i\.e\.|for\s+(?:example|instance)"
    r"|such\s+as|like)(?!\w)"
    r"|,\s++(?:so|as|which|then)\b)",
    re.IGNORECASE,
)
"""Where what is said beside a clause starts: a new clause after a stop, a semicolon, a
colon or a dash, a reason or a consequence (a subordinating conjunction: because, since,
otherwise, ", so"), an example (e.g., such as, like)."""
_NEW_CLAUSE = re.compile(
    r",\s+(?=(?:it|they|this|that|these|those|we|i|you|he|she|someone|somebody|nobody|"
    r"everyone|everybody|there)\b"
    r"|[^,]*\b(?:am|is|are|was|were|has|have|had|does|did|will|would|can|could|may|might|"
    r"shall|should)\b|[^,]*n['’]t\b)",
    re.IGNORECASE,
)
"""A comma starting a clause of its own: a personal pronoun as its subject ("…, it takes
12 minutes"), or a finite auxiliary or modal in what follows ("…, incident 2291 was a
token", "…, Postgres doesn't create one") — closed classes, whatever the words around."""
CONDITION = re.compile(
    r"^\s*+(?:if|when|whenever|once|after|before|unless|while|until|in\s+case)\b", re.IGNORECASE
)
"""A statement opening with its condition: the clause after its comma says the rule."""
LABEL = re.compile(r"^\s*([^\s:`]+(?:\s+[^\s:`]+)?):\s")
"""A line's label ("Sentry: https://…", "Index creation: `CONCURRENTLY`"): what the line
is of, not what it says to do."""


def own_clause(sentence: str) -> str:
    """The first clause of a sentence (its label's with it), without its asides and what
    is said beside it (see the module doc); the sentence itself when nothing is, or what
    follows is a rule of its own ("The import retries forever; add jitter")."""
    return _own(sentence)[0]


@functools.lru_cache(maxsize=16384)
def _own(sentence: str) -> tuple[str, bool]:
    """`own_clause`, and whether it is the sentence's first clause alone (not a sentence
    whose next clause states a rule of its own)."""
    said = ASIDE.sub(" ", sentence)
    label = LABEL.match(said)
    beside = _BESIDE.search(said, label.end() if label is not None else 0)
    if beside is not None and beside.start() > 0:
        if rule_of(said[beside.end() :]) is not None:
            return sentence.strip(), False
        said = said[: beside.start()]
    if CONDITION.match(said) is None:
        comma = _NEW_CLAUSE.search(said)
        if comma is not None and comma.start() > 0:
            said = said[: comma.start()]
    return said.strip(), True


def a_rule(sentence: str) -> bool:
    """Whether a statement's own clause states a rule (`trust.polarity`): what a fact says
    beside its first clause can be its point ("The import leaks memory — the remedy is to
    stream it"), and a rule after a fact is said of it ("The import retries forever; add
    jitter")."""
    clause, alone = _own(sentence)
    return alone and rule_of(clause) is not None


def apart_as_said(apart: Callable[[str, str], bool], one: str, other: str) -> bool:
    """Whether two statements are `apart` (of other subjects, say other things of one)
    read whole and, when one states a rule (`a_rule`), read as their own clauses too: a
    reason, an example or a command beside a rule is no part of what it says to do."""
    if not apart(one, other):
        return False
    if not (a_rule(one) or a_rule(other)):
        return True
    mine, theirs = own_clause(one), own_clause(other)
    return (mine, theirs) == (one, other) or apart(mine, theirs)


def rules_beside(one: str, other: str) -> tuple[str, str] | None:
    """The own clauses of two statements that each state a rule with something said beside
    it (`a_rule`), or None: what they share beside their rules (the same reason, the same
    example) is not what they say to do."""
    mine, theirs = own_clause(one), own_clause(other)
    if mine == one.strip() or theirs == other.strip() or not (a_rule(one) and a_rule(other)):
        return None
    return mine, theirs
