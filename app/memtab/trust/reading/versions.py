"""The version of a product a sentence says is used (docs/formats.md §19.6).

A version is a product's name and a number right after it — "Node 22", "PG 14", "Go
1.23", "golangci-lint 1.61", "React Native 0.74", "Redis version: 7" — one of a product
in its clause, not a range ("Node 18+", ">= 3.11", "3.x") nor a count ("Task 1", "Sprint
12", "3 retries"). A clause that says what was, what will be, what may be or what holds
only at times gives none ("Node 16 is gone; we're on Node 20" says 20); "upgraded to" says
what is. What the version is *for* — the noun before its verb ("The analytics DB is
Postgres 13"), or after "for" ("Go 1.22 for the CLI") — and where (`scopes`) tell two
uses of one product apart: two versions contradict when both are for the same thing, or
one is said for nothing in particular.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from memtab.trust.reading.scopes import (
    HEDGED,
    SCOPE_STEMS,
    Scope,
    pack,
    same_place,
    scope_of,
    unpack,
)
from memtab.trust.words import stems_of

_ALIASES = {
    "pg": "postgres", "postgresql": "postgres", "psql": "postgres", "k8s": "kubernetes",
    "node.js": "node", "nodejs": "node", "golang": "go", "py": "python", "ts": "typescript",
    "tailwindcss": "tailwind", "nextjs": "next.js", "jdk": "java", "openjdk": "java",
}  # fmt: skip
_KNOWN = frozenset(
    {"postgres", "mysql", "mariadb", "redis", "mongodb", "python", "node", "react", "vue",
     "angular", "django", "rails", "ruby", "go", "java", "typescript", "next.js", "nuxt",
     "svelte", "flask", "fastapi", "kotlin", "swift", "php", "laravel", "elixir", "erlang",
     "rust", "deno", "tailwind", "vite", "webpack", "jest", "vitest", "pytest", "sqlalchemy",
     "pydantic", "kubernetes", "terraform", "ubuntu", "debian", "alpine", "nginx",
     "elasticsearch", "kafka", "rabbitmq", "sqlite", "gradle", "spring", "helm", "mypy",
     "ruff", "eslint", "pnpm", "npm", "yarn", "bun", "uv", "poetry", "pip", "docker",
     "sphinx", "fastify", "express", "nestjs", "prisma", "celery", "opentofu", "bazel"}
    | set(_ALIASES)
)  # fmt: skip
"""Products written in lower case as often as not (any capitalised name is read too)."""
_NOT_PRODUCTS = frozenset(
    {"task", "step", "sprint", "issue", "phase", "page", "chapter", "room", "level", "tier",
     "day", "week", "month", "year", "port", "pr", "ticket", "release", "option", "section",
     "part", "item", "rule", "line", "figure", "table", "case", "test", "tests", "round",
     "batch", "stage", "slot", "team", "floor", "version", "v", "q", "no", "number", "the",
     "we", "i", "our", "in", "on", "at", "is", "are", "of", "and", "or", "to", "for", "with",
     "since", "from", "by", "top", "about", "over", "under", "after", "before", "than",
     "every", "each", "all", "last", "first", "next", "only", "max", "min", "up", "keep",
     "use", "run", "wait", "retry", "retries", "uses", "runs", "targets", "target"}
)  # fmt: skip
_NAME = (
    r"(?!(?i:" + "|".join(sorted(_NOT_PRODUCTS, key=len, reverse=True)) + r")\b)"
    r"(?:[A-Z][\w.+#-]*(?:\s+[A-Z][\w.+-]*)?|[a-z][a-z0-9]*(?:[.-][a-z0-9]+)+|[a-z][a-z0-9]+)"
)
"""A product's name: capitalised (one or two words: "React Native"), or in lower case."""
VERSION_NUMBER = (
    r"(?!0\d)(?:\d{4}\.\d{1,4}(?:\.\d{1,4})?|\d{1,3}(?:\.\d{1,4}){0,2})(?:(?:a|b|rc|f|p)\d{1,3})?"
)
"""A version's number: up to three parts ("20", "3.11", "1.61.0"), a year's first when it has
more ("Unity 2022.3.45f1", "6000.0.23f1"), a pre-release or build suffix ("3.13.0rc1")."""
_VERSION = re.compile(
    r"(?<![\w.@/#-])(?P<product>" + _NAME + r")"
    r"(?:\s+version)?(?:\s*:\s*|\s+is\s+|\s+|@)(?:version\s+)?v?"
    r"(?P<value>" + VERSION_NUMBER + r")"
    r"(?![\w+*/%:-]|\.[\dxX*]|\s*(?:\+(?!\s+[A-Z])|x\b|-\s*\d|–|to\s+\d|or\s+\d|and\s+\d|/))"
)
"""A product's name and its version: not a range ("Node 18+"), but a plus before another
product's name joins the two ("Postgres 15 + TimescaleDB")."""
_UNIT_AFTER = re.compile(r"\s+(?!lts\b|in\b|on\b|for\b|with\b|as\b|is\b|and\b|at\b|since\b|"
                         r"everywhere\b|across\b|now\b|here\b|only\b|too\b|by\b|from\b|"
                         r"via\b|under\b|locally\b|installed\b|so\b|(?:runtime|image|toolchain|"
                         r"interpreter|compiler|jdk|jre|sdk|instance|cluster|engine|series|"
                         r"line|release)s?\b)[a-z]", re.IGNORECASE)  # fmt: skip
