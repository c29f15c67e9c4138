"""Whether a sentence says to do something or not to, and what (docs/formats.md §19.6).

A rule's *polarity* is `always` ("Always rebase…", "You must…", "Make sure to…", and a
plain imperative: "Rebase on main before review.") or `never` ("Never…", "Don't…", "Do
not…", "Must not…", "Avoid…"); its *action* the stems of what is done (`trust.words`),
read in the clause that says it ("Never write commit messages in English; the team uses
German." is about writing commit messages in English). Two rules are *opposite* when their
polarities differ and the action of the `never` one is the other's, or a part of it
("Never rebase on main." / "Always rebase on main before asking for review."): the two
can't both hold. A `never` rule narrower than its `always` ("Always run the tests." /
"Never run the tests against production.") is an exception, not its opposite, and so is
one said only at a time the other does not say (`when`: "If the change is docs-only,
don't run the full suite", "Never amend after pushing" / "Amend before pushing").

A rule may also excuse an action (`optional`: "you needn't X", "X is optional"), which
opposes only an `always` that requires it, not one that allows it ("X is fine", `MAY`).
Polarity is read from closed classes — modals, negators, the deontic adjectives and nouns,
the verbs of not doing ("skip X": never X; "never skip X": always X) — and "don't B until
A" is the requirement "A, then B", as "Run A before B" (`THEN`) is.

The duplicates never join opposite rules (the same words, opposite meaning) and the
contradictions report them (`claims`).
"""

from __future__ import annotations

import functools
import re
from typing import Literal, NamedTuple

from memtab.trust.words import STOP_WORDS, stems_of

Polarity = Literal["always", "never", "optional"]
MAX_EXTRA = 3
"""An `always` rule says at most this many stems more than the `never` rule it opposes
(a qualifier: "before asking for review"), else it is about something else."""

