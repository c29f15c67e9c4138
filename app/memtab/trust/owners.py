"""What a value belongs to when its sentence does not say (docs/formats.md §19.6): the note
around it, as a person reads "## API" over "- Port: 8000" — the heading a line is under, or
for a config fence's line the line that opens the fence ("The API's `.env`:").

The readers read a sentence alone (once per sentence: templates and copies repeat theirs)
and leave a value of no owner without one; `owned` then gives it its line's. A heading
that names a kind of note or of value rather than a thing ("Notes", "Settings", "Env
vars") names no owner; one that names an environment ("## Staging", "## CI") says where a
statement under it that names none holds.
"""

from __future__ import annotations

import functools
import re
from typing import NamedTuple

from memtab.markdown import LineKind, classify, text_lines
from memtab.trust.reading.attached import VERSION_WORDS, Attached, claimed
from memtab.trust.reading.named import cron_time, when_of
from memtab.trust.reading.ports import service_of
from memtab.trust.reading.scopes import SCOPE_STEMS, pack, placed, scope_of, unpack
from memtab.trust.reading.settings import HEADED
from memtab.trust.reading.versions import hedged as version_hedged
from memtab.trust.reading.versions import names_no_part, product_named
from memtab.trust.words import stems_of

Said = tuple[str, str, str, str]
"""A claim as its reader gives it: kind, key, value, shown."""
_SPAN = re.compile(r"`[^`\n]*+`")
_WORD = re.compile(r"[\w.+-]++")
_WORD_TOKEN = re.compile(r"[\w'-]++")
_NOT_THING = frozenset(
    {"the", "a", "an", "our", "its", "is", "are", "now", "currently", "we", "i", "to", "on", "at"}
)
"""Words of a statement that name no part of the thing its value is of."""
_NO_OWNER = frozenset(
    stems_of(
        "note notes memory memories project projects general tips tip misc miscellaneous "
        "overview reference references setup info details summary context todo important "
        "facts about quick environment environments variables variable env vars var settings "
        "setting config configuration options option flags flag parameters defaults default "
        "values value ports port versions version services service tools tool stack commands "
        "command paths path files file folders folder layout structure schedules schedule cron "
        "jobs current key keys locally current voice voices user profile preferences things "
        "useful handy list lists main rules conventions how what where when which"
    )
)
"""Stems of headings that name a kind of note or value, not a thing."""


def owners_of(text: str) -> dict[int, str]:
    """The owner text of each line under a heading or in a config fence, by line number
    (from 1): the nearest heading's text; a fence's opening line when it ends on a colon
    (code spans left out: "The API's `.env`:" is the API's)."""
    if "#" not in text and "```" not in text and "~~~" not in text:
        return {}
    lines = text_lines(text)
    owners: dict[int, str] = {}
    heading = fenced = before = ""
    for number, (line, kind) in enumerate(zip(lines, classify(lines), strict=True), start=1):
        if kind.kind is LineKind.HEADING:
            heading = kind.text.strip()
        elif kind.kind is LineKind.FENCE:
            opener = before.rstrip()
            fenced = _SPAN.sub(" ", opener) if opener.endswith(":") else heading
        if kind.kind is LineKind.CODE:
            if fenced:
                owners[number] = fenced
            continue
        if heading:
            owners[number] = heading
        if kind.kind in (LineKind.TEXT, LineKind.LIST_ITEM) and line.strip():
            before = line
        elif kind.kind is not LineKind.BLANK:
            before = ""
    return owners


class _Owner(NamedTuple):
    text: str
    stems: frozenset[str]
    """The stems naming its thing, where it holds left out (none: no thing named)."""
    products: frozenset[str]
    environments: tuple[str, ...]
    """Where it holds, as a frame's words ("in CI")."""


@functools.lru_cache(maxsize=1024)
def _owner(text: str) -> _Owner:
    stems = frozenset(
        s
        for s in stems_of(_SPAN.sub(" ", text))
        if s not in _NO_OWNER and s not in SCOPE_STEMS and not s.isdigit()
    )
    products = frozenset(p for w in _WORD.findall(text) if (p := product_named(w)))
    where = tuple(f"in {name.lower()}" for name in sorted(scope_of(text).environments))
    return _Owner(" ".join(_SPAN.sub(" ", text).split()), stems, products, where)


def owned(said: Said, owner: str) -> Said | None:
    """A claim as its line's `owner` (`owners_of`; "" for none) has it: its thing where
    its reader found none — a port's service, a version's product, a setting's purpose
    (`settings.HEADED`), a path's or a time's thing — and where it holds where it says not;
    None for a value of no owner under none."""
    kind, key, value, shown = said
    if kind == "value" and key == "time:":
        of = when_of(" ".join(sorted(_owner(owner).stems)))
        if not 1 <= len(of) <= 3:
            return None
        return kind, f"time:{' '.join(sorted(of))}", value, f"the time of {' '.join(sorted(of))}"
    if kind == "path" and not key:
        stems = _owner(owner).stems
        if not 1 <= len(stems) <= 5:
            return None
        return kind, " ".join(sorted(stems)), value, f"where {_owner(owner).text.lower()} live"
    if kind == "value" and ":" not in key and "|" not in key and owner:
        # A frame's value (`located.value_of`) holds where its heading says, unless it says
        where = _owner(owner).environments  # where itself ("Staging is at …")
        if where and not scope_of(key).environments:
            return kind, " ".join([key, *where]), value, shown
        return said
    if kind not in ("port", "version", "setting"):
        return said
    first, second, third = key.split("|", 2)
    if kind == "setting":  # name|scope|whose
        heading = _owner(owner).stems
        whose = third or (HEADED + " ".join(sorted(heading)) if heading else "")
        return kind, "|".join((first, _placed(second, owner), whose)), value, shown
    if kind == "port" and not first:  # service|also|scope
        first = " ".join(sorted(service_of(owner) & _owner(owner).stems))
        if not first:
            return None
        shown = f"{_owner(owner).text}'s port"
    if kind == "version" and not first:  # product|whose|scope
        if len(_owner(owner).products) != 1:
            return None
        (first,) = _owner(owner).products
        shown = f"the {first} version"
    return kind, "|".join((first, second, _placed(third, owner))), value, shown


def _placed(scope: str, owner: str) -> str:
    return pack(placed(unpack(scope), owner)) if owner else scope


def value_owned(sentence: str, frame: str, value: str) -> list[Said]:
    """What else a statement's one value (`located.value_of`) is and whose: a product's
    version by its words ("The Go toolchain is `1.22`"), a time of day by its cron schedule
    (`named.cron_time`)."""
    if (timed := cron_time(frame, value)) is not None:
        return [("value", f"time:{timed.of}", timed.value, timed.shown)]
    if not value[:1].isdigit() or version_hedged(sentence):
        return []
    said = _WORD_TOKEN.findall(_SPAN.sub(" ", sentence).replace(value, " "))
    words = [w for w in said if w.lower() not in _NOT_THING]
    if "." not in value and VERSION_WORDS.isdisjoint(w.lower() for w in words):
        return []  # "The Redis cluster is 3": a count as often as a version
    thing = " ".join(w for w in words if not names_no_part(w))
    return [c for c in (claimed(Attached(thing, value)) if thing else []) if c[0] == "version"]
