"""What a statement gives plainly (docs/formats.md §19.6): where a thing lives and the
command for a purpose, in a code span ("The fixtures live in `tests/fixtures/`", "Settings
are read from `config/settings.toml`", "Run the api tests with `pnpm test --filter api`"),
and the one value of a thing.

A path is placed by a verb of living somewhere ("live in", "kept under"), a place's
preposition before it ("in", "under", "from" after a verb of reading), or a label ("Seed
data: `db/seeds/`"); its thing is the sentence's other words, or — said of nothing but
"Files:", "Location:" — the thing the note around it names (`trust.owners`: "## Migrations"
over "- Files: `src/db/migrations/`"). A command's purpose is the noun phrase its sentence
names.

A value ("The default branch is `main`", "Staging lives at https://staging.example.io",
"The line length is 100"): its thing is the statement's *frame* — its stems (`trust.words`)
once its one value is taken out, with what it says in parentheses and the verbs of being or
living somewhere ("is", "lives at", "runs on") left aside —, the value its one code span,
web address's host or number. Two statements of one frame and two values say two things of
one thing: "Default branch is `trunk`" and "The default branch is `main`" contradict. A statement of
more than one value, or whose frame is more than `MAX_FRAME` words — or one, for a number
("3 retries") — gives none (what it is about is not plain).
"""

from __future__ import annotations

import re

from memtab.trust.words import stems_of

Said = tuple[str, str, str, str]
"""A claim as its reader gives it: kind, key, value, shown."""
_PLACE_PREPOSITIONS = frozenset({"in", "under", "inside"})
_READING = re.compile(r"\b(?:reads?|loads?|loaded|sourced)\b", re.IGNORECASE)
_FROM = re.compile(r"\bfrom\s*+$", re.IGNORECASE)
"""A verb of reading, then "from" before the path: "Settings are loaded from `…`"."""
_DETERMINERS = frozenset({"the", "a", "an", "our", "your", "its", "their"})
_SPAN = re.compile(r"`([^`\n]+)`")
_LABEL = re.compile(r"^[A-Za-z][\w .'-]{0,40}:\s*`[^`\n]+`\W*$")
"""A label and one code span, nothing else: "The seed data: `db/seeds`"."""
_LABELLED = re.compile(
    r"^(?P<label>[A-Za-z][\w .'-]{0,40}+):\s*+`(?P<path>[^`\n]++)`(?P<after>\s*+[,;(—–]|\W*+$)?"
)
"""A label and the code span it opens with, an aside after it or nothing: "Files: `db/`, one
change per file" (the label's thing; "Note: `tmp/` is ignored" says no place of a note)."""
_PREDICATE = re.compile(r"\s(?:is|are)\s")
_COMMAND = re.compile(r"^(?:\./\S|[a-z][a-z0-9_.+-]*\s+\S)")
_ASSIGNMENT = re.compile(r"^\S[^\s=]*=\S*$")  # one split: `\S+=` backtracks over each `=`
_PATH_SHAPE = re.compile(
    r"^(?:~|\.{1,2})?/?(?:[\w.@-]+/)+[\w.@-]*$|^[\w-]+\.[a-z0-9]{1,5}$|^~/[\w.@-]+$"
)
"""A path: folders and a name, a file's name, a file in the home folder (`~/.tool.yaml`)."""
_BARE_PATH = re.compile(r"(?<![\w`/.-])((?:[\w.-]+/)+(?:[\w.-]*[\w-])?)(?![\w/`-])")
"""A path written without a code span ("tests live under test/web/live."): a full stop after
it ends the sentence, not the path."""
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
     "look", "all", "file", "folder", "directori", "dir", "path", "read", "load", "sourc"}
)  # fmt: skip
_WORD_TOKEN = re.compile(r"[\w'-]+")
_THING_SKIP = frozenset(
    {"live", "lives", "in", "under", "are", "is", "kept", "the", "all", "of", "holds", "hold",
     "you", "will", "find", "look", "for", "sit", "sits", "at", "stored", "located", "found",
     "with", "use", "run", "runs", "to", "a", "an", "command", "via", "type"}
)  # fmt: skip
_PLACE_SKIP = _THING_SKIP | {"read", "reads", "loaded", "loads", "from", "its", "their"}
_ASIDE = re.compile(r"\([^()]*+\)")