_DEGREE = r"(?:(?:totally|perfectly|absolutely|strictly|completely|entirely|really|very|"
_DEGREE += r"generally|always|still|now|also|quite|highly)\s++)?"
_OBLIGED = r"(?:required|mandatory|obligatory|compulsory|necessary|essential|non-negotiable|"
_OBLIGED += r"a\s+must|a\s+requirement)"
_ALLOWED = r"(?:fine|ok|okay|allowed|permitted|acceptable|encouraged|welcome|preferred|"
_ALLOWED += r"recommended|all\s+right|alright)"
_FORBIDDEN = r"(?:forbidden|banned|prohibited|disallowed|discouraged|off-limits|off\s+limits|"
_FORBIDDEN += r"frowned\s+upon|a\s+no-go|a\s+no\s+go|a\s+(?:hard|firm|big)\s+no|out\s+of\s+bounds|"
_FORBIDDEN += r"off\s+the\s+table|taboo|verboten|unacceptable|pointless|not\s+done)"
_EXCUSED_WORDS = r"(?:optional|unnecessary|needless|not\s+(?:required|mandatory|necessary|needed|"
_EXCUSED_WORDS += r"obligatory|compulsory)|no\s+longer\s+(?:required|needed|necessary))"
_IS = r"(?:is|are|'s|'re|remains?|stays?)\s++" + _DEGREE
"""The deontic adjectives and nouns, each a closed class: what a statement says is
required ("mandatory", "a must"), allowed ("fine", "welcome"), forbidden ("off the
table", "a hard no") or excused ("optional"), as a predicate ("X is totally fine") or a
label ("Mandatory: X", "X: optional")."""
_UNDONE = r"(?:skip|omit|leave\s+out|neglect|forget\s+about)"
"""The verbs whose object is not done ("Skip the hooks": never run them), beside the
negative verbs `_NEVER` names (avoid, refrain from, steer clear of…)."""
_UNDONE_VERB = re.compile(_UNDONE + r"\b|\b(?:avoid|refrain)\b", re.IGNORECASE)
_NEGATOR = r"(?:never|don't|dont|do\s+not|must\s+not|mustn't|should\s+not|shouldn't)"
_NEGATOR += r"\s++(?:ever\s++)?"
DEONTIC_WORDS = frozenset(
    {"may", "can", "shall", "shan", "ought", "needn", "need", "better", "compulsory", "obligatory",
     "necessary", "essential", "requirement", "optional", "unnecessary", "needless", "pointless",
     "table", "bounds", "limits", "frowned", "taboo", "verboten", "unacceptable", "welcome",
     "recommended", "permitted", "skip", "omit", "neglect", "forget", "alone", "zero", "ban",
     "prohibition", "moratorium", "go", "nobody", "free", "prefer", "until", "till"}
)  # fmt: skip
"""Words of the classes above a sentence stating a rule may hold and no other cue does
(the claims read only sentences with a cue)."""
_DOUBLE = re.compile(
    r"\b" + _NEGATOR + r"(?:skip|omit|leave\s+out|forget(?:\s+to)?|neglect(?:\s+to)?|fail\s+to|"
    r"avoid)\b",
    re.IGNORECASE,
)
"""A negated verb of not doing ("Never skip the hooks", "Don't forget to bump…"): a rule
to do it."""
_EXCUSED = re.compile(
    r"\b(?:need\s+not|needn't|(?:don't|doesn't|do\s+not|does\s+not|won't|will\s+not)\s+"
    r"(?:have|need)\s+to|(?:there's\s+|there\s+is\s+)?no\s+need\s+to|"
    r"(?:is|are)\s+not\s+(?:required|obliged)\s+to)\b|"
    r"\b" + _IS + _EXCUSED_WORDS + r"\b|^" + _EXCUSED_WORDS + r"\s*+$",
    re.IGNORECASE,
)
"""How English excuses an action — neither required nor forbidden: "need not", "you
don't have to", "no need to", "X is optional" (or unnecessary, not required)."""
_PRECONDITION = re.compile(
    r"\b(?:until|till|before\s++(?=(?:the|a|an|its?|they|we|you|i|ci|all|every|both|"
    r"someone|somebody)\b))",
    re.IGNORECASE,
)
"""A time said as what must have happened first ("until the migration has run", "before
the linters pass"), not as the occasion ("before pushing")."""
_TIME = re.compile(r"\b(?:before|until|till|prior\s+to|after|once)\b", re.IGNORECASE)
THEN = "~then:"
"""The marker of a stem said after a rule's time word ("…before pushing": push): two
rules whose times say other things are one rule with its roles swapped ("Don't push
before running the tests" / "Run the tests before pushing"), not opposites."""
_WISH = re.compile(r"\b(?:prefers?|wants?|expects?|likes?|requires?|insists?)\b", re.IGNORECASE)
"""A cue that is a wish: what it wishes may be a rule not to."""
_SUBORDINATE_BEFORE = re.compile(r"\b(?:when|if|whenever|unless|while|once)\b", re.IGNORECASE)
"""A predicate said in a condition ("…when they are optional"): no rule of its own."""
_ORDER = "~order"
"""A `never` of an action before another ("Don't say done before the linters pass"):
a requirement of the other first — it says when, not whether."""
MAY = "~may"
"""A rule that allows, not requires ("X is fine", "you may X"): opposes a `never`, not
an `optional`."""
_MAY = re.compile(r"\b(?:may|can|feel\s+free|free\s+to)\b|" + _ALLOWED + r"\b", re.IGNORECASE)
_CLAUSE = re.compile(
    r";\s+|(?<!\s)\s++[—–]\s+|:\s+|\.\s+|,\s+(?:so|because|since|as|which|but)\s+|"
    r",\s+(?=(?:it|they|we|he|she)\s|(?:the|our|this|that)\s+[\w-]+\s+[a-z]+s\b)"
)  # a run's first space; a purpose or reason, or a clause of its own after a comma ("…, the
# org rejects unsigned pushes"), is no part of the rule's action
_NEVER = re.compile(
    r"\b(?:never|do\s+not|don't|dont|does\s+not|doesn't|must\s+not|mustn't|should\s+not|"
    r"shouldn't|may\s+not|shall\s+not|shan't|ought\s+not\s+to|(?:is|are|am)\s+not\s+to|"
    r"(?:isn't|aren't|'re\s+not|'s\s+not)\s+to|(?:had|'d)\s+better\s+not|no\s+longer\s+allowed\s+to|refrain\s+from|steer\s+clear\s+of|"
    r"under\s+no\s+circumstances|at\s+no\s+point|"
    r"(?:nobody|no\s+one|no-one)\s+(?:should|may|must|can|gets\s+to|is\s+allowed\s+to|"
    r"(?!(?:knows|remembers|understands|cares|seems|thinks|needs|wants|likes)\b)"
    r"[a-z]{3,}(?<!s)s))\b|"
    r"^(?:please\s+)?leave\s+(?=[^,;]*?\balone\b)|"
    r"^(?:please\s+)?" + _UNDONE + r"\b|^(?:a\s+)?(?:ban|prohibition|moratorium)\s+on\b|"
    r"\b" + _IS + _FORBIDDEN + r"\b|^(?:strictly\s+)?" + _FORBIDDEN + r"\b|"
    r"^(?:please\s+)?(?:avoid|stop)\b|"
    r"^(?:strictly\s+)?(?:forbidden|banned|prohibited|disallowed|off-limits|a\s+no-go)\b|"
    r"^not\s+(?=(?:in|on|for|from|at|to|during|inside|under|with)\b)|"
    r"\b(?:forbids|bans|prohibits|disallows|stay\s+away\s+from|hold\s+off\s+on)\b|"
    r"^(?:please\s+)?(?:leave|keep)\s+(?=[^,;]*?\bout\s+of\b)|"
    r"(?:^|\b(?:should|must|to|will|'ll|we|i|you|please|agents?|users?)\s+)"
    r"(?:avoid|forgo|forego|eschew|shun|abstain\s+from|" + _UNDONE + r")\b|"
    r"^(?:please\s+)?(?:ban|forbid|prohibit|disallow)\b|"
    r"\b(?:user|users|team|we|i)\s+(?:dislikes?|hates?)\b|"
    r"(?:^|\b(?:should|must|to|will|'ll|please)\s+)(?:stop|quit|cease|give\s+up)\s+(?=\w+ing\b)|"
    r"^(?:no|zero)\b(?!\s+(?:longer|one|idea|need|matter|way|more|doubt)\b)|"
    r"\b(?:won't|will\s+not|cannot|can't|(?:prefers?|would\s+rather|'d\s+rather)\s+not|"
    r"(?:isn't|aren't)\s+(?:allowed|permitted|ok|okay|acceptable)|unacceptable)\b|"
    r"\b(?:is|are)\s+(?:not\s+(?:allowed|permitted|ok|okay|acceptable)|forbidden|banned|"
    r"prohibited|"
    r"disallowed|discouraged|off-limits)\b|"
    r"\b(?:we|i|they)(?:\s+have|'ve)?\s+(?:banned|forbidden|prohibited)\b|"
    r"\b(?:we|i|they)(?:\s+have|'ve)?\s+(?:stopped|quit)\b(?=\s+\w+ing\b)",
    re.IGNORECASE,
)
"""How a rule not to do something is said: "never X", "avoid X", "refrain from X", "no X",
"under no circumstances X", "X is banned" (or discouraged, not permitted), "we've banned
X", "we stopped Xing", "nobody should X", "won't", "can't", "would rather not", "X forbids
Y", "the user dislikes X", "stay away from X", "leave X out of Y", a label's "X: not in
Y", the negative verbs (avoid, forgo, eschew, abstain from, ban, forbid; stop, quit,
cease, give up before an -ing) at the clause's start or after a modal or a doer (a bare
"don't" or "off-limits" after its action too: "X — don't", "X: off-limits")."""
_ALWAYS = re.compile(
    r"\b(?:always|(?:you|we|i)\s+must(?!\s*+(?:not|n't|never)\b)|must\s+always|"
    r"make\s+sure\s+to|insists?\s+on|feel\s+free\s+to|"
    r"(?:user|users|team)\s+(?:wants|expects|requires|likes)(?!\s+(?:me|you|us|the)\s)|"
    r"(?:you|we|i)\s+(?:should|ought\s+to|have\s+to|need\s+to)(?!\s*+(?:not|n't|never)\b)|"
    r"you\s+(?:may|can)(?!\s*+(?:not|n't|never)\b)|"
    r"(?:wants?|expects?|asks?)\s+(?:me|you|us|the\s+agent|the\s+assistant)\s+to|"
    r"be\s+sure\s+to|every\s+(?:single\s+)?time|each\s+time|without\s+exception|"
    r"(?:you|we|i|they)\s*+(?:are|am|'re|'m)\s+to|(?:you|we|i|they)\s+shall(?!\s*+not\b)|"
    r"(?:you|we|i|they)\s+(?:had|'d)\s+better(?!\s*+not\b))\b|"
    r"\b" + _IS + r"(?:" + _OBLIGED + "|" + _ALLOWED + r")\b|"
    r"\b(?:is|are)\s+(?:required|mandatory|fine|ok|okay|allowed|acceptable|encouraged)\b|"
    r"\b(?:it's|it\s+is)\s+(?:fine|ok|okay|allowed|acceptable)\s+to\b|"
    r"^(?:please\s+)?do\s+(?!not\b)(?=[a-z])|^(?:required|mandatory)\b|^" + _OBLIGED + r"\s*+$|"
    r"^(?:fine|ok|okay|allowed|acceptable|encouraged|welcome|expected)\b",
    re.IGNORECASE,
)
"""How a rule to do something (or that it may be done) is said: "always X", "you must X"
(should, have to, may: a person's obligation or leave, not a thing's), "X every time",
"X is required", "X is fine", "it's OK to X", "insists on X", "wants me to X", "the user
wants X", an emphatic "Do X", a label's "X: fine"."""
_REQUIRED = re.compile(
    r"\b(?:must|should|shall|has\s+to|have\s+to|needs?\s+to|(?:is|are)\s+to|ought\s+to)\s++"
    r"(?:(?:always|still|also)\s++)?be\s++(?=([a-z]++)\b)",
    re.IGNORECASE,
)
"""A requirement in the passive ("X must be removed", "X has to be committed", "X is to be
regenerated"): a rule to do it when its participle is a rule's verb (`_required`) — "Card
numbers must be masked" states what is."""
_BARE = re.compile(
    r"^(?:not|never)\s+(?=(?:in|on|for|from|at|to|during|inside|under|with)\b)", re.IGNORECASE
)
"""A label's bare "not in Y": what is not done is the label's ("Mocks: not in e2e tests")."""
_DONT_WANT = re.compile(
    r"\b(?:want|wants|like|likes|expect|expects|ask|asks)\s+(?:me|you|us|the\s+agent|"
    r"the\s+assistant)\s+to\b",
    re.IGNORECASE,
)
"""A wish's own words after its negation ("does not want me to X"): no part of X."""
_PREDICATE = re.compile(r"^(?:is|are|we|i|they)\b", re.IGNORECASE)
"""A cue said of what comes before it ("X is banned", "we've banned X": the doer)."""
_PASSIVE = re.compile(r"^\s*+(?:be|been|being|[a-z]{3,}ed|[a-z]{3,}en)\b", re.IGNORECASE)
"""An action said in the passive after its cue ("Lockfiles are never committed"): what
comes before the cue is what it is done to."""
_SUBJECT = re.compile(r"^\s*+(?:[\w`-]++\s++){1,3}$")
"""A clause's subject before its cue: one to three words ("Builds never…", "Release
webhooks must not…"), a thing's rule; `_thing_subject` says it is no doer, place or verb."""
_NOT_A_THING = frozenset(
    {"please", "and", "but", "so", "then", "just", "also", "still", "here", "around", "this",
     "these", "in", "on", "at", "for", "when", "if", "it", "i", "we", "you", "they", "he",
     "she", "one", "someone", "everyone", "nobody", "workspace", "repo", "project", "codebase",
     "the", "a", "an", "that", "those", "its", "their"}
)  # fmt: skip
_DOERS = frozenset(
    {"i", "we", "you", "they", "user", "users", "agent", "agents", "team", "everyone", "people",
     "nobody", "dev", "devs", "developers", "he", "she", "prefers", "wants", "that",
     "claude", "gemini", "codex", "assistant", "contributor", "contributors", "maintainer",
     "maintainers", "reviewer", "reviewers", "engineer", "engineers", "developer", "staff",
     "anyone", "somebody", "someone", "bot", "bots", "human", "humans", "folks"}
)  # fmt: skip
"""Who a rule's sentence says does it: no part of the action."""
_AT_TIMES = re.compile(
    r"\b(?:if|when|whenever|unless|whether|depending|except|usually|sometimes|typically|"
    r"maybe|perhaps|might|or|either|e\.g|for example|such as|was|were|used to|no longer)\b|"
    r"->|→|=>|\?",
    re.IGNORECASE,
)
"""A plain imperative holding only at times, or not one ("Run X if Y", "Run X or Y")."""
_WHEN = (
    ("~before", re.compile(r"\b(?:before|until|prior\s+to)\b", re.IGNORECASE)),
    ("~after", re.compile(r"\b(?:after|once|since)\b", re.IGNORECASE)),
    ("~if", re.compile(r"\b(?:if|when|whenever|unless|while|except)\b", re.IGNORECASE)),
)
"""When a rule holds, where its clause says: before or after something, or on a
condition — markers among its action's stems that no word makes (`~`)."""
WHEN = "~"
CONDITION = "~if"
_TIMES = frozenset({"~before", "~after"})
_HABIT = re.compile(
    r"^(?:we|i|the\s+team|our\s+team)\s+(?!(?:am|are|is|was|were|be|been|have|has|had|do|"
    r"did|can|could|will|would|shall|should|may|might|must|need|want|think|know|believe|"
    r"feel|guess|hope|wish|like|love|hate|prefer|see|saw|hear|remember|forget|mean|agree|"
    r"got|get|still|also|just|only|then|now|really|mostly|rarely)\b)[a-z][a-z-]*+(?<!ed)(?<!ing)\b",
    re.IGNORECASE,
)
"""A team's or a diarist's habit said in the present ("We squash-merge every PR", "I push
my fixes straight to `main`"): an `always` rule — not a state, a wish or a thought."""
_FRONTED = re.compile(
    r"^(?:(?:in|on|for|within|inside)\s+(?:this|the|our|my)\s+[\w-]+(?:\s+[\w-]+)?|here|"
    r"locally),\s*",
    re.IGNORECASE,
)
"""A scope said before an imperative ("In this workspace, commit…"): where, not what."""
_POSSESSOR = re.compile(
    r"(?<![\w-])(?!(?:it|that|what|there|here|let|who|he|she)'s)([\w-]++)['’]s\s+(?=\w)",
    re.IGNORECASE,
)
"""A possessor: "the token's expiry time" is about a time of the token's, which "log
tokens" is not (its stems are kept apart, `OF`)."""
OF = "'"
_CONTRAST = re.compile(
    r",\s+(?:and\s+)?not\s+(?!(?:just|only|even|always|every|all|necessarily)\b)([^,;]+)$",
    re.IGNORECASE,
)
"""A rule's "X, not Y": its verb is not to be done to Y ("Deploy from CI, not from your
laptop"); "not just Y" says Y too."""
_ASIDE = re.compile(r"\([^()\n]*+\)")
"""An aside in brackets says more of an action, not which ("Sign every commit (`git commit
-S`, ssh key signing)")."""
_ACRONYMS = re.compile(r"\b([A-Z]{2,})s\b")
"""An acronym's plural ("PRs", "APIs"): the acronym."""
_POLARITY_STEMS = frozenset(
    {"alway", "never", "ever", "don", "dont", "t", "must", "not", "do", "onto", "into", "upon",
     "anywher", "everywher", "whatsoev",
     "myself", "yourself", "ourselv", "themselv", "full", "whole", "entir", "complet",
     "freeli", "regular", "routin", "religi", "make", "itself", "alon", "keep"}
)  # fmt: skip
"""Stems of how a rule is said, not what it is about ("rebase onto main": on main; "banned
anywhere": banned): who does it themselves, how much ("the full suite") or how often, and
the light verb "make" ("make network calls" is to call the network)."""
_SPAN = re.compile(r"`([^`\n]+)`")
_NAMED_KIND = re.compile(
    r"(`[^`\n]++`|\b[A-Z][\w.+-]*+)\s++(?:files?|folders?|director(?:y|ies)|modules?|code|"
    r"statements?|calls?)\b"
)
"""A name and the kind of thing it names ("`.env` files", "Helm code", "TypeScript
modules"): the name is what a rule is about, as said without its kind ("`.env`")."""
_FIRST_WORD = re.compile(r"^(?:please\s+)?([a-z]+)\b", re.IGNORECASE)
_VERB = re.compile(r"^(?:please\s+)?([a-z]++(?:-[a-z]++)*+)\b", re.IGNORECASE)
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
    """What a sentence says to do or not to: its polarity and its action's stems (with
    when it holds: `_WHEN`'s markers)."""

    polarity: Polarity
    action: frozenset[str]
    said: str
    """The clause that says it, as written."""


