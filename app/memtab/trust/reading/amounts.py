"""An amount a sentence gives a setting (docs/formats.md §19.6): a duration ("times out
after 30 seconds", "TTL: 1 hour", "polls every 10s"), a size ("capped at 10 MB"), a rate
("100 requests per minute"), a number of times ("retried 3 times"), or a switch ("`FLAG`
is on", "`strict`: `false`").

The value is normalised by its kind — "30s", "30 seconds" and "half a minute" are one —
and is the only one of its kind in its clause; a clause that says what was, may be, holds
only at times, or gives a bound of another thing ("uploads under 1 MB skip…") gives none.
The thing is the clause's words once the value, the words naming a setting of its kind
("timeout", "interval", "limit", "max") and the verbs of being are left out: its noun
phrase and owner ("the payment client", "for product pages", "in tsconfig"), and apart
from them the clause's inflected verbs ("pages are *cached*", "Gunicorn *kills* a
worker"), which may differ between two wordings of one thing. Where it holds (`scopes`)
tells two things apart too ("6 replicas in production").
"""

from __future__ import annotations

import re
from typing import NamedTuple

from memtab.trust.reading.scopes import HEDGED, SCOPE_STEMS, Scope, pack, same_place, scope_of
from memtab.trust.reading.scopes import unpack as unpack_scope
from memtab.trust.words import NUMBERS, stems_of

_SECONDS = {
    "ms": 0.001, "msec": 0.001, "millisecond": 0.001, "millis": 0.001,
    "s": 1, "sec": 1, "second": 1, "min": 60, "minute": 60, "h": 3600, "hr": 3600,
    "hour": 3600, "d": 86400, "day": 86400, "week": 604800, "wk": 604800,
}  # fmt: skip
_BYTES = {
    "b": 1, "byte": 1, "kb": 1e3, "kib": 1024, "kilobyte": 1e3, "mb": 1e6, "mib": 1024**2,
    "megabyte": 1e6, "gb": 1e9, "gib": 1024**3, "gigabyte": 1e9, "tb": 1e12, "tib": 1024**4,
    "terabyte": 1e12,
}  # fmt: skip
_NUMBER_WORDS = "|".join(sorted(NUMBERS, key=len, reverse=True))
_NUMBER = r"\d++(?:\.\d++)?+|" + _NUMBER_WORDS
_UNIT = (
    r"ms|msecs?|milliseconds?|millis|s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?|d|days?|"
    r"weeks?|wks?|b|bytes?|[kmgt]i?b|kilobytes?|megabytes?|gigabytes?|terabytes?"
)
_AMOUNT = re.compile(
    r"(?<![\w.:/@$-])(?:(?P<half>half\s++an?)\s++|(?P<an>an?)\s++|(?P<n>\d++(?:\.\d++)?+)\s*+"
    r"|(?P<w>" + _NUMBER_WORDS + r")\s++)(?P<unit>" + _UNIT + r")\b(?![.:/-]\w)"
    r"(?:\s++(?:per|an?|each|every)\s++(?P<per>second|minute|hour|day)\b)?"
    r"|(?<![\w.:/@$-])(?P<count>" + _NUMBER + r")\s++(?P<noun>[a-z]{3,}+)\s++per\s++"
    r"(?P<per2>second|minute|hour|day)\b"
    r"|(?<![\w.:/@$-])(?P<times>\d++|" + _NUMBER_WORDS + r")\s++times\b",
    re.IGNORECASE,
)
"""A number and its unit ("30 s", "10MB", "an hour", "half a minute"), a rate ("100
requests per minute"), or a number of times ("3 times")."""
_SWITCH = re.compile(
    r"`(?P<name>[A-Za-z_][\w.-]*+)`\s*+(?:is\s++(?:set\s++to\s++|turned\s++)?|=\s*+|:\s*+)"
    r"`?(?P<value>on|off|enabled|disabled|true|false|yes|no)\b`?",
    re.IGNORECASE,
)
"""A name in a code span turned on or off: "`FEATURE_X` is on", "`strict`: `false`"."""
_SPELLED = re.compile(
    r"\b(?:an?|" + _NUMBER_WORDS + r")\s++(?:hour|minute|second|day|week|time)", re.IGNORECASE
)
"""An amount said in words ("an hour", "three times"): read where no digit is."""
_ON = frozenset({"on", "enabled", "true", "yes"})
_CLAUSE = re.compile(r";\s*+|\s[—–]\s|(?<=[.!?])\s++|,\s++(?:so|because|since|but|which|and)\s")
_ASIDE = re.compile(r"\([^()]*\)")
_HEDGE = re.compile(
    r"\b(?:" + HEDGED + r"|not|never|no longer|over|under|above|below|exceed\w*|beyond|"
    r"more|less|fewer|least|most|up\s++to|than|default|defaults|instead|rather|both|also|"
    r"too|each|except|try|trying|tried|recommended|suggest\w*|like|vs|versus|between|about|"
    r"around|roughly|approximately|nearly|almost|typical\w*|average|median|p\d\d)\b"
    r"|->|→|=>|[<>≤≥~]|\?|\d\s*+(?:[–-]|to)\s*+\d",
    re.IGNORECASE,
)
"""A clause giving what was, may be or holds only at times, a bound ("under 1 MB", "at
most", "up to"), a range ("5–10 s"), a comparison or a measurement ("about 8 s", "p95"):
no setting's one value."""
_ROLES = {
    "duration": frozenset(
        {"timeout", "time", "out", "ttl", "expiri", "expir", "interv", "interval", "poll",
         "period", "lifetim", "durat", "delay", "wait", "frequenc", "after", "everi", "within",
         "for", "valid", "last", "age", "max", "maximum"}
    ),
    "size": frozenset({"size", "max", "maximum", "limit", "cap", "capped", "at", "allow"}),
    "rate": frozenset({"rate", "limit", "max", "maximum", "cap", "capped", "at", "allow"}),
    "times": frozenset({"retri", "attempt", "count", "number", "max", "maximum", "limit"}),
    "switch": frozenset({"turn", "set", "flag", "configur", "config", "file", "option"}),
}  # fmt: skip
"""Stems naming a setting of each kind, or how its value is given: not what it is of."""
_BEING = frozenset(
    {"is", "are", "be", "set", "get", "gets", "run", "sit", "live", "kept", "keep", "ha",
     "have", "now", "current", "our", "valu", "setting", "at", "to", "of", "in", "on"}
)  # fmt: skip
_WORD = re.compile(r"[A-Za-z][\w'-]*+")
_AFTER_VERB = frozenset(
    {"a", "an", "the", "every", "each", "after", "for", "at", "on", "in", "out", "up", "off",
     "within", "once", "its", "their", "our", "to"}
)  # fmt: skip
_DETERMINERS = frozenset({"a", "an", "the", "our", "its", "their", "this", "that", "every"})
_COMPLEMENT = re.compile(r"^\s*+of\s++(?:\w++\s*+){1,3}")
"""What a value is of, right after it ("15 minutes of inactivity"): the value's own."""


