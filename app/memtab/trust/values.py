"""The value a short statement gives one thing (docs/formats.md §19.6): "The default branch
is `main`", "Staging lives at https://staging.example.io", "The line length is 100".

The thing is the statement's *frame* — its stems (`trust.words`) once its one value is
taken out, with what it says in parentheses and the verbs of being or living somewhere
("is", "lives at", "runs on") left aside —, the value its one code span, web address's
host or number. Two statements of one frame and two values say two things of one thing:
"Default branch is `trunk`" and "The default branch is `main`" contradict. A statement of
more than one value, or whose frame is more than `MAX_FRAME` words — or one, for a number
("3 retries") — gives none (what it is about is not plain).
"""

from __future__ import annotations

import re

from memtab.trust.words import stems_of

MAX_FRAME = 4
_SPAN = re.compile(r"`([^`\n]+)`")
WEB_ADDRESS = re.compile(
    r"(?<![\w+.-])[a-z][a-z0-9+.-]*+://([^\s/:`)>\]]+)[^\s`)>\]]*", re.IGNORECASE
)
"""A web address, its host the group; it starts where no scheme letter stands before it, so a
long run of "a.a.a…" is read once (linear), not from each letter."""
_NUMBER = re.compile(r"(?<![\w.:/-])\d++(?:\.\d++)?+(?![.%/:-]*+\w)")
_ASIDE = re.compile(r"\([^()]*\)")
_BEING = frozenset(
    {"live", "sit", "run", "serv", "host", "locat", "found", "kept", "store", "set"}
)  # fmt: skip
"""Stems that say where or how a value is held, not what has it ("lives at", "runs on")."""


def value_of(sentence: str) -> tuple[str, str] | None:
    """(frame, value) of a statement giving one thing one value, or None (module doc)."""
    plain = _ASIDE.sub(" ", sentence)
    spans = _SPAN.findall(plain)
    hosts = WEB_ADDRESS.findall(_SPAN.sub(" ", plain))
    numbers = _NUMBER.findall(WEB_ADDRESS.sub(" ", _SPAN.sub(" ", plain)))
    if len(spans) + len(hosts) + len(numbers) != 1:
        return None
    if spans:
        value, rest = " ".join(spans[0].split()), _SPAN.sub(" ", plain)
    elif hosts:
        value, rest = hosts[0].lower().rstrip("."), WEB_ADDRESS.sub(" ", plain)
    else:
        value, rest = numbers[0], _NUMBER.sub(" ", plain)
    frame = frame_of(rest, number=not (spans or hosts))
    return None if frame is None else (frame, value)


def frame_of(thing: str, *, number: bool) -> str | None:
    """The frame of the words a value is said of (a key's `_` as a space), or None for
    more than `MAX_FRAME` stems, or none — or one, for a number ("3 retries")."""
    frame = sorted({s for s in stems_of(thing.replace("_", " ")) if s not in _BEING})
    if not (2 if number else 1) <= len(frame) <= MAX_FRAME:
        return None
    return " ".join(frame)
