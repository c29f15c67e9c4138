"""Counts and frequencies said in words (docs/formats.md §19.5), so two statements alike in
words but for "twice" and "five times", "a dozen" and "30", "the first" and "the second",
"nightly" and "weekly", "every other week" and "every week", "whenever it changes" and
"once a week" say different values.

Read by closed classes: the multiplicative adverbs ("once", "twice", "thrice" — "once" a
count only where no clause follows it, "once CI is green" is a time), "a dozen", fractions
("half", "a third"), ordinals after a determiner ("the second reviewer"), the frequency
adverbs ("hourly" … "yearly"), "every|each [other|N] <unit or weekday>", "N times a|per
<unit>", "on <weekday>s", and a recurrence by event ("whenever …", "on every push").
"""

from __future__ import annotations

import functools
import re

_TOKEN = re.compile(r"[A-Za-z0-9]++|[.;:!?,()\u2013\u2014]")
_STOPS = frozenset(".;:!?,()\u2013\u2014")
_COUNTS = {"once": 1, "twice": 2, "thrice": 3}
_CARDINALS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "other": 2,
}  # fmt: skip
"""A number before a unit ("every three weeks"; "every other week" is every second)."""
_ORDINALS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
    "eighth": 8, "ninth": 9, "tenth": 10,
}  # fmt: skip
_FRACTIONS = {"half": "1/2", "third": "1/3", "quarter": "1/4", "fifth": "1/5"}
_DETERMINERS = frozenset({"the", "its", "their", "our", "your", "my", "this"})
_COUNTED_BEFORE = frozenset(
    {"on", "in", "at", "for", "per", "during", "before", "after", "and", "or", "more", "only",
     "a", "an", "every", "each", "daily", "weekly", "monthly", "nightly", "hourly"}
)  # fmt: skip
"""What may follow "once" said as a count ("retry once on a red build"), not as the time a
clause says ("once CI is green", "once the build passes"): a preposition, a rate's article,
the clause's end."""
_UNITS = {
    "minute": "min", "hour": "h", "day": "d", "night": "d", "morning": "d", "evening": "d",
    "week": "w", "weekend": "w", "fortnight": "2w", "month": "mo", "quarter": "3mo",
    "year": "y", "sprint": "sprint", "release": "event", "weekday": "weekday",
}  # fmt: skip
_ADVERBS = {
    "hourly": "1/1h", "daily": "1/1d", "nightly": "1/1d", "weekly": "1/1w",
    "fortnightly": "1/2w", "biweekly": "1/2w", "monthly": "1/1mo", "quarterly": "1/3mo",
    "yearly": "1/1y", "annually": "1/1y",
}  # fmt: skip
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_EVENT = "event"
"""A recurrence by event ("whenever the schema changes", "on every push"): no time's."""
_EVENT_NOUNS = frozenset(
    {"push", "commit", "merge", "release", "deploy", "deployment", "build", "change", "pr",
     "run", "tag", "restart", "upgrade"}
)  # fmt: skip


@functools.lru_cache(maxsize=16384)
def counts_of(sentence: str) -> frozenset[str]:
    """The counts, fractions and ordinals `sentence` says in words ("1", "12", "1/3",
    "#2": the second); digits and cardinal words are `trust.specifics`' own."""
    words = _tokens(sentence)
    found: set[str] = set()
    for index, word in enumerate(words):
        before = words[index - 1] if index else ""
        after = words[index + 1] if index + 1 < len(words) else "."
        if word in _COUNTS and (word != "once" or _counted(words, index)):
            found.add(str(_COUNTS[word]))
        elif word == "dozen" and before in ("a", "one"):
            found.add("12")
        elif word == "single" and before == "a":
            found.add("1")
        elif word == "half" and not (after in ("a", "an") and _unit(words, index + 2)):
            found.add(_FRACTIONS["half"])
        elif word in _FRACTIONS and before in ("a", "one") and after == "of":
            found.add(_FRACTIONS[word])
        elif word in _ORDINALS and before in _DETERMINERS and after not in _STOPS:
            found.add(f"#{_ORDINALS[word]}")  # "every second week" is a recurrence
    return frozenset(found)