_HAS_TO_GO = re.compile(
    r"\b(?:must|should|has\s+to|have\s+to|needs?\s+to|(?:is|are)\s+to)\s+go\s*+$", re.IGNORECASE
)
"""A thing that "has to go" (must, needs to): it must be removed."""


@functools.lru_cache(maxsize=16384)
def rule_of(sentence: str) -> Rule | None:
    """The rule a sentence states (see the module doc), or None."""
    return _rule(sentence, required=False)


@functools.lru_cache(maxsize=16384)
def required_rule(sentence: str) -> Rule | None:
    """`rule_of`'s rule, or the `always` of a requirement in the passive ("The legacy cron
    must be removed", "X has to go": `_REQUIRED`) — the contradictions' (the duplicates
    compare what such a statement says by its words)."""
    return rule_of(sentence) or _rule(sentence, required=True)


def _rule(sentence: str, *, required: bool) -> Rule | None:
    said = sentence.strip().rstrip(".!")
    if required:
        said = _HAS_TO_GO.sub("must be removed", said)
    clauses = [c for c in _CLAUSE.split(said) if c.strip()]
    for index, written in enumerate(clauses):
        polarity, cue, clause = _cue(written, required=required)
        if cue is None:
            continue
        action = _said_action(clause, cue)
        if index > 0 and (not action or _BARE.match(clause)):
            # "Committing generated files — don't", "Mocks: not in e2e tests"
            action |= _action(clauses[index - 1])
        elif not action and len(clauses) > 1:
            action = _action(clauses[1])  # a label's "Mandatory: two approvals…"
        if 2 <= _size(action) <= 8:
            when = _when(clause) | _then(clause)
            if polarity == "never" and _PRECONDITION.search(clause):
                polarity, when = "always", when | {_ORDER}  # not B until A: A, then B
            elif polarity == "always" and _MAY.search(cue.group(0)):
                when |= {MAY}
            return Rule(polarity, action | when, clause.strip())
        return None
    if required or _AT_TIMES.search(sentence):
        return None
    return _plain_rule(clauses, guess=False)


