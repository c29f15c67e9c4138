"""What a value belongs to when its sentence does not say (docs/formats.md §19.6): the note
around it, as a person reads "## API" over "- Port: 8000" — the heading a line is under, or
for a config fence's line the line that opens the fence ("The API's `.env`:").

A heading that names a kind of note or of value rather than a thing ("Notes", "Settings",
"Env vars") names no owner; one that names an environment ("## Staging", "## CI") says where
a statement under it that names none holds (`reading.scopes.placed`).
"""

from __future__ import annotations

import re

from memtab.markdown import LineKind, classify, text_lines
from memtab.trust.words import stems_of

_SPAN = re.compile(r"`[^`\n]*+`")
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


def owner_stems(owner: str) -> frozenset[str]:
    """The stems naming an owner's thing (where it holds is the reader's to leave out):
    none for a heading of a kind of note or value."""
    return frozenset(
        s for s in stems_of(_SPAN.sub(" ", owner)) if s not in _NO_OWNER and not s.isdigit()
    )
