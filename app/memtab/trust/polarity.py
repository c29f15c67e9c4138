"""Whether a sentence says to do something or not to, and what (docs/formats.md §19.6).

A rule's *polarity* is `always` ("Always rebase…", "You must…", "Make sure to…", and a
plain imperative: "Rebase on main before review.") or `never` ("Never…", "Don't…", "Do
not…", "Must not…", "Avoid…"); its *action* the stems of what is done (`trust.words`),
read in the clause that says it ("Never write commit messages in English; the team uses
German." is about writing commit messages in English). Two rules are *opposite* when their
polarities differ and the action of the `never` one is the other's, or a part of it
("Never rebase on main." / "Always rebase on main before asking for review."): the two
can't both hold. A `never` rule narrower than its `always` ("Always run the tests." /
"Never run the tests against production.") is an exception, not its opposite.

The duplicates never join opposite rules (the same words, opposite meaning) and the
contradictions report them (`claims`).
"""

from __future__ import annotations

import functools
import re
from typing import Literal, NamedTuple

from memtab.trust.words import stems_of

Polarity = Literal["always", "never"]
MAX_EXTRA = 3
"""An `always` rule says at most this many stems more than the `never` rule it opposes
(a qualifier: "before asking for review"), else it is about something else."""

_CLAUSE = re.compile(
    r";\s+|(?<!\s)\s++[—–]\s+|:\s+|\.\s+|,\s+(?:so|because|since|as|which|but)\s+"
)  # a run's first space; a purpose or reason is no part of the rule's action
_NEVER = re.compile(
    r"\b(?:never|do\s+not|don't|dont|must\s+not|mustn't|should\s+not|shouldn't|"
    r"no\s+longer\s+allowed\s+to|refrain\s+from|steer\s+clear\s+of|"
    r"under\s+no\s+circumstances|at\s+no\s+point)\b|"
    r"^(?:please\s+)?(?:avoid|stop)\b|"
    r"^no\b(?!\s+(?:longer|one|idea|need|matter|way|more|doubt)\b)|"
    r"\b(?:is|are)\s+(?:not\s+(?:allowed|permitted|ok|okay)|forbidden|banned|prohibited|"
    r"disallowed|discouraged|off-limits)\b|"
    r"\b(?:we|i|they)(?:\s+have|'ve)?\s+(?:banned|forbidden|prohibited)\b|"
    r"\b(?:we|i|they)(?:\s+have|'ve)?\s+(?:stopped|quit)\b(?=\s+\w+ing\b)",
    re.IGNORECASE,
)
"""How a rule not to do something is said: "never X", "avoid X", "refrain from X", "no X",
"under no circumstances X", "X is banned" (or discouraged, not permitted), "we've banned
X", "we stopped Xing" (a bare "don't" after its action too: "X — don't")."""
_ALWAYS = re.compile(
    r"\b(?:always|you\s+must|we\s+must|must\s+always|make\s+sure\s+to|"
    r"be\s+sure\s+to|every\s+(?:single\s+)?time|each\s+time|without\s+exception)\b|"
    r"\b(?:is|are)\s+(?:required|mandatory|fine|ok|okay|allowed|acceptable|encouraged)\b|"
    r"\b(?:it's|it\s+is)\s+(?:fine|ok|okay|allowed|acceptable)\s+to\b",
    re.IGNORECASE,
)
"""How a rule to do something (or that it may be done) is said: "always X", "X every
time", "X is required", "X is fine", "it's OK to X"."""
_PREDICATE = re.compile(r"^(?:is|are|we|i|they)\b", re.IGNORECASE)
"""A cue said of what comes before it ("X is banned", "we've banned X": the doer)."""
_PASSIVE = re.compile(r"^\s*+(?:be|been|being|[a-z]{3,}ed|[a-z]{3,}en)\b", re.IGNORECASE)
"""An action said in the passive after its cue ("Lockfiles are never committed"): what
comes before the cue is what it is done to."""
_DOERS = frozenset(
    {"i", "we", "you", "they", "user", "users", "agent", "agents", "team", "everyone", "people",
     "nobody", "dev", "devs", "developers", "he", "she", "prefers", "wants", "that"}
)  # fmt: skip
"""Who a rule's sentence says does it: no part of the action."""
_AT_TIMES = re.compile(
    r"\b(?:if|when|whenever|unless|whether|depending|except|usually|sometimes|typically|"
    r"maybe|perhaps|might|or|either|e\.g|for example|such as|was|were|used to|no longer)\b|"
    r"->|→|=>|\?",
    re.IGNORECASE,
)
"""A plain imperative holding only at times, or not one ("Run X if Y", "Run X or Y")."""
_POLARITY_STEMS = frozenset(
    {"alway", "never", "ever", "don", "dont", "t", "must", "not", "do", "onto", "into", "upon",
     "anywher", "everywher", "whatsoev"}
)  # fmt: skip
"""Stems of how a rule is said, not what it is about ("rebase onto main": on main; "banned
anywhere": banned)."""
_SPAN = re.compile(r"`([^`\n]+)`")
_FIRST_WORD = re.compile(r"^(?:please\s+)?([a-z]+)\b", re.IGNORECASE)
IMPERATIVES = frozenset(
    {
        "add", "ask", "bump", "call", "check", "clean", "commit", "configure", "create",
        "declare", "delete", "deploy", "document", "enable", "disable", "export", "format",
        "import", "include", "install", "keep", "label", "lint", "lock", "log", "merge",
        "mock", "name", "open", "pin", "prefix", "publish", "pull", "push", "put", "rebase",
        "record", "release", "remove", "rename", "reply", "request", "require", "reset",
        "restart", "review", "rotate", "run", "set", "sign", "sort", "split", "squash",
        "start", "store", "tag", "test", "type", "update", "upgrade", "use", "validate",
        "verify", "wrap", "write",
        "amend", "annotate", "approve", "archive", "audit", "backport", "benchmark", "bisect",
        "build", "bundle", "cache", "cherry-pick", "comment", "compile", "copy", "cut",
        "drop", "dump", "edit", "encrypt", "escape", "fetch", "force", "force-push",
        "fork", "generate", "hash", "index", "inline", "mark", "migrate", "minify", "move",
        "paginate", "ping", "poll", "profile", "prune", "purge", "rebuild", "refactor",
        "reformat", "regenerate", "restore", "retry", "revert", "sanitize", "scan",
        "seed", "skip", "sleep", "stage", "stash", "strip", "style", "throttle", "translate",
        "truncate", "upload", "vendor",
    }
)  # fmt: skip
"""Verbs a memory's rules start with, read as a plain imperative ("Squash-merge…" is
`squash`): a sentence starting with another word says no rule of its own."""