def _cue(clause: str, *, required: bool) -> tuple[Polarity, re.Match[str] | None, str]:
    """How a clause marks its rule: its polarity, the words that say it (None: no rule, or
    two that disagree) and the clause, a negation's own words aside."""
    if (double := _DOUBLE.search(clause)) is not None:
        return "always", double, clause
    excused = _EXCUSED.search(clause)
    if excused is not None and not _SUBORDINATE_BEFORE.search(clause, 0, excused.start()):
        return "optional", excused, clause
    never, always = _NEVER.search(clause), _ALWAYS.search(clause)
    if required and always is None:
        always = _required(clause)
    if never is not None and always is not None and never.start() < always.start():
        # The negation scopes over what follows: "does not want me to X".
        clause = clause[: always.start()] + " " + clause[always.end() :]
        always = None
    elif never is not None and always is not None and _MAY.search(always.group(0)):
        if _UNDONE_VERB.search(never.group(0)):
            return "optional", never, clause  # "It's OK to skip X": X is excused
    elif never is not None and always is not None and _WISH.search(always.group(0)):
        # A wish scopes over its negated content: "The user prefers that I never X".
        clause = clause[: always.start()] + " " + clause[always.end() :]
        never, always = _NEVER.search(clause), None
    if (never is None) == (always is None):
        return "always", None, clause
    return ("never", never, clause) if never else ("always", always, clause)