AMOUNT = "amount:"
"""What an amount's claim key opens on."""


class Amount(NamedTuple):
    kind: str
    """"duration", "size", "rate", "times" or "switch"."""
    thing: frozenset[str]
    """The stems of what it is of: its noun phrase and owner."""
    verbs: frozenset[str]
    """The stems of the clause's inflected verbs (of `thing`)."""
    scope: Scope
    value: str
    """Normalised: "30 s", "10 MB", "100 request/min", "3", "on"."""
    shown: str


def amounts(sentence: str) -> list[Amount]:
    """The amount each clause of `sentence` gives a setting (see the module doc)."""
    said = any(c.isdigit() for c in sentence) or "`" in sentence
    if not said and _SPELLED.search(sentence) is None:
        return []
    found: list[Amount] = []
    for clause in _CLAUSE.split(_ASIDE.sub(" ", sentence)):
        amount = _amount(clause)
        if amount is not None:
            found.append(amount)
    if len({(a.kind, a.thing) for a in found}) != len(found):
        return []  # one thing given two values in a sentence: a story
    return found


def _amount(clause: str) -> Amount | None:
    if not clause.strip():
        return None
    switches = list(_SWITCH.finditer(clause))
    said = list(_AMOUNT.finditer(clause))
    if len(switches) + len(said) != 1:
        return None
    if _HEDGE.search(_SWITCH.sub(" ", clause) if switches else clause):
        return None
    if switches:
        match = switches[0]
        kind = "switch"
        value = "on" if match.group("value").lower() in _ON else "off"
        rest = clause[: match.start()] + " " + clause[match.end() :]
        named = {match.group("name").lower()}
    else:
        match = said[0]
        normal = _normal(match)
        if normal is None:
            return None
        kind, value = normal
        after = clause[match.end() :]
        complement = _COMPLEMENT.match(after)
        if complement is not None:
            after = after[complement.end() :]
        rest = clause[: match.start()] + " " + after
        named = set()
    roles = _ROLES[kind] | _BEING | SCOPE_STEMS
    verbs = frozenset(_verbs(rest)) - roles
    thing = frozenset(named | {s for s in stems_of(rest) if s not in roles}) - verbs
    if not thing or len(thing) > 5:
        return None
    shown = " ".join(sorted(thing))
    return Amount(kind, thing, verbs, scope_of(clause), value, f"the {kind} of {shown}")


