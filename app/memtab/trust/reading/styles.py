"""A style rule whose value is a property of a thing (docs/formats.md §19.6): "SQL keywords
in uppercase", "Filenames in kebab-case", "2-space indent", "single quotes", "dates in ISO
8601", "tabs, not spaces", "British spelling".

Each *property* (a letter case, an indentation, quotes, a date or time format, a time zone,
a spelling, line endings, a decimal separator, an order, imports, units, a commit message's
mood) has values said in many ways ("ALL CAPS" is uppercase, "two spaces" is 2 spaces,
"`YYYY-MM-DD`" is ISO 8601, "lowercase with hyphens" is kebab-case), and some values hold
with others (kebab-case is lowercase, "4 spaces" is spaces). The *thing* is what the
sentence says besides the value and how it is put: its stems ("SQL keywords": sql keyword),
what it is in among them ("in YAML"). Two rules of one property and one thing disagree when
their values cannot both hold; "not X" disagrees with X and with what says X. A sentence
giving one thing two values that cannot both hold gives none (two things, or a story).
"""

from __future__ import annotations

import itertools
import re
from typing import NamedTuple

from memtab.store.text.near_duplicates import lowered_words
from memtab.trust.words import stems_of

STYLE = "style:"
"""How a style rule's key starts: "style:case:keyword sql"."""


class Property(NamedTuple):
    name: str
    """Its name in the key and in words ("case", "indentation")."""
    values: tuple[tuple[str, str], ...]
    """Each value and the ways it is said (a pattern of the lowered sentence)."""
    own: frozenset[str]
    """Stems of the property's own words: not the thing's."""
    needs: tuple[tuple[str, ...], ...] = ()
    """Patterns the sentence must hold, all of one group, for its values to be this
    property's ("tabs" is an indentation only where indenting, or spaces, is said)."""
    thing_needed: bool = False
    """Whether a rule of it must say of what ("kebab-case" alone says of nothing)."""