class Rule(NamedTuple):
    """What a sentence says to do or not to: its polarity and its action's stems."""

    polarity: Polarity
    action: frozenset[str]
    said: str
    """The clause that says it, as written."""


@functools.lru_cache(maxsize=16384)
def rule_of(sentence: str) -> Rule | None:
    """The rule a sentence states (see the module doc), or None."""
    clauses = [c for c in _CLAUSE.split(sentence.strip().rstrip(".!")) if c.strip()]
    for index, clause in enumerate(clauses):
        never, always = _NEVER.search(clause), _ALWAYS.search(clause)
        if (never is None) == (always is None):
            continue
        said = never or always
        assert said is not None
        action = _said_action(clause, said)
        if not action and index > 0 and not _action(clause):
            action = _action(clauses[index - 1])  # "Committing generated files — don't"
        if 2 <= _size(action) <= 8:
            return Rule("never" if never else "always", action, clause.strip())
        return None
    if _AT_TIMES.search(sentence):
        return None
    for clause in clauses:
        verb = _FIRST_WORD.match(clause)
        if verb is not None and verb.group(1).lower() in IMPERATIVES and _no_subject(clause):
            action = _action(clause)
            return Rule("always", action, clause.strip()) if 2 <= _size(action) <= 8 else None
    return None


def _said_action(clause: str, said: re.Match[str]) -> frozenset[str]:
    """The action of a clause whose cue is `said`: what follows it, and what comes before
    it when the cue is said of that ("Force-pushing is forbidden", "`any` is fine") or the
    action is said in the passive ("Translations should never be edited") — not who does
    it ("We stopped squashing…", "the agent never runs…")."""
    before, after = clause[: said.start()], clause[said.end() :]
    action = _action(after)
    if not after.strip(" ,.!") or _PREDICATE.match(said.group(0)) or _PASSIVE.match(after):
        done_to = frozenset(s for s in _action(before) if s not in _DOERS)
        action = action | done_to if action or done_to else _action(clause)
    return action


def _size(action: frozenset[str]) -> int:
    """How much an action says: a stem each, a command in a code span ("`git add .`") two."""
    return len(action) + sum(1 for stem in action if " " in stem)


def _no_subject(clause: str) -> bool:
    """Whether a clause starting with a verb is an imperative, not a subject and its verb
    ("Commit messages use…", "Pull requests are…", "Test names are…")."""
    words = clause.lower().split()[1:4]
    return not _FINITE.intersection(words)


_FINITE = frozenset(
    {"is", "are", "was", "were", "gets", "get", "has", "have", "use", "uses", "run", "runs",
     "need", "needs", "must", "should", "will", "can", "go", "goes", "live", "lives",
     "stay", "stays", "start", "starts", "describe", "describes", "come", "comes", "contain",
     "contains", "hold", "holds", "look", "looks", "mean", "means", "point", "points",
     "belong", "belongs", "sit", "sits", "work", "works", "fail", "fails", "happen", "happens",
     "take", "takes", "return", "returns", "read", "reads", "show", "shows", "list", "lists",
     "include", "includes", "cover", "covers", "depend", "depends", "expire", "expires",
     "exist", "exists", "do", "does", "did", "had", "could", "would", "may"}
)  # fmt: skip