MAX_FRAME = 4
WEB_ADDRESS = re.compile(
    r"(?<![\w+.-])[a-z][a-z0-9+.-]*+://(?:[^\s/@`]*+@)?+([^\s/:@`)>\]]+)[^\s`)>\]]*",
    re.IGNORECASE,
)
"""A web address, its host the group (after a user and password: `postgres://u:p@db:5432`);
it starts where no scheme letter stands before it, so a long run of "a.a.a…" is read once
(linear), not from each letter."""
_NUMBER = re.compile(r"(?<![\w.:/-])\d++(?:\.\d++)?+(?![.%/:-]*+\w)")
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


def command_or_path(sentence: str, spans: list[str]) -> list[Said]:
    """The path a sentence places its thing at, or the one command it gives for a purpose
    (`spans`: its code spans); a path of no thing named has none (its note's, `owners.owned`)."""
    labelled = _LABELLED.match(sentence.strip())
    if (
        labelled is not None
        and _PATH_SHAPE.match(labelled.group("path"))
        and labelled.group("after") is not None
    ):
        labels = _path(labelled.group("label"), labelled.group("path"))
        if labels and labels[0][1]:
            return labels
        ownerless = labels  # "Files: `db/`": its note's, unless the sentence says more
    else:
        ownerless = []
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
        if at > 0 and _FROM.search(sentence, 0, at) is not None:
            placed = placed or _READING.search(sentence, 0, at) is not None
    if len(paths) == 1 and not commands and placed:
        return _path(rest, paths[0])
    if len(commands) == 1 and len(spans) == 1:
        # The purpose is a noun phrase: what follows the last article ("Kick off the api
        # tests via…" is the api tests'), or all of it where there is none. A command that
        # opens the sentence is its subject: what it does is all the rest, its verb too
        # ("`make db-reset` drops the dev database" and "`make seed` fills it" are two jobs).
        words = rest.split()
        opens = sentence.lstrip("-*+ \t").startswith(f"`{commands[0]}`")
        cut = 0 if opens else _after_last_article(words)
        purpose = " ".join(words[cut:]) if cut < len(words) else rest
        label, colon, _ = purpose.partition(":")
        if colon and (said := _PREDICATE.split(label, maxsplit=1))[1:]:
            purpose = said[0]  # "The worker is separate: `…`" is the worker's
        stems = [s for s in stems_of(purpose) if s not in _COMMAND_WORDS]
        if not stems:
            stems = [s for s in stems_of(rest) if s not in _COMMAND_WORDS]
        if 1 <= len(stems) <= 5:
            key = " ".join(sorted(set(stems)))
            value = " ".join(commands[0].split())
            return [("command", key, value, f"the command for {_thing(rest)}")]
    return ownerless


def _after_last_article(words: list[str]) -> int:
    return max((i + 1 for i, w in enumerate(words) if w.lower() in _DETERMINERS), default=0)


def assigns(span: str) -> bool:
    """Whether a code span assigns a value (`MAX=4`): a setting's, no command."""
    return _ASSIGNMENT.match(span) is not None


def _path(words: str, path: str) -> list[Said]:
    """A path claim of the thing `words` name ("" for none: its note's, `owners.owned`)."""
    words = _ASIDE.sub(" ", words)  # "(XDG)" says how, not what
    stems = [s for s in stems_of(words) if s not in _LOCATION_STEMS]  # a word said twice, twice
    shown = _thing(words, _PLACE_SKIP)
    if len(stems) > 5:
        return []
    return [("path", " ".join(sorted(set(stems))), path.rstrip("/"), f"where {shown} live")]


def _thing(rest: str, skip: frozenset[str] = _THING_SKIP) -> str:
    words = [w for w in _WORD_TOKEN.findall(rest) if w.lower() not in skip and w.strip("'-")]
    return " ".join(words[:4]).lower() or "it"
