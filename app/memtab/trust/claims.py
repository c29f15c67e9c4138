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
- `value`: what a sentence names in words (`reading.named`: a language, days, a time of
  day, a count) or a label gives ("Request timeout: `30s`", `located.value_of`): a
  label's thing is what it is said under — its heading, else its memory — so
  "Credential:" in a note on one tool and in a note on another are two things;
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
from memtab.markdown import LineKind, classify, text_lines
from memtab.store.text.near_duplicates import lowered_words
from memtab.trust.located import WEB_ADDRESS, assigns, command_or_path, value_of
from memtab.trust.polarity import (
    DEONTIC_WORDS,
    IMPERATIVES,
    MAX_EXTRA,
    WHEN,
    Rule,
    contrasted,
    guessed,
    headed,
    opposite,
    required_rule,
    under_never_heading,
)
from memtab.trust.reading.attached import Attached, claimed, said, structured
from memtab.trust.reading.named import DAY_WORDS, LANGUAGES, named, same_count
from memtab.trust.reading.ports import of_project, port_key, ports, same_service
from memtab.trust.reading.scopes import SCOPE_STEMS, scope_of
from memtab.trust.reading.settings import same_setting, setting_key, settings
from memtab.trust.reading.tools import (
    OLD_PART,
    TOOL_WORDS,
    USED_FOR,
    moved_tools,
    tells_change,
    tools,
)
from memtab.trust.reading.versions import same_use, version_key, versions, versions_differ
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
check's own list, `check.wording`, also reads "used to" and "formerly" so: too wide for a
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
     *TOOL_WORDS,
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


def claims_of(text: str, project: str = "", note: str = "") -> tuple[Claim, ...]:
    """Every claim of a memory's text, line by line (see the module doc); `project`: the
    name of the project whose memory it is, whose own service "the API" may be
    (`ports.of_project`); `note`: the memory's name, what a label under no heading is of."""
    found: list[Claim] = []
    headings = _headings(text) if "#" in text else {}
    if "|" in text or "```" in text or "~~~" in text:  # a table's or a config fence's
        for n, attached in structured(text):
            owner = headings.get(n) or note
            given = [*claimed(attached), *_row_value(attached)]
            found += [Claim(n, *kept) for c in given if (kept := _owned(c, owner)) is not None]
    forbidden = under_never_heading(text) if "#" in text else frozenset()
    for line in content_lines(text):
        if line.code:
            continue
        said = statements(line.text)
        if line.number in forbidden:  # "## Don'ts" over "- force-push to `main`"
            said = tuple(headed(sentence) for sentence in said)
        if not _triggered(" ".join(said)):
            continue
        owner = headings.get(line.number) or note
        for sentence in _examples_joined(said):
            read = _claims(sentence)
            found += [
                Claim(line.number, *kept)
                for claim in read
                if (kept := _owned(claim[1:], owner)) is not None
            ]
    if project:
        found = [_of_project(c, project) for c in found]
    return tuple(found)


def _of_project(claim: Claim, project: str) -> Claim:
    """A claim of a project's memory as the project's: its service's other name (`ports.
    of_project`), and a rule's action without the project's name — in its own memory "in
    tallyroom" says where, as "here" does ("Never rebase in tallyroom": never rebase)."""
    if claim.kind == "port":
        return claim._replace(key=of_project(claim.key, project, named=claim.shown[:1].isupper()))
    if claim.kind == "always-never":
        names = set(stems_of(project.replace("-", " ").replace("_", " ")))
        action = [stem for stem in claim.key.split() if stem.strip("'") not in names]
        if action and len(action) < len(claim.key.split()):
            return claim._replace(key=" ".join(action))
    return claim


def _row_value(attached: Attached) -> tuple[tuple[str, str, str, str], ...]:
    """A table cell's value keyed by its row's other cells (`Attached.row`): a row of one name
    in two tables, alike but for this cell, gives it two values."""
    if not attached.row:
        return ()
    name = attached.row.split("|", 1)[0]
    return (("value", f"row:{attached.row}", attached.value, f"a cell of the {name} row"),)


def _headings(text: str) -> dict[int, str]:
    """The heading each line (from 1) is under, in normal form."""
    under: dict[int, str] = {}
    heading = ""
    lines = text_lines(text)
    for number, kind in enumerate(classify(lines), start=1):
        if kind.kind is LineKind.HEADING:
            heading = " ".join(sorted(set(stems_of(kind.text))))
        elif heading:
            under[number] = heading
    return under


_LABEL_ALONE = "@label"
"""Marks a value given under a label of one word: the label of no thing it names."""


def _owned(said: tuple[str, str, str, str], owner: str) -> tuple[str, str, str, str] | None:
    """A claim as what it is under has it (`owner`: its heading's stems, else its memory's
    name): a label of one word's value is the value of that label of it ("Credential:"
    under "## Canva API" is Canva's, `duration_seconds` in an episode's file is that
    episode's); None for a port, version, path or time whose sentence names no thing."""
    kind, key, value, shown = said
    first = key.split("|", 1)[0]
    if not value.strip() or not key:
        return None  # "Page: `   `" gives nothing (and a cache of it would be no claims')
    if (kind in ("port", "version") and not first) or (kind == "path" and not key):
        return None
    if kind == "value" and key == "time:":
        return None
    if kind == "value" and key.endswith(_LABEL_ALONE):
        thing = " ".join(sorted(set(stems_of(owner)))) if owner else ""
        return kind, f"{key.removesuffix(_LABEL_ALONE)}|{thing}", value, shown
    return said