def _action(text: str) -> frozenset[str]:
    """The stems of what is done, a code span's text as it is ("`any`", "`rm -rf`") but a
    name's in one word, as the same name said without one ("`pre-commit`", pre-commit)."""
    spans: set[str] = set()
    for span in _SPAN.findall(text):
        said = span.strip().lower()
        named = set(stems_of(said)) if said and " " not in said else set()
        spans |= named or ({said} if said else set())
    words = stems_of(_SPAN.sub(" ", text))
    return frozenset(s for s in words if s not in _POLARITY_STEMS) | spans


def opposite(one: Rule, other: Rule) -> bool:
    """Whether two rules can't both hold (see the module doc)."""
    if one.polarity == other.polarity:
        return False
    never, always = (one, other) if one.polarity == "never" else (other, one)
    return never.action <= always.action and len(always.action - never.action) <= MAX_EXTRA


@functools.lru_cache(maxsize=16384)
def subject_of(sentence: str) -> frozenset[str]:
    """What a sentence stating something of a thing is about: the stems before its first
    verb ("Branch names are kebab-case": branch, name; "The webhook retry truncates…":
    webhook, retry; "If the CSV import double-counts…": csv, import), after a label
    ("Known issue: the SSO callback leaks…"), else the label of an imperative ("SQL style:
    avoid `unwrap()`": sql, style); empty for an imperative or a sentence whose verb this
    does not see."""
    clauses = _CLAUSE.split(sentence.strip(), maxsplit=2)
    head = sentence.strip()[len(clauses[0]) :].lstrip()[:1] if len(clauses) > 1 else ""
    label = clauses[0] if head in (":", "—", "–") else ""
    rest = clauses[1] if label else clauses[0]
    found = _subject(rest.split())
    if found is None and label:
        found = _subject(label.split())  # "When the SSO callback times out: …"
    if found is not None or not label or len(label.split()) > 6:
        return found or frozenset()
    verb = _FIRST_WORD.match(rest)
    if verb is not None and verb.group(1).lower() in _RULE_VERBS | _PRONOUNS:
        return frozenset(stems_of(label))  # "SQL style: avoid…", "Commit messages: they…"
    return frozenset()


_RULE_VERBS = IMPERATIVES | {"avoid", "never", "always", "don't", "do", "prefer", "stop"}
_DETERMINERS = frozenset({"the", "a", "an", "our", "this", "that", "each", "every", "its"})
_SUBORDINATE = frozenset({"if", "when", "once", "after", "unless", "whenever", "while"})
_PRONOUNS = frozenset({"it", "they", "we", "i", "you", "he", "she", "this", "that"})


def _subject(words: list[str]) -> frozenset[str] | None:
    """The stems before a clause's first verb: one of `_FINITE`, or after a determiner and
    a noun, a word ending in -s ("The exports queue retries…"); None when no verb is
    seen before a comma, or the subject is a pronoun."""
    if words and words[0].lower() in _SUBORDINATE:
        words = words[1:]
    led = bool(words) and words[0].lower() in _DETERMINERS
    for index, word in enumerate(words[:7]):
        bare = word.lower()
        verb = bare in _FINITE or (
            led and index >= 2 and len(bare) > 3 and bare.endswith("s") and not bare.endswith("ss")
        )
        if verb and index > 0:
            said = words[:index]
            if len(said) == 1 and said[0].lower() in _PRONOUNS:
                return None
            return frozenset(stems_of(" ".join(said)))
        if bare.endswith(","):
            return None
    return None


def other_subjects(one: str, other: str) -> bool:
    """Whether two sentences state something of different things: a word of one's
    subject the other does not say ("Branch names…" / "Test names…")."""
    mine, theirs = subject_of(one), subject_of(other)
    return bool(mine - _stems(other)) or bool(theirs - _stems(one))


@functools.lru_cache(maxsize=16384)
def _stems(sentence: str) -> frozenset[str]:
    """A sentence's stems, with the words inside its identifiers: `test_refresh_rotation`
    says "test" as "Flaky test … fails" does."""
    return frozenset(stems_of(sentence)) | frozenset(stems_of(sentence.replace("_", " ")))


def opposed(one: Rule, other: Rule) -> bool:
    """Whether two rules of different polarities are about much the same action — what
    the duplicates never join, wider than `opposite` (precision first: a rule and its
    exception are not one rule either)."""
    if one.polarity == other.polarity:
        return False
    shared = one.action & other.action
    return len(shared) >= 2 and len(shared) * 2 >= min(len(one.action), len(other.action))
