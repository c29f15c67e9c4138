"""Values a sentence names in words, each of one thing (docs/formats.md §19.6): the
language something is written in ("Commit messages in English"), the days something
happens on ("Prod deploys happen only on Wednesdays"), the branch pull requests target
("Open PRs against `main`"), a count of a thing ("we keep 10 releases for rollback"), and
the time of day something happens ("Standup is at 09:30", in its zone when said).

Each is read a clause at a time, from a clause that states it plainly (none that says
what was, what may be, holds only at times, or is negated), with what it is of: the
words around it that are not how it is said. Two values of one such thing disagree —
days only when no day is in both.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from memtab.trust.polarity import subject_of
from memtab.trust.reading.scopes import (
    HEDGED,
    SCOPE_STEMS,
    pack,
    same_place,
    scope_of,
    unpack,
)
from memtab.trust.words import NUMBERS, stems_of

LANGUAGES = frozenset(
    {"english", "german", "french", "spanish", "portuguese", "italian", "dutch", "polish",
     "japanese", "chinese", "korean", "russian", "swedish", "danish", "norwegian", "finnish",
     "czech", "turkish", "greek", "ukrainian", "hebrew", "arabic", "hindi"}
)  # fmt: skip
_DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
DAY_WORDS = frozenset({*_DAYS, *(f"{day}s" for day in _DAYS)})
_DAY = re.compile(r"\b(" + "|".join(_DAYS) + r")s?\b", re.IGNORECASE)
_LANGUAGE = re.compile(
    r"\b(?:in|into)\s++(?:plain\s++)?([A-Z][a-z]++)\b|:\s*+([A-Z][a-z]++)(?:\s++only)?\W*+$"
)
_CLAUSE = re.compile(r";\s*+|\s[—–]\s|(?<=[.!?])\s++|,\s++|\(|\)")
_HEDGE = re.compile(
    r"\b(?:" + HEDGED + r"|when|except|not|never|no|don't|avoid|translat\w*|also|both|too|"
    r"like)\b|->|→|=>|\?",
    re.IGNORECASE,
)
_HOW_SAID = frozenset(
    {"write", "written", "are", "is", "keep", "kept", "happen", "go", "goe", "out", "window",
     "onli", "everi", "week", "alway", "should", "must", "here", "team", "convent", "our",
     "default", "plain", "get", "done", "run", "ship", "shipped", "place", "take", "day"}
)  # fmt: skip
"""Stems of how a value is said, not what it is of."""
_OPENING_PRS = frozenset({"open", "creat", "make", "send", "submit", "rais", "new", "base"})
_PULL_REQUESTS = re.compile(
    r"\b(?:prs?|pull\s++requests?|merge\s++requests?|mrs?|feature\s++branch(?:es)?)\b"
    r"[^`;]{0,40}?\b(?:target|targets|against|into|to|onto|off|from|base[sd]?\s++on)\s++"
    r"`([\w./-]++)`",
    re.IGNORECASE,
)
_COUNT = re.compile(r"(?<![\w.:/-])(\d{1,6}|[a-z]++)\s++([a-z]{3,}+)\b", re.IGNORECASE)
_FOR = re.compile(r"\b(?:of|for)\s++(?:the\s++)?([a-z]{3,}+(?:\s++[a-z]{3,}+)?)", re.IGNORECASE)
_ABOUT = re.compile(
    r"\b(?:than|under|over|up to|at most|at least|about|around|max|min|maximum|minimum|"
    r"older|newer|per|every)\s++(?:\d|[a-z]++\s++\d)",
    re.IGNORECASE,
)
"""A bound or a rate, no count: "under 400 lines", "older than 30 days", "every 25 s"."""
_NUMBERS_IN = re.compile(r"(?<![\w.:])\d++(?:\.\d++)?+")
_TIME = re.compile(
    r"(?:\b(?P<tz0>(?-i:[A-Z]{1,4}T))\s++)?"
    r"(?<![\w:.-])(?:(?P<h>[01]?\d|2[0-3]):(?P<m>[0-5]\d)(?:\s*+(?P<ap>[ap]m)\b)?"
    r"|(?P<h2>1[0-2]|0?[1-9])\s*+(?P<ap2>[ap]m)\b)(?![\w:])(?:\s*+\(?(?P<tz>(?-i:[A-Z]{2,5}))\b)?",
    re.IGNORECASE,
)
"""A time of day: "09:30", "9:30 am", "10am", and the zone said after it ("10:00 CET") or
before it ("KST 03:00"); times one after another ("16:41/16:42") are each a time."""
_WINDOW = re.compile(r"\d\s*+(?:[–-]|to|until|till)\s*+\d", re.IGNORECASE)
"""Two times as a window ("10:00–15:00"): no one time of a thing."""
_DAILY = frozenset(
    {"daili", "everi", "each", "day", "weekday", "morn", "night", "nightli", "am", "pm",
     "local", "start", "begin", "kick"}
)  # fmt: skip
"""Stems of when in a day, not what happens."""
_HAPPENS = frozenset(stems_of("cron crontab schedule job timer built build generated sent fires"))
"""Stems of how a thing is said to happen at a time, not what happens."""


class Named(NamedTuple):
    kind: str
    """"language", "days", "branch" or "count"."""
    of: str
    """What it is of: stems, space-separated."""
    value: str
    shown: str


def named(sentence: str) -> list[Named]:
    """Each value `sentence` names of one thing (see the module doc)."""
    found: list[Named] = []
    for match in _PULL_REQUESTS.finditer(sentence):
        before = sentence[: match.start()]
        if _HEDGE.search(_clause_of(sentence, match.start())) or "`" in before:
            continue
        start = max((m.end() for m in _CLAUSE.finditer(sentence, 0, match.start())), default=0)
        which = sorted(set(stems_of(sentence[start : match.start()])) - _OPENING_PRS)
        of = " ".join([*which, "pull request target"])  # "Release PRs target…": theirs
        shown = " ".join([*which, "PRs"])
        found.append(Named("branch", of, match.group(1), f"the branch {shown} target"))
    for clause in _CLAUSE.split(sentence):
        if not clause.strip() or _HEDGE.search(clause) or _OTHER_SCRIPT.search(clause):
            continue
        found += _language(clause) + _days(clause) + _count(clause) + _time(clause)
    return found


_OTHER_SCRIPT = re.compile(r"[^\W\d_\u0000-\u024f]")
"""A letter of no Latin script: these words are read in English, and cannot tell in another
language the thing a value is of from how it is said ("매일 KST 05:00" is "daily at 05:00
KST", of no thing)."""


def _clause_of(sentence: str, at: int) -> str:
    start = max((m.end() for m in _CLAUSE.finditer(sentence, 0, at)), default=0)
    end = next((m.start() for m in _CLAUSE.finditer(sentence, at)), len(sentence))
    return sentence[start:end]


def _of(clause: str, *left_out: str) -> frozenset[str]:
    rest = clause
    for said in left_out:
        rest = rest.replace(said, " ")
    return frozenset(s for s in stems_of(rest) if s not in _HOW_SAID and not s.isdigit())


def _language(clause: str) -> list[Named]:
    said = {(m.group(1) or m.group(2)) for m in _LANGUAGE.finditer(clause)}
    languages = {word.lower() for word in said if word.lower() in LANGUAGES}
    if len(languages) != 1 or len(said) != 1:
        return []
    language = languages.pop()
    of = _of(clause.replace(":", " "), *said)
    if not 1 <= len(of) <= 4:
        return []
    key = " ".join(sorted(of))
    return [Named("language", key, language.capitalize(), f"the language of {key}")]


def _days(clause: str) -> list[Named]:
    days = set()
    for match in _DAY.finditer(clause):
        days.add(match.group(1).lower())
    if not days:
        return []
    # Where it holds and when in the day are no part of what happens ("The staging DB is
    # wiped every Sunday night": the DB's wipe, in staging).
    of = _of(_TIME.sub(" ", _DAY.sub(" ", clause))) - SCOPE_STEMS - _DAILY
    if not 1 <= len(of) <= 3:
        return []
    where = sorted(scope_of(clause).environments)
    key = " ".join([*sorted(of), *(f"in {place}" for place in where)])
    value = " and ".join(day.capitalize() + "s" for day in _DAYS if day in days)
    return [Named("days", key, value, f"the days of {key}")]


def _count(clause: str) -> list[Named]:
    """A count of a thing ("keep 10 releases for rollback"): the clause's one number, the
    noun after it, what it is of or for, and the clause's subject when it has one."""
    counts = [
        m
        for m in _COUNT.finditer(clause)
        if (m.group(1).isdigit() or m.group(1).lower() in NUMBERS) and m.group(2).endswith("s")
    ]  # a number and a plural noun: "10 releases", "seven days"
    numbers = _NUMBERS_IN.findall(clause)
    if len(counts) != 1 or len(numbers) > 1:
        return []
    count = counts[0]
    if _ABOUT.search(clause):
        return []
    value = NUMBERS.get(count.group(1).lower(), count.group(1))
    complement = _FOR.search(clause, count.end())
    thing = " ".join(stems_of(count.group(2) + " " + (complement.group(1) if complement else "")))
    subject = " ".join(sorted(subject_of(clause)))
    if not thing or (complement is None and not subject):
        return []  # "Sessions expire after 15 minutes": of what is not plain
    where = pack(scope_of(clause))
    return [Named("count", f"{thing}|{subject}|{where}", value, f"how many {count.group(2)}")]


def _time(clause: str) -> list[Named]:
    """The one time of day a clause gives a thing ("Standup is 09:30"), in its zone when
    said (two zones, or one said and one not, are never compared)."""
    times = list(_TIME.finditer(clause))
    if len(times) != 1 or _WINDOW.search(clause):
        return []
    said = times[0]
    hour = int(said.group("h") or said.group("h2"))
    half = (said.group("ap") or said.group("ap2") or "").lower()
    if half and not 1 <= hour <= 12:
        return []
    hour = hour % 12 + (12 if half == "pm" else 0) if half else hour
    zone = (said.group("tz") or said.group("tz0") or "").upper()
    if zone in ("AM", "PM"):
        zone = ""
    of = _of(_DAY.sub(" ", clause.replace(said.group(0), " "))) - _DAILY - _HAPPENS
    if not 1 <= len(of) <= 3:
        return []
    key = " ".join([*sorted(of), *([zone.lower()] if zone else [])])
    value = f"{hour:02d}:{said.group('m') or '00'}" + (f" {zone}" if zone else "")
    return [Named("time", key, value, f"the time of {' '.join(sorted(of))}")]


def same_count(one: str, other: str) -> bool:
    """Whether two counts' keys are of one thing: the same noun and complement, the same
    subject or one said with none ("we keep…"), in one place (`scopes.same_place`)."""
    thing, subject, where = one.split("|", 2)
    other_thing, other_subject, other_where = other.split("|", 2)
    one_subject = subject == other_subject or not subject or not other_subject
    return thing == other_thing and one_subject and same_place(unpack(where), unpack(other_where))