_CASE_VALUES = (
    ("SCREAMING_SNAKE_CASE", r"screaming[\s_-]snake[\s_-]case|upper[\s_-]snake[\s_-]case|"
     r"upper_case|constant[\s_-]case|macro[\s_-]case"),
    ("PascalCase", r"pascal[\s_-]?case|upper[\s-]?camel[\s-]?case"),
    ("camelCase", r"(?:lower[\s-]?)?camel[\s_-]?case|dromedary[\s-]case"),
    ("snake_case", r"(?:lower[\s_-])?snake[\s_-]?case|lowercase with underscores"),
    ("kebab-case", r"kebab[\s_-]?case|dash[\s-]case|spinal[\s-]case|lowercase with (?:hyphens|"
     r"dashes)|hyphen[\s-]separated|hyphenated"),
    ("Title Case", r"title[\s-]case"),
    ("sentence case", r"sentence[\s-]case"),
    ("uppercase", r"upper[\s-]?case(?:d)?|all[\s-]caps|capital letters"),
    ("lowercase", r"lower[\s-]?case(?:d)?|small letters"),
)  # fmt: skip
PROPERTIES: tuple[Property, ...] = (
    Property(
        "case", _CASE_VALUES,
        frozenset({"case", "name", "file", "letter", "style", "convent", "format", "written",
                   "write", "use", "onli", "everywher"}),
        thing_needed=True,
    ),
    Property(
        "indentation",
        (("tabs", r"(?:hard\s+)?tabs?\b(?![\s-]width)"),
         ("2 spaces", r"(?:2|two)[\s-]spaces?"), ("4 spaces", r"(?:4|four)[\s-]spaces?"),
         ("8 spaces", r"(?:8|eight)[\s-]spaces?"), ("3 spaces", r"(?:3|three)[\s-]spaces?"),
         ("spaces", r"spaces|soft\s+tabs")),
        frozenset({"indent", "use", "file", "code", "onli", "everywher", "width", "level"}),
        needs=((r"\bindent",), (r"\btabs?\b", r"\bspaces\b")),
    ),
    Property(
        "quotes",
        (("single quotes", r"single[\s-]quot(?:es|ed|e)\b|'single'\s+quotes|apostrophes"),
         ("double quotes", r"double[\s-]quot(?:es|ed|e)\b|\"double\"\s+quotes")),
        frozenset({"quot", "string", "use", "take", "file", "code", "onli", "everywher"}),
    ),
    Property(
        "date format",
        (("ISO 8601", r"iso[\s-]?8601|yyyy-mm-dd|rfc[\s-]?3339|iso[\s-]dates?|iso[\s-]format"),
         ("DD/MM/YYYY", r"dd/mm/yyyy|dd\.mm\.yyyy|dd-mm-yyyy|day[\s-]first"),
         ("MM/DD/YYYY", r"mm/dd/yyyy|month[\s-]first")),
        frozenset({"date", "format", "written", "write", "use", "everywher", "onli"}),
    ),
    Property(
        "time format",
        (("24-hour", r"24[\s-]?h(?:ou)?r?s?\b|24[\s-]hour\s+clock"),
         ("12-hour", r"12[\s-]?h(?:ou)?r?s?\b|am/pm")),
        frozenset({"time", "format", "clock", "use", "everywher", "onli"}),
    ),
    Property(
        "time zone",
        (("UTC", r"\butc\b|\bgmt\b"),
         ("local time", r"(?:the\s+)?(?:user's\s+)?local\s+time(?:\s*zone)?")),
        frozenset({"time", "zone", "timezon", "use", "everywher", "onli"}),
    ),
    Property(
        "spelling",
        (("British", r"british(?:\s+english)?(?:\s+spellings?)?|\buk\s+(?:english|spellings?)|"
          r"\ben[-_]gb\b"),
         ("American", r"american(?:\s+english)?(?:\s+spellings?)?|\bus\s+(?:english|spellings?)|"
          r"\ben[-_]us\b")),
        frozenset({"spell", "english", "write", "written", "use", "user", "want", "everywher",
                   "onli"}),
        needs=((r"\bspell|\benglish\b|\ben[-_](?:gb|us)\b",),),
    ),
    Property(
        "line endings",
        (("LF", r"\blf\b|unix(?:-style)?\s+line\s+endings"),
         ("CRLF", r"\bcrlf\b|windows(?:-style)?\s+line\s+endings")),
        frozenset({"line", "end", "use", "keep", "file", "everywher", "onli"}),
        needs=((r"line\s+endings?|\beol\b",),),
    ),
    Property(
        "mood",
        (("imperative", r"imperative(?:\s+mood)?"), ("past tense", r"past[\s-]tense"),
         ("present tense", r"present[\s-]tense")),
        frozenset({"mood", "tens", "write", "written", "use", "onli"}),
    ),
    Property(
        "decimal separator",
        (("decimal comma", r"decimal\s+comma|comma\s+as\s+(?:the\s+)?decimal\s+separator"),
         ("decimal point", r"decimal\s+(?:point|dot)|(?:dot|point|period)\s+as\s+(?:the\s+)?"
          r"decimal\s+separator")),
        frozenset({"decim", "separ", "format", "use", "written", "write"}),
    ),
    Property(
        "order",
        (("newest first", r"newest[\s-]first|most[\s-]recent[\s-]first|latest[\s-]first|"
          r"reverse[\s-]chronological(?:\s+order)?"),
         ("oldest first", r"oldest[\s-]first|(?<!reverse[\s-])chronological(?:\s+order)?")),
        frozenset({"sort", "order", "entri", "item", "list", "go", "goe", "put", "keep", "show"}),
    ),
    Property(
        "imports",
        (("relative imports", r"relative\s+imports?"),
         ("absolute imports", r"absolute\s+imports?")),
        frozenset({"import", "use", "onli", "everywher"}),
    ),
    Property(
        "units",
        (("metric", r"metric\s+(?:units?|system)|(?:units?:|in)\s+metric\b(?!s)"),
         ("imperial", r"imperial(?:\s+(?:units?|system))?")),
        frozenset({"unit", "use", "show", "everywher", "onli"}),
    ),
)  # fmt: skip
"""The properties read, and their values."""
HOLDS_WITH = {
    "kebab-case": frozenset({"lowercase"}),
    "snake_case": frozenset({"lowercase"}),
    "SCREAMING_SNAKE_CASE": frozenset({"uppercase"}),
    "2 spaces": frozenset({"spaces"}),
    "3 spaces": frozenset({"spaces"}),
    "4 spaces": frozenset({"spaces"}),
    "8 spaces": frozenset({"spaces"}),
}
"""Values that say another value of their property too: kebab-case is lowercase."""
_SAID = {
    prop.name: re.compile("|".join(f"(?P<v{i}>{said})" for i, (_, said) in enumerate(prop.values)))
    for prop in PROPERTIES
}
_NEEDS = {
    prop.name: tuple(tuple(map(re.compile, group)) for group in prop.needs)
    for prop in PROPERTIES
    if prop.needs
}
_NEGATED = re.compile(
    r"\b(?:not|never|no|avoid|don't|do\s+not|instead\s+of|rather\s+than|over|without)\b"
)
_CLAUSE = re.compile(r"[;,(—–]|\.\s|\s-\s|\bbut\b|\bwhile\b")
_ASIDE = re.compile(r"\([^()]*\)|`[^`]*`")
_PARENS = re.compile(r"\([^()]*\)")
_FILE_NAMES = re.compile(r"\bfile\s+names?\b")
_SHOWN = re.compile(r"\b(?:shown|displayed)\b")
_WORDS = re.compile(r"[a-z][\w'-]*")
_HOW_SAID = frozenset(
    {"should", "must", "alway", "prefer", "want", "user", "agent", "get", "are", "is", "be",
     "keep", "stay", "all", "everyth", "everi", "here", "team", "our", "pleas", "start",
     "begin", "new", "with", "as", "in", "like", "format"}
)  # fmt: skip
"""Stems of how a rule is put or who keeps it, not what it is about."""
MAX_THING = 4