"""A word after the number that makes it a count ("3 retries", "Keep 7 days"), not one
naming what of the product it is ("the Node 18 runtime", "a Postgres 14 instance")."""
_CLAUSE = re.compile(
    r";\s*+|\s[—–]\s|(?<=[.!?])\s++|,\s++|(?<!\s)\s++but\s++|"
    r":\s++(?=(?:the|a|an|we|it|this|that|they|our)\s)"
)
"""Where a clause ends: a colon too where a clause with its own subject follows ("We are on
Postgres 16: the instance was upgraded in May")."""
_ASIDE = re.compile(r"\(([^()]*)\)|\[[^\[\]]*\]")
_HEDGE = re.compile(
    r"\b(?:" + HEDGED + r"|legacy|should|planned|plan|plans|soon|coming|upcoming|next|"
    r"eventually|later|gone|dropped|removed|deprecated|retired|instead|rather|than|like|"
    r"also|support|supports|supported|compatible|requires?|required|minimum|at least|older|"
    r"newer|upgrade\s+to|upgrading|bump|downgrade|test against|matrix|from|default|latest|vs|"
    r"versus|known-good|never|not|avoid|don't|dont|mustn't|shouldn't|isn't|aren't|"
    r"banned|forbidden)\b|->|→|=>|>=|<=|[<>~^]|\?",
    re.IGNORECASE,
)
"""A clause saying no version in use: what was, will or may be, a bound, a requirement, a
default, and a rule against a version ("Never use Node 18": the rule's object, the
always/never reader's)."""
_SUBJECT = re.compile(
    r"^(?:(?:the|our|my|this)\s++)?(?P<subject>[\w.'/-]++(?:\s[\w.'/-]++){0,5}?)\s++"
    r"(?:is|are|runs|run|uses|use|builds|build|targets|target|pins|needs|requires|lives"
    r"|stays|stay)\b",
    re.IGNORECASE,
)
_FOR = re.compile(r"\bfor\s++(?:(?:the|our|my)\s++)?(?P<what>[\w/-]++(?:\s++[\w/-]++){0,2})")
_GENERIC = frozenset(
    {"databas", "runtim", "cluster", "toolchain", "languag", "version", "project", "repo",
     "app", "code", "servic", "server", "everyth", "anyth", "all", "whole", "own", "here",
     "lts", "current", "now", "instal", "default", "pin", "environ", "env", "it", "thing",
     "stack", "build", "everi", "both", "interpret", "sdk", "compil"}
)  # fmt: skip
"""Stems that name no part of a project ("The database is PostgreSQL 15")."""
_PRONOUNS = frozenset({"we", "i", "you", "they", "it", "this", "that", "we're", "we've"})


_LABELLED = re.compile(
    r"^(?:(?:the|our|current|pinned)\s++)?versions?\s*+(?::|\bis\b)\s*+`?v?"
    r"(?P<value>" + VERSION_NUMBER + r")`?[\s.]*+$",
    re.IGNORECASE,
)
"""A version said of no product: "Version: 20", "Current version is 3.11"."""


class Version(NamedTuple):
    product: str
    value: str
    whose: frozenset[str]
    """What it is the version for (empty: nothing in particular)."""
    scope: Scope
    shown: str


_CHANGED_TO = re.compile(
    r"(?:\b(?:bumped|upgraded|updated|moved|pinned|raised)\s++(?P<before>" + _NAME + r")\s++to"
    r"|(?<![\w.@/#-])(?P<after>" + _NAME + r")\s++(?:is\s++|got\s++|has\s++been\s++)?"
    r"(?:bumped|upgraded|updated|pinned|raised)\s++to)\s++v?"
    r"(?P<value>" + VERSION_NUMBER + r")(?![\w+*/%:-]|\.[\dxX*])"
)
"""A product's version said as the change that made it ("bumped Postgres to 16",
"TypeScript bumped to 5.4"): what is now."""


def versions(sentence: str) -> list[Version]:
    """The version of each product a clause of `sentence` says is used (module doc); a
    version said of no product ("Version: 20") has none (its note's, `owners.owned`)."""
    if not any(c.isdigit() for c in sentence):
        return []
    plain = _ASIDE.sub(" ", sentence)
    labelled = _LABELLED.match(plain.strip())
    if labelled is not None:
        if _HEDGE.search(plain):
            return []
        return [Version("", labelled["value"], frozenset(), scope_of(plain), "")]
    found: dict[str, Version] = {}
    for clause in _CLAUSE.split(plain):
        for version in _versions(clause):
            if version.product in found:
                return []  # two versions of one product in a sentence: a story
            found[version.product] = version
    return list(found.values())