def _examples_joined(sentences: tuple[str, ...]) -> list[str]:
    """A line's sentences, one ending on "e.g." or "i.e." joined to its example."""
    joined: list[str] = []
    for sentence in sentences:
        if joined and joined[-1].endswith(("e.g.", "i.e.")):
            joined[-1] += " " + sentence
        else:
            joined.append(sentence)
    return joined


def _triggered(text: str) -> bool:
    return _SIGNS.search(text) is not None or not _TRIGGER_WORDS.isdisjoint(lowered_words(text))


def sentence_claims(sentence: str) -> tuple[Claim, ...]:
    """What one sentence claims (its line 0), said of no note."""
    return tuple(Claim(0, *s) for c in _claims(sentence) if (s := _owned(c[1:], "")) is not None)


@functools.lru_cache(maxsize=8192)
def _claims(sentence: str) -> tuple[Claim, ...]:
    """What one sentence claims (line 0: the caller's line is set on each), worked out
    once per sentence (templates and copies repeat theirs), its owner left to its line's
    (`_owned`)."""
    if not _triggered(sentence):
        return ()
    said = [
        Claim(0, "value", f"{n.kind}:{n.of}", n.value, n.shown) for n in named(sentence)
    ]  # how each holds is its reading's, the sentence's hedges aside
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
            return tuple(_moved_tools(sentence))
        return _gone(sentence)
    found = _tools(0, sentence)
    if not any(claim.value.startswith("not:") for claim in found):
        # A choice between two is no rule about both ("Use pnpm, not npm").
        found += _polarity(0, sentence)
    if _CONDITIONS.search(sentence) is None:
        spans = _SPAN.findall(sentence)
        found += [Claim(0, *c) for c in command_or_path(sentence, spans)]
        assigned = any(map(assigns, spans))  # a setting's, not a value
        # "Request timeout:"; "Migrations: `pgroll`" says a job's tool and a label's value
        rules_only = all(c.kind == "always-never" for c in found)
        if rules_only and not assigned and (given := value_of(sentence)) is not None:
            frame, value = given
            said = WEB_ADDRESS.sub(" ", _SPAN.sub(" ", sentence)).replace(value, " ")
            alone = len(_WORD_TOKEN.findall(said)) == 1  # "Production: https://…": a label
            key = frame + _LABEL_ALONE if alone else frame
            found.append(Claim(0, "value", key, value, f"the {frame} said"))
    return (*found, *facts)  # a value of no owner yet: its note's (`_owned`)


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
        return (claim.key.split(":", 1)[0],)
    if claim.kind in ("version", "setting") or claim.key.startswith("count:"):
        return (claim.key.split("|", 1)[0],)
    stems = claim.key.split()
    if claim.kind == "always-never":  # met by what is done; when it holds is `opposite`'s
        return _rule_groups(claim.value, frozenset(stems))
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


def _same_action(one: frozenset[str], other: frozenset[str]) -> bool:
    """Whether two rules' actions are one, or one the other's and up to `MAX_EXTRA` more."""
    fewer, more = sorted(compounds_alike(_done_of(one), _done_of(other)), key=len)
    return len(fewer) >= 2 and fewer <= more and len(more) - len(fewer) <= MAX_EXTRA


_ANOTHER = OLD_PART | {"new", "newer", "next"}
"""Stems that make a thing another of its kind ("the new stage's settings" are not the
stages'): never the one stem a path's or command's key may have more."""


def same_thing(one: Claim, other: Claim) -> bool:
    """Whether two claims are about one thing: the same key — for a port, also one
    subject the other's but for one word before it, a verb or a qualifier ("open
    grafana", "local minio": Grafana's, MinIO's); for a path or a command, also one's
    stems the other's but one, two of them at least (a verb the other does not say, not
    `_ANOTHER`'s)."""
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
    if one.kind == "value" and one.key.startswith("count:") and other.key.startswith("count:"):
        return same_count(one.key.removeprefix("count:"), other.key.removeprefix("count:"))
    if one.kind == "command" and one.value.split()[:1] == other.value.split()[:1]:
        return False  # one program's two targets are two jobs, unless said for one purpose
    if one.kind in ("path", "command"):
        small, large = sorted((set(one.key.split()), set(other.key.split())), key=len)
        extra = large - small
        return len(small) >= 2 and small <= large and len(extra) == 1 and not extra & _ANOTHER
    if one.kind == "always-never":
        return _same_action(frozenset(one.key.split()), frozenset(other.key.split()))
    if one.kind == "tool":
        # One kind, for the same part of the project or for all of it ("Use pnpm for
        # the web app" says nothing of the docs site's).
        kind, _, scope = one.key.partition(":")
        other_kind, _, other_scope = other.key.partition(":")
        mine, theirs = set(scope.split()), set(other_scope.split())
        if USED_FOR in mine | theirs:  # what a tool keeps: it meets only a choice for it
            return kind == other_kind and bool(mine & theirs - {USED_FOR})
        if not mine or not theirs:  # the whole project: not its old part ("the old admin")
            return kind == other_kind and not (mine | theirs) & OLD_PART
        return kind == other_kind and bool(mine & theirs)
    return False


def contradict(one: Claim, other: Claim) -> bool:
    """Whether two claims about one thing say different things."""
    if not same_thing(one, other):
        return False
    if one.kind == "version":
        return versions_differ(one.value, other.value)
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
        mine, theirs = compounds_alike(frozenset(one.key.split()), frozenset(other.key.split()))
        return opposite(_rule(one.value, mine), _rule(other.value, theirs))
    if one.key.startswith("days:"):  # one day in both: they may both hold
        return not set(one.value.split(" and ")) & set(other.value.split(" and "))
    return one.value != other.value


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