@functools.lru_cache(maxsize=16384)
def recurrence_of(sentence: str) -> frozenset[str]:
    """How often `sentence` says a thing recurs: "1/1d" (daily), "2/1mo" (twice a month),
    "1/2w" (every other week), "1/1w:friday" (on Fridays), `_EVENT` (whenever …)."""
    words = _tokens(sentence)
    found: set[str] = set()
    for index, word in enumerate(words):
        if word in _ADVERBS:
            found.add(_ADVERBS[word])
        elif word == "whenever":
            found.add(_EVENT)
        elif word in ("every", "each"):
            found.update(_every(words, index + 1))
        elif word in _COUNTS or word == "times":
            count = _COUNTS.get(word) or _number(words[index - 1] if index else "")
            rate = _per(words, index + 1)
            if count and rate is not None:
                found.add(f"{count}/{rate}")
        elif word == "on" and index + 1 < len(words):
            day = words[index + 1].removesuffix("s")
            if day in _WEEKDAYS and words[index + 1].endswith("s"):
                found.add(f"1/1w:{day}")
    return frozenset(found)


def different_recurrence(one: str, other: str) -> bool:
    """Whether two sentences both say how often a thing recurs, and never alike."""
    mine, theirs = recurrence_of(one), recurrence_of(other)
    return bool(mine and theirs and not mine & theirs)


def _tokens(sentence: str) -> list[str]:
    return [token.lower() for token in _TOKEN.findall(sentence)]


def _counted(words: list[str], index: int) -> bool:
    """Whether "once" at `index` is a count: the clause ends or goes on with a preposition
    or a rate after it ("once a month"; not "once a PR is approved")."""
    after = words[index + 1] if index + 1 < len(words) else "."
    if after in _STOPS:
        return True
    if after in ("a", "an", "every", "each", "per"):
        return _unit(words, index + 2)
    return after in _COUNTED_BEFORE


def _unit(words: list[str], index: int) -> bool:
    return index < len(words) and words[index].removesuffix("s") in _UNITS


def _number(word: str) -> int | None:
    if word.isdigit() and len(word) <= 3:
        return int(word)
    return _CARDINALS.get(word) if word != "other" else None


def _per(words: list[str], index: int) -> str | None:
    """The period after "once", "twice" or "N times" ("a month", "per week"), or None."""
    if index < len(words) and words[index] in ("a", "an", "per", "every", "each"):
        unit = words[index + 1].removesuffix("s") if index + 1 < len(words) else ""
        said = _UNITS.get(unit)
        if said is not None and said != _EVENT:
            return said if said[0].isdigit() else f"1{said}"
    return None


def _every(words: list[str], index: int) -> list[str]:
    """What "every" or "each" at `index - 1` says recurs: a period ("every other week",
    "every 3 days", "every Sunday", "every weekday"), an event ("every push"), or none."""
    step = 1
    if index < len(words):
        number = _number(words[index])
        if words[index] == "other":
            step, index = 2, index + 1
        elif words[index] in _ORDINALS and index + 1 < len(words):
            step, index = _ORDINALS[words[index]], index + 1
        elif number is not None and index + 1 < len(words):
            step, index = number, index + 1
    if index >= len(words):
        return []
    word = words[index]
    single = word.removesuffix("s")
    if single in _WEEKDAYS:  # "every first Tuesday" (of the month) is monthly
        return ["1/1mo"] if words[index - 1] in _ORDINALS else [f"1/{step}w:{single}"]
    said = _UNITS.get(single)
    if said == _EVENT or (said is None and single in _EVENT_NOUNS):
        return [_EVENT]
    if said is None:
        return []
    if said == "weekday":
        return ["5/1w"]
    if said[0].isdigit():
        return [f"1/{int(said[0]) * step}{said[1:]}"]
    return [f"1/{step}{said}"]