def _versions(clause: str) -> list[Version]:
    if _HEDGE.search(clause):
        return []
    changed = []
    for match in _CHANGED_TO.finditer(clause):
        written = match.group("before") or match.group("after")
        product = _product(written)
        if product is not None:
            whose = _whose(clause, match.start(), match.end(), written)
            changed.append(Version(product, match["value"], whose, scope_of(clause), written))
    if changed:
        return changed if len({v.product for v in changed}) == len(changed) else []
    said = []
    for match in _VERSION.finditer(clause):
        written = match.group("product")
        product = _product(written)
        counted = match.group("value").count(".") < 2  # "1.6.39 renders" counts nothing
        if product is None or (counted and _UNIT_AFTER.match(clause, match.end())):
            continue
        joined = clause[match.end("product") : match.start("value")]
        if (
            (":" in joined or "is" in joined.split())
            and product not in _KNOWN
            and "version" not in joined
        ):
            continue  # "Pending: 3", "Retries is 5": a count, unless a product's version
        said.append((product, match.group("value"), written, match))
    if len({product for product, *_ in said}) != len(said):
        return []
    return [
        Version(
            product,
            value,
            _whose(clause, match.start(), match.end(), written),
            scope_of(clause),
            written,
        )
        for product, value, written, match in said
    ]


def _product(written: str) -> str | None:
    words = written.split()
    first = words[0].lower()
    if first in _NOT_PRODUCTS or (len(words) > 1 and words[1].lower() in _NOT_PRODUCTS):
        return None
    name = " ".join(word.lower() for word in words)
    name = _ALIASES.get(name, name)
    if not written[0].isupper() and name not in _KNOWN and "-" not in name:
        return None
    return name


def _whose(clause: str, start: int, end: int, written: str) -> frozenset[str]:
    """What a version is for: the subject before its verb, or what "for" names."""
    before = clause[:start].strip()
    named: list[str] = []
    subject = _SUBJECT.match(before)
    if subject is not None and subject.group("subject").split()[0].lower() not in _PRONOUNS:
        named.append(subject.group("subject"))
    purpose = _FOR.search(clause, end)
    if purpose is not None:
        named.append(purpose.group("what"))
    product = set(stems_of(written))
    return frozenset(
        s for s in stems_of(" ".join(named)) if s not in _GENERIC | SCOPE_STEMS | product
    )


def versions_differ(one: str, other: str) -> bool:
    """Whether two versions of one use cannot both hold: two pins that differ where both
    say ("20" and "20.11" agree), or a pin outside a bound (">=3.11", "^3.11", "~> 1.5":
    `attached`'s); two bounds never."""
    bounds = [value for value in (one, other) if not value[:1].isdigit()]
    if len(bounds) == 2:
        return False
    if bounds:
        pin = other if bounds[0] == one else one
        return not _within(_parts(pin), bounds[0])
    left, right = one.split("."), other.split(".")
    shared = min(len(left), len(right))
    return left[:shared] != right[:shared]


def _parts(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.lstrip(">=^~").split("."))


def _within(pin: tuple[int, ...], bound: str) -> bool:
    low = _parts(bound)
    shared = min(len(pin), len(low))
    if pin[:shared] < low[:shared]:
        return False
    if bound.startswith(">="):
        return True
    # "^3.11": the same major; "~3.11" and "~> 1.5.2": all but the last part said the same
    fixed = 1 if bound.startswith("^") or (bound.startswith("~>") and len(low) == 2) else 2
    fixed = min(fixed, len(low), len(pin))
    return pin[:fixed] == low[:fixed]


def product_named(word: str) -> str | None:
    """The product a word names in lower case as a key does (`python`, `nodejs`, `pg`),
    or None (a name any capitalised word may be is `versions`' alone)."""
    name = _ALIASES.get(word.lower(), word.lower())
    return name if name in _KNOWN else None


def hedged(clause: str) -> bool:
    """Whether a clause says no version in use: what was, will be, may be, a bound, a
    requirement or a default ("Requires Go 1.23", "Default Python is 3.12")."""
    return _HEDGE.search(clause) is not None


def version_key(version: Version) -> str:
    return "|".join((version.product, " ".join(sorted(version.whose)), pack(version.scope)))


def same_use(one: str, other: str) -> bool:
    """Whether two versions' keys (`version_key`) are of one product used for one thing
    (one of them said for nothing in particular, or what one is for named by the other)
    in one place (`scopes.same_place`)."""
    product, whose, scope = one.split("|", 2)
    other_product, other_whose, other_scope = other.split("|", 2)
    mine, theirs = set(whose.split()), set(other_whose.split())
    for_one = not mine or not theirs or mine <= theirs or theirs <= mine
    return product == other_product and for_one and same_place(unpack(scope), unpack(other_scope))
