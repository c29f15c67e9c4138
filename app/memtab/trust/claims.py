"""What a line of a memory claims: a value stated plainly for one thing (docs/formats.md
§19.6).

Precision over recall: a claim is read only from a sentence that states it plainly — not
one that says what was ("was", "used to", "no longer", an arrow), names alternatives or
an example ("or", "either", "e.g."), and for a value not one that says it is gone
("removed", "instead of") or holds only at times ("if", "usually", "when"); nor from a
sentence that names the thing twice. Its
`key` is what it is about, its `value` what it says, its `kind` one of:

- `port`, `version`, `setting`: the check's facts (`check.rules.facts`: a service's port,
  a well-known product's version, `MAX_WORKERS=8`), read the same way, a sentence at a
  time (a paragraph's other sentences hedge nothing of it);
- `command`: the one command in backticks a sentence gives for a purpose ("Run the api
  tests with `pnpm test --filter api`", "`make deploy` ships to staging"): the key is the
  purpose's stems (`trust.words`: what the sentence says besides the command, the verbs
  every command sentence uses left out), the value the command;
- `path`: where a thing lives ("The fixtures live in `tests/fixtures/`", "`db/seeds/`
  holds the seed data"): the key the thing's stems, the value the path;
- `tool`: which tool of a kind to use (`reading.tools`: "Use pnpm, not npm", "We switched
  from jest to vitest"): the key the kind (package managers, test runners…), the value the
  tool used (a sentence may also say which is not: "not:npm");
- `value`, a style rule's (`reading.styles`: "SQL keywords in uppercase", "2-space
  indent"): the key the property and the thing, the value the property's — two disagree
  only where both cannot hold (kebab-case is lowercase);
- `always-never`: a rule always or never to do something ("Always squash-merge", "Never
  squash-merge PRs", "Don't rebase on main", a plain "Rebase on main before review"):
  the key what is done (`trust.polarity`), the value `always` or `never`; a `never` rule
  opposes an `always` rule of the same action or one that says a little more of it (a
  compound written as one word, two or hyphenated one thing: `words.compounds_alike`).
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Iterable
from typing import NamedTuple

from memtab.check.wording import is_example
from memtab.store.text.near_duplicates import lowered_words
from memtab.trust.located import assigns, command_or_path, value_of
from memtab.trust.owners import owned, owners_of, value_owned
from memtab.trust.polarity import (
    DEONTIC_WORDS,
    IMPERATIVES,
    MAX_EXTRA,
    UNSURE,
    WHEN,
    Rule,
    contrasted,
    guessed,
    headed,
    maybe_verb,
    opposite,
    required_rule,
    under_never_heading,
)
from memtab.trust.reading.amounts import AMOUNT, amount_groups, amount_key, amounts, same_amount
from memtab.trust.reading.attached import claimed, said, structured
from memtab.trust.reading.choices import PAIR, USING, choices, used
from memtab.trust.reading.jobs import (
    IN_USE,
    JOB,
    USED_FOR,
    jobs,
    kinds_used,
    named_uses,
    same_job,
    uses_clash,
)
from memtab.trust.reading.named import DAY_WORDS, LANGUAGES, named, same_count
from memtab.trust.reading.ports import of_project, port_key, ports, same_service
from memtab.trust.reading.schedules import same_schedule
from memtab.trust.reading.scopes import SCOPE_STEMS, scope_of
from memtab.trust.reading.settings import same_setting, setting_key, settings
from memtab.trust.reading.styles import (
    STYLE,
    STYLE_WORDS,
    same_style,
    style_values_disagree,
    styles,
)
from memtab.trust.reading.tools import OLD_PART, TOOL_WORDS, moved_tools, tells_change, tools
from memtab.trust.reading.versions import same_use, version_key, versions, versions_differ
from memtab.trust.rule_key import GATE, RuleKey, gated, key_of, opposite_keys
from memtab.trust.words import (
    compounds_alike,
    compounds_once,
    content_lines,
    skeleton,
    statements,
    stems_of,
)

_PAST = re.compile(
    r"\b(?:was|were|used to|no longer|anymore|previously|formerly|legacy|until)\b|->|→|=>",
    re.IGNORECASE,
)
"""A sentence saying what was: no claim of what is."""
_ALTERNATIVES = re.compile(
    r"\b(?:or|either|maybe|perhaps|probably|might|e\.g|for example|such as)\b", re.IGNORECASE
)
"""A sentence naming alternatives or unsure of itself."""
_CONDITIONS = re.compile(
    r"\b(?:usually|typically|sometimes|unless|if|when|whether|depending|except|both|also|"
    r"too|before|like)\b",
    re.IGNORECASE,
)
"""A sentence whose value holds only at times: no value claimed."""
_GONE = re.compile(
    r"\b(?:removed|deleted|moved|renamed|replaced|deprecated|obsolete|gone|dropped|retired|"
    r"superseded|archived|instead of|rather than|broken|no such|missing)\b",
    re.IGNORECASE,
)
"""A sentence saying what it names is gone or changed: no value claimed of it (the
check's own list, `check.wording`, also reads "legacy" and "used to" so: too wide for a
claim)."""
_REQUIRED = re.compile(
    r"\b(?:must|should|shall|has\s+to|have\s+to|needs?\s+to|(?:is|are)\s+to|ought\s+to)\s+"
    r"(?:(?:always|still|also)\s+)?(?:be\s+\w|go\s*+[.!]?\s*+$)",
    re.IGNORECASE,
)
"""A requirement that a thing be removed or changed ("The legacy cron must be removed", "X
has to go"): a rule (`trust.polarity`), not a telling that it is gone."""
_HOW_GIVEN = SCOPE_STEMS | {
    "set", "default", "configur", "file", "valu", "say", "read", "pin", "hold", "live", "run"
}  # fmt: skip
"""Stems of how or where a sentence gives a value in code, not whose it is."""
_DETERMINERS = frozenset({"the", "a", "an", "our", "your", "its", "their"})
_SPAN = re.compile(r"`([^`\n]+)`")
_OUTPUT = re.compile(r"(?:→|->)\s*+`[^`\s/]*+/[^`\s]*+`\W*+$")
"""An arrow to a path a command's line ends on: what the command makes, not what was."""

_SIGNS = re.compile(r"[`/\d]")
_TRIGGER_WORDS = frozenset(
    {"always", "never", "don", "dont", "not", "must", "mustn", "shouldn", "avoid", "stop", "make",
     "sure", "no", "required", "mandatory", "forbidden", "banned", "prohibited", "disallowed",
     "stopped", "quit", "refrain", "steer", "fine", "ok", "okay", "allowed", "acceptable",
     "encouraged", "time", "exception", "circumstances", "permitted", "discouraged",
     "prefer", "prefers", "preferred", "instead", "rather", "stick", "gone", "dropped",
     "moved", "switched", "migrated", "replaced", "nobody", "doesn", "insist", "insists",
     "forgo", "forego", "eschew", "shun", "abstain", "cease", "leave", "keep", "forbids",
     "bans", "prohibits", "disallows", "stay", "hold", "wants", "expects", "requires",
     "likes", "should", "shall", "ought", "has", "have", "need", "needs", "be",
     *TOOL_WORDS, *STYLE_WORDS,
     "code", *IMPERATIVES, *LANGUAGES, *DAY_WORDS, *DEONTIC_WORDS}
)  # fmt: skip
"""What every sentence that claims something holds: a number, a code span or path
(`_SIGNS`), always or never, a verb a rule starts with, or a tool's name — the other
patterns run only where one is (one alternation of words costs ~25 µs a line in `re`; a
set lookup of its words, ~1)."""
_WORD_TOKEN = re.compile(r"[\w'-]+")
_POLARITY_SHOWN = frozenset(
    {"always", "never", "ever", "don't", "do", "not", "must", "mustn't", "make", "sure", "to",
     "i", "we", "we've", "you", "they", "user", "prefers", "that", "agent", "please", "refrain",
     "from", "stopped", "banned", "forbidden", "allowed", "required", "mandatory", "fine",
     "okay", "ok", "is", "are", "should", "requires", "wants", "expects", "likes", "insists",
     "forbids", "bans", "prohibits", "disallows", "nobody", "won't", "can't", "does",
     "doesn't", "want", "feel", "free", "off-limits", "needn't", "need", "have", "shall",
     "ought", "optional", "compulsory", "skip", "omit", "avoid", "forget", "shouldn't"}
)  # fmt: skip
"""Words of how a rule is said or who does it, left out of what it is shown to be about."""


class Claim(NamedTuple):
    """A value one line states for one thing (see the module doc)."""

    line: int
    kind: str
    key: str
    value: str
    shown: str
    """What the claim is about, in words ("the API's port", "the tests' command")."""


def claims_of(text: str, project: str = "") -> tuple[Claim, ...]:
    """Every claim of a memory's text, line by line (see the module doc); `project`: the
    name of the project whose memory it is, whose own service "the API" may be
    (`ports.of_project`)."""
    found: list[Claim] = []
    owners = owners_of(text)  # what a line's value belongs to where it says not
    if "|" in text or "```" in text or "~~~" in text:  # a table's or a config fence's
        found += [
            Claim(n, *kept)
            for n, attached in structured(text)
            for c in claimed(attached)
            if (kept := owned(c, owners.get(n, ""))) is not None
        ]
    forbidden = under_never_heading(text) if "#" in text else frozenset()
    for line in content_lines(text):
        if line.code:
            continue
        said = statements(line.text)
        if line.number in forbidden:  # "## Don'ts" over "- force-push to `main`"
            said = tuple(headed(sentence) for sentence in said)
        triggered, owner = _triggered(" ".join(said)), owners.get(line.number, "")
        for sentence in _examples_joined(said):
            read = _claims(sentence) if triggered else _unlisted_rule(sentence)
            found += [
                Claim(line.number, *kept)
                for claim in (*read, *_named_uses(sentence))
                if (kept := owned(claim[1:], owner)) is not None
            ]
    if project:
        found = [
            c._replace(key=of_project(c.key, project)) if c.kind == "port" else c for c in found
        ]
    return tuple(found)


def _examples_joined(sentences: tuple[str, ...]) -> list[str]:
    """A line's sentences, one ending on "e.g." or "i.e." joined to its example."""
    joined: list[str] = []
    for sentence in sentences:
        if joined and joined[-1].endswith(("e.g.", "i.e.")):
            joined[-1] += " " + sentence
        else:
            joined.append(sentence)
    return joined


@functools.lru_cache(maxsize=8192)
def _unlisted_rule(sentence: str) -> tuple[Claim, ...]:
    """The rule of a sentence that says nothing else: an imperative of a verb no list
    names ("Localize the error messages"), which opposes only a `never` of that verb."""
    if _hedged(sentence) or sentence.rstrip(" *_").endswith("?"):
        return ()
    done = tuple(Claim(0, "tool", *job) for job in jobs(sentence))
    if not maybe_verb(sentence):
        return done
    return (*done, *(c for c in _polarity(0, sentence) if UNSURE in c.key))


@functools.lru_cache(maxsize=8192)
def _named_uses(sentence: str) -> tuple[Claim, ...]:
    """The tools a sentence says are in use, or rules for or against, by name
    (`reading.jobs.named_uses`: "Never use Enzyme", "Component tests mount with Enzyme"),
    and the taxonomy's choice each known one in use makes (`kinds_used`)."""
    uses = named_uses(sentence)
    return tuple(Claim(0, "tool", *use) for use in (*uses, *kinds_used(uses, sentence)))


def _triggered(text: str) -> bool:
    return _SIGNS.search(text) is not None or not _TRIGGER_WORDS.isdisjoint(lowered_words(text))


def sentence_claims(sentence: str) -> tuple[Claim, ...]:
    """What one sentence claims (its line 0), said of no note."""
    return tuple(Claim(0, *s) for c in _claims(sentence) if (s := owned(c[1:], "")) is not None)


@functools.lru_cache(maxsize=8192)
def _claims(sentence: str) -> tuple[Claim, ...]:
    """What one sentence claims (line 0: the caller's line is set on each), worked out
    once per sentence (templates and copies repeat theirs), its owner left to its line's
    (`owners.owned`)."""
    if not _triggered(sentence):
        return ()
    said = [
        Claim(0, "value", f"{n.kind}:{n.of}", n.value, n.shown) for n in named(sentence)
    ]  # how each holds is its reading's, the sentence's hedges aside
    said += [Claim(0, "value", AMOUNT + amount_key(a), a.value, a.shown) for a in amounts(sentence)]
    return tuple(dict.fromkeys([*_plain_claims(sentence), *said]))


def _plain_claims(sentence: str) -> tuple[Claim, ...]:
    if sentence.rstrip(" *_").endswith("?"):
        return ()  # a question claims nothing ("Should we use Pants instead of Bazel?")
    if (output := _OUTPUT.search(sentence)) is not None:
        sentence = sentence[: output.start()]  # "Build: `just build` → `bin/x`": its output
    facts = _facts(0, sentence)
    if any(fact.key[:1] != "|" for fact in facts):  # "|…": a port or version of no owner
        if all(fact.kind == "version" for fact in facts) and not _hedged(sentence):
            facts += _tools(0, sentence)  # "Unit tests are written in JUnit 5": both
        return tuple(facts)
    if _ALTERNATIVES.search(sentence) or is_example(sentence):
        return ()
    gone = _GONE.search(sentence) is not None and _REQUIRED.search(sentence) is None
    if _PAST.search(sentence) or gone or tells_change(sentence):
        # What was says nothing of what is, but of a tool it can say both: "We moved to
        # bun, pnpm is gone", "CSV is written with csv-stringify (papaparse was removed)".
        if _PAST.search(sentence):
            return (*_moved_tools(sentence), *_choices(sentence, changes_only=True))
        return (*_gone(sentence), *_choices(sentence))
    found = _tools(0, sentence)
    pair = _choices(sentence)
    if not pair and not found:
        found += [Claim(0, "tool", *use) for use in used(sentence)]
    if not pair:
        found += [Claim(0, "tool", *job) for job in jobs(sentence)]  # a tool no kind lists
    if not pair and not any(claim.value.startswith("not:") for claim in found):
        # A choice between two is no rule about both ("Use pnpm, not npm").
        found += _polarity(0, sentence)
    found += pair
    if _CONDITIONS.search(sentence) is None:
        found += [Claim(0, "value", *style) for style in styles(sentence)]
        spans = _SPAN.findall(sentence)
        found += [Claim(0, *c) for c in command_or_path(sentence, spans)]
        assigned = any(map(assigns, spans))  # a setting's, not a value
        # "Request timeout:"; "Migrations: `pgroll`" says a job's tool and a label's value
        rules_only = all(c.kind == "always-never" or c.key.startswith(JOB) for c in found)
        if rules_only and not assigned and (given := value_of(sentence)) is not None:
            frame, value = given
            found.append(Claim(0, "value", frame, value, f"the {frame} said"))
            found += [Claim(0, *said) for said in value_owned(sentence, frame, value)]
    return (*found, *facts)  # a value of no owner yet: its note's (`owners.owned`)


def _hedged(sentence: str) -> bool:
    """A sentence naming alternatives, an example, what was or what is gone."""
    return any(pattern.search(sentence) for pattern in (_ALTERNATIVES, _PAST, _GONE)) or is_example(
        sentence
    )


def _gone(sentence: str) -> tuple[Claim, ...]:
    moved = _moved_tools(sentence)
    return tuple(moved) if moved else tuple(_tools(0, sentence))


def _moved_tools(sentence: str) -> list[Claim]:
    return [Claim(0, "tool", *choice) for choice in moved_tools(sentence)]


def _choices(sentence: str, *, changes_only: bool = False) -> list[Claim]:
    return [Claim(0, "tool", *c) for c in choices(sentence, changes_only=changes_only)]


def _tools(number: int, sentence: str) -> list[Claim]:
    return [Claim(number, "tool", *choice) for choice in tools(sentence)]


def _facts(number: int, sentence: str) -> list[Claim]:
    """A port a service listens on (`reading.ports`), a product's version
    (`reading.versions`) and a setting's value (the check's `MAX_WORKERS=8`)."""
    found = [
        Claim(number, "port", port_key(port), port.value, f"{port.shown}'s port")
        for port in ports(sentence)
    ]
    found += [
        Claim(number, "version", version_key(v), v.value, f"the {v.shown} version")
        for v in versions(sentence)
    ]
    found += [
        Claim(number, "setting", setting_key(setting), setting.value, setting.name)
        for setting in settings(sentence)
    ]
    if not _hedged(sentence) and _CONDITIONS.search(sentence) is None:
        # What a span assigns (`API_PORT=8000`), where the sentence says it holds.
        # What a sentence gives in code, where it holds and what else it names ("`X=4`
        # for the importer", "in the ESLint config": whose).
        rest = _SPAN.sub(" ", sentence)
        where = scope_of(rest)
        whose = " ".join(
            sorted({s for s in stems_of(rest) if s not in _HOW_GIVEN and not s.isdigit()})
        )  # a number is no one's ("(`A`: 8, `B`: 1)")
        for attached in said(sentence):
            found += [Claim(number, *c) for c in claimed(attached, where, whose)]
    return found


def _polarity(number: int, sentence: str) -> list[Claim]:
    """A rule to do something or not to (`trust.polarity`): its key the action's stems."""
    found = []
    for rule in (required_rule(sentence) or guessed(sentence), contrasted(sentence)):
        if rule is None:
            continue
        key = " ".join(sorted(rule.action))
        words = _WORD_TOKEN.findall(_SPAN.sub(lambda m: m.group(1), rule.said))
        kept = [w for w in words if w.lower() not in _POLARITY_SHOWN]
        while kept and kept[0].lower() in _DETERMINERS:
            kept.pop(0)  # "the agent never runs…": what it runs
        shown = " ".join(kept)[:60].lower()
        found.append(Claim(number, "always-never", key, rule.polarity, f"whether to {shown}"))
        if (gate := gated(rule, " ".join(kept).lower())) is not None:  # never X unasked
            found.append(Claim(number, "always-never", *gate))
    return found


def group_keys(claim: Claim) -> tuple[str, ...]:
    """What claims are compared by: the key — a port's service's names, a tool's kind, a
    version's product, a setting's name, a count's thing (what each holds for and where is
    `same_thing`'s), and for a path or a command of three stems or more, also the key
    without each one (its verb: "The CI workflows reside in…" and "Find the CI workflows
    under…") — see `same_thing`."""
    if claim.kind == "port":
        return tuple(filter(None, claim.key.split("|")[:2]))  # its service's names
    if claim.kind == "tool":
        head = claim.key.split(":", 1)[0]
        if head.startswith(PAIR):  # a pair meets the uses of each of its two
            return (head, *(USING + name for name in head.removeprefix(PAIR).split(" and ")))
        return (head,)
    if claim.key.startswith(STYLE):  # its property's: the things are `same_thing`'s
        return (claim.key.split(":", 2)[1],)
    if claim.key.startswith(AMOUNT):  # its kind and each word of what it is of
        return amount_groups(claim.key.removeprefix(AMOUNT))
    if claim.kind in ("version", "setting") or claim.key.startswith("count:"):
        return (claim.key.split("|", 1)[0],)
    stems = claim.key.split()
    if claim.kind == "always-never":  # met by what is done; when it holds is `opposite`'s
        keyed = _keyed(claim)  # and by its key (`rule_key`), a gate on its action a `never`
        said = (_rule_groups(claim.value, frozenset(stems)), _rule_groups(*keyed))
        return tuple(dict.fromkeys(itertools.chain(*said)))
    if claim.kind in ("path", "command") and len(stems) >= 3:
        fewer = (" ".join(stems[:i] + stems[i + 1 :]) for i in range(len(stems)))
        return (claim.key, *fewer)
    return (claim.key,)


def _rule_groups(polarity: str, action: frozenset[str]) -> tuple[str, ...]:
    """A rule's group keys: what is done, by its letters (a compound in one word or two is
    one); an `always` rule's each part too (it opposes a `never` of a part of it)."""
    stems = sorted(compounds_once(_done_of(action)))
    if polarity != "always":  # never, or optional: the narrower side
        return (_letters(stems),)
    sizes = range(max(2, len(stems) - MAX_EXTRA), len(stems))
    parts = (_letters(part) for size in sizes for part in itertools.combinations(stems, size))
    return (_letters(stems), *parts)


def _keyed(claim: Claim) -> RuleKey:  # an always-never claim's (`trust.rule_key`)
    return key_of(claim.value, frozenset(claim.key.split()))


def _same_action(one: frozenset[str], other: frozenset[str]) -> bool:
    """Whether two rules' actions are one, or one the other's and up to `MAX_EXTRA` more."""
    fewer, more = sorted(compounds_alike(_done_of(one), _done_of(other)), key=len)
    return len(fewer) >= 2 and fewer <= more and len(more) - len(fewer) <= MAX_EXTRA


def same_thing(one: Claim, other: Claim) -> bool:
    """Whether two claims are about one thing: the same key — for a port, also one
    subject the other's but for one word before it, a verb or a qualifier ("open
    grafana", "local minio": Grafana's, MinIO's); for a path or a command, also one's
    stems the other's but one, two of them at least (a verb the other does not say)."""
    if one.kind != other.kind:
        return False
    if one.key == other.key:
        return True
    if one.kind == "port":
        return same_service(one.key, other.key)
    if one.kind == "version":
        return same_use(one.key, other.key)
    if one.kind == "setting":
        return same_setting(one.key, other.key)
    if one.key.startswith(STYLE) and other.key.startswith(STYLE):
        return same_style(one.key, other.key)
    if one.key.startswith(AMOUNT) and other.key.startswith(AMOUNT):
        return same_amount(one.key.removeprefix(AMOUNT), other.key.removeprefix(AMOUNT))
    if one.kind == "value" and one.key.startswith("count:") and other.key.startswith("count:"):
        return same_count(one.key.removeprefix("count:"), other.key.removeprefix("count:"))
    if one.kind in ("path", "command"):
        small, large = sorted((set(one.key.split()), set(other.key.split())), key=len)
        return len(small) >= 2 and small <= large and len(large) - len(small) == 1
    if one.kind == "always-never":
        if _same_action(frozenset(one.key.split()), frozenset(other.key.split())):
            return True
        return _same_action(_keyed(one).stems, _keyed(other).stems)
    if one.kind == "tool" and one.key.startswith(IN_USE):  # one name's: `uses_clash` tells
        return other.key.partition(":")[0] == one.key.partition(":")[0]
    if one.kind == "tool" and one.key.startswith(JOB):
        return other.key.startswith(JOB) and same_job(one[2:4], other[2:4])
    if one.kind == "tool" and one.key.startswith((PAIR, USING)):
        return _same_choice(one.key, other.key)
    if one.kind == "tool":
        # One kind, for the same part of the project or for all of it ("Use pnpm for
        # the web app" says nothing of the docs site's).
        kind, _, scope = one.key.partition(":")
        other_kind, _, other_scope = other.key.partition(":")
        mine, theirs = set(scope.split()), set(other_scope.split())
        if USED_FOR in mine | theirs:  # a use's clause: its part said by a choice too
            return kind == other_kind and bool(mine & theirs - {USED_FOR})
        if not mine or not theirs:  # the whole project: not its old part ("the old admin")
            return kind == other_kind and not (mine | theirs) & OLD_PART
        return kind == other_kind and bool(mine & theirs)
    return False


def _same_choice(one: str, other: str) -> bool:
    """Whether a choice between two and another, or a use of one of them, are about one
    thing: the same pair, or a use of one of its two, for the same purpose (one's the
    other's or a part of it) or, two choices, both for no purpose said."""
    head, _, scope = one.partition(":")
    other_head, _, other_scope = other.partition(":")
    if head.startswith(USING) and other_head.startswith(PAIR):
        head, scope, other_head, other_scope = other_head, other_scope, head, scope
    if not head.startswith(PAIR):
        return False  # two uses say nothing of each other
    if other_head.startswith(USING):
        names = head.removeprefix(PAIR).split(" and ")
        if other_head.removeprefix(USING) not in names or not scope:
            return False
    elif other_head != head:
        return False
    small, large = sorted((set(scope.split()), set(other_scope.split())), key=len)
    return small <= large and (bool(small) or not large)


def contradict(one: Claim, other: Claim) -> bool:
    """Whether two claims about one thing say different things."""
    if not same_thing(one, other):
        return False
    if one.kind == "version":
        return versions_differ(one.value, other.value)
    if one.kind == "tool" and one.key.startswith(IN_USE):
        return uses_clash(one[2:4], other[2:4])
    if one.kind == "tool":
        a, b = one.value, other.value
        if a.startswith("not:") and b.startswith("not:"):
            return False
        if a.startswith("not:") or b.startswith("not:"):
            # One tool ruled out for a part ("for the scheduled reports") says nothing of
            # a use that names no part: it may be another job ("Celery handles the retries").
            ruled, use = (one, other) if a.startswith("not:") else (other, one)
            part_only = bool(ruled.key.partition(":")[2]) and not use.key.partition(":")[2]
            return a.removeprefix("not:") == b.removeprefix("not:") and not part_only
        return a != b
    if one.kind in ("command", "path"):
        return not _extends(one.value, other.value)
    if one.kind == "always-never":
        keyed, their_keyed = _keyed(one), _keyed(other)
        if GATE not in keyed.stems | their_keyed.stems:  # a gate opposes only leave
            mine, theirs = compounds_alike(frozenset(one.key.split()), frozenset(other.key.split()))
            if opposite(_rule(one.value, mine), _rule(other.value, theirs)):
                return True
        mine, theirs = compounds_alike(keyed.stems, their_keyed.stems)
        return opposite_keys(keyed._replace(stems=mine), their_keyed._replace(stems=theirs))
    if one.key.startswith(STYLE):  # kebab-case is lowercase: they may both hold
        return style_values_disagree(one.value, other.value)
    if one.key.startswith("days:"):  # one day in both: they may both hold
        return not set(one.value.split(" and ")) & set(other.value.split(" and "))
    return one.value != other.value and not same_schedule(one.value, other.value)


def _done_of(action: frozenset[str]) -> frozenset[str]:
    """A rule's stems of what is done (its markers of when aside)."""
    return frozenset(stem for stem in action if not stem.startswith(WHEN))


def _rule(polarity: str, action: frozenset[str]) -> Rule:
    return Rule(polarity, action, "")  # type: ignore[arg-type]


def _letters(stems: Iterable[str]) -> str:
    """A set of stems by its consonants (`skeleton`), in no order: the same for a compound
    written as one word or two."""
    return "".join(sorted("".join(map(skeleton, stems))))


def _extends(one: str, other: str) -> bool:
    """Whether one command or path is the other made more precise (`pnpm test` / `pnpm
    test --filter api`, `db/` / `db/migrations`), or the same."""
    short, long = sorted((one, other), key=len)
    if long == short:
        return True
    sep = "/" if "/" in short and " " not in short else " "
    return long.startswith(short + sep) or long.startswith(short.rstrip("/") + "/")


VALUED = frozenset({"port", "version", "setting", "value"})
"""The kinds of claim that give a thing a value (a tool, a command, a path and a rule are
the other questions)."""


def values_disagree(one: str, other: str) -> bool:
    """Whether statements `one` and `other` give one thing different values — a port, a
    version, a setting, an amount, a day, a time, a branch or host of a role — the same
    value in other words ("30s" / "half a minute", "Node 20" / "node@20") not: what the
    duplicates ask before calling two notes one ("wiped every Sunday" / "…Wednesday")."""
    mine = [claim for claim in sentence_claims(one) if claim.kind in VALUED]
    if not mine:
        return False
    theirs = [claim for claim in sentence_claims(other) if claim.kind in VALUED]
    return any(contradict(a, b) for a in mine for b in theirs)