def _normal(match: re.Match[str]) -> tuple[str, str] | None:
    """A matched amount's kind and normalised value."""
    if match.group("times") is not None:
        return "times", NUMBERS.get(match.group("times").lower(), match.group("times"))
    if match.group("count") is not None:
        if not match.group("noun").lower().endswith("s"):
            return None  # "1 request per minute" is said "1 request", no plural
        noun = next(iter(stems_of(match.group("noun"))), match.group("noun").lower())
        count = NUMBERS.get(match.group("count").lower(), match.group("count"))
        return "rate", f"{_figure(float(count))} {noun}/{match.group('per2').lower()[:3]}"
    unit = match.group("unit").lower()
    unit = unit if unit in _SECONDS or unit in _BYTES else unit.rstrip("s")
    number: float
    if match.group("half") is not None:
        number = 0.5
    elif match.group("an") is not None:
        if unit in ("s", "h", "d", "b", "ms", "min"):
            return None  # "a s…": a word, no amount
        number = 1.0
    else:
        said = (match.group("n") or match.group("w")).lower()
        number = float(NUMBERS.get(said, said))
    per = match.group("per")
    if unit in _SECONDS:
        seconds = number * _SECONDS[unit]
        if per is not None:
            return None  # "5 minutes per day": no setting's one value
        return "duration", _duration(seconds)
    if unit in _BYTES:
        size = number * _BYTES[unit]
        kind = "rate" if per is not None else "size"
        return kind, _size(size) + (f"/{per.lower()[:3]}" if per else "")
    return None


def _figure(number: float) -> str:
    return f"{number:g}"


def _duration(seconds: float) -> str:
    for unit, size in (("d", 86400), ("h", 3600), ("min", 60), ("s", 1)):
        if seconds >= size and (seconds / size).is_integer():
            return f"{_figure(seconds / size)} {unit}"
    return f"{_figure(seconds * 1000)} ms"


def _size(size: float) -> str:
    for unit, factor in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3), ("GiB", 1024**3),
                         ("MiB", 1024**2), ("KiB", 1024)):  # fmt: skip
        if size >= factor and (size / factor).is_integer():
            return f"{_figure(size / factor)} {unit}"
    return f"{_figure(size)} B"


def _verbs(text: str) -> list[str]:
    """The stems of `text`'s inflected verbs: a word ending in -ed, or in -s before an
    article, a preposition or a particle ("kills a", "polls every"), not opening it."""
    words = _WORD.findall(text)
    found: list[str] = []
    for index, word in enumerate(words[1:], start=1):
        lower = word.lower()
        following = words[index + 1].lower() if index + 1 < len(words) else ""
        before = words[index - 1].lower()
        if before in _DETERMINERS:
            continue
        if (lower.endswith("ed") and len(lower) > 4) or (
            lower.endswith("s") and not lower.endswith("ss") and following in _AFTER_VERB
        ):
            found += stems_of(word)
    return found


def amount_key(amount: Amount) -> str:
    """An amount's kind, thing, verbs and scope, as a claim's key keeps them."""
    return "|".join(
        (amount.kind, " ".join(sorted(amount.thing)), " ".join(sorted(amount.verbs)),
         pack(amount.scope))
    )  # fmt: skip


def amount_groups(key: str) -> tuple[str, ...]:
    """What amounts are compared by: their kind and each stem of their thing."""
    kind, thing, _ = key.split("|", 2)
    return tuple(f"{kind}:{stem}" for stem in thing.split())


def same_amount(one: str, other: str) -> bool:
    """Whether two amounts' keys (`amount_key`) are of one thing: one kind, the same noun
    phrase and owner but for the verbs of either (`amounts`' module doc), in one place."""
    kind, thing, verbs, scope = one.split("|", 3)
    other_kind, other_thing, other_verbs, other_scope = other.split("|", 3)
    mine, theirs = set(thing.split()), set(other_thing.split())
    either = set(verbs.split()) | set(other_verbs.split())
    same = bool(mine & theirs) and (mine ^ theirs) <= either
    return (
        kind == other_kind and same and same_place(unpack_scope(scope), unpack_scope(other_scope))
    )


def inflected_verbs(text: str) -> frozenset[str]:
    """The stems of `text`'s inflected verbs (`_verbs`), and the words naming how a value
    is given or that it is (`_ROLES`, `_BEING`): what two wordings of one thing's value
    may say apart."""
    return frozenset(_verbs(text)) | _GIVEN


_GIVEN = frozenset().union(*_ROLES.values(), _BEING)


def quantities(text: str) -> list[tuple[int, int, str]]:
    """Each number with its unit in `text` (a duration, a size, a rate, a number of times)
    as its span and its value in one normal form ("24 hours", "one day" and "86400 s" are
    "1 d"), wherever it is said: no clause is read for a setting."""
    found = []
    for match in _AMOUNT.finditer(text):
        normal = _normal(match)
        if normal is not None:
            found.append((match.start(), match.end(), normal[1]))
    return found