@functools.lru_cache(maxsize=16384)
def guessed(sentence: str) -> Rule | None:
    """The `always` rule of a sentence `rule_of` reads none in, starting with a verb no
    list names ("Answer the user in German"): marked `UNSURE`, it opposes only a `never`
    of that verb (the contradictions'; the duplicates never read it)."""
    if rule_of(sentence) is not None or _AT_TIMES.search(sentence):
        return None
    clauses = [c for c in _CLAUSE.split(sentence.strip().rstrip(".!")) if c.strip()]
    if any(_NEVER.search(c) or _ALWAYS.search(c) for c in clauses):
        return None
    return _plain_rule(clauses, guess=True)


def _plain_rule(clauses: list[str], *, guess: bool) -> Rule | None:
    """The `always` rule of the first clause that is a habit or an imperative (of a verb
    no list names too, when `guess`)."""
    for written in clauses:
        clause = _CONTRAST.sub("", _FRONTED.sub("", written))
        habit = _HABIT.match(clause)
        verb = _VERB.match(clause)
        if habit is not None:
            action = _action(clause[habit.start(0) + len(habit.group(0).split()[0]) :])
            action = frozenset(s for s in action if s not in _DOERS)
        elif verb is not None and _imperative(verb.group(1)) and _no_subject(clause):
            action = _action(clause)
        elif guess and verb is not None and _maybe_verb(verb.group(1)) and _no_subject(clause):
            action = _action(clause) | {UNSURE + stem for stem in stems_of(verb.group(1))}
        else:
            continue
        if 2 <= _size(action) <= 8:
            return Rule("always", action | _when(clause) | _then(clause), clause.strip())
        return None
    return None