STYLE_WORDS = frozenset(
    {"upper", "lower", "title", "sentence", "dash", "spinal", "constant", "macro", "dromedary",
     "uppercase", "lowercase", "uppercased", "lowercased", "caps", "capital", "camelcase",
     "pascalcase", "snake_case", "snakecase", "screaming_snake_case", "upper_case",
     "upper_snake_case", "lower_snake_case", "kebab", "camel", "pascal", "snake", "hyphenated",
     "hyphens", "dashes", "underscores", "tab", "tabs", "spaces", "indent", "indentation",
     "indented", "quotes", "quote", "quoted", "apostrophes", "iso", "yyyy", "dd", "mm", "rfc",
     "utc", "gmt", "local", "british", "american", "uk", "gb", "english", "spelling",
     "lf", "crlf", "imperative", "tense", "decimal", "newest", "oldest", "latest", "recent",
     "chronological", "chronologically", "relative", "absolute", "metric", "imperial", "pm",
     "24h", "12h", "hour", "space"}
)  # fmt: skip
"""A word of every way a value is said (a sentence holding none gives none)."""

Style = tuple[str, str, str]
"""(key, value, shown), as `reading.tools`' choices."""


def styles(sentence: str) -> list[Style]:
    """The value a style rule gives a thing, and the value it says not to (module doc); a
    value said in an aside ("`expiresAt` (ISO 8601)") is none."""
    lowered = sentence.lower()
    if STYLE_WORDS.isdisjoint(lowered_words(lowered)):
        return []
    asides = [m.span() for m in _PARENS.finditer(lowered)]
    said: dict[str, list[re.Match[str]]] = {}
    for prop in PROPERTIES:
        needs = _NEEDS.get(prop.name)
        if needs and not any(all(p.search(lowered) for p in group) for group in needs):
            continue
        found = [
            m for m in _SAID[prop.name].finditer(lowered)
            if not any(a <= m.start() < b for a, b in asides)
        ]  # fmt: skip
        if found:
            said[prop.name] = found
    rest = lowered  # what is left of the sentence once every value is out
    for match in sorted((m for ms in said.values() for m in ms), key=lambda m: -m.start()):
        rest = rest[: match.start()] + " " * (match.end() - match.start()) + rest[match.end() :]
    own = frozenset(stem for prop in PROPERTIES if prop.name in said for stem in prop.own)
    return [
        style for prop in PROPERTIES if prop.name in said
        for style in _property(prop, lowered, rest, said[prop.name], own)
    ]  # fmt: skip


