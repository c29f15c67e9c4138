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
- `tool`: which tool of a kind to use ("Use pnpm, not npm", "We switched from jest to
  vitest"): the key the kind (`TOOL_KINDS`: package managers, test runners…), the value
  the tool used (a sentence may also say which is not: "not:npm");
- `always-never`: a rule always or never to do something ("Always squash-merge", "Never
  squash-merge PRs", "Don't rebase on main", a plain "Rebase on main before review"):
  the key what is done (`trust.polarity`), the value `always` or `never`; a `never` rule
  opposes an `always` rule of the same action or one that says a little more of it.
"""

from __future__ import annotations

import functools
import itertools
import re
from typing import NamedTuple

from memtab.check.markdown import scan_markdown
from memtab.check.rules.facts import facts_of, what
from memtab.check.wording import is_example
from memtab.store.text.near_duplicates import lowered_words
from memtab.trust.polarity import IMPERATIVES, MAX_EXTRA, Rule, opposite, rule_of
from memtab.trust.values import value_of
from memtab.trust.words import content_lines, statements, stems_of

_FACT_NEEDLES = re.compile(
    r"\bport\b|\bversion\b|\bon\s+:?\d{2,5}\b|localhost|127\.0\.0\.1|0\.0\.0\.0|`[A-Z][A-Z0-9]*_[A-Z0-9_]+=|"
    r"\b(?:postgres(?:ql)?|mysql|mariadb|redis|mongodb|python|node(?:\.?js)?|react|vue|angular|"
    r"django|rails|ruby|golang|java|typescript|next\.?js|nuxt|svelte|flask|fastapi|kotlin|"
    r"swift|php|laravel|elixir|erlang|rust|deno|tailwind(?:css)?|vite|webpack|jest|vitest|"
    r"pytest|sqlalchemy|pydantic|kubernetes|terraform|ubuntu|debian|alpine|nginx|"
    r"elasticsearch|kafka|rabbitmq|sqlite|dotnet|\.net|gradle|spring)\s+v?\d",
    re.IGNORECASE,
)
"""What a sentence holds when the check's facts may be in it (most hold none: the scan is
skipped)."""
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
check's own list, `check.wording`, also reads "migration" so: too wide for a claim)."""
_AT_LOCALHOST = re.compile(
    r"^(?:the\s+)?(?P<subject>[A-Za-z][\w .+-]{0,40}?)\s+(?:is|are)\s+at\s+(?:https?://)?"
    r"(?:localhost|127\.0\.0\.1|0\.0\.0\.0):(?P<value>\d{2,5})\b",
    re.IGNORECASE,
)
"""A port the check's facts do not read: "The docs site is at localhost:4000"."""
_LOCAL_ADDRESS = r"(?:https?://)?(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\]):(?P<value>\d{2,5})\b"
_LOCAL_PORT = re.compile(r"(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\]):(\d{2,5})\b")
_BEFORE_ADDRESS = re.compile(
    r"^(?P<subject>[A-Za-z][\w .+-]{0,40}?)\s*(?::|\bat\b|\bon\b)\s*" + _LOCAL_ADDRESS + r"/?\W*$",
    re.IGNORECASE,
)
"""A label, a local address, and nothing after it: "Local MinIO: http://localhost:9000",
"Open the storybook at http://127.0.0.1:6006/" (the subject: after its last article)."""
_VERB_PORT = re.compile(
    r"^(?P<subject>[A-Za-z][\w .+-]{0,40}?)\s+[a-z]+s\s+(?:to|on|at)\s+port\s+"
    r"(?P<value>\d{2,5})\W*$",
    re.IGNORECASE,
)
"""A subject, its verb and a port: "The worker dashboard binds to port 6006" (the check's
facts read the verbs it knows; any verb of the subject's does here)."""
_ON_PORT = re.compile(
    r"^(?P<subject>[A-Za-z][\w .+-]{0,60}?)\s+(?:on|at)\s+port\s+(?P<value>\d{2,5})\W*$",
    re.IGNORECASE,
)
"""Anything said of a subject on a port: "You can reach the docs site on port 9000"."""
_PERSONS = frozenset({"i", "you", "we", "they", "one"})
_PORT_NUMBERS = re.compile(r"\bport\s+(\d{2,5})\b", re.IGNORECASE)
_PLACE_PREPOSITIONS = frozenset({"in", "under", "inside"})
_DETERMINERS = frozenset({"the", "a", "an", "our", "your", "its", "their"})
_LABELLED_VERSION = re.compile(
    r"^(?:the\s+|our\s+)?(?P<product>[A-Za-z][\w.+-]*)(?:\s+version)?\s*(?::|=|\bis\b)\s*"
    r"(?:version\s+)?v?(?P<value>\d+(?:\.\d+){0,2})\W*$",
    re.IGNORECASE,
)
"""A version said as a label and a value: "Redis version: 7", "The Postgres version is
16", "Node: version 18" (read as the check reads "Redis 7": of a product it knows)."""
_SPAN = re.compile(r"`([^`\n]+)`")
_LABEL = re.compile(r"^[A-Za-z][\w .'-]{0,40}:\s*`[^`\n]+`\W*$")
"""A label and one code span, nothing else: "The seed data: `db/seeds`"."""
_COMMAND = re.compile(r"^(?:\./\S|[a-z][a-z0-9_.+-]*\s+\S)")
_ASSIGNMENT = re.compile(r"^\S[^\s=]*=\S*$")  # one split: `\S+=` backtracks over each `=`
_PATH_SHAPE = re.compile(r"^(?:~|\.{1,2})?/?(?:[\w.@-]+/)+[\w.@-]*$|^[\w-]+\.[a-z0-9]{1,5}$")
_BARE_PATH = re.compile(r"(?<![\w`/.-])((?:[\w.-]+/)+[\w.-]*)(?![\w/`-])")
_COMMAND_WORDS = frozenset(
    {"run", "runs", "execut", "command", "invok", "call", "via", "type", "script", "start",
     "need", "pass", "give", "way", "suit", "whole", "entir", "full", "local"}
)  # fmt: skip
"""Stems every command sentence may hold: not what the command is for."""
_LOCATION = re.compile(
    r"\b(?:lives?|living|are|is|kept|sits?|stored|found|located|holds?|go|goes|belongs?)\s+"
    r"(?:in|under|at|inside)\b|\bholds?\b|\bunder\b",
    re.IGNORECASE,
)
_LOCATION_STEMS = frozenset(
    {"live", "kept", "sit", "store", "found", "locat", "hold", "go", "goe", "belong", "find",
     "look", "all", "file", "folder", "directori", "dir", "path"}
)  # fmt: skip

TOOL_KINDS: dict[str, tuple[str, ...]] = {
    "JavaScript package manager": ("npm", "pnpm", "yarn", "bun"),
    "Python package manager": ("pip", "uv", "poetry", "pipenv", "conda", "pdm", "rye"),
    "JavaScript test runner": ("jest", "vitest", "mocha", "jasmine"),
    "Python test runner": ("pytest", "unittest", "nose2"),
    "JavaScript linter": ("eslint", "biome", "oxlint"),
    "Python linter": ("ruff", "flake8", "pylint", "pyflakes"),
    "Python formatter": ("yapf", "autopep8"),
    "container runtime": ("docker", "podman", "nerdctl"),
    "bundler": ("webpack", "vite", "esbuild", "rollup", "parcel", "rspack", "turbopack"),
    "JavaScript runtime": ("nodejs", "deno"),
    "version manager": ("nvm", "fnm", "asdf", "mise", "pyenv"),
    "HTTP client": ("axios", "ky", "httpx", "aiohttp"),
    "type checker": ("mypy", "pyright", "pyre"),
    "release builder": ("goreleaser", "semantic-release", "release-please"),
    "CSV library": ("papaparse", "csv-stringify", "fast-csv"),
    "editor": ("nvim", "neovim", "vscode", "emacs"),
}
"""Tools one of which a project uses for a job: two memories naming two of one kind as
the one to use contradict each other. A tool whose name is a common English word (`got`,
`requests`, `black`, `node`) is left out: a sentence naming the word says nothing of it."""
_TOOL_KIND = {tool: kind for kind, tools in TOOL_KINDS.items() for tool in tools}
_SIGNS = re.compile(r"[`/\d]")
_TRIGGER_WORDS = frozenset(
    {"always", "never", "don", "dont", "not", "must", "mustn", "shouldn", "avoid", "stop", "make",
     "sure", *_TOOL_KIND, *IMPERATIVES}
)  # fmt: skip
"""What every sentence that claims something holds: a number, a code span or path
(`_SIGNS`), always or never, a verb a rule starts with, or a tool's name — the other
patterns run only where one is (one alternation of words costs ~25 µs a line in `re`; a
set lookup of its words, ~1)."""
_TOOL_WORD = re.compile(
    r"(?<![\w./@-])(" + "|".join(sorted(_TOOL_KIND, key=len, reverse=True)) + r")(?![\w/@-])"
)
_USE_CUE = re.compile(
    r"\b(?:use|uses|using|used|prefer|prefers|preferred|switch(?:ed)?\s+(?:from|to)|stick\s+to|"
    r"go\s+with|adopt(?:ed)?|replace[sd]?|only|always|never|not|instead\s+of|rather\s+than|over|"
    r"via|with|is|are|runs?\s+on|now)\b|:",
    re.IGNORECASE,
)
_CLAUSE_END = re.compile(r"[;,:]\s+|\.\s+|(?<!\s)\s++(?:but|[—–-])\s+")  # a run's first space
_NEGATED_CLAUSE = re.compile(
    r"\b(?:not|never|no|avoid|don't|do not|without|forbidden|banned|disallowed)\b"
)
_WORD_TOKEN = re.compile(r"[\w'-]+")
_FROM = re.compile(r"\bfrom\b")
_NEGATED_BETWEEN = re.compile(r"(?:not|instead of|rather than|over|never)\s")
_WITH = re.compile(r"\bwith\b")
_REPLACE = re.compile(r"\breplace")
_COMPARED = re.compile(r"\b(?:than|like|vs\.?|versus)\s+$")
_NEGATION = re.compile(r"\b(?:not|no|never|avoid|without|don't|do not|instead of|rather than)\s+$")
_POLARITY_SHOWN = frozenset(
    {"always", "never", "ever", "don't", "do", "not", "must", "mustn't", "make", "sure", "to"}
)


class Claim(NamedTuple):
    """A value one line states for one thing (see the module doc)."""

    line: int
    kind: str
    key: str
    value: str
    shown: str
    """What the claim is about, in words ("the API's port", "the tests' command")."""


def claims_of(text: str) -> tuple[Claim, ...]:
    """Every claim of a memory's text, line by line (see the module doc)."""
    found: list[Claim] = []
    for line in content_lines(text):
        if line.code or not _triggered(line.text):
            continue
        for sentence in statements(line.text):
            found += [claim._replace(line=line.number) for claim in _claims(sentence)]
    return tuple(found)


def _triggered(text: str) -> bool:
    return _SIGNS.search(text) is not None or not _TRIGGER_WORDS.isdisjoint(lowered_words(text))


def sentence_claims(sentence: str) -> tuple[Claim, ...]:
    """What one sentence claims (its line 0)."""
    return _claims(sentence)


@functools.lru_cache(maxsize=8192)
def _claims(sentence: str) -> tuple[Claim, ...]:
    """What one sentence claims (line 0: the caller's line is set on each), worked out
    once per sentence (templates and copies repeat theirs)."""
    if not _triggered(sentence):
        return ()
    if _FACT_NEEDLES.search(sentence):
        facts = _facts(0, sentence)
        if facts:
            return tuple(facts)
    if _ALTERNATIVES.search(sentence) or is_example(sentence):
        return ()
    if _PAST.search(sentence) or _GONE.search(sentence):
        # What was says nothing of what is, but of a tool it can say both: "We moved to
        # bun, pnpm is gone", "CSV is written with csv-stringify (papaparse was removed)".
        return tuple(_moved_tools(sentence)) if _PAST.search(sentence) else _gone(sentence)
    found = _tools(0, sentence)
    if _GONE.search(sentence):
        return tuple(found)
    found += _polarity(0, sentence)
    if _CONDITIONS.search(sentence) is None:
        found += _command_or_path(0, sentence, _SPAN.findall(sentence))
        if not found and (given := value_of(sentence)) is not None:
            frame, value = given
            found.append(Claim(0, "value", frame, value, f"the {frame} said"))
    return tuple(found)


def _gone(sentence: str) -> tuple[Claim, ...]:
    moved = _moved_tools(sentence)
    return tuple(moved) if moved else tuple(_tools(0, sentence))


_CLAUSE_BREAK = re.compile(r";|\s[—–]\s|\.\s")
_MOVED_TO = re.compile(r"\b(?:moved|switched|migrated)\s+(?:[\w.-]+\s+){0,3}?to\b")
_TOOL_CLAUSE = re.compile(r"[;,(—–]\s*|\)\s*|\.\s+|(?<!\s)\s++but\s+")  # a run's first space


def _moved_tools(sentence: str) -> list[Claim]:
    """A change of tool a sentence tells, clause by clause: a clause saying a tool is gone
    (`_PAST`, `_GONE`) says not to use it; another naming one of its kind, that it is the
    one used now ("We dropped goreleaser; releases are built with ko now")."""
    lowered = _SPAN.sub(" ", sentence).lower()
    used: list[str] = []
    unused: list[str] = []
    for clause in _TOOL_CLAUSE.split(lowered):
        named = list(dict.fromkeys(m.group(1) for m in _TOOL_WORD.finditer(clause)))
        if len(named) != 1:
            continue
        gone = _PAST.search(clause) or _GONE.search(clause)
        moved_to = _MOVED_TO.search(clause)
        (used if moved_to or not gone else unused).append(named[0])
    kinds = {_TOOL_KIND[tool] for tool in (*used, *unused)}
    if not unused or len(kinds) != 1 or len(set(used)) > 1:
        return []
    kind = kinds.pop()
    shown = f"the {kind} to use"
    claims = [Claim(0, "tool", kind, used[0], shown)] if used else []
    return claims + [Claim(0, "tool", kind, f"not:{tool}", shown) for tool in dict.fromkeys(unused)]


def _facts(number: int, sentence: str) -> list[Claim]:
    """The check's facts of a sentence — also when it says them as a label and a value
    ("Redis version: 7", "The Postgres version is 16": the check's "Redis 7") — and a port
    at a local address the check does not read ("The docs site is at localhost:4000",
    "Local MinIO: http://localhost:9000")."""
    facts = facts_of(scan_markdown(sentence))
    plain = _PAST.search(sentence) is None and _ALTERNATIVES.search(sentence) is None
    if not facts and plain and (labelled := _LABELLED_VERSION.search(sentence)) is not None:
        facts = facts_of(scan_markdown(f"{labelled['product']} {labelled['value']}"))
    if facts:
        return [Claim(number, f.kind, f.key, f.value, what(f)) for f in facts]
    ports = set(_LOCAL_PORT.findall(sentence)) | set(_PORT_NUMBERS.findall(sentence))
    if len(ports) != 1 or _CONDITIONS.search(sentence) or _PAST.search(sentence):
        return []
    if _ALTERNATIVES.search(sentence):
        return []
    at = (
        _AT_LOCALHOST.match(sentence.strip())
        or _BEFORE_ADDRESS.match(sentence.strip())
        or _VERB_PORT.match(sentence.strip())
        or _ON_PORT.match(sentence.strip())
    )
    if at is None:
        return []
    written = at.group("subject").split()
    cut = max((i + 1 for i, w in enumerate(written) if w.lower() in _DETERMINERS), default=0)
    if not cut and written and written[0].lower() in _PERSONS:
        # "You can reach MinIO on port…": the person and their verbs go, up to the name.
        cut = next((i for i, w in enumerate(written) if w[:1].isupper() and i), len(written))
    subject = " ".join(written[cut:])
    if not subject:
        return []
    return [Claim(number, "port", subject.lower(), at.group("value"), f"{subject}'s port")]


def _command_or_path(number: int, sentence: str, spans: list[str]) -> list[Claim]:
    paths = [s for s in spans if _PATH_SHAPE.match(s)]
    commands = [
        s for s in spans if s not in paths and _COMMAND.match(s) and not _ASSIGNMENT.match(s)
    ]
    if not paths and not spans:
        paths = _BARE_PATH.findall(sentence)
    rest = _SPAN.sub(" ", sentence)
    placed = _LABEL.match(sentence.strip()) is not None or _LOCATION.search(rest) is not None
    if len(paths) == 1 and not placed:  # "Look in `db/seeds` for…": a place's preposition
        at = sentence.find(f"`{paths[0]}`")
        before = sentence[:at].split() if at > 0 else []
        placed = bool(before) and before[-1].lower() in _PLACE_PREPOSITIONS
    if len(paths) == 1 and not commands and placed:
        stems = [s for s in stems_of(rest) if s not in _LOCATION_STEMS]
        if 1 <= len(stems) <= 5:
            key = " ".join(sorted(set(stems)))
            return [Claim(number, "path", key, paths[0].rstrip("/"), f"where {_thing(rest)} live")]
    if len(commands) == 1 and len(spans) == 1:
        # The purpose is a noun phrase: what follows the last article ("Kick off the api
        # tests via…" is the api tests'), or all of it where there is none.
        words = rest.split()
        cut = max((i + 1 for i, w in enumerate(words) if w.lower() in _DETERMINERS), default=0)
        purpose = " ".join(words[cut:]) if cut < len(words) else rest
        stems = [s for s in stems_of(purpose) if s not in _COMMAND_WORDS]
        if not stems:
            stems = [s for s in stems_of(rest) if s not in _COMMAND_WORDS]
        if 1 <= len(stems) <= 5:
            key = " ".join(sorted(set(stems)))
            value = " ".join(commands[0].split())
            return [Claim(number, "command", key, value, f"the command for {_thing(rest)}")]
    return []


def _thing(rest: str) -> str:
    words = [w for w in _WORD_TOKEN.findall(rest) if w.lower() not in _THING_SKIP]
    return " ".join(words[:4]).lower() or "it"


_THING_SKIP = frozenset(
    {"live", "lives", "in", "under", "are", "is", "kept", "the", "all", "of", "holds", "hold",
     "you", "will", "find", "look", "for", "sit", "sits", "at", "stored", "located", "found",
     "with", "use", "run", "runs", "to", "a", "an", "command", "via", "type"}
)  # fmt: skip


def _tools(number: int, sentence: str) -> list[Claim]:
    lowered = _SPAN.sub(" ", sentence).lower()  # a command in backticks is no choice of tool
    named = [(m.start(), m.group(1)) for m in _TOOL_WORD.finditer(lowered)]
    if not named or not any(
        _TOOL_WORD.search(clause) and _USE_CUE.search(clause)
        for clause in _TOOL_CLAUSE.split(lowered)
    ):
        return []  # a cue in the clause that names the tool ("runs in Docker; the tests use it")
    kinds = {_TOOL_KIND[tool] for _, tool in named}
    if len(kinds) != 1 or len({tool for _, tool in named}) > 2:
        return []
    kind = kinds.pop()
    tools = list(dict.fromkeys(tool for _, tool in named))
    used, unused = _which_is_used(lowered, named, tools)
    if used is None:
        return []
    scope = _scope(next(c for c in _TOOL_CLAUSE.split(lowered) if _TOOL_WORD.search(c)))
    key = f"{kind}:{' '.join(sorted(scope))}" if scope else kind
    shown = f"the {kind} to use" + (f" for {' '.join(sorted(scope))}" if scope else "")
    claims = [Claim(number, "tool", key, used, shown)]
    if unused is not None:
        claims.append(Claim(number, "tool", key, f"not:{unused}", shown))
    return claims


_SCOPE = re.compile(r"\bfor\s+((?:[\w-]+\s*){1,5})")


def _scope(lowered: str) -> frozenset[str]:
    """What a choice of tool holds for, when the sentence says ("for the web app": its
    stems), the tools' names aside: empty for the whole project."""
    found = _SCOPE.search(lowered)
    if found is None:
        return frozenset()
    return frozenset(s for s in stems_of(found.group(1)) if s not in _NO_SCOPE)


_NO_SCOPE = frozenset({*_TOOL_KIND, "everyth", "anyth", "all", "everi", "each", "whole"})
"""Stems a "for …" names when it names no part of the project ("uv for everything")."""


def _which_is_used(
    lowered: str, named: list[tuple[int, str]], tools: list[str]
) -> tuple[str | None, str | None]:
    """The tool a sentence says to use and the one it says not to (None: not said)."""
    if len(tools) == 1:
        start = named[0][0]
        before = lowered[max(0, start - 14) : start]
        if _COMPARED.search(before):
            return None, None  # "much faster than pip": a comparison, no choice of it
        negated = _NEGATION.search(before) is not None
        return (None, tools[0]) if negated else (tools[0], None)
    first, second = tools
    between = lowered[named[0][0] : max(start for start, _ in named)]
    if _CLAUSE_BREAK.search(between):
        return _by_clause(lowered, named)  # "X is not installed; use Y": each clause its own
    if _FROM.search(lowered[: named[0][0]]) and " to " in between:
        return second, first  # switched from Y to X
    if _NEGATED_BETWEEN.search(between):
        return first, second  # X, not Y / X instead of Y / prefer X over Y
    if _WITH.search(between) and _REPLACE.search(lowered):
        return second, first  # replace Y with X
    return _by_clause(lowered, named)


def _by_clause(lowered: str, named: list[tuple[int, str]]) -> tuple[str | None, str | None]:
    """Two tools in two clauses, one of them negated: the other is the one to use
    ("Stick to X; Y is not allowed", "Don't use Y, use X", "X is ours; avoid Y")."""
    bounds = [0, *(m.end() for m in _CLAUSE_END.finditer(lowered)), len(lowered)]
    spans = list(itertools.pairwise(bounds))
    clauses = [lowered[a:b] for a, b in spans]
    where: dict[str, int] = {}
    for start, tool in named:
        index = next((i for i, (a, b) in enumerate(spans) if a <= start < b), len(spans) - 1)
        where.setdefault(tool, index)
    if len(set(where.values())) != 2:
        return None, None
    negated = {tool for tool, index in where.items() if _NEGATED_CLAUSE.search(clauses[index])}
    if len(negated) != 1:
        return None, None
    unused = negated.pop()
    used = next(tool for tool in where if tool != unused)
    return used, unused


def _polarity(number: int, sentence: str) -> list[Claim]:
    """A rule to do something or not to (`trust.polarity`): its key the action's stems."""
    rule = rule_of(sentence)
    if rule is None:
        return []
    key = " ".join(sorted(rule.action))
    words = _WORD_TOKEN.findall(_SPAN.sub(lambda m: m.group(1), rule.said))
    shown = " ".join(w for w in words if w.lower() not in _POLARITY_SHOWN)[:60].lower()
    return [Claim(number, "always-never", key, rule.polarity, f"whether to {shown}")]


def group_keys(claim: Claim) -> tuple[str, ...]:
    """What claims are compared by: the key — a port's subject's last word (its head:
    "Open Grafana at…" and "Grafana binds to…" are of one Grafana), and for a path or a
    command of three stems or more, also the key without each one (its verb: "The CI
    workflows reside in…" and "Find the CI workflows under…") — see `same_thing`."""
    if claim.kind == "port":
        return (claim.key.rsplit(" ", 1)[-1],)
    if claim.kind == "tool":
        return (claim.key.split(":", 1)[0],)  # its kind: the scopes are `same_thing`'s
    stems = claim.key.split()
    if claim.kind == "always-never" and claim.value == "always":
        # An `always` rule opposes a `never` rule of its action or a part of it.
        sizes = range(max(2, len(stems) - MAX_EXTRA), len(stems))
        parts = (" ".join(part) for size in sizes for part in itertools.combinations(stems, size))
        return (claim.key, *parts)
    if claim.kind in ("path", "command") and len(stems) >= 3:
        fewer = (" ".join(stems[:i] + stems[i + 1 :]) for i in range(len(stems)))
        return (claim.key, *fewer)
    return (claim.key,)


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
        short, long = sorted((one.key.split(), other.key.split()), key=len)
        return len(short) >= 1 and long[-len(short) :] == short and len(long) - len(short) == 1
    if one.kind in ("path", "command"):
        small, large = sorted((set(one.key.split()), set(other.key.split())), key=len)
        return len(small) >= 2 and small <= large and len(large) - len(small) == 1
    if one.kind == "always-never":
        small, large = sorted((set(one.key.split()), set(other.key.split())), key=len)
        return len(small) >= 2 and small <= large and len(large) - len(small) <= MAX_EXTRA
    if one.kind == "tool":
        # One kind, for the same part of the project or for all of it ("Use pnpm for
        # the web app" says nothing of the docs site's).
        kind, _, scope = one.key.partition(":")
        other_kind, _, other_scope = other.key.partition(":")
        mine, theirs = set(scope.split()), set(other_scope.split())
        return kind == other_kind and (not mine or not theirs or bool(mine & theirs))
    return False


def contradict(one: Claim, other: Claim) -> bool:
    """Whether two claims about one thing say different things."""
    if not same_thing(one, other):
        return False
    if one.kind == "version":
        left, right = one.value.split("."), other.value.split(".")
        shared = min(len(left), len(right))
        return left[:shared] != right[:shared]
    if one.kind == "tool":
        a, b = one.value, other.value
        if a.startswith("not:") and b.startswith("not:"):
            return False
        if a.startswith("not:") or b.startswith("not:"):
            return a.removeprefix("not:") == b.removeprefix("not:")
        return a != b
    if one.kind in ("command", "path"):
        return not _extends(one.value, other.value)
    if one.kind == "always-never":
        return opposite(_rule(one), _rule(other))
    return one.value != other.value


def _rule(claim: Claim) -> Rule:
    return Rule(claim.value, frozenset(claim.key.split()), "")  # type: ignore[arg-type]


def _extends(one: str, other: str) -> bool:
    """Whether one command or path is the other made more precise (`pnpm test` / `pnpm
    test --filter api`, `db/` / `db/migrations`), or the same."""
    short, long = sorted((one, other), key=len)
    if long == short:
        return True
    sep = "/" if "/" in short and " " not in short else " "
    return long.startswith(short + sep) or long.startswith(short.rstrip("/") + "/")