@functools.lru_cache(maxsize=16384)
def contrasted(sentence: str) -> Rule | None:
    """The `never` rule a plain imperative's "X, not Y" says: its verb done to Y ("Deploy
    from CI, not from your laptop": never deploy from your laptop), or None."""
    if _AT_TIMES.search(sentence):
        return None
    for written in _CLAUSE.split(sentence.strip().rstrip(".!")):
        clause = _FRONTED.sub("", written)
        said = _CONTRAST.search(clause)
        verb = _VERB.match(clause)
        if said is None or verb is None or not _imperative(verb.group(1)):
            continue
        if not _no_subject(clause):
            return None
        action = _action(verb.group(0)) | _action(said.group(1))
        if 2 <= _size(action) <= 8:
            when = _when(clause) | _then(clause)
            return Rule("never", action | when, f"{verb.group(0)} {said.group(1)}")
        return None
    return None


_NEVER_HEADING = re.compile(
    r"^#{1,6}\s++(?:don'?ts|do\s+not|don't|never(?:\s+do)?|avoid|not\s+allowed|forbidden|"
    r"banned|prohibited|off-limits)\b[^\w\n]*+$",
    re.IGNORECASE,
)
"""A heading that is itself a prohibition ("## Don'ts", "### Not allowed"): what each
line under it says to do, it says not to."""
_HEADING = re.compile(r"^#{1,6}\s")


def under_never_heading(text: str) -> frozenset[int]:
    """The numbers (from 1) of the lines under a heading that is a prohibition, up to the
    next heading."""
    lines: set[int] = set()
    under = False
    for number, line in enumerate(text.splitlines(), 1):
        if _HEADING.match(line):
            under = _NEVER_HEADING.match(line.strip()) is not None
        elif under:
            lines.add(number)
    return frozenset(lines)


def headed(sentence: str) -> str:
    """A sentence under a prohibition's heading as the rule it is ("vendoring
    `node_modules`" → "Never vendoring `node_modules`"): a rule's verb or an -ing form,
    saying no polarity of its own."""
    verb = _VERB.match(sentence)
    if verb is None or any(_cue(c, required=False)[1] for c in _CLAUSE.split(sentence)):
        return sentence  # "- Don't X" under "## Don'ts" says its own
    word = verb.group(1)
    if _imperative(word) or (word.lower().endswith("ing") and _no_subject(sentence)):
        return f"Never {sentence[:1].lower()}{sentence[1:]}"
    return sentence


def _maybe_verb(word: str) -> bool:
    """Whether a clause's first word may be a verb no list names ("Answer…", "Attach…"):
    not a word of a closed class (`_NOT_VERBS`), a plural or a third person's -s, a past or
    an -ing form, an acronym."""
    bare = word.lower()
    return (
        "-" not in bare
        and len(bare) > 2
        and bare not in _NOT_VERBS
        and bare not in _FINITE
        and not word.isupper()
        and not (bare.endswith("s") and not bare.endswith("ss"))
        and not bare.endswith(("ed", "ing", "ly"))
    )