def _property(
    prop: Property, lowered: str, rest: str, said: list[re.Match[str]], own: frozenset[str]
) -> list[Style]:
    """What `said` (the property's values in `lowered`) claim; `rest` is the sentence
    without any value, `own` the stems of every property said (none is the thing's)."""
    used: list[str] = []
    unused: list[str] = []
    for match in said:
        value = prop.values[int(str(match.lastgroup)[1:])][0]
        (unused if _negated(lowered, match.start()) else used).append(value)
    used = list(dict.fromkeys(used))
    if any(not agree(one, other) for one in used for other in used):
        return []  # two values of one property: two things, or a story
    bounds = [0, *(m.end() for m in _CLAUSE.finditer(lowered)), len(lowered)]
    clauses = [
        rest[a:b] for a, b in itertools.pairwise(bounds)
        if any(a <= m.start() < b for m in said)
    ]  # fmt: skip
    thing = _thing(" ".join(clauses), own)
    if thing is None or (prop.thing_needed and not thing):
        return []
    key = f"{STYLE}{prop.name}:{' '.join(sorted(thing))}"
    shown = f"the {prop.name}" + (f" of {' '.join(sorted(thing))}" if thing else "")
    value = _widest(used)
    claims = [(key, value, shown)] if value else []
    return claims + [(key, f"not:{other}", shown) for other in dict.fromkeys(unused)]


def _widest(used: list[str]) -> str:
    """The one value said, the most precise of those that hold together ("4 spaces" of
    "spaces" and "4 spaces")."""
    if not used:
        return ""
    return max(used, key=lambda value: len(HOLDS_WITH.get(value, ())))


def _negated(lowered: str, at: int) -> bool:
    """Whether a negation stands before `at` in its clause ("Tabs, not spaces", "Don't
    write SQL keywords in lowercase", "prefer tabs over spaces")."""
    start = max((m.end() for m in _CLAUSE.finditer(lowered, 0, at)), default=0)
    return _NEGATED.search(lowered, start, at) is not None


def _thing(rest: str, own: frozenset[str]) -> frozenset[str] | None:
    """The stems of what the rule is about: what is left once the values, asides and
    code, and the property's and rule's own words are out (None: too many to be plain)."""
    plain = _SHOWN.sub("show", _FILE_NAMES.sub("filenames", _ASIDE.sub(" ", rest)))
    words = " ".join(_WORDS.findall(plain))
    stems = frozenset(stems_of(words)) - own - _HOW_SAID
    return stems if len(stems) <= MAX_THING else None


def agree(one: str, other: str) -> bool:
    """Whether two values of one property can both hold: the same, or one saying the
    other (kebab-case is lowercase)."""
    return one == other or other in HOLDS_WITH.get(one, ()) or one in HOLDS_WITH.get(other, ())


def style_values_disagree(one: str, other: str) -> bool:
    """Whether two style claims' values of one thing cannot both hold ("not:X" against X,
    or against what says X)."""
    if one.startswith("not:") and other.startswith("not:"):
        return False
    if one.startswith("not:") or other.startswith("not:"):
        said, negated = (other, one) if one.startswith("not:") else (one, other)
        unsaid = negated.removeprefix("not:")
        return said == unsaid or unsaid in HOLDS_WITH.get(said, ())
    return not agree(one, other)


def same_style(one: str, other: str) -> bool:
    """Whether two style keys are of one property and one thing: the same stems, or one's
    the other's but one, two stems at least ("CSS classes" and "CSS class names")."""
    prop, _, thing = one.removeprefix(STYLE).partition(":")
    other_prop, _, other_thing = other.removeprefix(STYLE).partition(":")
    if prop != other_prop:
        return False
    small, large = sorted((set(thing.split()), set(other_thing.split())), key=len)
    return small == large or (len(small) >= 2 and small <= large and len(large) - len(small) == 1)
