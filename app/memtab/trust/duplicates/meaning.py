"""What the duplicates read of what statements say, not only their words (docs/formats.md
§19.5): two memories that contradict each other (`trust.claims`) or state rules of
opposite polarities (`trust.polarity`) are never the same note, and sentences alike in
words are one rule only when they say one thing.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from typing import TypeVar

from memtab.check.documents import Document
from memtab.store.paths import project_basename
from memtab.store.text.near_duplicates import lowered_words
from memtab.trust.claims import Claim, claims_of, contradict, same_thing, sentence_claims
from memtab.trust.duplicates.clauses import ASIDE, LABEL, apart_as_said
from memtab.trust.polarity import Rule, opposed, other_subjects, rule_of
from memtab.trust.rule_key import key_of
from memtab.trust.specifics import different_specifics
from memtab.trust.words import IRREGULAR, content_lines, sentence_stems, statements, stems_of

POLARITY = {"always": "\0always", "never": "\0never", "optional": "\0optional"}
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


def narrowed(one: str, other: str, said: frozenset[str]) -> bool:
    """Whether sentence `one` narrows `other`'s rule or limits what it says always, by
    something its note (`said`: the note's stems) does not say ("Log in JSON, except in
    the CLI" of "Log in JSON")."""
    if _narrows(one, other, said) or _excepts(one, other) or waived(one, other):
        return True
    return _RESTRICTED.search(other) is None and restricts(one, said, _LIMITED)


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
        if (
            rule is not None
            and their_rule is not None
            and opposed(rule, their_rule)
            and not _required((rule, mine), (their_rule, theirs))
        ):
            return True
    if _narrows(sentence, their_sentence) or _narrows(their_sentence, sentence):
        return True
    return (
        apart_as_said(other_subjects, sentence, their_sentence)
        or different_specifics(sentence, their_sentence)
        or denied(sentence, their_sentence)
        or denied(their_sentence, sentence)
        or _restricted(sentence, their_sentence)
        or _restricted(their_sentence, sentence)
    )


def _narrows(one: str, other: str, said: frozenset[str] | None = None) -> bool:
    """Whether `one`'s rule is `other`'s narrowed: the same polarity, and what it is to do
    `other`'s and more, the more not said anywhere in `other` ("Always squash-merge PRs
    from forks." of "Always squash-merge PRs."; not "Run `pnpm test --filter auth` to test
    auth." of "Tests for auth: run `pnpm test --filter auth`."); `said`: where to look for
    the more, `other`'s stems unless given."""
    rule, their_rule = rule_of(_as_rule(one)), rule_of(_as_rule(other))
    if rule is None or their_rule is None or rule.polarity != their_rule.polarity:
        return False
    # Each by its key (`rule_key`): "Never commit `.env` files" says what "`.env` must
    # never be committed" does.
    mine, theirs = key_of(rule.polarity, rule.action), key_of(rule.polarity, their_rule.action)
    more = mine.stems - theirs.stems
    if not (theirs.stems < mine.stems) or more <= (sentence_stems(other) if said is None else said):
        return False
    return not any(
        more <= sentence_stems(also) and _QUALIFIED.search(also) is None
        for also in _COORDINATED.split(rule.said)[1:]
    )


_COORDINATED = re.compile(r"\s(?:or|and|nor)\s|,\s")
"""Where a rule's clause says another thing it holds of ("Never commit `.env` files or
anything from `secrets/`"): what that says is more of the rule, not a narrower one — but
for a qualifier (`_QUALIFIED`) said there, which may hold of both."""
_QUALIFIED = re.compile(
    r"\b(?:at|on|in|during|for|before|after|when|if|unless|while|with|without|via|by|until)\b",
    re.IGNORECASE,
)
"""A preposition or conjunction opening a qualifier ("… or cookies at debug level": at
debug level, of both)."""


def _restricted(one: str, other: str) -> bool:
    """Whether `one` limits what `other`, which says it always, says (`_LIMITED`) — "Run
    the integration tests before merging only when the schema changed" is not "Run the
    integration tests before merging" — or says it held once (`_NO_MORE`)."""
    if (
        (_NO_MORE.search(one) is not None and _NO_MORE.search(other) is None)
        or _excepts(one, other)
        or waived(one, other)
    ):
        return True
    return _RESTRICTED.search(other) is None and restricts(one, sentence_stems(other), _LIMITED)


_NEGATION = re.compile(
    r"\b(?:not|never|no|nor|nobody|nothing|none|neither|cannot|without|except|unless|"
    r"instead\s+of|rather\s+than|"
    r"avoid(?:s|ed|ing)?|refrain\s+from|steer\s+clear\s+of)\b"
    r"|n't\b|n’t\b",
    re.IGNORECASE,
)
"""A word denying what follows it ("is not shared", "never retries", "pnpm, not npm",
"except the last 4 digits", "nobody edits it")."""
_PREFER = re.compile(r"\bprefer", re.IGNORECASE)
_OVER = re.compile(r"\bover\b", re.IGNORECASE)
"""After "prefer", "over" denies what follows it too ("prefer pnpm over npm")."""
_PREFERRED_TO = re.compile(r"\w*+\s++(?:[\w`'’-]++\s++){1,3}?to\b", re.IGNORECASE)
"""After "prefer" and what is preferred, "to" denies what follows ("prefer early returns
to nested ifs"), not "prefer to X" (what follows is what is preferred)."""


_RESTRICTED = re.compile(r"\b(?:only|unless|except|but|if|when|until)\b", re.IGNORECASE)
"""A word saying when a statement holds, or where not ("Run the integration tests before
merging only when the schema changed")."""


_LIMITED = re.compile(
    r"\b(?:only|unless|except|but|though|although|otherwise|excluding|barring|save\s+for"
    r"|other\s+than|apart\s+from"
    r"|aside\s+from|bar(?=\s+(?:the|a|an|this|that|our|its|their)\b))\b",
    re.IGNORECASE,
)
"""A word saying where a statement does not hold ("…, but npm for the docs site", "though
on long-lived branches…", "otherwise a note will do"; the exceptive prepositions: "apart
from the CLI", "other than `/healthz`"): of two
statements alike in words, what one says always the other limits (not "when", as often a
fact's time as a rule's condition)."""


_WAIVED = re.compile(
    r"\b(?:optional(?:ly)?|overkill|unnecessary|needless|nice\s+to\s+have|up\s+to\s+you"
    r"|(?:is|are|it['’]s|that['’]s)\s+(?:fine|ok|okay|acceptable|allowed|enough)"
    r"|(?:can|may|could)\s+(?:be\s+)?skip(?:s|ped|ping)?|bother(?:s|ed|ing)?|no\s+need"
    r"|not\s+(?:needed|required|necessary|mandatory|enforced|always)|rarely|seldom"
    r"|in\s+practice|if\s+(?:you\s+can|possible|feasible|convenient)"
    r"|(?:where|when)\s+(?:possible|feasible|practical|convenient)|ideally|will\s+do)\b",
    re.IGNORECASE,
)
"""A word making a rule optional, waived or only hoped for ("; locally it is optional",
"but release candidates can skip it", "solo is fine", "in practice nobody bothers", "if
you can"): the rule said without it is another."""


def waived(one: str, other: str) -> bool:
    """Whether `one` makes optional what `other` states (`_WAIVED`), and `other` does not."""
    return _WAIVED.search(one) is not None and _WAIVED.search(other) is None


_NO_MORE = re.compile(r"\b(?:used\s+to|no\s+longer|any\s*more)\b", re.IGNORECASE)
"""What held once and holds no more ("used to be verified with HMAC-SHA256; we moved to
Ed25519")."""


def _as_rule(sentence: str) -> str:
    """What of a sentence says its rule: not its label nor its asides."""
    return ASIDE.sub(" ", LABEL.sub("", sentence, count=1))


_WISH = re.compile(
    r"^(?:(?:the\s+)?(?:user|team|[A-Z][a-z]+)\s+(?:prefers|wants|likes|expects|asks\s+for)"
    r"|(?:I|we)(?:'d|\s+would)\s+(?:like|prefer)(?:\s+(?:you|it))?\s+to"
    r"|make\s+sure|be\s+sure"
    r"|(?:the\s+)?(?:assistant|agent|model|AI|Claude|Codex|Gemini|Copilot)\s+"
    r"(?:must|should|has\s+to|needs\s+to|is\s+to))(?:\s+that)?(?:\s+you)?(?:\s+to)?\s+",
    re.IGNORECASE,
)
"""Who wishes a rule, said before it ("Dana prefers that you X", "I'd like you to X",
"make sure that X"), or whom it is told to ("the assistant must X"): not what the rule is
about."""


_HERE = re.compile(
    r"\b(?:in|for|on|across|within|throughout)\s+(?:this|the\s+current)\s+"
    r"(?:project|repo|repository|codebase|code\s+base|monorepo|service|app)\b"
    r"|\bhere(?:\s+(?:too|as\s+well))?\b(?!\s+(?:is|are)\b)",
    re.IGNORECASE,
)
"""Where a memory's statement says it holds, in words that point at its own place ("in
this project", "here too"): the place the memory is kept says it already — a project's
copy of a global rule saying so states the rule, no other subject."""


def compared(sentence: str, own: re.Pattern[str] | None) -> str:
    """A statement as the duplicates compare what it says: without who wishes it
    (`_WISH`), nor the name of its memory's own project (`own_name`)."""
    if own is not None:
        sentence = own.sub(" ", sentence).strip(" ,:")
    if _HERE.search(sentence) is not None:
        sentence = _HERE.sub(" ", sentence).strip(" ,:")
    said = _WISH.sub("", sentence, count=1)
    return said[:1].upper() + said[1:] if said is not sentence else sentence


def own_name(document: Document) -> re.Pattern[str] | None:
    """The name of a memory's own project (its path's last part) where the memory says
    it as the place or the doer of what it states ("In tern, …", "For harbor-api: …",
    "Quarry reads…", "saltmarsh too: …"), or None: there it says "here" — "In tern, no
    `print`…" states what a global "No `print`…" does; "the tern renderer" names a
    part of the project, and stays."""
    return _name_of(project_basename(document.project)) if document.project else None


@functools.lru_cache(maxsize=1024)
def _name_of(project: str) -> re.Pattern[str] | None:
    parts = [re.escape(part) for part in re.split(r"[\W_]+", project) if part]
    if not parts:
        return None
    name = r"[\s_.-]?".join(parts)
    return re.compile(
        rf"\b(?:in|for|on|at|within|across)\s+(?:the\s+)?{name}\b(?![’'-])"
        rf"(?:\s+(?:repo|repository|codebase|project|code))?"
        rf"|^(?:[-*+]\s+)?{name}(?:['’]s\s+(?:rule|convention|policy|way))?\b(?![’'-])"
        rf"|^(?:[-*+]\s+)?{name}['’]s\b"
        rf"|\b(?:in|for|on|across|within)\s+{name}['’]s\s+(?:code(?:base)?|repo(?:sitory)?|project)\b"
        rf"|\b{name}\s+(?:too|also|as\s+well)\b",
        re.IGNORECASE,
    )


_EXCEPTION = re.compile(
    r"\b(?:(?:the|an|one)\s+exception|exception:|exempt(?:ed)?|unlike|differs?\s+from|"
    r"overrides?|opts?\s+out|deviates?)\b",
    re.IGNORECASE,
)
"""A statement saying it is an exception to a rule ("Quarry is the exception: keep every
commit", "unlike the other repos"): never the rule it is an exception to."""


def _excepts(one: str, other: str) -> bool:
    """Whether `one` says it is an exception (`_EXCEPTION`) and `other` does not."""
    return _EXCEPTION.search(one) is not None and _EXCEPTION.search(other) is None


def restricts(longer: str, said: frozenset[str], words: re.Pattern[str] = _RESTRICTED) -> bool:
    """Whether a statement says when what a shorter one (`said`, its stems) says holds, or
    where not — of something the shorter does not say ("only when the schema changed";
    not "When I fix a bug …" of "Tests first for bug fixes")."""
    longer = ASIDE.sub(" ", longer)
    for restriction in words.finditer(longer):
        first = next(stems_of(longer[restriction.end() :]), None)
        if first is not None and first not in said:
            return True
    return any(not set(stems_of(place.group(1))) <= said for place in _ONLY_THERE.finditer(longer))


_ONLY_THERE = re.compile(
    r"\b(?:in|on|for|at|within|inside|from|to)\s+((?:[\w'’-]++\s+){0,4}?[\w'’-]++)\s+only\b",
    re.IGNORECASE,
)
"""A place or a case named before "only" ("in the invoice tables only"): where alone a
statement holds — not "parameterised queries only", which says what alone is used."""


def recounts(longer: str, shorter: str, said: frozenset[str]) -> bool:
    """Whether a longer statement tells as past what a shorter one (`said`, its stems)
    states as standing: a word of the shorter's in a past form in the longer only ("… so
    the theft detection revoked the whole family" of "A reused refresh token revokes the
    whole family"; "is rebuilt" is no past)."""
    past = _past_stems(longer) & said
    return bool(past - _past_stems(shorter))


_PASSIVE = frozenset({"is", "are", "be", "been", "being", "get", "gets", "getting"})


def _past_stems(text: str) -> set[str]:
    """The stems of a text's verbs in a past form ("revoked", "built"), not a passive's
    participle ("is stored")."""
    words = lowered_words(text)
    return {
        stem
        for before, word in zip(["", *words], words, strict=False)
        if ((len(word) > 4 and word.endswith("ed")) or word in IRREGULAR)
        and before not in _PASSIVE
        and (stem := next(stems_of(word), None)) is not None
    }


_PROHIBITED = re.compile(
    r"\b(?:(?:is|are|be)\s+(?:banned|forbidden|prohibited|disallowed|off[\s-]limits)"
    r"|(?:ban|forbid|prohibit|disallow)(?:s|ned|den|ed)?)\b",
    re.IGNORECASE,
)
"""What says a thing must not be, after it ("Mocking `datetime` is banned"): what it bans
is no word another statement's negation denies."""
_CLAUSE_END = re.compile(r"[.;!?—](?:\s|$)")
"""Where a clause ends: a negation denies within its own ("never use `any`. anything under
infra/…" denies no word of the second)."""
_CLAUSE = 200
"""A clause's length at most, as a negation's reach is read (a line of thousands of "no"s
is not read to its end from each)."""
_GATE = re.compile(r"[^,;:.!?—]{0,200}?\b(?:without|unless)\b", re.IGNORECASE)
"""A negation whose clause goes on with "without" or "unless" ("No X without Y", "Never
X unless Y"): two negations, one requirement (X only with Y)."""


def _negations(sentence: str) -> list[re.Match[str]]:
    """Where a sentence denies what follows (`_NEGATION`, `_OVER`)."""
    found = list(_NEGATION.finditer(sentence))
    prefer = _PREFER.search(sentence)
    if prefer is not None:
        found += _OVER.finditer(sentence)
        to = _PREFERRED_TO.match(sentence, prefer.end())
        found += [to] if to is not None else []
    return found


def denied(one: str, other: str) -> bool:
    """Whether `one` denies what `other`, which denies nothing, says: the first word after
    one of its negations, in its clause, is a word of `other` ("The cache is not shared
    between workers" / "The cache is shared between workers"); not two negations requiring
    what `other` says ("No migration without a rollback script" / "Every migration ships
    with a rollback script")."""
    if _negations(other):
        return False
    said = sentence_stems(other) - _after_over(other) - _prohibited(other)
    gated = 0
    for negation in sorted(_negations(one), key=lambda found: found.start()):
        if negation.start() < gated:
            continue
        gate = _GATE.match(one, negation.end())
        if gate is not None and _first_stem(one, gate.end()) in said:
            gated = gate.end()  # "No migration without a rollback script" of "… with a …"
            continue
        end = negation.end()
        clause = _CLAUSE_END.search(one, end, end + _CLAUSE)
        said_no = next(stems_of(one[end : clause.start() if clause else end + _CLAUSE]), None)
        if said_no is not None and said_no in said:
            return True
    return False


def required_by(sentence: str) -> str | None:
    """What a rule forbidding something without it requires ("Never merge a migration
    without a down step": down), as its first stem, or None for no such rule."""
    for negation in _NEGATION.finditer(sentence):
        gate = _GATE.match(sentence, negation.end())
        if gate is not None and negation.group(0).lower() not in _GATES:
            return _first_stem(sentence, gate.end())
    return None


_GATES = frozenset({"without", "unless", "except"})


def _required(one: tuple[Rule, str], other: tuple[Rule, str]) -> bool:
    """Whether of two rules of opposite polarities the one forbidding something without a
    thing (`required_by`) is the other, which says it always with that thing and denies
    nothing: "Cache keys include the tenant id, always" / "Never build a cache key without
    the tenant id"."""
    (never, sentence), (_, their_sentence) = (
        (one, other) if one[0].polarity == "never" else (other, one)
    )
    required = required_by(sentence) if never.polarity == "never" else None
    return (
        required is not None
        and required in sentence_stems(their_sentence)
        and not _negations(their_sentence)
    )


def _first_stem(text: str, start: int) -> str | None:
    """The first stem of `text` from `start`, in the clause there (`_CLAUSE`)."""
    return next(stems_of(text[start : start + _CLAUSE]), None)


def _prohibited(sentence: str) -> frozenset[str]:
    """The stems of what a sentence says is banned, in the clause before the word that
    says so ("Mocking `datetime` is banned": mock, datetime)."""
    found: set[str] = set()
    for prohibition in _PROHIBITED.finditer(sentence):
        start = max(0, prohibition.start() - _CLAUSE)
        before = sentence[start : prohibition.start()]
        found.update(stems_of(_CLAUSE_START.split(before)[-1]))
    return frozenset(found)


_CLAUSE_START = re.compile(r"[.;:!?—,]\s")


def _after_over(sentence: str) -> frozenset[str]:
    """The stems a sentence puts after "over" ("composition over inheritance" puts
    inheritance second, as "prefer composition over inheritance" denies it)."""
    return frozenset(
        stem
        for over in _OVER.finditer(sentence)
        if (stem := next(stems_of(sentence[over.end() :]), None)) is not None
    )