_NOT_VERBS = STOP_WORDS | frozenset(
    {"the", "our", "their", "his", "her", "its", "this", "that", "these", "those", "some",
     "any", "all", "both", "each", "every", "few", "many", "much", "most", "other", "another",
     "such", "what", "which", "who", "whom", "whose", "where", "when", "why", "how", "there",
     "here", "then", "now", "also", "just", "only", "still", "even", "yet", "today", "later",
     "never", "always", "often", "sometimes", "usually", "maybe", "perhaps", "note", "tip",
     "see", "todo", "fixme", "done", "ok", "okay", "yes", "none", "nothing", "everyone",
     "nobody", "someone", "something", "anything", "everything", "without", "within",
     "via", "per", "across", "against", "along", "among", "around", "behind", "below",
     "beside", "between", "beyond", "despite", "during", "except", "inside", "like", "near",
     "outside", "since", "toward", "towards", "unlike", "upon", "whether", "while",
     "although", "though", "unless", "until", "because", "once", "default", "main", "new",
     "old", "good", "bad", "big", "small", "first", "last", "next", "same", "local",
     "remote", "staging", "production", "prod", "dev", "api", "one", "two", "three"}
)  # fmt: skip
"""Words a clause starts with that are no verb: determiners, pronouns, prepositions,
conjunctions, adverbs, common adjectives."""
UNSURE = "~verb:"
"""The marker of a clause's first word read as a verb no list names: the `always` it
makes opposes only a `never` saying that verb."""


_RULE_STEMS = frozenset(stem for verb in IMPERATIVES for stem in stems_of(verb))
"""The stems of the rules' verbs, as their participles say them too ("removed", "written")."""


def _required(clause: str) -> re.Match[str] | None:
    """A requirement in the passive whose participle is a rule's verb (`_REQUIRED`)."""
    found = _REQUIRED.search(clause)
    if found is None:
        return None
    return found if _RULE_STEMS.intersection(stems_of(found.group(1))) else None


def _imperative(word: str) -> bool:
    """Whether a clause's first word is a rule's verb: one of `IMPERATIVES`, or made of
    one ("hand-edit", "squash-merge", "re-run", "rerun")."""
    word = word.lower()
    last = word.rsplit("-", 1)[-1]
    again = word.removeprefix("re").lstrip("-") if word.startswith("re") else ""
    return word in IMPERATIVES or last in IMPERATIVES or again in IMPERATIVES


def _held(never: frozenset[str], always: frozenset[str]) -> bool:
    """Whether a `never` holds when its `always` does: not one said on a condition the
    `always` does not say ("If the change is docs-only, don't…"), nor at another time
    ("…after pushing" / "…before pushing")."""
    if CONDITION in never and CONDITION not in always:
        return False
    times, other_times = never & _TIMES, always & _TIMES
    return not (times and other_times and times != other_times)


def _then(clause: str) -> frozenset[str]:
    """`THEN` markers of what a clause's time word is said of."""
    found = _TIME.search(clause)
    if found is None:
        return frozenset()
    return frozenset(THEN + stem for stem in stems_of(clause[found.end() :]))


def _when(clause: str) -> frozenset[str]:
    """When a clause's rule holds (`_WHEN`)."""
    return frozenset(marker for marker, said in _WHEN if said.search(clause))


def _marked(action: frozenset[str], marker: str) -> frozenset[str]:
    """An action's markers of one kind."""
    return frozenset(stem for stem in action if stem.startswith(marker))


def _plain(action: frozenset[str]) -> frozenset[str]:
    """An action without its markers of when it holds."""
    return frozenset(stem for stem in action if not stem.startswith(WHEN))


def _said_action(clause: str, said: re.Match[str]) -> frozenset[str]:
    """The action of a clause whose cue is `said`: what follows it, and what comes before
    it when the cue is said of that ("Force-pushing is forbidden", "`any` is fine") or the
    action is said in the passive ("Translations should never be edited") — not who does
    it ("We stopped squashing…", "the agent never runs…")."""
    before, after = clause[: said.start()], clause[said.end() :]
    action = _action(after)
    if not after.strip(" ,.!") or _PREDICATE.match(said.group(0)) or _PASSIVE.match(after):
        done_to = frozenset(s for s in _action(before) if s not in _DOERS)
        action = action | done_to if action or done_to else _action(before + " " + after)
    elif action and _thing_subject(before):
        # "Builds never run on forks": what never runs is the builds, not anything
        action |= frozenset(s for s in _action(before) if s not in _DOERS)
    return action


def _thing_subject(before: str) -> bool:
    """Whether the words before a rule's cue are things it is said of ("Builds", "Release
    webhooks"): not a doer, a pronoun, a place of the rule ("This workspace"), a verb, nor
    one thing told of ("so the nvm loader never runs": a symptom, no rule)."""
    if _SUBJECT.match(before) is None:
        return False
    words = before.lower().split()
    return not any(word in _NOT_A_THING or word in _DOERS or word.endswith("ed") for word in words)


