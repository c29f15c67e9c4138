"""Two memories that disagree on one fact: a service's port, a product's version, a
setting's value (docs/formats.md §19.3).

Precision over recall. A fact is read only from a sentence that states it plainly — no
"upgrade", "or", no second value of the same kind in it, on a line without "instead of",
"was", "e.g." — in one of three forms:

- a port: "<service> runs|listens|is served… on (port) N", "<service> is on|uses… port N",
  "<service> port: N", "<service> at localhost:N"; the service is the words right before
  (at most four: "Redis in docker-compose"), so two services are never one;
- a version of a well-known product: "Postgres 16", "Python 3.12", "Python is 3.12",
  "Go 1.22", "Node 20" (not "Node 18+", not "Python >= 3.11"; "default Python is 3.11" is
  the default Python's); versions are compared as far as both are precise (16 and 16.2
  agree);
- a setting in code: `MAX_WORKERS=8` (an upper-case name with an underscore), not a
  secret, nor one that names the environment it is for (`NODE_ENV`).

Facts are compared between different files only (one file giving two versions is
telling a story), never a record's (a session's summary says what held then), within what
one workspace sees: global memory with everything, a project's memory with its
workspaces'.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, replace

from memtab.check.markdown import Line, ScannedText, scan_markdown
from memtab.check.wording import is_example, says_gone

_HEDGES = re.compile(
    r"\b(?:or|upgrade|upgraded|upgrading|downgrade|bump|bumped|from|until|before|after|"
    r"default|defaults|usually|typically|either|vs|versus|compatible|support|supports|"
    r"supported|require|requires|required|minimum|min|max|maximum|at least|older|newer|"
    r"later|earlier|prod|production|staging|dev|development|local|locally|test|tests|"
    r"ci|if|when|unless|yet)\b|[<>=~^]=?\s*\d",
    re.IGNORECASE,
)
# Possessive runs: a subject's words and the spaces between them are never split two
# ways, so a long line of words or spaces is read in linear time.
_SUBJECT_WORD = r"(?<![\w.+-])(?!(?:is|are|was|were|be|on|at)\b)[A-Za-z][\w.+-]*+"
_SUBJECT = rf"(?P<subject>{_SUBJECT_WORD}(?:\s++(?:(?:in|on|for|of)\s++)?{_SUBJECT_WORD}){{0,3}})"
_PORT_FORMS = (
    re.compile(
        _SUBJECT
        + r"\s+(?:runs|listens|is\s+served|serves|is\s+running|is\s+exposed|is\s+available|"
        r"binds|is\s+reachable|is\s+up)\s+(?:locally\s+)?on\s+(?:port\s+|:)?(?P<value>\d{2,5})\b",
        re.IGNORECASE,
    ),
    # "<service> is on port N", "<service> uses|exposes|binds port N": a verb of being on,
    # using or opening a port, read before "<service> port N" would take it as the service's.
    re.compile(
        _SUBJECT + r"\s+(?:(?:is|sits|lives)\s+on\s+(?:port\s+|:)|(?:uses|exposes|opens|binds"
        r"|takes|gets|needs|expects|publishes|forwards|maps|occupies|reserves)\s+(?:to\s+)?"
        r"port\s+)(?P<value>\d{2,5})\b",
        re.IGNORECASE,
    ),
    re.compile(
        _SUBJECT + r"(?:'s)?\s+port(?:\s+is|\s*[:=])?\s+(?P<value>\d{2,5})\b", re.IGNORECASE
    ),
    re.compile(
        _SUBJECT + r"(?:\s+(?:is\s+)?(?:served|running|available|reachable|up|exposed))?"
        r"\s+(?:at|on)\s+(?:https?://)?(?:localhost|127\.0\.0\.1|0\.0\.0\.0):(?P<value>\d{2,5})\b",
        re.IGNORECASE,
    ),
)
_DIGIT = re.compile(r"\d")
# Where a sentence ends: its stop, then a space and a capital (`e.g. Postgres` is one).
_SENTENCE_END = re.compile(r"(?<=[a-z0-9)])[.!?](?=\s++[A-Z])")
_PORT_WORDS = re.compile(r"port|localhost|127\.0\.0\.1|0\.0\.0\.0|\bon\b", re.IGNORECASE)
_PORT_NUMBER = re.compile(r"(?<![\w.])(?::)?(\d{2,5})\b")
_NOT_A_SUBJECT = frozenset(
    {"it", "this", "that", "which", "what", "everything", "something", "nothing", "also",
     "and", "then", "now", "still", "always", "must", "should", "will", "can", "the", "a"}
)  # fmt: skip
# A subject starts after the last of these ("make sure the API runs on…" is the API's).
_BEFORE_SUBJECT = frozenset(
    {"the", "a", "an", "our", "your", "my", "its", "their", "that", "which", "make", "sure",
     "ensure", "check", "verify", "and", "so", "then", "now", "note", "remember", "here",
     "there", "where", "is", "are", "be", "to", "of"}
)  # fmt: skip

_PRODUCTS = {
    "postgres": "postgres", "postgresql": "postgres", "mysql": "mysql", "mariadb": "mariadb",
    "redis": "redis", "mongodb": "mongodb", "python": "python", "node": "node",
    "node.js": "node", "nodejs": "node", "react": "react", "vue": "vue", "angular": "angular",
    "django": "django", "rails": "rails", "ruby": "ruby", "golang": "go", "java": "java",
    "typescript": "typescript", "next.js": "next.js", "nextjs": "next.js", "nuxt": "nuxt",
    "svelte": "svelte", "flask": "flask", "fastapi": "fastapi", "kotlin": "kotlin",
    "swift": "swift", "php": "php", "laravel": "laravel", "elixir": "elixir",
    "erlang": "erlang", "rust": "rust", "deno": "deno", "tailwind": "tailwind",
    "tailwindcss": "tailwind", "vite": "vite", "webpack": "webpack", "jest": "jest",
    "vitest": "vitest", "pytest": "pytest", "sqlalchemy": "sqlalchemy", "pydantic": "pydantic",
    "kubernetes": "kubernetes", "terraform": "terraform", "ubuntu": "ubuntu",
    "debian": "debian", "alpine": "alpine", "nginx": "nginx", "elasticsearch": "elasticsearch",
    "kafka": "kafka", "rabbitmq": "rabbitmq", "sqlite": "sqlite", "dotnet": ".net",
    ".net": ".net", "gradle": "gradle", "spring": "spring",
}  # fmt: skip
_VERSION = re.compile(
    r"(?<![\w.@/-])(?P<product>"
    + "|".join(re.escape(p) for p in sorted(_PRODUCTS, key=len, reverse=True))
    + r")\s+v?(?P<value>\d+(?:\.\d+){0,2})(?![\w+*/-]|\.[\dxX*]|\s*(?:\+|x\b|-\s*\d|–))",
    re.IGNORECASE,
)
# "Python is 3.12", "Go 1.22": a dotted version after "is", and Go's (a word otherwise).
_VERSION_IS = re.compile(
    r"(?<![\w.@/-])(?P<product>"
    + "|".join(re.escape(p) for p in sorted(_PRODUCTS, key=len, reverse=True))
    + r")\s+is\s+v?(?P<value>\d+\.\d+(?:\.\d+)?)(?![\w+*/-]|\.[\dxX*]|\s*(?:\+|x\b|-\s*\d|–))",
    re.IGNORECASE,
)
_GO_VERSION = re.compile(
    r"(?<![\w.@/-])(?P<product>Go)\s+(?:is\s+)?v?(?P<value>1\.\d+(?:\.\d+)?)"
    r"(?![\w+*/-]|\.[\dxX*]|\s*(?:\+|x\b|-\s*\d|–))"
)
# "my default Python is 3.11": the version of the user's default, not of a project's (its
# own key), and "default" there is what it is about, not a hedge ("default Node 20 for
# scripts" stays hedged).
_DEFAULT = re.compile(r"\bdefault\s++$", re.IGNORECASE)
_DEFAULT_PRODUCT = re.compile(
    r"\bdefault\s++(?=(?:"
    + "|".join(re.escape(p) for p in sorted(_PRODUCTS, key=len, reverse=True))
    + r"|Go)\s++is\s)",
    re.IGNORECASE,
)
# A number after a space (`v` between): in every match of the three above, found much faster
# than they scan a line that has none for each product's name.
_NUMBER_AFTER_SPACE = re.compile(r"\s[vV]?\d")
_ANY_VERSION = re.compile(r"(?<![\w.])v?\d+\.\d+(?:\.\d+)?(?![\w.])")
_SETTING = re.compile(r"(?<![\w$])(?P<key>[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)=(?P<value>[^\s`'\";,&|]+)")
_ENVIRONMENT_SETTINGS = re.compile(
    r"(?:^|_)(?:ENV|ENVIRONMENT|DEBUG|LOG|LEVEL|MODE|PATH|HOME|DIR|TOKEN|KEY|SECRET|PASSWORD|"
    r"PASS|PWD|AUTH|CREDENTIALS?|URL|URI|DSN|HOST|USER|NAME|ID)(?:_|$)"
)
_PLACEHOLDER_VALUE = re.compile(
    r"^(?:<.*>|x+|\.{2,}|…|changeme|your.*|\$.*|\{.*\})$", re.IGNORECASE
)


@dataclass(frozen=True)
class Fact:
    """One fact a line states: its kind, what it is about (`key`), its value."""

    line: int
    kind: str  # "port" | "version" | "setting"
    key: str
    value: str
    shown: str  # the key as written (for the message)


def facts_of(scanned: ScannedText) -> list[Fact]:
    """Every fact the text states plainly (see the module doc)."""
    found: list[Fact] = []
    for line in scanned.lines:
        if line.fence or line.block is not None or not _DIGIT.search(line.text):
            continue  # every fact has a number in it
        for sentence in _sentences(line):
            candidates = _candidates(sentence)
            if candidates and not _HEDGES.search(_DEFAULT_PRODUCT.sub(" ", sentence.words)):
                found += candidates
        if (
            found
            and found[-1].line == line.number
            and (says_gone(line.words) or is_example(line.words))
        ):
            found = [fact for fact in found if fact.line != line.number]
    return found


def _candidates(line: Line) -> list[Fact]:
    facts = _ports(line.number, line.prose + " " + " ".join(line.spans))
    facts += _versions(line.number, line.text)
    return facts + _settings(line.number, line.spans)


def _sentences(line: Line) -> list[Line]:
    """The line's sentences, each read as a line of its own (a hedge in one says nothing
    of the next: "The API listens on port 3000. The gateway is on /ws in development.");
    split where a sentence ends in its prose, never inside code."""
    ends = [match.end() for match in _SENTENCE_END.finditer(line.prose)]
    if not ends:
        return [line]
    cuts = [0, *ends, len(line.text)]
    pieces = [line.text[start:end] for start, end in itertools.pairwise(cuts)]
    return [replace(scan_markdown(piece).lines[0], number=line.number) for piece in pieces if piece]


def _ports(number: int, text: str) -> list[Fact]:
    if _PORT_WORDS.search(text) is None:
        return []
    if len({m.group(1) for m in _PORT_NUMBER.finditer(text)}) > 1:
        return []  # two numbers that may be ports: a comparison, not a fact
    for form in _PORT_FORMS:
        match = form.search(text)
        if match is None:
            continue
        written = match.group("subject").split()
        cut = max((i + 1 for i, w in enumerate(written) if w.lower() in _BEFORE_SUBJECT), default=0)
        written = written[cut:]
        words = [word.lower() for word in written]
        if not words or words[0] in _NOT_A_SUBJECT or words[-1] in _NOT_A_SUBJECT:
            continue
        return [Fact(number, "port", " ".join(words), match.group("value"), " ".join(written))]
    return []


def _versions(number: int, text: str) -> list[Fact]:
    if _NUMBER_AFTER_SPACE.search(text) is None:  # what every version's match holds
        return []
    if len(_ANY_VERSION.findall(text)) > 1:
        return []
    facts: dict[str, Fact] = {}
    matches = [*_VERSION.finditer(text), *_VERSION_IS.finditer(text), *_GO_VERSION.finditer(text)]
    for match in matches:
        product = _PRODUCTS.get(match.group("product").lower(), "go")
        shown = match["product"]
        if match.re is not _VERSION and _DEFAULT.search(text[: match.start()]):
            product, shown = f"default {product}", f"default {shown}"
        if product in facts:
            return []  # two versions of one product on a line
        facts[product] = Fact(number, "version", product, match.group("value"), shown)
    return list(facts.values())


def _settings(number: int, spans: tuple[str, ...]) -> list[Fact]:
    facts = []
    for span in spans:
        for match in _SETTING.finditer(span):
            key, value = match.group("key"), match.group("value")
            if _ENVIRONMENT_SETTINGS.search(key) or _PLACEHOLDER_VALUE.match(value):
                continue
            facts.append(Fact(number, "setting", key, value, key))
    return facts


def disagree(one: Fact, other: Fact) -> bool:
    """Whether two facts about the same thing give different values (versions compared
    as far as both are precise)."""
    if one.kind != other.kind or one.key != other.key:
        return False
    if one.kind != "version":
        return one.value != other.value
    left, right = one.value.split("."), other.value.split(".")
    shared = min(len(left), len(right))
    return left[:shared] != right[:shared]


def what(fact: Fact) -> str:
    """The fact's subject in words: "API's port", "the Postgres version", "MAX_WORKERS"."""
    if fact.kind == "port":
        return f"{fact.shown}'s port"
    if fact.kind == "version":
        return f"the {fact.shown} version"
    return fact.shown