def _size(action: frozenset[str]) -> int:
    """How much an action says: a stem each, a command in a code span ("`git add .`") two."""
    action = _plain(action)
    return len(action) + sum(1 for stem in action if " " in stem)


def _no_subject(clause: str) -> bool:
    """Whether a clause starting with a verb is an imperative, not a subject and its verb
    ("Commit messages use…", "Pull requests are…", "Test names are…"): a noun that is also
    a verb followed by its third person's verb and what a verb takes ("Push triggers a
    deploy", "Log rotates daily"), or a plural and a verb ("Export jobs retry three times",
    "Release PRs target `stable`") is a statement."""
    words = clause.lower().split()
    if _FINITE.intersection(words[1:4]):
        return False
    if len(words) < 3:
        return True
    first, second, third = words[0], words[1], words[2].strip(".,;:!")
    if _plural(second) and not first.endswith("s") and _takes(third):
        return False  # "Push triggers a deploy": its verb, then what it takes
    rest = words[3] if len(words) > 3 else ""
    return not (_plural(second) and third.isalpha() and third not in _CLOSED and _takes(rest))


def _plural(word: str) -> bool:
    """Whether a word may be a plural or a third person's verb (-s, not -ss, -us or -is)."""
    return (
        len(word) > 2
        and word.isalpha()
        and word.endswith("s")
        and not word.endswith(("ss", "us", "is"))
    )


def _takes(word: str) -> bool:
    """Whether a word opens what a verb takes, not what a plain noun does: a determiner or
    a number ("a deploy", "two approvals"), an adverb of manner or time ("daily"), a code
    span."""
    bare = word.strip(".,;:!")
    return (
        bare in _OBJECT_OPENERS
        or bare[:1].isdigit()
        or bare.startswith("`")
        or (len(bare) > 4 and bare.endswith("ly") and bare.isalpha())
    )


_OBJECT_OPENERS = frozenset(
    {"a", "an", "the", "its", "their", "our", "this", "that", "these", "those", "two", "three",
     "four", "five", "ten", "itself", "themselves", "automatically"}
)  # fmt: skip
"""Determiners and numbers: a word after them is an object, not a bare plural's phrase
("every" and "each" aside: "Run tests every time" is an imperative)."""
_CLOSED = frozenset(
    {"in", "on", "at", "to", "for", "from", "with", "by", "via", "into", "onto", "under",
     "over", "as", "of", "off", "out", "up", "down", "away", "back", "before", "after",
     "first", "last", "only", "too", "and", "or", "but", "not", "never", "always", "every",
     "each", "through", "without", "instead", "here", "there", "now", "again", "locally"}
)  # fmt: skip
"""Words after an imperative's plural object ("Push tags to origin", "Write tests first"):
no verb of the plural as a subject."""


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
    text = _DONT_WANT.sub(" ", _ACRONYMS.sub(r"\1", _ASIDE.sub(" ", text)))
    if _NAMED_KIND.search(text) is not None:
        text = _NAMED_KIND.sub(r"\1", text)  # "`.env` files": `.env`
    spans = {OF + stem for owner in _POSSESSOR.findall(text) for stem in stems_of(owner)}
    text = _POSSESSOR.sub(" ", text)
    for span in _SPAN.findall(text):
        said = span.strip().lower()
        named = set(stems_of(said)) if said and " " not in said else set()
        spans |= named or ({said} if said else set())
    words = stems_of(_SPAN.sub(" ", text))
    return frozenset(s for s in words if s not in _POLARITY_STEMS) | spans


def opposite(one: Rule, other: Rule) -> bool:
    """Whether two rules can't both hold (see the module doc)."""
    if one.polarity == other.polarity or "always" not in (one.polarity, other.polarity):
        return False  # "don't X" and "you needn't X" both hold
    never, always = (one, other) if other.polarity == "always" else (other, one)
    if _ORDER in always.action or (never.polarity == "optional" and MAY in always.action):
        return False  # "X is fine" and "X is optional" both hold
    if not _held(never.action, always.action):
        return False
    then, other_then = _marked(never.action, THEN), _marked(always.action, THEN)
    if then and other_then and not then & other_then:
        return False  # "Don't push before running the tests" / "Run the tests before pushing"
    unsure = {m.removeprefix(UNSURE) for m in always.action if m.startswith(UNSURE)}
    if not unsure <= never.action:
        return False  # "Answer…" is a rule only against "Never answer…"
    done, not_done = _plain(always.action), _plain(never.action)
    return not_done <= done and len(done - not_done) <= MAX_EXTRA


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
    mine, theirs = _plain(one.action), _plain(other.action)
    shared = mine & theirs
    return len(shared) >= 2 and len(shared) * 2 >= min(len(mine), len(theirs))
